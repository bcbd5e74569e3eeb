/**
 * The organization's spam model in the database, its lessons, and the scores it gives
 * (moderation/spam.ts).
 *
 * Lessons come from moderators' decisions only: a comment rejected as spam teaches "spam", an
 * approved one "ham"; a later approval of a spam lesson moves it, a plain rejection takes back a
 * "ham" (not a "spam": rude is not proof of fine), and an edit, a deletion or the erasure of the
 * author's account takes the lesson back (the text that taught it is gone).
 *
 * A decision only writes its comment's row in `spam_lessons`: the lesson wanted, beside the one
 * the model holds (`applied_*`), marked `pending`. {@link foldSpamLessons} then brings the model
 * to the wanted lessons, in a transaction of its own: it unlearns exactly the tokens it learned
 * (never text read again, which today's parser might read differently), learns the new ones,
 * writes the model with a new stamp and stamps the organization row. So a decision takes no lock
 * beyond its comment's, no lesson can drift the model's counts, and the model's (large) row is
 * written once per fold, not once per decision. The server folds after each decision (in the
 * background) and hourly; every process reads the stamp with the settings it reads anyway and
 * decodes the model again only when it changed, so all instances score with the same one.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Naivebayes } from 'classificator';
import { inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { CommentStatus, SpamLabel } from '../schema';
import { commentIdsOf, isEmptyScope } from './commentScope';
import type { CommentScope } from './commentScope';
import {
  REPEAT_WINDOW_MS,
  WEIGHTS,
  modelText,
  newSpamModel,
  readSpamText,
  spamScore,
  storedSpamModel,
  withLogOdds,
} from '../../moderation/spam';

/** Each database's decoded model, by the stamp it has (one decode per process and stamp). */
const decoded = new WeakMap<object, { stamp: string; model: Promise<Naivebayes | undefined> }>();

/**
 * The model with `stamp` (the organization row's), decoded once per process and stamp (callers
 * arriving while it decodes share the decoding); undefined before the first lesson.
 */
export function spamModel(db: Db, stamp: string): Promise<Naivebayes | undefined> {
  if (stamp === '') return Promise.resolve(undefined);
  const hit = decoded.get(db);
  if (hit !== undefined && hit.stamp === stamp) return hit.model;
  const model = db
    .selectFrom('spam_models')
    .select('model')
    .executeTakeFirst()
    .then((row) => (row === undefined ? undefined : storedSpamModel(row.model)));
  decoded.set(db, { stamp, model });
  // A failed read is not kept: the next score tries again.
  model.catch(() => {
    if (decoded.get(db)?.model === model) decoded.delete(db);
  });
  return model;
}

/** What {@link scoreComment} needs besides the database. */
export interface ScoreCommentInput {
  /** The Markdown source as it will be stored. */
  source: string;
  storyId: string;
  /** When the author's account was made. */
  authorCreatedAt: string;
  /** `organization.spam_model_stamp`. */
  modelStamp: string;
  now: Date;
  /** Other evidence, in log-odds (Akismet's verdict). @default 0 */
  extraLogOdds?: number;
  /**
   * The threshold (0 to 1) the score is for. The same text on other stories (a query) is looked
   * for only when it could carry the score to it; omitted, always (the bench's full scores).
   */
  threshold?: number;
}

/** The comment's spam score (0 to 1) and the fingerprint to store with it. */
export async function scoreComment(
  db: Db,
  input: ScoreCommentInput,
): Promise<{ score: number; fingerprint: string | null }> {
  const text = readSpamText(input.source);
  const model = await spamModel(db, input.modelStamp);
  const accountAgeMs = input.now.getTime() - new Date(input.authorCreatedAt).getTime();
  const extra = input.extraLogOdds ?? 0;
  let score = spamScore(text, { accountAgeMs, repeatedOnStories: 0 }, model, extra);
  // The repeat signal adds at most WEIGHTS.repeatedMore: most comments are far enough below the
  // threshold that it could not change the verdict, and are spared its query (issue 15's writes).
  if (
    text.fingerprint !== null &&
    (input.threshold === undefined || withLogOdds(score, WEIGHTS.repeatedMore) >= input.threshold)
  ) {
    const repeatedOnStories = await storiesWithText(db, text.fingerprint, input.storyId, input.now);
    if (repeatedOnStories > 0) {
      score = spamScore(text, { accountAgeMs, repeatedOnStories }, model, extra);
    }
  }
  // A model whose counts went wrong must not hold every comment (NaN is not below a threshold).
  if (!Number.isFinite(score)) throw new Error(`The spam score is not a number (${score})`);
  return { score, fingerprint: text.fingerprint };
}

