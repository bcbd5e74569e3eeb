/**
 * Imports another system's comments into a site (`parley import`, IMPORT.md). A format's reader
 * (formats/*.ts) turns its file into a stream of {@link SourceItem}s; this writes them.
 *
 * - Streamed and batched: items are taken as they are read and written in batches of
 *   {@link IMPORT_BATCH} comments, each batch one transaction with its counters (reply counts,
 *   the stories' counts), so a failure leaves whole batches or nothing of one. In memory: the
 *   source ids seen (for parents and threads, a few dozen bytes each) and the current batch.
 * - Idempotent and resumable: every story, user and comment written or matched is recorded in
 *   `import_sources` under the source's own id; a second run finds them and writes nothing again,
 *   and a run that stopped part-way goes on from its last whole batch.
 * - Replies wait for their parent: a reply read before its parent is held until the parent comes
 *   (formats promise parents first, files do not always keep it). A reply whose parent is skipped,
 *   or never comes, is imported at the top of its thread, with a note in the report.
 * - Bodies are HTML in every format: turned into Markdown (turndown), then rendered and sanitized
 *   as any comment is (renderComment), so an imported comment is edited and shown like one
 *   written here, and no markup passes that a reader could not have written.
 * - Authors: matched by email to an existing account, else made an account that nobody can sign
 *   in to (no password) until the address's owner claims it by resetting the password. Authors
 *   without an email get a placeholder address (`…@imported.invalid`) and can never sign in.
 */
import TurndownService from 'turndown';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { Db } from '../db/inTransaction';
import { inTransaction, isoTime, newId, parseJson } from '../db/inTransaction';
import { isVisibleStatus } from '../db/schema';
import type { CommentRevisionsTable, CommentsTable, CommentStatus, UsersTable } from '../db/schema';
import { bestRank } from '../db/store/reactions';
import { adjustStoryCounts } from '../db/store/storyCounts';
import type { StoryCountChange } from '../db/store/storyCounts';
import { findStoryByUrl } from '../db/store/stories';
import { isUsernameFree, uniqueKey } from '../db/store/users';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';
import { renderComment } from '../markdown/renderComment';
import { ParleyError } from '../ParleyError';
import { usernameSkeleton } from '../validation/lookalikes';
import { emailKey, validateEmail, validateUsername } from '../validation/validateAccount';

/** Comments written per transaction. */
export const IMPORT_BATCH = 500;

/** The domain of the placeholder address of an author the source gives no email. */
export const IMPORTED_EMAIL_DOMAIN = 'imported.invalid';

/** A thread of the source: a story here. */
export interface SourceThread {
  kind: 'thread';
  id: string;
  url: string;
  title: string;
  /** ISO time, or null when the source has none (then: the import's time). */
  createdAt: string | null;
  closed: boolean;
  /** Where it starts in the file, for the report. */
  line: number | null;
}

/** Who wrote a comment, as the source names them. */
export interface SourceAuthor {
  /** The source's id of the person, when it has one. */
  id: string | null;
  name: string;
  email: string | null;
}

/** A comment of the source. */
export interface SourceComment {
  kind: 'comment';
  id: string;
  threadId: string;
  parentId: string | null;
  author: SourceAuthor;
  /** The body, as HTML (Markdown when `markdown` is set). */
  html: string;
  /** The body as Markdown, when the source keeps it (Remark42): used instead of `html`. */
  markdown?: string | null;
  /** The time as the source wrote it; checked here. */
  createdAt: string;
  /** Published, waiting for a moderator, or rejected (spam, deleted). */
  status: 'NONE' | 'PREMOD' | 'REJECTED';
  /**
   * Deleted in the source with nothing left of it: kept as Parley keeps a comment its author
   * deleted (deleteOwnComment), a tombstone in the thread while it has replies, out of the counts.
   */
  erased?: boolean;
  /** Up and down votes, as counts (the voters are not accounts here). */
  up?: number;
  down?: number;
  line: number | null;
}

