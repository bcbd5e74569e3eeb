/** Comments: reading — threads, replies and the moderation queues, with Relay paging. */
import { sql } from 'kysely';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../inTransaction';
import { PENDING_SQL, REPORTABLE_SQL, VISIBLE_COMMENT_STATUSES } from '../schema';
import type { CommentStatus, Database } from '../schema';
import { toComment } from './comments';
import type { Comment } from './comments';
import { paginate } from './paginate';
import { REPORTED_COUNTER, statusCounts, storyStatusCounts } from './storyCounts';
import type { CountedKey } from './storyCounts';
import type { Connection, PageArgs, SortKey } from './paginate';

/** Orders of a thread. */
export const COMMENT_SORTS = [
  'CREATED_AT_DESC',
  'CREATED_AT_ASC',
  'REPLIES_DESC',
  'REACTIONS_DESC',
  'BEST',
] as const;
/** An order of a thread. */
export type CommentSort = (typeof COMMENT_SORTS)[number];

/** Moderation queues. */
export const MODERATION_QUEUES = [
  'PENDING',
  'REPORTED',
  'UNMODERATED',
  'APPROVED',
  'REJECTED',
] as const;
/** A moderation queue. */
export type ModerationQueue = (typeof MODERATION_QUEUES)[number];

interface Keyed {
  id: string;
  created_at: string;
  reply_count: number;
  reaction_count: number;
  best_rank: number;
}

const id = (direction: 'asc' | 'desc'): SortKey<Keyed> => ({
  column: 'comments.id',
  field: 'id',
  direction,
});
const createdAt = (direction: 'asc' | 'desc'): SortKey<Keyed> => ({
  column: 'comments.created_at',
  field: 'created_at',
  direction,
});

// Every order ends with the id, so ties (same time, same count) still have one total order and
// a cursor never skips or repeats a row. Counts can change between pages (a reaction moves a
// comment); a reader then may miss or re-see that one comment, as with any live ranking.
const SORT_KEYS: Record<CommentSort, SortKey<Keyed>[]> = {
  CREATED_AT_DESC: [createdAt('desc'), id('desc')],
  CREATED_AT_ASC: [createdAt('asc'), id('asc')],
  REPLIES_DESC: [
    { column: 'comments.reply_count', field: 'reply_count', direction: 'desc' },
    createdAt('desc'),
    id('desc'),
  ],
  REACTIONS_DESC: [
    { column: 'comments.reaction_count', field: 'reaction_count', direction: 'desc' },
    createdAt('desc'),
    id('desc'),
  ],
  BEST: [
    { column: 'comments.best_rank', field: 'best_rank', direction: 'desc' },
    createdAt('desc'),
    id('desc'),
  ],
};

/**
 * What a reader's thread lists: visible comments, and tombstones — comments removed (rejected,
 * withheld, or erased with their author's account) that still have visible replies, so those
 * replies keep their place. The API empties a tombstone's body and author (`Comment.removed`).
 */
export function readerVisible(eb: ExpressionBuilder<Database, 'comments'>) {
  return eb.or([
    eb.and([
      eb('comments.status', 'in', VISIBLE_COMMENT_STATUSES),
      eb('comments.deleted_at', 'is', null),
    ]),
    eb('comments.reply_count', '>', 0),
  ]);
}

/** What thread to list. */
export interface CommentListFilter {
  storyId: string;
  /** A comment id for its replies; null for top-level comments only; undefined for all. */
  parentId?: string | null;
  /**
   * Statuses listed. The default — what readers see — is the visible statuses (NONE, APPROVED)
   * plus tombstones (see {@link readerVisible}).
   * @default the visible statuses and tombstones
   */
  statuses?: readonly CommentStatus[];
  /** Only comments tagged FEATURED. */
  featured?: boolean;
  /** @default 'CREATED_AT_DESC' */
  orderBy?: CommentSort;
}