/** Other stories (two at most: that is all the signal asks) with the same text this week. */
async function storiesWithText(
  db: Db,
  fingerprint: string,
  storyId: string,
  now: Date,
): Promise<number> {
  const since = new Date(now.getTime() - REPEAT_WINDOW_MS).toISOString();
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('comments')
        .select('story_id')
        .distinct()
        .where('body_fingerprint', '=', fingerprint)
        .where('created_at', '>', since)
        .where('story_id', '<>', storyId)
        .limit(2)
        .as('other'),
    )
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A moderator's decision, as far as the spam model cares. */
export interface SpamDecision {
  status: CommentStatus;
  /** Why it was rejected (`RejectionReason`); null for none. */
  reason: string | null;
}

/**
 * Records what a moderator's decision on a comment teaches (see the header), in the decision's
 * transaction, after the caller locked the comment. Returns whether the wanted lesson changed.
 */
export async function recordSpamLesson(
  trx: Db,
  comment: { id: string; bodySource: string },
  decision: SpamDecision,
): Promise<boolean> {
  // Locked (PostgreSQL): a fold deleting this row commits first and the row reads as gone, or
  // waits for this decision and skips the row (SKIP LOCKED) — never an update of a deleted row.
  let read = trx
    .selectFrom('spam_lessons')
    .select(['label', 'tokens'])
    .where('comment_id', '=', comment.id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) read = read.forUpdate();
  const current = await read.executeTakeFirst();
  let label: SpamLabel | null;
  if (decision.status === 'APPROVED') label = 'ham';
  else if (decision.status === 'REJECTED' && decision.reason === 'SPAM') label = 'spam';
  else if (decision.status === 'REJECTED' && current?.label === 'ham') label = null;
  else return false;
  const tokens = modelText(readSpamText(comment.bodySource).tokens);
  // A text with no tokens (emoji, one letter) teaches nothing: the library would count a lesson
  // of no words, and its counts break when such a lesson is taken back.
  if (tokens === '') label = null;
  if (current === undefined) {
    if (label === null) return false;
    const row = { label, tokens, pending: 1, updated_at: isoTime() };
    await trx
      .insertInto('spam_lessons')
      .values({ comment_id: comment.id, ...row })
      .onConflict((oc) => oc.column('comment_id').doUpdateSet(row))
      .execute();
    return true;
  }
  if (current.label === label && (label === null || current.tokens === tokens)) return false;
  await trx
    .updateTable('spam_lessons')
    .set({ label, tokens: label === null ? '' : tokens, pending: 1, updated_at: isoTime() })
    .where('comment_id', '=', comment.id)
    .execute();
  return true;
}

/**
 * Takes back the lessons of comments whose text is going (an edit, a deletion, an erased
 * account), in the caller's transaction: `commentIds`, or every comment by `authorId`.
 */
export async function withdrawSpamLessons(trx: Db, which: CommentScope): Promise<void> {
  if (isEmptyScope(which)) return;
  await trx
    .updateTable('spam_lessons')
    .set({ label: null, tokens: '', pending: 1, updated_at: isoTime() })
    .where('comment_id', 'in', commentIdsOf(trx, which))
    .where((eb) => eb.or([eb('label', 'is not', null), eb('applied_label', 'is not', null)]))
    .execute();
}

/**
 * Brings the model to the wanted lessons (see the header); returns how many lessons it folded.
 * Safe to run from several places at once: on PostgreSQL the model's row is locked for the fold
 * and lessons being written right now are skipped (SKIP LOCKED: no fold waits on a decision, so
 * none can deadlock with one) and folded by the next run; SQLite writes one transaction at a
 * time.
 */