/** Something a reader could not take, with why. */
export interface SourceSkip {
  kind: 'skip';
  what: 'thread' | 'comment';
  id: string;
  reason: string;
  line: number | null;
}

/** What a format's reader yields. */
export type SourceItem = SourceThread | SourceComment | SourceSkip;

/** One line of the report about an item: skipped, or imported with a change. */
export interface ReportEntry {
  what: 'thread' | 'comment';
  id: string;
  line: number | null;
  reason: string;
}

/** What an import did (or, with `dryRun`, would do). */
export interface ImportReport {
  format: string;
  siteId: string;
  dryRun: boolean;
  stories: { created: number; matched: number };
  users: { created: number; matched: number };
  comments: { imported: number; already: number };
  /** Items not imported, each with its reason. */
  skipped: ReportEntry[];
  /** Items imported with a change (a reply moved to the top of its thread). */
  notes: ReportEntry[];
  /** Wall time, in seconds. */
  seconds: number;
}

/** Options of {@link importSite}. */
export interface ImportOptions {
  siteId: string;
  /** The format's name, part of every source key (`disqus`, `wordpress`, `remark42`). */
  format: string;
  /** Write nothing: one transaction, rolled back at the end. */
  dryRun?: boolean;
  /** Old origin → new origin, for threads of a site that moved (`https://old.example`). */
  rewriteOrigins?: ReadonlyMap<string, string>;
  /** @default IMPORT_BATCH */
  batchSize?: number;
  /** Told after each batch. */
  onProgress?(report: ImportReport): void;
  /** @default now */
  now?: Date;
}

/** What became of a source comment: the row it is here. */
interface Placed {
  id: string;
  storyId: string;
  authorId: string;
  visible: boolean;
}

/** Thrown to roll a dry run back. */
class DryRun extends Error {}

/** Imports `items` into the site; see the module comment. */
export async function importSite(
  db: Db,
  items: AsyncIterable<SourceItem>,
  options: ImportOptions,
): Promise<ImportReport> {
  if (!options.dryRun) return runImport(db, items, options);
  let report: ImportReport | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      report = await runImport(trx, items, options);
      throw new DryRun();
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
  return report as ImportReport;
}