/** A story's comments (or one comment's replies) in the given order, one page. */
export function listComments(
  db: Db,
  filter: CommentListFilter,
  page: PageArgs,
): Promise<Connection<Comment>> {
  let q = db.selectFrom('comments').selectAll().where('story_id', '=', filter.storyId);
  q =
    filter.statuses || filter.featured
      ? q
          .where('status', 'in', filter.statuses ?? VISIBLE_COMMENT_STATUSES)
          .where('deleted_at', 'is', null)
      : q.where(readerVisible);
  if (filter.parentId === null) q = q.where('parent_id', 'is', null);
  else if (filter.parentId !== undefined) q = q.where('parent_id', '=', filter.parentId);
  // Tags are a JSON array of fixed words; a quoted LIKE is exact for them and works on both engines.
  if (filter.featured === true) q = q.where(sql<boolean>`tags like '%"FEATURED"%'`);
  return paginate(q, SORT_KEYS[filter.orderBy ?? 'CREATED_AT_DESC'], page, toComment);
}

/** Replies to one comment, oldest first by default. */
export async function listReplies(
  db: Db,
  parentId: string,
  page: PageArgs,
  orderBy: CommentSort = 'CREATED_AT_ASC',
): Promise<Connection<Comment>> {
  const parent = await db
    .selectFrom('comments')
    .select('story_id')
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (parent === undefined) return { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
  return listComments(db, { storyId: parent.story_id, parentId, orderBy }, page);
}

/**
 * A story's comments published (posted visible, or approved) at or after `since` and visible
 * still, replies included, in the order they were published, at most `limit`: what a reader
 * whose live connection dropped missed meanwhile. One ordered range of the story's
 * (published_at, id) index: never a sort of everything since `since`.
 */
export async function listCommentsSince(
  db: Db,
  storyId: string,
  since: Date,
  limit: number,
): Promise<Comment[]> {
  const rows = await db
    .selectFrom('comments')
    .selectAll()
    .where('story_id', '=', storyId)
    .where('published_at', '>=', since.toISOString())
    .where('status', 'in', VISIBLE_COMMENT_STATUSES)
    .where('deleted_at', 'is', null)
    .orderBy('published_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toComment);
}

/** Whose latest comments: one site's, or one story's. */
export type RecentScope = { siteId: string } | { storyId: string };

/**
 * The latest `limit` comments readers can see of a site or a story, the last published first
 * (recent.js). A story's are read down its `(story_id, published_at, id)` index, a site's down
 * `(site_id, published_at, id)` (0018_recent_comments): a quiet site costs what a busy one does.
 */
export async function listRecentComments(
  db: Db,
  scope: RecentScope,
  limit: number,
): Promise<Comment[]> {
  let q = db
    .selectFrom('comments')
    .selectAll()
    .where('published_at', 'is not', null)
    .where('status', 'in', VISIBLE_COMMENT_STATUSES)
    .where('deleted_at', 'is', null);
  q =
    'storyId' in scope
      ? q.where('story_id', '=', scope.storyId)
      : q.where('site_id', '=', scope.siteId);
  const rows = await q.orderBy('published_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toComment);
}

/**
 * The latest `limit` published replies to `userId`'s comments (their private feed), the last
 * published first: not their own replies, nor those of users they ignore, nor replies to a
 * comment of theirs they deleted. Read down `(parent_author_id, published_at, id)`
 * (0020_replies_feed), newest first, however many replies they ever had.
 */
export async function listRepliesTo(db: Db, userId: string, limit: number): Promise<Comment[]> {
  const rows = await db
    .selectFrom('comments as reply')
    .innerJoin('comments as parent', 'parent.id', 'reply.parent_id')
    .selectAll('reply')
    .where('reply.parent_author_id', '=', userId)
    .where('parent.deleted_at', 'is', null)
    .where('reply.author_id', '!=', userId)
    .where('reply.author_id', 'not in', (eb) =>
      eb.selectFrom('ignored_users').select('ignored_id').where('user_id', '=', userId),
    )
    .where('reply.published_at', 'is not', null)
    .where('reply.status', 'in', VISIBLE_COMMENT_STATUSES)
    .where('reply.deleted_at', 'is', null)
    .orderBy('reply.published_at', 'desc')
    .orderBy('reply.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toComment);
}

/** Where to look in the queues. */
export interface QueueFilter {
  siteId?: string | null;
  storyId?: string | null;
}

// Comments of a site or story (joining stories only when the site matters).
function scoped(db: Db, filter: QueueFilter) {
  let q = db.selectFrom('comments').where('comments.deleted_at', 'is', null);
  if (filter.storyId !== undefined && filter.storyId !== null) {
    q = q.where('comments.story_id', '=', filter.storyId);
  }
  if (filter.siteId !== undefined && filter.siteId !== null) {
    const siteId = filter.siteId;
    q = q.where('comments.story_id', 'in', (eb) =>
      eb.selectFrom('stories').select('stories.id').where('stories.site_id', '=', siteId),
    );
  }
  return q;
}

/**
 * The SQL condition of each queue (PENDING: held; REPORTED: published — approved too — with
 * reports no moderator has reviewed yet, or unreviewed with a suspect word: "published but
 * queued as reported", with no reporter).
 */
export const QUEUE_SQL: Record<ModerationQueue, ReturnType<typeof sql<boolean>>> = {
  // Word for word the partial index's condition (0014_big_stories), so the planners use it.
  PENDING: sql<boolean>`${sql.raw(PENDING_SQL)}`,
  // The first term is the partial index's condition (0014_big_stories): implied by the rest, but
  // written out so that the planners use that index.
  REPORTED: sql<boolean>`(${sql.raw(REPORTABLE_SQL)} and ((comments.status in ('NONE', 'APPROVED') and comments.report_count > comments.reviewed_report_count) or (comments.status = 'NONE' and comments.held_because like '%"SUSPECT_WORD"%')))`,
  UNMODERATED: sql<boolean>`comments.status = 'NONE'`,
  APPROVED: sql<boolean>`comments.status = 'APPROVED'`,
  REJECTED: sql<boolean>`comments.status = 'REJECTED'`,
};

/** A moderation queue in the given order (newest first by default), one page. */
export function moderationQueue(
  db: Db,
  queue: ModerationQueue,
  filter: QueueFilter,
  page: PageArgs,
  orderBy: CommentSort = 'CREATED_AT_DESC',
  /** Only this comment (an email's Moderate link), when it is in the queue. */
  commentId?: string | null,
): Promise<Connection<Comment>> {
  let q = scoped(db, filter).selectAll('comments').where(QUEUE_SQL[queue]);
  if (commentId != null) q = q.where('comments.id', '=', commentId);
  return paginate(q, SORT_KEYS[orderBy], page, toComment);
}

/**
 * How many comments wait in each queue, from the stories' counters (storyCounts.ts): a few rows
 * read whatever the size of the stories.
 */
export async function moderationCounts(
  db: Db,
  filter: QueueFilter,
): Promise<Record<ModerationQueue, number>> {
  const storyId = filter.storyId ?? null;
  const siteId = filter.siteId ?? null;
  const byStatus =
    storyId !== null
      ? ((await storyStatusCounts(db, [storyId])).get(storyId) ?? {})
      : await statusCounts(db, siteId);
  // A site filter with a story filter: the story's counts only if it is the site's.
  const inSite =
    storyId === null || siteId === null
      ? true
      : (await db
          .selectFrom('stories')
          .select('id')
          .where('id', '=', storyId)
          .where('site_id', '=', siteId)
          .executeTakeFirst()) !== undefined;
  const of = (key: CountedKey) => (inSite ? (byStatus[key] ?? 0) : 0);
  return {
    PENDING: of('PREMOD') + of('SYSTEM_WITHHELD'),
    REPORTED: of(REPORTED_COUNTER),
    UNMODERATED: of('NONE'),
    APPROVED: of('APPROVED'),
    REJECTED: of('REJECTED'),
  };
}
