/**
 * Imports another system's comments into a site (`parley import`, IMPORT.md). A format's reader
 * (formats/*.ts) turns its file into a stream of {@link SourceItem}s; this writes them.
 *
 * - Streamed and batched: items are taken as they are read and written in batches of
 *   IMPORT_BATCH comments, each batch one transaction with its counters (reply counts, the
 *   stories' counts, votes), so a failure leaves whole batches or nothing of one. In memory: the
 *   source ids seen, the threads, the authors met, the replies waiting for their parent, and the
 *   current batch; parents of earlier batches are looked up in `import_sources`.
 * - Idempotent and resumable: every story, user and comment written or matched is recorded in
 *   `import_sources` under the source's own id; a second run finds them and writes nothing again,
 *   and a run that stopped part-way goes on from its last whole batch.
 * - Replies wait for their parent: a reply read before its parent is held until the parent comes
 *   (formats promise parents first, files do not always keep it). A reply whose parent is skipped,
 *   or never comes, is imported at the top of its thread, with its own replies under it, and a
 *   note in the report. A comment read before its thread waits for it the same way.
 * - Bodies are HTML in every format: turned into Markdown (turndown), then rendered and sanitized
 *   as any comment is (renderComment), bidirectional controls neutralized as in a post, so an
 *   imported comment is edited and shown like one written here, and no markup passes that a
 *   reader could not have written.
 * - Authors: an address the source vouches for (its own signed-in account) is matched to an
 *   existing account here (not an SSO one, not an erased one); any other address makes an
 *   account of its own, which nobody can sign in to (no password) until the address's owner
 *   claims it with a password reset — or, when the address is already an account's here, an
 *   account with a placeholder address that can never sign in: a guest's typed address never
 *   puts words in a member's mouth. Authors without an address get the placeholder too.
 */
import TurndownService from 'turndown';
import type { Insertable } from 'kysely';
import type { Db } from '../db/inTransaction';
import { isoTime, newId } from '../db/inTransaction';
import { isVisibleStatus } from '../db/schema';
import type {
  CommentRevisionsTable,
  CommentsTable,
  CommentStatus,
  ReactionsTable,
  UsersTable,
} from '../db/schema';
import { bestRank } from '../db/store/reactions';
import { adjustStoryCounts } from '../db/store/storyCounts';
import type { StoryCountChange } from '../db/store/storyCounts';
import { findStoryByUrl } from '../db/store/stories';
import { isPlaceholderAddress, uniqueKey } from '../db/store/users';
import { renderComment } from '../markdown/renderComment';
import { neutralizeBidi, usernameSkeleton } from '../validation/lookalikes';
import { validateEmail } from '../validation/validateAccount';
import {
  IMPORT_BATCH,
  ParentsFirst,
  accountsByAddress,
  addReplyCounts,
  chunks,
  inBatch,
  own,
  newReport,
  parseTime,
  placeholderAddress,
  runImport,
  siteTarget,
  uniqueUsernames,
} from './importShared';
import type { ImportOptions, ImportReport, ReportedKind } from './importShared';

export { IMPORT_BATCH } from './importShared';
export type { ImportOptions, ImportReport, ReportEntry } from './importShared';

/** A thread of the source: a story here. */
export interface SourceThread {
  kind: 'thread';
  id: string;
  url: string;
  title: string;
  /** The time as the source wrote it, or null when it has none (then: the import's time). */
  createdAt: string | null;
  closed: boolean;
  /** Where it starts in the file, for the report. */
  line: number | null;
}

/** Who wrote a comment (or voted), as the source names them. */
export interface SourceAuthor {
  /** The source's id of the person, when it has one. */
  id: string | null;
  name: string;
  email: string | null;
  /**
   * The source says the address is its own member's (a WordPress user, a Disqus account), not
   * one a guest typed: only then may it be an existing account here.
   */
  vouched: boolean;
}

/** A vote of the source, by someone it names. */
export interface SourceVote {
  voter: SourceAuthor;
  value: 1 | -1;
}