async function runImport(
  db: Db,
  items: AsyncIterable<SourceItem>,
  options: ImportOptions,
): Promise<ImportReport> {
  const { siteId, format, batchSize = IMPORT_BATCH, now = new Date() } = options;
  const started = performance.now();
  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (site === undefined) throw new ParleyError('NOT_FOUND', `There is no site ${siteId}.`);
  const origins = new Set(parseJson<string[]>(site.allowed_origins, []));
  const report: ImportReport = {
    format,
    siteId,
    dryRun: options.dryRun === true,
    stories: { created: 0, matched: 0 },
    users: { created: 0, matched: 0 },
    comments: { imported: 0, already: 0 },
    skipped: [],
    notes: [],
    seconds: 0,
  };
  const skip = (what: ReportEntry['what'], id: string, line: number | null, reason: string) =>
    report.skipped.push({ what, id, line, reason });

  // Threads read (their URL checked), the stories they became, and the comments placed.
  const threads = new Map<string, SourceThread>();
  const storyOf = new Map<string, string>();
  const skippedThreads = new Set<string>();
  const accepted = new Set<string>();
  const skippedComments = new Set<string>();
  const userOf = new Map<string, string>();
  const takenNames = new Set<string>();
  // Replies read before their parent, by the parent's source id.
  const waiting = new Map<string, SourceComment[]>();
  let batch: SourceComment[] = [];
  let pendingThreads: SourceThread[] = [];

  const sourceIds = async (trx: Db, kind: 'story' | 'user' | 'comment', ids: string[]) => {
    const found = new Map<string, string>();
    for (let at = 0; at < ids.length; at += IMPORT_BATCH) {
      const rows = await trx
        .selectFrom('import_sources')
        .select(['source_id', 'parley_id'])
        .where('site_id', '=', siteId)
        .where('format', '=', format)
        .where('kind', '=', kind)
        .where('source_id', 'in', ids.slice(at, at + IMPORT_BATCH))
        .execute();
      for (const row of rows) found.set(row.source_id, row.parley_id);
    }
    return found;
  };
  const recordSources = async (
    trx: Db,
    kind: 'story' | 'user' | 'comment',
    pairs: [string, string][],
  ) => {
    if (pairs.length === 0) return;
    await trx
      .insertInto('import_sources')
      .values(
        pairs.map(([sourceId, parleyId]) => ({
          site_id: siteId,
          format,
          kind,
          source_id: sourceId,
          parley_id: parleyId,
          created_at: isoTime(now),
        })),
      )
      .execute();
  };

  async function writeThreads(trx: Db, list: SourceThread[]): Promise<void> {
    const known = await sourceIds(
      trx,
      'story',
      list.map((thread) => thread.id),
    );
    const records: [string, string][] = [];
    for (const thread of list) {
      const existingId = known.get(thread.id);
      if (existingId !== undefined) {
        storyOf.set(thread.id, existingId);
        report.stories.matched += 1;
        continue;
      }
      const existing = await findStoryByUrl(trx, thread.url);
      if (existing !== undefined && existing.siteId !== siteId) {
        skippedThreads.add(thread.id);
        skip('thread', thread.id, thread.line, `${thread.url} is a story of another site`);
        continue;
      }
      let storyId = existing?.id;
      if (storyId === undefined) {
        storyId = newId();
        await trx
          .insertInto('stories')
          .values({
            id: storyId,
            site_id: siteId,
            url: thread.url,
            external_id: null,
            title: thread.title.slice(0, 300),
            status: thread.closed ? 'CLOSED' : 'OPEN',
            created_at: thread.createdAt ?? isoTime(now),
            closed_at: thread.closed ? isoTime(now) : null,
          })
          .execute();
        report.stories.created += 1;
      } else {
        report.stories.matched += 1;
      }
      storyOf.set(thread.id, storyId);
      records.push([thread.id, storyId]);
    }
    await recordSources(trx, 'story', records);
  }

  // An author's key among the source's people: the address when there is one (the same person
  // across formats and threads), else the source's id or name.
  const authorKey = (author: SourceAuthor) =>
    author.email !== null
      ? `email:${emailKey(author.email)}`
      : `id:${author.id ?? `name:${author.name}`}`;

  /**
   * A free username for each name, in order: the name made valid, else with `_2` … `_5`,
   * looked up for the whole batch in two queries (by key, by look-alike skeleton); a name whose
   * five are all taken goes on alone with more numbers, then a random end.
   */
  async function uniqueUsernames(trx: Db, names: string[]): Promise<string[]> {
    const candidates = names.map((name) => {
      const base = usernameBase(name);
      return [1, 2, 3, 4, 5].map((n) => withSuffix(base, n));
    });
    const all = candidates.flat();
    const taken = new Set<string>();
    for (let at = 0; at < all.length; at += IMPORT_BATCH) {
      const chunk = all.slice(at, at + IMPORT_BATCH);
      const keys = chunk.map(uniqueKey);
      const skeletons = chunk.map(usernameSkeleton);
      for (const row of await trx
        .selectFrom('users')
        .select('username_key')
        .where('username_key', 'in', keys)
        .execute()) {
        taken.add(row.username_key);
      }
      for (const row of await trx
        .selectFrom('users')
        .select('username_skeleton')
        .where('username_skeleton', 'in', skeletons)
        .execute()) {
        if (row.username_skeleton !== null) taken.add(`~${row.username_skeleton}`);
      }
    }
    const free = (candidate: string) => {
      const key = uniqueKey(candidate);
      const skeleton = `~${usernameSkeleton(candidate)}`;
      return (
        !taken.has(key) && !taken.has(skeleton) && !takenNames.has(key) && !takenNames.has(skeleton)
      );
    };
    const chosen: string[] = [];
    for (const [index, list] of candidates.entries()) {
      let username = list.find(free);
      if (username === undefined) {
        const base = usernameBase(names[index] ?? '');
        for (let n = 6; n <= 50 && username === undefined; n++) {
          const candidate = withSuffix(base, n);
          if (free(candidate) && (await isUsernameFree(trx, candidate))) username = candidate;
        }
        username ??= `${base.slice(0, 21)}_${newId().slice(0, 8)}`;
      }
      takenNames.add(uniqueKey(username));
      takenNames.add(`~${usernameSkeleton(username)}`);
      chosen.push(username);
    }
    return chosen;
  }

  async function writeAuthors(trx: Db, comments: SourceComment[]): Promise<void> {
    const wanted = new Map<string, SourceAuthor>();
    for (const comment of comments) {
      const key = authorKey(comment.author);
      if (!userOf.has(key)) wanted.set(key, comment.author);
    }
    if (wanted.size === 0) return;
    const keys = [...wanted.keys()];
    const byEmail = keys.filter((key) => key.startsWith('email:')).map((key) => key.slice(6));
    for (let at = 0; at < byEmail.length; at += IMPORT_BATCH) {
      const rows = await trx
        .selectFrom('users')
        .select(['id', 'email_key'])
        .where('email_key', 'in', byEmail.slice(at, at + IMPORT_BATCH))
        .execute();
      for (const row of rows) {
        userOf.set(`email:${row.email_key}`, row.id);
        report.users.matched += 1;
      }
    }
    const known = await sourceIds(
      trx,
      'user',
      keys.filter((key) => !userOf.has(key)),
    );
    for (const [key, id] of known) {
      userOf.set(key, id);
      report.users.matched += 1;
    }
    const fresh = [...wanted].filter(([key]) => !userOf.has(key));
    const usernames = await uniqueUsernames(
      trx,
      fresh.map(([, author]) => author.name || author.id || 'reader'),
    );
    const rows: Insertable<UsersTable>[] = fresh.map(([key, author], index) => {
      const id = newId();
      const username = usernames[index] as string;
      const email = author.email ?? `${id}@${IMPORTED_EMAIL_DOMAIN}`;
      userOf.set(key, id);
      return {
        id,
        username,
        username_key: uniqueKey(username),
        username_skeleton: usernameSkeleton(username),
        email,
        email_key: emailKey(email),
        email_verified: 0,
        password_hash: null,
        role: 'COMMENTER',
        notification_prefs: '{}',
        sso_site_id: null,
        sso_id: null,
        created_at: isoTime(now),
      };
    });
    // 100 rows a statement: 1,300 parameters, within both engines' bounds.
    for (let at = 0; at < rows.length; at += 100) {
      await trx
        .insertInto('users')
        .values(rows.slice(at, at + 100))
        .execute();
    }
    report.users.created += rows.length;
    await recordSources(
      trx,
      'user',
      fresh.map(([key]) => [key, userOf.get(key) as string]),
    );
  }

  async function writeComments(trx: Db, comments: SourceComment[]): Promise<void> {
    const known = await sourceIds(
      trx,
      'comment',
      comments.map((comment) => comment.id),
    );
    const already = [...known.values()];
    const rows =
      already.length === 0
        ? []
        : await trx
            .selectFrom('comments')
            .select(['id', 'story_id', 'author_id', 'status', 'deleted_at'])
            .where('id', 'in', already)
            .execute();
    const existing = new Map(rows.map((row) => [row.id, row]));
    // Where this batch's comments and the parents it names from earlier batches are.
    const placed = await placedParents(
      trx,
      comments.flatMap((comment) => (comment.parentId === null ? [] : [comment.parentId])),
    );
    await writeAuthors(
      trx,
      comments.filter((comment) => !known.has(comment.id)),
    );
    const inserts: Insertable<CommentsTable>[] = [];
    const revisions: Insertable<CommentRevisionsTable>[] = [];
    const records: [string, string][] = [];
    const replies = new Map<string, number>();
    const counts: StoryCountChange[] = [];
    for (const comment of comments) {
      const knownId = known.get(comment.id);
      const row = knownId === undefined ? undefined : existing.get(knownId);
      if (row !== undefined) {
        placed.set(comment.id, {
          id: row.id,
          storyId: row.story_id,
          authorId: row.author_id,
          visible: isVisibleStatus(row.status) && row.deleted_at === null,
        });
        report.comments.already += 1;
        continue;
      }
      const storyId = storyOf.get(comment.threadId);
      if (storyId === undefined) {
        skip('comment', comment.id, comment.line, `its thread ${comment.threadId} was skipped`);
        continue;
      }
      let parent = comment.parentId === null ? undefined : placed.get(comment.parentId);
      if (parent !== undefined && parent.storyId !== storyId) {
        report.notes.push({
          what: 'comment',
          id: comment.id,
          line: comment.line,
          reason: `its parent ${comment.parentId} is in another thread: imported at the top of its own`,
        });
        parent = undefined;
      }
      const authorId = userOf.get(authorKey(comment.author)) as string;
      const status: CommentStatus = comment.status;
      const visible = isVisibleStatus(status) && comment.erased !== true;
      const id = newId();
      const createdAt = comment.createdAt;
      const source = comment.erased ? '' : (comment.markdown ?? htmlToMarkdown(comment.html));
      const html = source === '' ? '' : renderComment(source);
      const up = Math.max(0, Math.floor(comment.up ?? 0));
      const down = Math.max(0, Math.floor(comment.down ?? 0));
      inserts.push({
        id,
        story_id: storyId,
        author_id: authorId,
        parent_id: parent?.id ?? null,
        body_source: source,
        body_html: html,
        status,
        held_because: null,
        tags: '[]',
        reaction_count: up,
        downvote_count: down,
        best_rank: bestRank(up, down),
        client_mutation_id: null,
        created_at: createdAt,
        deleted_at: comment.erased ? createdAt : null,
        published_at: isVisibleStatus(status) ? createdAt : null,
        site_id: siteId,
        parent_author_id: parent?.authorId ?? null,
      });
      if (!comment.erased) {
        revisions.push({
          id: newId(),
          comment_id: id,
          body_source: source,
          body_html: html,
          created_at: createdAt,
        });
        counts.push({ storyId, status, delta: 1 });
      }
      if (parent !== undefined && visible)
        replies.set(parent.id, (replies.get(parent.id) ?? 0) + 1);
      placed.set(comment.id, { id, storyId, authorId, visible });
      records.push([comment.id, id]);
      report.comments.imported += 1;
    }
    // A few hundred rows a statement: within both engines' bound parameters (16 a row).
    for (let at = 0; at < inserts.length; at += 100) {
      await trx
        .insertInto('comments')
        .values(inserts.slice(at, at + 100))
        .execute();
    }
    for (let at = 0; at < revisions.length; at += 200) {
      await trx
        .insertInto('comment_revisions')
        .values(revisions.slice(at, at + 200))
        .execute();
    }
    // Each parent's new replies, a hundred parents a statement, in id order (as locks are taken).
    const parents = [...replies].sort(([a], [b]) => (a < b ? -1 : 1));
    for (let at = 0; at < parents.length; at += 100) {
      const chunk = parents.slice(at, at + 100);
      const added = sql.join(
        chunk.map(([id, delta]) => sql`when ${id} then ${sql.lit(delta)}`),
        sql` `,
      );
      await trx
        .updateTable('comments')
        .set({ reply_count: sql<number>`reply_count + (case id ${added} end)` })
        .where(
          'id',
          'in',
          chunk.map(([id]) => id),
        )
        .execute();
    }
    await recordSources(trx, 'comment', records);
    await adjustStoryCounts(trx, counts);
  }

  /**
   * The comments earlier batches (or runs) placed for these source ids, from `import_sources`:
   * nothing of the kind is kept in memory, which holds only the ids seen.
   */
  async function placedParents(trx: Db, sourceIdsNamed: string[]): Promise<Map<string, Placed>> {
    const found = new Map<string, Placed>();
    const wanted = [...new Set(sourceIdsNamed)];
    for (let at = 0; at < wanted.length; at += IMPORT_BATCH) {
      const rows = await trx
        .selectFrom('import_sources')
        .innerJoin('comments', 'comments.id', 'import_sources.parley_id')
        .select([
          'import_sources.source_id',
          'comments.id',
          'comments.story_id',
          'comments.author_id',
          'comments.status',
          'comments.deleted_at',
        ])
        .where('import_sources.site_id', '=', siteId)
        .where('import_sources.format', '=', format)
        .where('import_sources.kind', '=', 'comment')
        .where('import_sources.source_id', 'in', wanted.slice(at, at + IMPORT_BATCH))
        .execute();
      for (const row of rows) {
        found.set(row.source_id, {
          id: row.id,
          storyId: row.story_id,
          authorId: row.author_id,
          visible: isVisibleStatus(row.status) && row.deleted_at === null,
        });
      }
    }
    return found;
  }

  async function flush(): Promise<void> {
    if (batch.length === 0 && pendingThreads.length === 0) return;
    const comments = batch;
    const list = pendingThreads;
    batch = [];
    pendingThreads = [];
    await inTransaction(db, async (trx) => {
      await writeThreads(trx, list);
      await writeComments(trx, comments);
    });
    options.onProgress?.(report);
  }

  // Takes a comment whose thread and parent are settled into the batch, then the replies that
  // were waiting for it.
  async function accept(comment: SourceComment): Promise<void> {
    const queue = [comment];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      accepted.add(next.id);
      batch.push(next);
      queue.push(...(waiting.get(next.id) ?? []));
      waiting.delete(next.id);
      if (batch.length >= batchSize) await flush();
    }
  }

  // A comment that will not be imported; its waiting replies go to the top of their thread.
  async function drop(comment: SourceComment, reason: string): Promise<void> {
    skippedComments.add(comment.id);
    skip('comment', comment.id, comment.line, reason);
    const orphans = waiting.get(comment.id) ?? [];
    waiting.delete(comment.id);
    for (const orphan of orphans) await toTop(orphan, `its parent ${comment.id} was skipped`);
  }

  async function toTop(comment: SourceComment, why: string): Promise<void> {
    report.notes.push({
      what: 'comment',
      id: comment.id,
      line: comment.line,
      reason: `${why}: imported at the top of its thread`,
    });
    await accept({ ...comment, parentId: null });
  }

  async function take(comment: SourceComment): Promise<void> {
    if (accepted.has(comment.id) || skippedComments.has(comment.id)) {
      skip('comment', comment.id, comment.line, 'the file has this id twice');
      return;
    }
    if (skippedThreads.has(comment.threadId)) {
      return drop(comment, `its thread ${comment.threadId} was skipped`);
    }
    if (!threads.has(comment.threadId)) {
      return drop(comment, `its thread ${comment.threadId} is not in the file`);
    }
    const createdAt = parseTime(comment.createdAt);
    if (createdAt === null) {
      return drop(comment, `its date "${comment.createdAt}" is not a date`);
    }
    const body = comment.markdown ?? comment.html;
    if (body.trim() === '' && !comment.erased) return drop(comment, 'its body is empty');
    const ready = { ...comment, createdAt };
    if (comment.parentId === null || accepted.has(comment.parentId)) return accept(ready);
    if (skippedComments.has(comment.parentId)) {
      return toTop(ready, `its parent ${comment.parentId} was skipped`);
    }
    const list = waiting.get(comment.parentId) ?? [];
    list.push(ready);
    waiting.set(comment.parentId, list);
  }

  function takeThread(thread: SourceThread): void {
    if (threads.has(thread.id) || skippedThreads.has(thread.id)) {
      skip('thread', thread.id, thread.line, 'the file has this id twice');
      return;
    }
    let url: URL;
    try {
      url = canonicalStoryUrl(thread.url);
    } catch {
      skippedThreads.add(thread.id);
      skip('thread', thread.id, thread.line, `"${thread.url}" is not an http(s) URL`);
      return;
    }
    const moved = options.rewriteOrigins?.get(url.origin);
    if (moved !== undefined) url = new URL(`${url.pathname}${url.search}`, moved);
    if (!origins.has(url.origin)) {
      skippedThreads.add(thread.id);
      skip(
        'thread',
        thread.id,
        thread.line,
        `${url.origin} is not a permitted origin of the site (rewrite it with --rewrite-origin OLD=NEW, or add it to the site)`,
      );
      return;
    }
    const createdAt = thread.createdAt === null ? null : parseTime(thread.createdAt);
    const settled = { ...thread, url: url.toString(), createdAt };
    threads.set(thread.id, settled);
    pendingThreads.push(settled);
  }

  for await (const item of items) {
    if (item.kind === 'thread') takeThread(item);
    else if (item.kind === 'comment') await take(item);
    else {
      if (item.what === 'thread') skippedThreads.add(item.id);
      skip(item.what, item.id, item.line, item.reason);
    }
  }
  // Replies whose parent never came: at the top of their thread, in the order they were read.
  const orphans = [...waiting.entries()];
  waiting.clear();
  for (const [parentId, list] of orphans) {
    for (const orphan of list) await toTop(orphan, `its parent ${parentId} is not in the file`);
  }
  await flush();
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** A source time as a stored one (ISO, UTC), or null when it is not a time. */
export function parseTime(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString();
}

