/**
 * Imports Parley's own export (EXPORT.md) into a site: `parley import parley FILE --site ID`.
 * Ids and times are kept, so an export imported into an empty install and exported again gives
 * the same document (the site aside: it is the one imported into, and `exportedAt`).
 *
 * The document is read in passes, each one array at a time (stream-json): the users first
 * (they come last in the file, and everything names them), then the stories, the comments, the
 * votes and the decisions. Each pass writes in batches of {@link IMPORT_BATCH}, a transaction
 * each with its counters. Rows whose id is already here are left as they are (a second run
 * writes nothing; a stopped one resumes).
 *
 * - Users: kept with their id, role, ban and suspension, unconfirmed or confirmed as they were,
 *   without a password (they claim the account with a reset, as imported authors do). One whose
 *   address (or SSO id on this site) already has an account is that account. A taken username
 *   gets a number. Roles come with the file: import only exports you trust.
 * - Stories: their URL is mapped as other imports map it (origins, --rewrite-origin); one whose
 *   URL is already a story of this site is that story.
 * - Comments: the HTML is passed through the comment allow-list again (sanitizeCommentHtml); the
 *   Markdown is kept. A reply waits for its parent (ids are in id order, not time order).
 * - Votes and decisions: kept, their counts moved on the comments as votes here move them.
 */
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import type { Db } from '../db/inTransaction';
import { inTransaction } from '../db/inTransaction';
import { COMMENT_STATUSES, isVisibleStatus } from '../db/schema';
import type {
  CommentRevisionsTable,
  CommentsTable,
  CommentStatus,
  StoryStatus,
  UserRole,
  UsersTable,
} from '../db/schema';
import { bestRank } from '../db/store/reactions';
import { adjustStoryCounts } from '../db/store/storyCounts';
import type { StoryCountChange } from '../db/store/storyCounts';
import { findStoryByUrl } from '../db/store/stories';
import { uniqueKey } from '../db/store/users';
import { sanitizeCommentHtml } from '../markdown/renderComment';
import { ParleyError } from '../ParleyError';
import { usernameSkeleton } from '../validation/lookalikes';
import { EXPORT_FORMAT, EXPORT_VERSION } from './exportSite';
import { arrayElements, topValues } from './formats/jsonArrays';
import {
  IMPORT_BATCH,
  ParentsFirst,
  addReplyCounts,
  chunks,
  newReport,
  parseTime,
  runImport,
  siteTarget,
  uniqueUsernames,
} from './importShared';
import type { ImportOptions, ImportReport, ReportedKind } from './importShared';

/** A user as the export writes it. */
interface ExportedUser {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  role: UserRole;
  banned: boolean;
  suspendedUntil: string | null;
  avatarUrl: string | null;
  ssoId: string | null;
  createdAt: string;
}

interface ExportedStory {
  id: string;
  url: string;
  externalId: string | null;
  title: string;
  status: StoryStatus;
  premod: string | null;
  liveUpdates: boolean | null;
  pinnedCommentId: string | null;
  createdAt: string;
  closedAt: string | null;
}

interface ExportedComment {
  id: string;
  storyId: string;
  parentId: string | null;
  authorId: string;
  bodySource: string;
  bodyHtml: string;
  status: CommentStatus;
  tags: string[];
  createdAt: string;
  editedAt: string | null;
  publishedAt: string | null;
  deletedAt: string | null;
}

interface ExportedVote {
  commentId: string;
  userId: string;
  value: 1 | -1;
  createdAt: string;
}

interface ExportedDecision {
  id: string;
  commentId: string;
  moderatorId: string | null;
  status: CommentStatus;
  createdAt: string;
}

const ROLES: readonly string[] = ['COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'];
const STORY_STATUSES: readonly string[] = ['OPEN', 'CLOSED'];
const TAGS: readonly string[] = ['FEATURED', 'STAFF'];

/** Imports the export at `path` into the site; see the module comment. */
export async function importParley(
  db: Db,
  open: () => Readable,
  options: ImportOptions,
): Promise<ImportReport> {
  const report = newReport('parley', options.siteId, options.dryRun === true);
  await checkHeader(open);
  return runImport(db, report, (db) => run(db, open, options, report));
}

