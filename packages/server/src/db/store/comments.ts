/**
 * Comments: writes. Reading lists lives in commentQueries.ts.
 *
 * Reply-count rule: a comment's `reply_count` is the number of its *direct* replies whose status
 * is visible to readers (NONE or APPROVED, see `VISIBLE_COMMENT_STATUSES`). It changes only when a
 * reply enters or leaves that set — created visible, approved from PREMOD, rejected, withheld — in
 * the same transaction as that change, so it always equals what the thread shows. The story's
 * counters by status (storyCounts.ts) are kept the same way.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Selectable } from 'kysely';
import { ParleyError } from '../../ParleyError';
import { inTransaction, isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import { isVisibleStatus } from '../schema';
import { adjustStoryCounts, reportedCountChange } from './storyCounts';
import { recordSpamLesson, withdrawSpamLessons } from './spamModel';
import { forgetAkismetChecks } from './akismetChecks';
import { forgetWebhookDeliveries } from './webhooks';
import type { AkismetJudgement } from '../../moderation/akismet';
import type { StoryCountChange } from './storyCounts';
import type {
  CommentRevisionsTable,
  CommentStatus,
  CommentTag,
  CommentsTable,
  HeldReason,
  ModerationDecisionsTable,
} from '../schema';

/** A comment as the resolvers see it. */
export interface Comment {
  id: string;
  storyId: string;
  authorId: string;
  parentId: string | null;
  bodySource: string;
  bodyHtml: string;
  status: CommentStatus;
  heldBecause: HeldReason[] | null;
  /** The local spam score when posted or last edited; null when none was taken. */
  spamScore: number | null;
  tags: CommentTag[];
  /** Likes: up votes. */
  reactionCount: number;
  downvoteCount: number;
  replyCount: number;
  reportCount: number;
  /** Reports a moderator has reviewed; more than this puts a published comment in REPORTED. */
  reviewedReportCount: number;
  clientMutationId: string | null;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

/** Maps a `comments` row to a {@link Comment}. */
export function toComment(row: Selectable<CommentsTable>): Comment {
  return {
    id: row.id,
    storyId: row.story_id,
    authorId: row.author_id,
    parentId: row.parent_id,
    bodySource: row.body_source,
    bodyHtml: row.body_html,
    status: row.status,
    heldBecause: parseJson<HeldReason[] | null>(row.held_because, null),
    spamScore: row.spam_score,
    tags: parseJson<CommentTag[]>(row.tags, []),
    reactionCount: row.reaction_count,
    downvoteCount: row.downvote_count,
    replyCount: row.reply_count,
    reportCount: row.report_count,
    reviewedReportCount: row.reviewed_report_count,
    clientMutationId: row.client_mutation_id,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    deletedAt: row.deleted_at,
  };
}

/** Whether readers see a comment with `status` (schema.ts, beside the statuses). */
export { isVisibleStatus };

/** A new comment, already rendered and moderated by the caller. */
export interface CreateCommentInput {
  storyId: string;
  authorId: string;
  parentId?: string | null;
  bodySource: string;
  bodyHtml: string;
  /** @default 'NONE' */
  status?: CommentStatus;
  heldBecause?: HeldReason[] | null;
  /** The local spam score and the text's fingerprint (store/spamModel.ts); none when omitted. */
  spam?: { score: number; fingerprint: string | null };
  /** What Akismet said, and the address and browser it judged (store/akismetChecks.ts). */
  akismet?: AkismetJudgement;
  tags?: CommentTag[];
  /** The client's id for this mutation; a repeat returns the first comment. */
  clientMutationId?: string | null;
  /** @default now */
  createdAt?: string;
}

/**
 * Creates a comment with its first revision and, when visible, bumps the parent's reply count —
 * one transaction. A `clientMutationId` this author already used returns that comment instead
 * (`created: false`), also when two retries race.
 */
export async function createComment(
  db: Db,
  input: CreateCommentInput,
): Promise<{ comment: Comment; created: boolean }> {
  const cmid = input.clientMutationId ?? null;
  const findExisting = async (trx: Db) => {
    const comment =
      cmid === null ? undefined : await findCommentByClientMutationId(trx, input.authorId, cmid);
    return comment && { comment, created: false };
  };
  // No lookup first: the insert below finds a retry itself (its conflict), and the resolver looks
  // for one only when something refuses the post — a read per post was a ninth of its queries.
  return inTransaction(db, async (trx) => {
    const createdAt = input.createdAt ?? isoTime();
    const status = input.status ?? 'NONE';
    // A reply's parent, locked and still there: its author may have deleted it since the caller
    // looked (its reply count must not move, nor a reply hang from nothing new).
    const parent = input.parentId ? await requireLockedLiveComment(trx, input.parentId) : undefined;
    // DO NOTHING on the (author, client mutation id) index: a racing twin waits for ours to
    // commit, inserts nothing, and reads ours below — no unique error, no aborted transaction.
    const row = await trx
      .insertInto('comments')
      .values({
        id: newId(),
        story_id: input.storyId,
        author_id: input.authorId,
        parent_id: input.parentId ?? null,
        body_source: input.bodySource,
        body_html: input.bodyHtml,
        status,
        held_because: input.heldBecause ? JSON.stringify(input.heldBecause) : null,
        spam_score: input.spam?.score ?? null,
        body_fingerprint: input.spam?.fingerprint ?? null,
        tags: JSON.stringify(input.tags ?? []),
        client_mutation_id: cmid,
        created_at: createdAt,
        published_at: isVisibleStatus(status) ? createdAt : null,
        site_id: sql<string>`(select site_id from stories where id = ${input.storyId})`,
        parent_author_id: parent?.authorId ?? null,
      })
      .onConflict((oc) => oc.columns(['author_id', 'client_mutation_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) {
      const raced = await findExisting(trx);
      if (raced === undefined) throw new Error('Comment conflict without an existing comment');
      return raced;
    }
    await addRevision(trx, row.id, input.bodySource, input.bodyHtml, createdAt);
    if (input.akismet !== undefined) {
      await trx
        .insertInto('akismet_checks')
        .values({
          comment_id: row.id,
          verdict: input.akismet.verdict,
          user_ip: input.akismet.userIp,
          user_agent: input.akismet.userAgent,
          created_at: createdAt,
        })
        .execute();
    }
    if (row.parent_id !== null && isVisibleStatus(status)) {
      await adjustReplyCount(trx, row.parent_id, 1);
    }
    const comment = toComment(row);
    await adjustStoryCounts(trx, [
      { storyId: row.story_id, status, delta: 1 },
      ...reportedCountChange(row.story_id, undefined, comment),
    ]);
    return { comment, created: true };
  });
}

async function addRevision(trx: Db, commentId: string, source: string, html: string, at: string) {
  await trx
    .insertInto('comment_revisions')
    .values({
      id: newId(),
      comment_id: commentId,
      body_source: source,
      body_html: html,
      created_at: at,
    })
    .execute();
}

async function adjustReplyCount(trx: Db, parentId: string, delta: 1 | -1): Promise<void> {
  await trx
    .updateTable('comments')
    .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
    .where('id', '=', parentId)
    .execute();
}

/** The comment an author already posted with `clientMutationId`, if any (a retried post). */
export async function findCommentByClientMutationId(
  db: Db,
  authorId: string,
  clientMutationId: string,
): Promise<Comment | undefined> {
  const row = await db
    .selectFrom('comments')
    .selectAll()
    .where('author_id', '=', authorId)
    .where('client_mutation_id', '=', clientMutationId)
    .executeTakeFirst();
  return row && toComment(row);
}

/**
 * The comment with `id`, or `NOT_FOUND`, its row locked until the transaction ends on PostgreSQL
 * (SQLite's writer holds the whole database), so that what a write changes is reckoned from the
 * state it changes. In a transaction only.
 */
async function requireLockedComment(trx: Db, id: string): Promise<Comment> {
  let q = trx.selectFrom('comments').selectAll().where('id', '=', id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (row === undefined) throw new ParleyError('NOT_FOUND', `No comment ${id}.`);
  return toComment(row);
}

/**
 * {@link requireLockedComment}, for a write that needs the comment still there: one its author
 * deleted (or erased with their account) is `NOT_FOUND`, whatever a caller read before the lock.
 */
async function requireLockedLiveComment(trx: Db, id: string): Promise<Comment> {
  const comment = await requireLockedComment(trx, id);
  if (comment.deletedAt !== null) throw deletedComment(id);
  return comment;
}

/** The error of a write to a deleted comment. */
export function deletedComment(id: string): ParleyError {
  return new ParleyError('NOT_FOUND', `Comment ${id} was deleted.`, { field: 'commentId' });
}

/** The comment with `id`, if any. */
export async function findCommentById(db: Db, id: string): Promise<Comment | undefined> {
  const row = await db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toComment(row);
}

/** The comment with `id`, or `NOT_FOUND`. */
export async function requireComment(db: Db, id: string): Promise<Comment> {
  const comment = await findCommentById(db, id);
  if (comment === undefined) throw new ParleyError('NOT_FOUND', `No comment ${id}.`);
  return comment;
}

/** Comments by ids, in no particular order (for batching loaders). */
export async function findCommentsByIds(db: Db, ids: readonly string[]): Promise<Comment[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('comments').selectAll().where('id', 'in', ids).execute();
  return rows.map(toComment);
}

/** A new body for a comment (already rendered and moderated by the caller). */
export interface EditCommentInput {
  commentId: string;
  bodySource: string;
  bodyHtml: string;
  /** A new status when the edit re-triggers moderation; the reply-count rule applies. */
  status?: CommentStatus;
  heldBecause?: HeldReason[] | null;
  /** The new text's spam score and fingerprint; omitted or null clears them (none was taken). */
  spam?: { score: number; fingerprint: string | null } | null;
}

/**
 * Replaces the body, stamps `edited_at` and keeps a revision, in one transaction. What the old
 * text taught the spam model is taken back: the text that taught it is gone.
 */
export function editComment(db: Db, input: EditCommentInput): Promise<Comment> {
  return inTransaction(db, async (trx) => {
    const editedAt = isoTime();
    // Locked first: what the edit changes in the Reported queue is from this state.
    // A delete that committed since the caller looked: nothing to edit (the text stays erased).
    const before = await requireLockedLiveComment(trx, input.commentId);
    await withdrawSpamLessons(trx, { commentIds: [input.commentId] });
    // Akismet judged the text that is going: a decision on the new one is not its to learn from.
    await forgetAkismetChecks(trx, { commentIds: [input.commentId] });
    const row = await trx
      .updateTable('comments')
      .set({
        body_source: input.bodySource,
        body_html: input.bodyHtml,
        edited_at: editedAt,
        spam_score: input.spam?.score ?? null,
        body_fingerprint: input.spam?.fingerprint ?? null,
        ...(input.heldBecause === undefined
          ? {}
          : { held_because: input.heldBecause ? JSON.stringify(input.heldBecause) : null }),
      })
      .where('id', '=', input.commentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await addRevision(trx, row.id, input.bodySource, input.bodyHtml, editedAt);
    const edited = toComment(row);
    const counted = reportedCountChange(row.story_id, before, edited);
    if (input.status !== undefined && input.status !== row.status) {
      // The system's hold on an edit: no moderator, so no review and no decision recorded.
      return (
        await changeStatus(
          trx,
          { commentId: row.id, status: input.status, moderatorId: null },
          counted,
        )
      ).comment;
    }
    await adjustStoryCounts(trx, counted);
    return edited;
  });
}

/**
 * A reader deletes their own comment. Deleting means gone, as when an account is erased
 * (accountDeletion.ts): the text and every revision are erased at once, the data download leaves
 * it out, it leaves the moderation queues and the story's counts, and its parent loses a visible
 * reply. The row stays, with `deleted_at`: a tombstone in the thread while it has visible replies
 * (they keep their place), and the moment of the deletion in the comment's history for
 * moderators (`Comment.deletedAt`). Its reports stay too. A comment already deleted is answered
 * as it is (`deleted: false`): a retried delete is not an error.
 */
export function deleteOwnComment(
  db: Db,
  commentId: string,
  authorId: string,
  now: Date = new Date(),
): Promise<{ comment: Comment; deleted: boolean }> {
  return inTransaction(db, async (trx) => {
    // Locked first (as an edit and a decision take it): what leaves the counters is this state.
    const before = await requireLockedComment(trx, commentId);
    if (before.authorId !== authorId) {
      throw new ParleyError('FORBIDDEN', 'Only its author can delete a comment.');
    }
    if (before.deletedAt !== null) return { comment: before, deleted: false };
    await trx.deleteFrom('comment_revisions').where('comment_id', '=', commentId).execute();
    // What its text taught the spam filter goes with it (folded out by the next fold).
    await withdrawSpamLessons(trx, { commentIds: [commentId] });
    await forgetAkismetChecks(trx, { commentIds: [commentId] });
    await forgetWebhookDeliveries(trx, { commentIds: [commentId] });
    const row = await trx
      .updateTable('comments')
      .set({ body_source: '', body_html: '', held_because: null, deleted_at: isoTime(now) })
      .where('id', '=', commentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (row.parent_id !== null && isVisibleStatus(before.status)) {
      await adjustReplyCount(trx, row.parent_id, -1);
    }
    await adjustStoryCounts(trx, [
      { storyId: row.story_id, status: before.status, delta: -1 },
      ...reportedCountChange(row.story_id, before, undefined),
    ]);
    return { comment: toComment(row), deleted: true };
  });
}

/** A moderation decision to apply. */
export interface SetCommentStatusInput {
  commentId: string;
  status: CommentStatus;
  /** Who decided; null for the system (e.g. the report threshold). */
  moderatorId: string | null;
  /**
   * Only change a comment still in this status (else nothing happens and the current comment is
   * returned): the system's report-threshold hold must not undo a moderator's approval that
   * landed meanwhile. @default any status
   */
  expectedStatus?: CommentStatus;
  /** Why it is held now (`['REPORTS']`); unchanged when omitted. */
  heldBecause?: HeldReason[] | null;
  /** Why a moderator rejected it (`RejectionReason`), kept with the decision. */
  reason?: string | null;
  /** Whether the decision teaches the spam model (a moderator's; store/spamModel.ts). */
  teachSpam?: boolean;
}

/**
 * Sets a comment's status, records the decision and adjusts the parent's reply count when the
 * comment's visibility changes — one transaction. Returns the comment and its previous status.
 */
export function setCommentStatus(
  db: Db,
  input: SetCommentStatusInput,
): Promise<{ comment: Comment; previousStatus: CommentStatus }> {
  return inTransaction(db, async (trx) => {
    const result = await changeStatus(trx, input);
    // Nothing changed (no longer in the expected status): nothing was decided either.
    if (!result.changed) return result;
    if (input.teachSpam === true) {
      await recordSpamLesson(trx, result.comment, {
        status: input.status,
        reason: input.reason ?? null,
      });
    }
    await trx
      .insertInto('moderation_decisions')
      .values({
        id: newId(),
        comment_id: input.commentId,
        moderator_id: input.moderatorId,
        status: input.status,
        reason: input.reason ?? null,
        created_at: isoTime(),
      })
      .execute();
    return result;
  });
}

/**
 * The comment's row locked first (requireLockedComment), then one update on its old status, so two
 * moderators deciding at once on PostgreSQL cannot both apply the same visibility change to the
 * parent's count or the counters (the status condition stays as a guard). It writes the status,
 * the reason it is held (when given) and, for a moderator's decision, that every report so far
 * was reviewed (see the REPORTED queue).
 */
async function changeStatus(
  trx: Db,
  input: SetCommentStatusInput,
  /** Counter changes of the caller's to apply with these (counters last, in one order). */
  pending: readonly StoryCountChange[] = [],
) {
  // Deleted: out of every queue and count, so no decision moves it (nor its parent's count).
  const current = await requireLockedLiveComment(trx, input.commentId);
  if (input.expectedStatus !== undefined && current.status !== input.expectedStatus) {
    await adjustStoryCounts(trx, pending);
    return { comment: current, previousStatus: current.status, changed: false };
  }
  const row = await trx
    .updateTable('comments')
    .set((eb) => ({
      status: input.status,
      ...(input.heldBecause === undefined
        ? {}
        : {
            held_because: input.heldBecause === null ? null : JSON.stringify(input.heldBecause),
          }),
      ...(input.moderatorId === null ? {} : { reviewed_report_count: eb.ref('report_count') }),
      // Published now, by an approval: news to a reader catching up (commentsSince).
      ...(!isVisibleStatus(current.status) && isVisibleStatus(input.status)
        ? { published_at: isoTime() }
        : {}),
    }))
    .where('id', '=', input.commentId)
    .where('status', '=', current.status)
    .returningAll()
    .executeTakeFirst();
  // Locked above: the status cannot have moved since.
  if (row === undefined) throw new Error(`Comment ${input.commentId} changed under its lock`);
  const wasVisible = isVisibleStatus(current.status);
  if (row.parent_id !== null && wasVisible !== isVisibleStatus(input.status)) {
    await adjustReplyCount(trx, row.parent_id, wasVisible ? -1 : 1);
  }
  const changed = toComment(row);
  // Live (requireLockedLiveComment): counted under its status until now.
  await adjustStoryCounts(trx, [
    ...pending,
    { storyId: row.story_id, status: current.status, delta: -1 },
    { storyId: row.story_id, status: input.status, delta: 1 },
    ...reportedCountChange(row.story_id, current, changed),
  ]);
  return { comment: changed, previousStatus: current.status, changed: true };
}

/**
 * Records the lesson of a decision that changed no status (rejected before, rejected as spam
 * now), with the comment locked and still in `status` (a decision that moved it meanwhile
 * teaches its own lesson, not this one). Returns whether the wanted lesson changed.
 */
export function teachSpamDecision(
  db: Db,
  commentId: string,
  decision: { status: CommentStatus; reason: string | null },
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const comment = await requireLockedLiveComment(trx, commentId);
    if (comment.status !== decision.status) return false;
    return recordSpamLesson(trx, comment, decision);
  });
}

/** Replaces a comment's tags. */
export async function setCommentTags(
  db: Db,
  commentId: string,
  tags: CommentTag[],
): Promise<Comment> {
  const row = await db
    .updateTable('comments')
    .set({ tags: JSON.stringify([...new Set(tags)]) })
    .where('id', '=', commentId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw new ParleyError('NOT_FOUND', `No comment ${commentId} to tag.`);
  return toComment(row);
}

/**
 * Pins `commentId` above its story's thread, one per story: the story names it, which is all a
 * pin is (the API shows it as the comment's PINNED tag, never stored with the tags, so no write
 * of the tags can lose or resurrect a pin). The story's row is written before it is read, so two
 * moderators pinning at once wait for each other (PostgreSQL's row lock; SQLite writes one at a
 * time) and each learns which comment it displaced. `changed` is false when it was pinned already.
 */
export function pinComment(
  db: Db,
  storyId: string,
  commentId: string,
): Promise<{ changed: boolean; previous: string | null }> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable('stories')
      .set((eb) => ({ pinned_comment_id: eb.ref('pinned_comment_id') }))
      .where('id', '=', storyId)
      .execute();
    const { pinned_comment_id: previous } = await trx
      .selectFrom('stories')
      .select('pinned_comment_id')
      .where('id', '=', storyId)
      .executeTakeFirstOrThrow();
    if (previous === commentId) return { changed: false, previous };
    await trx
      .updateTable('stories')
      .set({ pinned_comment_id: commentId })
      .where('id', '=', storyId)
      .execute();
    return { changed: true, previous };
  });
}

/**
 * Unpins `commentId` if it is its story's pinned comment (compare-and-set: an unpin that raced
 * another moderator's pin of a different comment leaves that pin alone). True when it was.
 */
export async function unpinComment(db: Db, storyId: string, commentId: string): Promise<boolean> {
  const result = await db
    .updateTable('stories')
    .set({ pinned_comment_id: null })
    .where('id', '=', storyId)
    .where('pinned_comment_id', '=', commentId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every body a comment has had, oldest first (the first is the original). */
export function listRevisions(
  db: Db,
  commentId: string,
): Promise<Selectable<CommentRevisionsTable>[]> {
  return db
    .selectFrom('comment_revisions')
    .selectAll()
    .where('comment_id', '=', commentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A moderator's (or the system's) decision on a comment, as stored. */
export type ModerationDecisionRow = Selectable<ModerationDecisionsTable>;

/** The decisions taken on a comment, oldest first. */
export function listDecisions(db: Db, commentId: string): Promise<ModerationDecisionRow[]> {
  return db
    .selectFrom('moderation_decisions')
    .selectAll()
    .where('comment_id', '=', commentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
