/**
 * Parley's export format (EXPORT.md, export.schema.json): one site's stories, comments, votes,
 * moderation decisions and the users they name, as one JSON document written piece by piece.
 *
 * - One snapshot: the whole export reads inside one transaction (repeatable read on PostgreSQL;
 *   on SQLite a read transaction sees one state of the file while writers go on), so a comment
 *   posted meanwhile is either in it with its author, or not at all.
 * - Paged: comments are read down `(site_id, id)` (0024_export_index) and stories down the
 *   stories of the site, 500 rows a page; votes and decisions a page of comments at a time, by
 *   their own comment index. Users come last: the ids the rest named, gathered on the way (a
 *   string per person), read 500 at a time.
 * - Streamed with back-pressure: each piece is handed to `write` and the next read waits for it,
 *   so a slow reader of the output (a pipe to gzip, to ssh) slows the export instead of filling
 *   memory.
 */
import { PostgresAdapter } from 'kysely';
import type { Db } from '../db/inTransaction';
import { parseJson } from '../db/inTransaction';
import { ParleyError } from '../ParleyError';

/** The format's name and version (EXPORT.md): a reader refuses versions it does not know. */
export const EXPORT_FORMAT = 'parley-export';
export const EXPORT_VERSION = 1;

/** Rows read per page by default. */
export const EXPORT_PAGE_ROWS = 500;

/** Options of {@link exportSite}. */
export interface ExportOptions {
  /** The export's time. @default now */
  now?: Date;
  /** Rows read per page. @default EXPORT_PAGE_ROWS */
  pageRows?: number;
}

/** Whether a stored 0/1 is set. */
const bool = (value: number | null) => value === 1;

/**
 * Writes the export of site `siteId` through `write`, in pieces: each piece is whole JSON tokens
 * (a key with its value, or one element of an array with its comma), so pieces may be written
 * with any whitespace between them. NOT_FOUND for an unknown site, before anything is written.
 */
export async function exportSite(
  db: Db,
  siteId: string,
  write: (piece: string) => Promise<void> | void,
  { now = new Date(), pageRows = EXPORT_PAGE_ROWS }: ExportOptions = {},
): Promise<void> {
  const snapshot =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? db.transaction().setIsolationLevel('repeatable read')
      : db.transaction();
  await snapshot.execute((trx) => writeExport(trx, siteId, write, now, pageRows));
}

async function writeExport(
  db: Db,
  siteId: string,
  write: (piece: string) => Promise<void> | void,
  now: Date,
  pageRows: number,
): Promise<void> {
  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (site === undefined) throw new ParleyError('NOT_FOUND', `There is no site ${siteId}.`);
  const named = new Set<string>();
  await write(
    `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(now.toISOString())},`,
  );
  await write(
    `"site":${JSON.stringify({
      id: site.id,
      name: site.name,
      url: site.url,
      allowedOrigins: parseJson<string[]>(site.allowed_origins, []),
      createdAt: site.created_at,
    })},`,
  );

  // `"name":[…]` in pieces: the opening, one element per piece, the closing.
  const list = async <Row>(
    name: string,
    rows: AsyncIterable<Row>,
    toJson: (row: Row) => unknown,
    last = false,
  ) => {
    await write(`${JSON.stringify(name)}:[`);
    let first = true;
    for await (const row of rows) {
      await write(`${first ? '' : ','}${JSON.stringify(toJson(row))}`);
      first = false;
    }
    await write(last ? ']}' : '],');
  };

  // Pages of rows after each last id ('' at first: every id is greater), until a short page.
  async function* pages<Row extends { id: string }>(read: (after: string) => Promise<Row[]>) {
    for (let after = ''; ;) {
      const rows = await read(after);
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (rows.length < pageRows || last === undefined) return;
      after = last.id;
    }
  }
  async function* rowsOf<Row>(source: AsyncIterable<Row[]>) {
    for await (const page of source) yield* page;
  }
  // A page of the site's comments after `after`, down (site_id, id); the caller selects.
  const commentsAfter = (after: string) =>
    db
      .selectFrom('comments')
      .where('site_id', '=', siteId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(pageRows);

  await list(
    'stories',
    rowsOf(
      pages((after) =>
        db
          .selectFrom('stories')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(pageRows)
          .execute(),
      ),
    ),
    (row) => ({
      id: row.id,
      url: row.url,
      externalId: row.external_id,
      title: row.title,
      status: row.status,
      premod: row.premod,
      liveUpdates: row.live_updates === null ? null : bool(row.live_updates),
      pinnedCommentId: row.pinned_comment_id,
      createdAt: row.created_at,
      closedAt: row.closed_at,
    }),
  );

  await list(
    'comments',
    rowsOf(pages((after) => commentsAfter(after).selectAll().execute())),
    (row) => {
      named.add(row.author_id);
      return {
        id: row.id,
        storyId: row.story_id,
        parentId: row.parent_id,
        authorId: row.author_id,
        bodySource: row.body_source,
        bodyHtml: row.body_html,
        status: row.status,
        tags: parseJson<string[]>(row.tags, []),
        createdAt: row.created_at,
        editedAt: row.edited_at,
        publishedAt: row.published_at,
        deletedAt: row.deleted_at,
      };
    },
  );

  // Votes and decisions a page of comments at a time, each read by its comment index.
  async function* byCommentPage<Row>(read: (commentIds: string[]) => Promise<Row[]>) {
    for await (const page of pages((after) => commentsAfter(after).select('id').execute())) {
      yield* await read(page.map((comment) => comment.id));
    }
  }
  await list(
    'votes',
    byCommentPage((ids) =>
      db
        .selectFrom('reactions')
        .selectAll()
        .where('comment_id', 'in', ids)
        .orderBy('comment_id')
        .orderBy('user_id')
        .execute(),
    ),
    (row) => {
      named.add(row.user_id);
      return {
        commentId: row.comment_id,
        userId: row.user_id,
        value: row.value,
        createdAt: row.created_at,
      };
    },
  );
  await list(
    'decisions',
    byCommentPage((ids) =>
      db
        .selectFrom('moderation_decisions')
        .selectAll()
        .where('comment_id', 'in', ids)
        .orderBy('comment_id')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ),
    (row) => {
      if (row.moderator_id !== null) named.add(row.moderator_id);
      return {
        id: row.id,
        commentId: row.comment_id,
        moderatorId: row.moderator_id,
        status: row.status,
        createdAt: row.created_at,
      };
    },
  );

  // Everyone the rest named: authors, voters and the moderators who decided.
  const ids = [...named].sort();
  await list(
    'users',
    (async function* () {
      for (let at = 0; at < ids.length; at += pageRows) {
        yield* await db
          .selectFrom('users')
          .selectAll()
          .where('id', 'in', ids.slice(at, at + pageRows))
          .orderBy('id')
          .execute();
      }
    })(),
    // Never a password hash, a session epoch or a feed key: who a person is, not how they sign in.
    (row) => ({
      id: row.id,
      username: row.username,
      email: row.email,
      emailVerified: bool(row.email_verified),
      role: row.role,
      banned: bool(row.banned),
      suspendedUntil: row.suspended_until,
      avatarUrl: row.avatar_url,
      ssoId: row.sso_site_id === siteId ? row.sso_id : null,
      createdAt: row.created_at,
      // Only for guests (store/guests.ts): a field added to version 1, absent for members.
      ...(row.guest === 1 ? { guest: true } : {}),
    }),
    true,
  );
}