/** A comment of the source. */
export interface SourceComment {
  kind: 'comment';
  id: string;
  threadId: string;
  parentId: string | null;
  author: SourceAuthor;
  /** The body, as HTML. */
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
  /** Its votes, when the source names the voters. */
  votes?: SourceVote[];
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

/** Where a source comment is here. */
interface Placed {
  id: string;
  storyId: string;
  authorId: string;
}

/** Imports `items` into the site; see the module comment. */
export async function importSite(
  db: Db,
  items: AsyncIterable<SourceItem>,
  options: ImportOptions & { format: string },
): Promise<ImportReport> {
  const report = newReport(options.format, options.siteId, options.dryRun === true);
  return runImport(db, report, (db) => importInto(db, items, options, report));
}

async function importInto(
  db: Db,
  items: AsyncIterable<SourceItem>,
  options: ImportOptions & { format: string },
  report: ImportReport,
): Promise<void> {
  const { siteId, format, batchSize = IMPORT_BATCH, now = new Date() } = options;
  const target = await siteTarget(db, siteId, options.rewriteOrigins);
  const skip = (what: ReportedKind, id: string, line: number | null, reason: string) =>
    report.skipped.push({ what, id, line, reason });
  const note = (id: string, line: number | null, reason: string) =>
    report.notes.push({ what: 'comment', id, line, reason });

  // Threads taken (their URL settled), waiting for a batch, and the stories they became.
  const threads = new Set<string>();
  const skippedThreads = new Map<string, string>();
  const storyOf = new Map<string, string>();
  let pendingThreads: SourceThread[] = [];
  // Every comment id met; comments read before their thread, by its id.
  const seen = new Set<string>();
  const beforeThread = new Map<string, SourceComment[]>();
  const userOf = new Map<string, string>();
  const takenNames = new Set<string>();
  let batch: SourceComment[] = [];

  const sourceIds = async (trx: Db, kind: 'story' | 'user' | 'comment', ids: string[]) => {
    const found = new Map<string, string>();
    for (const chunk of chunks(ids, IMPORT_BATCH)) {
      const rows = await trx
        .selectFrom('import_sources')
        .select(['source_id', 'parley_id'])
        .where('site_id', '=', siteId)
        .where('format', '=', format)
        .where('kind', '=', kind)
        .where('source_id', 'in', chunk)
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
    for (const chunk of chunks(pairs, 100)) {
      await trx
        .insertInto('import_sources')
        .values(
          chunk.map(([sourceId, parleyId]) => ({
            site_id: siteId,
            format,
            kind,
            source_id: sourceId,
            parley_id: parleyId,
            created_at: isoTime(now),
          })),
        )
        .execute();
    }
  };

  async function writeThreads(trx: Db, list: SourceThread[]): Promise<void> {
    const known = await sourceIds(
      trx,
      'story',
      list.map((thread) => thread.id),
    );
    const records: [string, string][] = [];
    for (const thread of list) {
      const knownId = known.get(thread.id);
      if (knownId !== undefined) {
        storyOf.set(thread.id, knownId);
        report.stories.matched += 1;
        continue;
      }
      const existing = await findStoryByUrl(trx, thread.url);
      if (existing !== undefined && existing.siteId !== siteId) {
        skippedThreads.set(thread.id, 'its URL is a story of another site');
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

  // A person's key among the source's people: the address when the source vouches for it (the
  // same member across threads), else the source's id, else the address or the name.
  const authorKey = (author: SourceAuthor) =>
    own(
      author.email !== null && author.vouched
        ? `email:${uniqueKey(author.email)}`
        : author.id !== null
          ? `id:${author.id}`
          : author.email !== null
            ? `guest:${uniqueKey(author.email)}`
            : `name:${author.name}`,
    );

  async function writeAuthors(trx: Db, people: SourceAuthor[]): Promise<void> {
    const wanted = new Map<string, SourceAuthor>();
    for (const person of people) {
      const key = authorKey(person);
      if (!userOf.has(key)) wanted.set(key, person);
    }
    if (wanted.size === 0) return;
    const known = await sourceIds(trx, 'user', [...wanted.keys()]);
    for (const [key, id] of known) {
      userOf.set(key, id);
      wanted.delete(key);
      report.users.matched += 1;
    }
    // The addresses that are accounts here already: a vouched one is that account (unless it
    // signs in by SSO or was erased); a guest's gets a placeholder instead.
    const addresses = [...wanted.values()].flatMap((person) =>
      person.email === null ? [] : [uniqueKey(person.email)],
    );
    const accounts = await accountsByAddress(trx, addresses);
    const records: [string, string][] = [];
    const fresh: [string, SourceAuthor, string | null][] = [];
    // Members first: of a member and a guest with one address in a batch, the member has it.
    const membersFirst = [...wanted].sort(([, a], [, b]) => Number(b.vouched) - Number(a.vouched));
    const given = new Set<string>();
    for (const [key, person] of membersFirst) {
      const address = person.email === null ? null : uniqueKey(person.email);
      const account = address === null ? undefined : accounts.get(address);
      if (account?.usable && person.vouched) {
        userOf.set(key, account.id);
        records.push([key, account.id]);
        report.users.matched += 1;
      } else if (address !== null && account === undefined && !given.has(address)) {
        given.add(address);
        fresh.push([key, person, person.email]);
      } else {
        fresh.push([key, person, null]);
      }
    }
    const usernames = await uniqueUsernames(
      trx,
      fresh.map(([, person]) => person.name || person.id || 'reader'),
      takenNames,
    );
    const rows: Insertable<UsersTable>[] = fresh.map(([key, , address], index) => {
      const id = newId();
      const username = usernames[index] as string;
      const email = address ?? placeholderAddress(id);
      userOf.set(key, id);
      records.push([key, id]);
      return {
        id,
        username,
        username_key: uniqueKey(username),
        username_skeleton: usernameSkeleton(username),
        email,
        email_key: uniqueKey(email),
        email_verified: 0,
        password_hash: null,
        role: 'COMMENTER',
        notification_prefs: '{}',
        sso_site_id: null,
        sso_id: null,
        created_at: isoTime(now),
      };
    });
    for (const chunk of chunks(rows, 100)) await trx.insertInto('users').values(chunk).execute();
    report.users.created += rows.length;
    await recordSources(trx, 'user', records);
  }

  /** The comments of earlier batches (or runs) for these source ids, from `import_sources`. */
  async function placedEarlier(trx: Db, ids: string[]): Promise<Map<string, Placed>> {
    const found = new Map<string, Placed>();
    for (const chunk of chunks([...new Set(ids)], IMPORT_BATCH)) {
      const rows = await trx
        .selectFrom('import_sources')
        .innerJoin('comments', 'comments.id', 'import_sources.parley_id')
        .select([
          'import_sources.source_id',
          'comments.id',
          'comments.story_id',
          'comments.author_id',
        ])
        .where('import_sources.site_id', '=', siteId)
        .where('import_sources.format', '=', format)
        .where('import_sources.kind', '=', 'comment')
        .where('import_sources.source_id', 'in', chunk)
        .execute();
      for (const row of rows) {
        found.set(row.source_id, { id: row.id, storyId: row.story_id, authorId: row.author_id });
      }
    }
    return found;
  }

  async function writeComments(trx: Db, all: SourceComment[]): Promise<void> {
    // Ours already (an earlier run), where each parent is, and then only what will be written.
    const placed = await placedEarlier(trx, [
      ...all.map((comment) => comment.id),
      ...all.flatMap((comment) => (comment.parentId === null ? [] : [comment.parentId])),
    ]);
    const comments: SourceComment[] = [];
    for (const comment of all) {
      if (placed.has(comment.id)) {
        report.comments.already += 1;
      } else if (!storyOf.has(comment.threadId)) {
        skip('comment', comment.id, comment.line, `its thread ${comment.threadId} was skipped`);
      } else {
        comments.push(comment);
      }
    }
    await writeAuthors(
      trx,
      comments.flatMap((comment) => [
        comment.author,
        ...(comment.votes ?? []).map((vote) => vote.voter),
      ]),
    );
    const inserts: Insertable<CommentsTable>[] = [];
    const revisions: Insertable<CommentRevisionsTable>[] = [];
    const votes: Insertable<ReactionsTable>[] = [];
    const records: [string, string][] = [];
    const replies = new Map<string, number>();
    const counts: StoryCountChange[] = [];
    for (const comment of comments) {
      const storyId = storyOf.get(comment.threadId) as string;
      let parent = comment.parentId === null ? undefined : placed.get(comment.parentId);
      if (comment.parentId !== null && parent?.storyId !== storyId) {
        note(
          comment.id,
          comment.line,
          parent === undefined
            ? `its parent ${comment.parentId} was not imported: imported at the top of its thread`
            : `its parent ${comment.parentId} is in another thread: imported at the top of its own`,
        );
        parent = undefined;
      }
      const authorId = userOf.get(authorKey(comment.author)) as string;
      const status: CommentStatus = comment.status;
      const erased = comment.erased === true;
      const id = newId();
      const createdAt = comment.createdAt;
      const source = erased
        ? ''
        : neutralizeBidi(comment.markdown ?? htmlToMarkdown(comment.html)).trim();
      const html = source === '' ? '' : renderComment(source);
      // One vote per person, the last the source gives.
      const byVoter = new Map<string, 1 | -1>();
      for (const vote of erased ? [] : (comment.votes ?? [])) {
        const voterId = userOf.get(authorKey(vote.voter)) as string;
        byVoter.set(voterId, vote.value);
      }
      const up = [...byVoter.values()].filter((value) => value === 1).length;
      const down = byVoter.size - up;
      for (const [userId, value] of byVoter) {
        votes.push({ comment_id: id, user_id: userId, value, created_at: createdAt });
      }
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
        deleted_at: erased ? createdAt : null,
        published_at: isVisibleStatus(status) ? createdAt : null,
        site_id: siteId,
        parent_author_id: parent?.authorId ?? null,
      });
      if (!erased) {
        revisions.push({
          id: newId(),
          comment_id: id,
          body_source: source,
          body_html: html,
          created_at: createdAt,
        });
        counts.push({ storyId, status, delta: 1 });
        if (parent !== undefined && isVisibleStatus(status)) {
          replies.set(parent.id, (replies.get(parent.id) ?? 0) + 1);
        }
      }
      placed.set(comment.id, { id, storyId, authorId });
      records.push([comment.id, id]);
      report.comments.imported += 1;
    }
    // 100 rows a statement: 1,900 parameters, within both engines' bounds.
    for (const chunk of chunks(inserts, 100)) {
      await trx.insertInto('comments').values(chunk).execute();
    }
    for (const chunk of chunks(revisions, 200)) {
      await trx.insertInto('comment_revisions').values(chunk).execute();
    }
    for (const chunk of chunks(votes, 200)) {
      await trx.insertInto('reactions').values(chunk).execute();
    }
    await addReplyCounts(trx, replies);
    await recordSources(trx, 'comment', records);
    await adjustStoryCounts(trx, counts);
  }

  async function flush(): Promise<void> {
    if (batch.length === 0 && pendingThreads.length === 0) return;
    const comments = batch;
    const list = pendingThreads;
    batch = [];
    pendingThreads = [];
    await inBatch(db, report, async (trx) => {
      await writeThreads(trx, list);
      await writeComments(trx, comments);
    });
    options.onProgress?.(report);
  }

  // Parents before their replies, into the batch.
  const order = new ParentsFirst<SourceComment>(
    async (comment) => {
      batch.push(comment);
      if (batch.length >= batchSize) await flush();
    },
    (comment, why) => note(comment.id, comment.line, `${why}: imported at the top of its thread`),
  );

  // A comment that will not be imported: its waiting replies go to the top of their thread.
  async function drop(id: string, line: number | null, reason: string): Promise<void> {
    skip('comment', id, line, reason);
    await order.skip(id, reason);
  }

  async function take(comment: SourceComment): Promise<void> {
    if (skippedThreads.has(comment.threadId)) {
      return drop(comment.id, comment.line, `its thread ${comment.threadId} was skipped`);
    }
    if (!threads.has(comment.threadId)) {
      // Its thread may come later in the file.
      const list = beforeThread.get(comment.threadId) ?? [];
      list.push(comment);
      beforeThread.set(comment.threadId, list);
      return;
    }
    const createdAt = parseTime(comment.createdAt, now);
    if (createdAt === null) {
      return drop(
        comment.id,
        comment.line,
        `its date ${JSON.stringify(comment.createdAt)} is not a date`,
      );
    }
    const body = comment.markdown ?? comment.html;
    if (body.trim() === '' && comment.erased !== true) {
      return drop(comment.id, comment.line, 'its body is empty');
    }
    return order.take({ ...comment, createdAt });
  }

  async function takeComment(read: SourceComment): Promise<void> {
    // Its ids live through the import (seen, threads, parents): strings of their own.
    const comment = {
      ...read,
      id: own(read.id),
      threadId: own(read.threadId),
      parentId: read.parentId === null ? null : own(read.parentId),
    };
    if (comment.id === '') {
      skip('comment', '', comment.line, 'it has no id');
      return;
    }
    if (seen.has(comment.id)) {
      skip('comment', comment.id, comment.line, 'the file has this id twice');
      return;
    }
    seen.add(comment.id);
    if (comment.threadId === '') {
      return drop(comment.id, comment.line, 'it names no thread');
    }
    return take(comment);
  }

  async function takeThread(read: SourceThread): Promise<void> {
    const thread = { ...read, id: own(read.id) };
    const refuse = (reason: string) => {
      skippedThreads.set(thread.id, reason);
      skip('thread', thread.id, thread.line, reason);
    };
    if (thread.id === '') {
      skip('thread', '', thread.line, 'it has no id');
      return;
    }
    if (threads.has(thread.id) || skippedThreads.has(thread.id)) {
      skip('thread', thread.id, thread.line, 'the file has this id twice');
      return;
    }
    const url = target.storyUrl(thread.url);
    if ('reason' in url) refuse(url.reason);
    else {
      const createdAt = thread.createdAt === null ? null : parseTime(thread.createdAt, now);
      threads.add(thread.id);
      pendingThreads.push({ ...thread, url: url.url, createdAt });
    }
    const early = beforeThread.get(thread.id) ?? [];
    beforeThread.delete(thread.id);
    for (const comment of early) await take(comment);
  }

  for await (const item of items) {
    if (item.kind === 'thread') await takeThread(item);
    else if (item.kind === 'comment') await takeComment(item);
    else if (item.what === 'thread') {
      if (item.id !== '') skippedThreads.set(item.id, item.reason);
      skip('thread', item.id, item.line, item.reason);
      const early = beforeThread.get(item.id) ?? [];
      beforeThread.delete(item.id);
      for (const comment of early) await take(comment);
    } else if (item.id !== '' && !seen.has(item.id)) {
      seen.add(item.id);
      await drop(item.id, item.line, item.reason);
    } else {
      skip('comment', item.id, item.line, item.reason);
    }
  }
  for (const [threadId, list] of beforeThread) {
    for (const comment of list) {
      await drop(comment.id, comment.line, `its thread ${threadId} is not in the file`);
    }
  }
  // A parent an earlier import of this format wrote (an export of the same source made before)
  // is where its replies go; writeComments finds it in import_sources.
  await order.finish(async (parentId) => (await placedEarlier(db, [parentId])).has(parentId));
  await flush();
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

/**
 * An address as the source gives it, or null when it is not a usable one: not an address, or a
 * placeholder (`.invalid`, as Parley writes for erased and imported accounts).
 */
export function sourceEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const { address } = validateEmail(value);
    return isPlaceholderAddress(address) ? null : address;
  } catch {
    return null;
  }
}