export async function foldSpamLessons(db: Db): Promise<number> {
  const any = await db
    .selectFrom('spam_lessons')
    .select('comment_id')
    .where('pending', '=', 1)
    .limit(1)
    .executeTakeFirst();
  if (any === undefined) return 0;
  return inTransaction(db, async (trx) => {
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const organization = await trx.selectFrom('organization').select('id').executeTakeFirst();
    // Not installed: no moderators, so no lessons either.
    if (organization === undefined) return 0;
    await trx
      .insertInto('spam_models')
      .values({ organization_id: organization.id, model: '', stamp: '', updated_at: isoTime() })
      .onConflict((oc) => oc.column('organization_id').doNothing())
      .execute();
    let stored = trx
      .selectFrom('spam_models')
      .select('model')
      .where('organization_id', '=', organization.id);
    if (postgres) stored = stored.forUpdate();
    const { model: json } = await stored.executeTakeFirstOrThrow();
    let lessons = trx.selectFrom('spam_lessons').selectAll().where('pending', '=', 1);
    if (postgres) lessons = lessons.forUpdate().skipLocked();
    const rows = await lessons.execute();
    if (rows.length === 0) return 0;
    const model = json === '' ? newSpamModel() : storedSpamModel(json);
    for (const row of rows) {
      if (row.applied_label !== null) {
        // Every applied lesson is in the model: a class missing means its counts went wrong,
        // which must be seen (the fold rolls back, and the error is logged), not skipped.
        if (!model.categories[row.applied_label]) {
          throw new Error(`The spam model has no ${row.applied_label} lesson to take back`);
        }
        model.unlearn(row.applied_tokens, row.applied_label);
      }
      if (row.label !== null && row.tokens !== '') model.learn(row.tokens, row.label);
    }
    forgetUnusedWords(model);
    const forgotten = rows.filter((row) => row.label === null).map((row) => row.comment_id);
    if (forgotten.length > 0) {
      await trx.deleteFrom('spam_lessons').where('comment_id', 'in', forgotten).execute();
    }
    for (const row of rows.filter((r) => r.label !== null)) {
      await trx
        .updateTable('spam_lessons')
        .set({ applied_label: row.label, applied_tokens: row.tokens, pending: 0 })
        .where('comment_id', '=', row.comment_id)
        .execute();
    }
    const stamp = newId();
    await trx
      .updateTable('spam_models')
      .set({ model: model.toJson(), stamp, updated_at: isoTime() })
      .where('organization_id', '=', organization.id)
      .execute();
    await trx
      .updateTable('organization')
      .set({ spam_model_stamp: stamp })
      .where('id', '=', organization.id)
      .execute();
    return rows.length;
  });
}

/**
 * Drops the words no lesson holds any more: unlearning leaves them at a count of 0, and a word
 * of an erased comment must not stay in the model by its name.
 */
function forgetUnusedWords(model: Naivebayes): void {
  model.vocabulary = Object.fromEntries(
    Object.entries(model.vocabulary).filter(([, count]) => count > 0),
  );
  model.vocabularySize = Object.keys(model.vocabulary).length;
}

/** Each database's fold in progress, and whether another was asked for meanwhile. */
const folding = new WeakMap<object, { again: boolean; done: Promise<void> }>();

/**
 * Folds soon, in the background: one fold at a time per process and database, and one more
 * after it when asked for meanwhile (the decisions it did not see). Failures go to `onError`;
 * the hourly fold catches up.
 */
export function foldSpamLessonsSoon(db: Db, onError: (error: unknown) => void): Promise<void> {
  const running = folding.get(db);
  if (running !== undefined) {
    running.again = true;
    return running.done;
  }
  const state = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await foldSpamLessons(db).catch(onError);
      } while (state.again);
    } finally {
      folding.delete(db);
    }
  })();
  folding.set(db, state);
  return state.done;
}

/** The model's lessons by class (tests and the bench read this). */
export async function spamLessons(db: Db): Promise<{ spam: number; ham: number }> {
  const row = await db.selectFrom('spam_models').select('model').executeTakeFirst();
  if (row === undefined || row.model === '') return { spam: 0, ham: 0 };
  const model = storedSpamModel(row.model);
  return { spam: model.docCount['spam'] ?? 0, ham: model.docCount['ham'] ?? 0 };
}