async function run(
  db: Db,
  open: () => Readable,
  options: ImportOptions,
  report: ImportReport,
): Promise<void> {
  const { siteId, batchSize = IMPORT_BATCH, now = new Date() } = options;
  const target = await siteTarget(db, siteId, options.rewriteOrigins);
  const skip = (what: ReportedKind, id: string, reason: string) =>
    report.skipped.push({ what, id, line: null, reason });

  // Ids of the file that are another row here (an account with the same address, a story at
  // the same URL); every other id is kept as it is.
  const userIds = new Map<string, string>();
  const storyIds = new Map<string, string>();
  const takenNames = new Set<string>();

  async function* batches<T>(key: string): AsyncGenerator<T[]> {
    let batch: T[] = [];
    for await (const element of arrayElements<T>(open, key)) {
      batch.push(element);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  // Users.
  for await (const users of batches<ExportedUser>('users')) {
    await inTransaction(db, async (trx) => {
      const here = new Set(
        (
          await trx
            .selectFrom('users')
            .select('id')
            .where(
              'id',
              'in',
              users.map((user) => user.id),
            )
            .execute()
        ).map((row) => row.id),
      );
      // Accounts with the same address: the same person when the file confirmed it and the
      // account here is neither an SSO one nor erased.
      const accounts = new Map(
        (
          await trx
            .selectFrom('users')
            .select(['id', 'email_key', 'sso_site_id', 'deleted_at'])
            .where(
              'email_key',
              'in',
              users.map((user) => uniqueKey(String(user.email))),
            )
            .execute()
        ).map((row) => [
          row.email_key,
          { id: row.id, usable: row.sso_site_id === null && row.deleted_at === null },
        ]),
      );
      const fresh: ExportedUser[] = [];
      for (const user of users) {
        if (here.has(user.id)) {
          userIds.set(user.id, user.id);
          report.users.matched += 1;
          continue;
        }
        if (
          typeof user.id !== 'string' ||
          typeof user.email !== 'string' ||
          typeof user.username !== 'string' ||
          !ROLES.includes(user.role) ||
          parseTime(user.createdAt, now) === null
        ) {
          skip(
            'user',
            String(user.id),
            'its id, name, address, role or creation time is not one Parley writes',
          );
          continue;
        }
        const sso =
          user.ssoId === null
            ? undefined
            : await trx
                .selectFrom('users')
                .select('id')
                .where('sso_site_id', '=', siteId)
                .where('sso_id', '=', String(user.ssoId))
                .executeTakeFirst();
        const account = accounts.get(uniqueKey(user.email));
        const existing =
          sso?.id ??
          (account?.usable && user.emailVerified && !/\.invalid$/i.test(user.email)
            ? account.id
            : undefined);
        if (existing !== undefined) {
          userIds.set(user.id, existing);
          report.users.matched += 1;
          continue;
        }
        if (account !== undefined) {
          report.notes.push({
            what: 'user',
            id: user.id,
            line: null,
            reason: `the address ${user.email} is another account's here: imported without it`,
          });
          fresh.push({ ...user, email: `${user.id}@imported.invalid`, emailVerified: false });
        } else {
          fresh.push(user);
        }
      }
      const names = await keptUsernames(
        trx,
        fresh.map((user) => user.username),
      );
      const rows: Insertable<UsersTable>[] = fresh.map((user, index) => {
        const username = names[index] as string;
        if (username !== user.username) {
          report.notes.push({
            what: 'user',
            id: user.id,
            line: null,
            reason: `the username ${user.username} is taken here: imported as ${username}`,
          });
        }
        userIds.set(user.id, user.id);
        return {
          id: user.id,
          username,
          username_key: uniqueKey(username),
          username_skeleton: usernameSkeleton(username),
          email: user.email,
          email_key: uniqueKey(user.email),
          email_verified: user.emailVerified === true ? 1 : 0,
          password_hash: null,
          role: user.role,
          banned: user.banned === true ? 1 : 0,
          suspended_until: user.suspendedUntil,
          avatar_url: user.avatarUrl,
          notification_prefs: '{}',
          sso_site_id: user.ssoId === null ? null : siteId,
          sso_id: user.ssoId,
          created_at: user.createdAt,
        };
      });
      for (const chunk of chunks(rows, 100)) await trx.insertInto('users').values(chunk).execute();
      report.users.created += rows.length;
    });
    options.onProgress?.(report);
  }

  /**
   * Each name as it is when it is free here (a Parley name is valid already, `deleted-…` of an
   * erased account included); a taken one as a new import's would be ({@link uniqueUsernames}).
   */
  async function keptUsernames(trx: Db, names: string[]): Promise<string[]> {
    const stored = new Set<string>();
    for (const chunk of chunks(names, IMPORT_BATCH)) {
      for (const row of await trx
        .selectFrom('users')
        .select(['username_key', 'username_skeleton'])
        .where((eb) =>
          eb.or([
            eb('username_key', 'in', chunk.map(uniqueKey)),
            eb('username_skeleton', 'in', chunk.map(usernameSkeleton)),
          ]),
        )
        .execute()) {
        stored.add(row.username_key);
        if (row.username_skeleton !== null) stored.add(`~${row.username_skeleton}`);
      }
    }
    const kept: (string | undefined)[] = names.map((name) => {
      const key = uniqueKey(name);
      const skeleton = `~${usernameSkeleton(name)}`;
      if ([key, skeleton].some((each) => stored.has(each) || takenNames.has(each)))
        return undefined;
      takenNames.add(key);
      takenNames.add(skeleton);
      return name;
    });
    const renamed = await uniqueUsernames(
      trx,
      names.filter((_, index) => kept[index] === undefined),
      takenNames,
    );
    return kept.map((name) => name ?? (renamed.shift() as string));
  }

  // Stories (their pins are set once the comments are in).
  const pins = new Map<string, string>();
  for await (const stories of batches<ExportedStory>('stories')) {
    await inTransaction(db, async (trx) => {
      for (const story of stories) {
        const url = target.storyUrl(story.url);
        if ('reason' in url) {
          skip('thread', story.id, url.reason);
          continue;
        }
        const byId = await trx
          .selectFrom('stories')
          .select(['id', 'site_id'])
          .where('id', '=', story.id)
          .executeTakeFirst();
        const byUrl = byId === undefined ? await findStoryByUrl(trx, url.url) : undefined;
        const existing = byId ?? (byUrl && { id: byUrl.id, site_id: byUrl.siteId });
        if (existing !== undefined && existing.site_id !== siteId) {
          skip('thread', story.id, `${url.url} is a story of another site`);
          continue;
        }
        if (story.pinnedCommentId !== null) pins.set(story.id, story.pinnedCommentId);
        if (existing !== undefined) {
          storyIds.set(story.id, existing.id);
          report.stories.matched += 1;
          continue;
        }
        if (!STORY_STATUSES.includes(story.status) || parseTime(story.createdAt, now) === null) {
          skip('thread', story.id, 'its status or its creation time is not one Parley writes');
          continue;
        }
        await trx
          .insertInto('stories')
          .values({
            id: story.id,
            site_id: siteId,
            url: url.url,
            external_id: story.externalId,
            title: story.title.slice(0, 300),
            status: story.status,
            premod: story.premod as never,
            live_updates: story.liveUpdates === null ? null : story.liveUpdates ? 1 : 0,
            created_at: story.createdAt,
            closed_at: story.closedAt,
          })
          .execute();
        storyIds.set(story.id, story.id);
        report.stories.created += 1;
      }
    });
  }

  // Comments: a reply waits for its parent.
  const placed = new Set<string>();
  let ready: ExportedComment[] = [];

  async function writeComments(comments: ExportedComment[]): Promise<void> {
    await inTransaction(db, async (trx) => {
      const here = new Map(
        (
          await trx
            .selectFrom('comments')
            .select(['id', 'site_id'])
            .where(
              'id',
              'in',
              comments.map((comment) => comment.id),
            )
            .execute()
        ).map((row) => [row.id, row.site_id]),
      );
      // The parents this batch names that earlier batches (or runs) wrote: their author and
      // whether they count their replies.
      const parentIds = [
        ...new Set(comments.flatMap((comment) => (comment.parentId ? [comment.parentId] : []))),
      ];
      const parents = new Map(
        (parentIds.length === 0
          ? []
          : await trx
              .selectFrom('comments')
              .select(['id', 'author_id', 'story_id'])
              .where('id', 'in', parentIds)
              .execute()
        ).map((row) => [row.id, row]),
      );
      const inserts: Insertable<CommentsTable>[] = [];
      const revisions: Insertable<CommentRevisionsTable>[] = [];
      const replies = new Map<string, number>();
      const counts: StoryCountChange[] = [];
      for (const comment of comments) {
        if (here.has(comment.id)) {
          if (here.get(comment.id) === siteId) report.comments.already += 1;
          else {
            skip('comment', comment.id, 'its id is a comment of another site here');
            placed.delete(comment.id);
          }
          continue;
        }
        const storyId = storyIds.get(comment.storyId) as string;
        const authorId = userIds.get(comment.authorId) as string;
        const parent = comment.parentId === null ? undefined : parents.get(comment.parentId);
        const sameStory = parent !== undefined && parent.story_id === storyId;
        const deleted = comment.deletedAt !== null;
        const html = deleted ? '' : sanitizeCommentHtml(comment.bodyHtml);
        const source = deleted ? '' : comment.bodySource;
        const row: Insertable<CommentsTable> = {
          id: comment.id,
          story_id: storyId,
          author_id: authorId,
          parent_id: sameStory ? parent.id : null,
          body_source: source,
          body_html: html,
          status: comment.status,
          held_because: null,
          tags: JSON.stringify(comment.tags.filter((tag) => TAGS.includes(tag))),
          client_mutation_id: null,
          created_at: comment.createdAt,
          edited_at: comment.editedAt,
          published_at: comment.publishedAt,
          deleted_at: comment.deletedAt,
          site_id: siteId,
          parent_author_id: sameStory ? parent.author_id : null,
        };
        inserts.push(row);
        // Also known to later comments of this batch.
        parents.set(comment.id, { id: comment.id, author_id: authorId, story_id: storyId });
        if (!deleted) {
          revisions.push({
            id: `${comment.id}-imported`,
            comment_id: comment.id,
            body_source: source,
            body_html: html,
            created_at: comment.editedAt ?? comment.createdAt,
          });
          counts.push({ storyId, status: comment.status, delta: 1 });
          if (sameStory && isVisibleStatus(comment.status)) {
            replies.set(parent.id, (replies.get(parent.id) ?? 0) + 1);
          }
        }
        report.comments.imported += 1;
      }
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
      await addReplyCounts(trx, replies);
      await adjustStoryCounts(trx, counts);
    });
    options.onProgress?.(report);
  }

  // Parents before their replies, into the batch.
  const order = new ParentsFirst<ExportedComment>(
    async (comment) => {
      placed.add(comment.id);
      ready.push(comment);
      if (ready.length >= batchSize) {
        const batch = ready;
        ready = [];
        await writeComments(batch);
      }
    },
    (comment, why) =>
      report.notes.push({
        what: 'comment',
        id: comment.id,
        line: null,
        reason: `${why}: imported at the top of its thread`,
      }),
  );
  const drop = async (comment: ExportedComment, reason: string) => {
    skip('comment', comment.id, reason);
    await order.skip(comment.id, reason);
  };

  for await (const comment of arrayElements<ExportedComment>(open, 'comments')) {
    if (order.has(comment.id)) {
      skip('comment', comment.id, 'the file has this id twice');
      continue;
    }
    if (!storyIds.has(comment.storyId)) {
      await drop(comment, `its story ${comment.storyId} was skipped or is not in the file`);
      continue;
    }
    if (!userIds.has(comment.authorId)) {
      await drop(comment, `its author ${comment.authorId} is not in the file`);
      continue;
    }
    if (
      typeof comment.bodySource !== 'string' ||
      typeof comment.bodyHtml !== 'string' ||
      !COMMENT_STATUSES.includes(comment.status) ||
      parseTime(comment.createdAt, now) === null ||
      !Array.isArray(comment.tags)
    ) {
      await drop(comment, 'its body, status, tags or creation time are not ones Parley writes');
      continue;
    }
    await order.take(comment);
  }
  // A parent an earlier run wrote (the file no longer has it): the reply hangs from it.
  await order.finish(
    async (parentId) =>
      (await db
        .selectFrom('comments')
        .select('id')
        .where('id', '=', parentId)
        .where('site_id', '=', siteId)
        .executeTakeFirst()) !== undefined,
  );
  if (ready.length > 0) await writeComments(ready);
  ready = [];

  // Votes: inserted unless there, the comments' counts moved by those inserted.
  for await (const votes of batches<ExportedVote>('votes')) {
    await inTransaction(db, async (trx) => {
      const moved = new Map<string, { up: number; down: number }>();
      const rows = votes.flatMap((vote) => {
        const userId = userIds.get(vote.userId);
        if (
          !placed.has(vote.commentId) ||
          userId === undefined ||
          (vote.value !== 1 && vote.value !== -1) ||
          parseTime(String(vote.createdAt), now) === null
        ) {
          skip(
            'vote',
            `${vote.commentId}/${vote.userId}`,
            'its comment or its voter was not imported',
          );
          return [];
        }
        return [
          {
            comment_id: vote.commentId,
            user_id: userId,
            value: vote.value,
            created_at: vote.createdAt,
          },
        ];
      });
      for (let at = 0; at < rows.length; at += 200) {
        const inserted = await trx
          .insertInto('reactions')
          .values(rows.slice(at, at + 200))
          .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
          .returning(['comment_id', 'value'])
          .execute();
        for (const { comment_id, value } of inserted) {
          const entry = moved.get(comment_id) ?? { up: 0, down: 0 };
          if (value === 1) entry.up += 1;
          else entry.down += 1;
          moved.set(comment_id, entry);
        }
      }
      await moveCounts(trx, moved);
    });
  }

  // Decisions, as they were.
  for await (const decisions of batches<ExportedDecision>('decisions')) {
    await inTransaction(db, async (trx) => {
      const rows = decisions.flatMap((decision) => {
        const moderatorId =
          decision.moderatorId === null ? null : userIds.get(decision.moderatorId);
        if (
          !placed.has(decision.commentId) ||
          moderatorId === undefined ||
          !COMMENT_STATUSES.includes(decision.status) ||
          parseTime(String(decision.createdAt), now) === null
        ) {
          skip('decision', decision.id, 'its comment or its moderator was not imported');
          return [];
        }
        return [
          {
            id: decision.id,
            comment_id: decision.commentId,
            moderator_id: moderatorId,
            status: decision.status,
            created_at: decision.createdAt,
          },
        ];
      });
      for (let at = 0; at < rows.length; at += 200) {
        await trx
          .insertInto('moderation_decisions')
          .values(rows.slice(at, at + 200))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
    });
  }

  // Pins: a story's pointer, to a comment now here.
  for (const [storyId, commentId] of pins) {
    const story = storyIds.get(storyId);
    if (story === undefined || !placed.has(commentId)) continue;
    await db
      .updateTable('stories')
      .set({ pinned_comment_id: commentId })
      .where('id', '=', story)
      .where('pinned_comment_id', 'is', null)
      .execute();
  }
}

/** Moves the vote counts of comments by what was added, and their Best rank with them. */
async function moveCounts(trx: Db, moved: Map<string, { up: number; down: number }>) {
  const ids = [...moved.keys()].sort();
  for (let at = 0; at < ids.length; at += IMPORT_BATCH) {
    const rows = await trx
      .selectFrom('comments')
      .select(['id', 'reaction_count', 'downvote_count'])
      .where('id', 'in', ids.slice(at, at + IMPORT_BATCH))
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const delta = moved.get(row.id) as { up: number; down: number };
      const up = Number(row.reaction_count) + delta.up;
      const down = Number(row.downvote_count) + delta.down;
      await trx
        .updateTable('comments')
        .set({ reaction_count: up, downvote_count: down, best_rank: bestRank(up, down) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/** Refuses a document that is not Parley's export, or of a version this server does not read. */
async function checkHeader(open: () => Readable): Promise<void> {
  let format: unknown;
  let version: unknown;
  for await (const value of topValues(open, /^(format|version)$/)) {
    if (typeof value === 'string') format = value;
    else version = value;
    if (format !== undefined && version !== undefined) break;
  }
  if (format !== EXPORT_FORMAT) {
    throw new ParleyError(
      'INVALID_INPUT',
      `This is not a Parley export: its "format" is ${JSON.stringify(format ?? null)}, where "${EXPORT_FORMAT}" was expected.`,
      { field: 'file' },
    );
  }
  if (version !== EXPORT_VERSION) {
    throw new ParleyError(
      'INVALID_INPUT',
      `This export is version ${JSON.stringify(version ?? null)}; this server reads version ${EXPORT_VERSION}.`,
      { field: 'file' },
    );
  }
}