/** `base` with `_n` (none for 1), cut to fit 30 characters. */
function withSuffix(base: string, n: number): string {
  const suffix = n === 1 ? '' : `_${n}`;
  return `${base.slice(0, 30 - suffix.length)}${suffix}`;
}

/** A username from a display name: letters, digits, `_` and `.`, 3 to 30 of them. */
export function usernameBase(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_.]+/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_.]+|[_.]+$/g, '')
    .slice(0, 30);
  const padded = cleaned.length >= 3 ? cleaned : `${cleaned || 'reader'}_imported`.slice(0, 30);
  try {
    return validateUsername(padded);
  } catch {
    return 'reader';
  }
}

let turndown: TurndownService | undefined;

/**
 * A source's HTML as Markdown. Images become links to them (a comment shows only its own
 * uploads); the rest is what turndown makes of it, and renderComment decides what shows.
 */
export function htmlToMarkdown(html: string): string {
  turndown ??= new TurndownService({ codeBlockStyle: 'fenced', emDelimiter: '*' })
    // What is not text to read goes with its content (turndown would keep a script's as text).
    .remove(['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'head'])
    .addRule('imagesAsLinks', {
      filter: 'img',
      replacement: (_content, node) => {
        const element = node as HTMLElement;
        const src = element.getAttribute('src') ?? '';
        if (src === '') return '';
        const alt = element.getAttribute('alt') ?? '';
        return `[${alt || src}](${src})`;
      },
    });
  return turndown.turndown(html).trim();
}

/** An address as the source gives it, or null when it is not a usable one. */
export function sourceEmail(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  try {
    return validateEmail(text).address;
  } catch {
    return null;
  }
}
