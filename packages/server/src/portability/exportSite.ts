/**
 * Parley's export format (EXPORT.md, export.schema.json): one site's stories, comments, the users
 * they name, votes and moderation decisions, as one JSON document written piece by piece. Each
 * table is read in pages down its primary key, so a site of any size costs one page of memory,
 * and the document is streamed as it is read (the `parley export` command, and the console's
 * download later): never built whole.
 */
import { sql } from 'kysely';
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
 * The export of site `siteId` as JSON text, in pieces: each piece is whole JSON tokens (an
 * object's key with its value, or one element of an array with its comma), so pieces may be
 * written with any separator whitespace between them. NOT_FOUND for an unknown site.
 */
export async function* exportSite(
  db: Db,
  siteId: string,
  { now = new Date(), pageRows: PAGE = EXPORT_PAGE_ROWS }: ExportOptions = {},
): AsyncGenerator<string> {
  // Pages of `read(after)` until one comes back short; `read` returns rows ordered by the key
  // `keyOf` gives, after `after` ('' at first: every key is greater).
  async function* pages<Row>(
    read: (after: string | null) => Promise<Row[]>,
    keyOf: (row: Row) => string,
  ): AsyncGenerator<Row> {
    for (let after: string | null = null; ;) {
      const rows = await read(after);
      yield* rows;
      const last = rows.at(-1);
      if (rows.length < PAGE || last === undefined) return;
      after = keyOf(last);
    }
  }

  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (site === undefined) throw new ParleyError('NOT_FOUND', `There is no site ${siteId}.`);
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(now.toISOString())},`;
  yield `"site":${JSON.stringify({
    id: site.id,
    name: site.name,
    url: site.url,
    allowedOrigins: parseJson<string[]>(site.allowed_origins, []),
    createdAt: site.created_at,
  })},`;

  yield* array(
    'stories',
    pages(
      (after) =>
        db
          .selectFrom('stories')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('id', '>', after ?? '')
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      (row) => row.id,
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
  yield ',';

  // Everyone the rest names: authors, voters and the moderators who decided.
  const named = sql<string>`(
    select author_id from comments where site_id = ${siteId}
    union select reactions.user_id from reactions
      join comments on comments.id = reactions.comment_id where comments.site_id = ${siteId}
    union select moderation_decisions.moderator_id from moderation_decisions
      join comments on comments.id = moderation_decisions.comment_id
      where comments.site_id = ${siteId} and moderation_decisions.moderator_id is not null
  )`;
  yield* array(
    'users',
    pages(
      (after) =>
        db
          .selectFrom('users')
          .selectAll()
          .where('id', 'in', named)
          .where('id', '>', after ?? '')
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      (row) => row.id,
    ),
    // Never a password hash, a session epoch or a feed key: what a person wrote and who they are.
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
    }),
  );
  yield ',';

  yield* array(
    'comments',
    pages(
      (after) =>
        db
          .selectFrom('comments')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('id', '>', after ?? '')
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      (row) => row.id,
    ),
    (row) => ({
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
    }),
  );
  yield ',';

  yield* array(
    'votes',
    pages(
      (after) =>
        db
          .selectFrom('reactions')
          .innerJoin('comments', 'comments.id', 'reactions.comment_id')
          .select([
            'reactions.comment_id',
            'reactions.user_id',
            'reactions.value',
            'reactions.created_at',
          ])
          .select(sql<string>`reactions.comment_id || ' ' || reactions.user_id`.as('key'))
          .where('comments.site_id', '=', siteId)
          .where(sql<string>`reactions.comment_id || ' ' || reactions.user_id`, '>', after ?? '')
          .orderBy('key')
          .limit(PAGE)
          .execute(),
      (row) => row.key,
    ),
    (row) => ({
      commentId: row.comment_id,
      userId: row.user_id,
      value: row.value,
      createdAt: row.created_at,
    }),
  );
  yield ',';

  yield* array(
    'decisions',
    pages(
      (after) =>
        db
          .selectFrom('moderation_decisions')
          .innerJoin('comments', 'comments.id', 'moderation_decisions.comment_id')
          .selectAll('moderation_decisions')
          .where('comments.site_id', '=', siteId)
          .where('moderation_decisions.id', '>', after ?? '')
          .orderBy('moderation_decisions.id')
          .limit(PAGE)
          .execute(),
      (row) => row.id,
    ),
    (row) => ({
      id: row.id,
      commentId: row.comment_id,
      moderatorId: row.moderator_id,
      status: row.status,
      createdAt: row.created_at,
    }),
  );
  yield '}';
}

/** `"name":[…]` in pieces: the opening, one element per piece, the closing. */
async function* array<Row>(
  name: string,
  rows: AsyncIterable<Row>,
  toJson: (row: Row) => unknown,
): AsyncGenerator<string> {
  yield `${JSON.stringify(name)}:[`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${JSON.stringify(toJson(row))}`;
    first = false;
  }
  yield ']';
}
