import { testBox } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import type { Db } from '../inTransaction';
import {
  MIN_LESSONS,
  NEW_ACCOUNT_MS,
  modelText,
  newSpamModel,
  readSpamText,
  storedSpamModel,
} from '../../moderation/spam';
import {
  createComment,
  deleteOwnComment,
  editComment,
  setCommentStatus,
  teachSpamDecision,
} from './comments';
import { deleteAccount } from './accountDeletion';
import { getOrganization, install } from './organization';
import { foldSpamLessons, scoreComment, spamLessons, spamModel } from './spamModel';
import { findOrCreateStory } from './stories';
import { createUser } from './users';

const PILLS = 'cheap pills best price online pharmacy';
const BUDGET = 'the budget vote next week will be close';

/** The model's counts, comparable: what a model that learned exactly `lessons` holds. */
function counts(json: string) {
  if (json === '') return counts(newSpamModel().toJson());
  const model = storedSpamModel(json);
  return {
    docCount: model.docCount,
    wordCount: model.wordCount,
    wordFrequencyCount: model.wordFrequencyCount,
    vocabulary: model.vocabulary,
    vocabularySize: model.vocabularySize,
  };
}
function learnedFrom(lessons: readonly (readonly [string, 'spam' | 'ham'])[]) {
  const model = newSpamModel();
  for (const [body, label] of lessons) model.learn(modelText(readSpamText(body).tokens), label);
  return counts(model.toJson());
}

describe.each(testDialects())('the spam model on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let adminId: string;
  let authorId: string;
  let storyIds: string[];

  beforeEach(async () => {
    const installed = await install(
      t.db,
      {
        organization: {
          name: 'News',
          contactEmail: 'team@news.example',
          url: 'https://news.example',
        },
        site: {
          name: 'News',
          url: 'https://news.example',
          allowedOrigins: ['https://news.example'],
        },
        admin: { email: 'admin@news.example', username: 'admin', passwordHash: 'hash' },
      },
      testBox,
    );
    adminId = installed.admin.id;
    authorId = (
      await createUser(t.db, { username: 'writer', email: 'w@news.example', passwordHash: 'hash' })
    ).id;
    storyIds = [];
    for (const path of ['a', 'b', 'c']) {
      const { story } = await findOrCreateStory(t.db, {
        siteId: installed.site.id,
        url: `https://news.example/${path}`,
        title: path,
      });
      storyIds.push(story.id);
    }
  });

  const score = async (db: Db, source: string, storyId = storyIds[0]!) =>
    scoreComment(db, {
      source,
      storyId,
      authorCreatedAt: new Date(Date.now() - 30 * NEW_ACCOUNT_MS).toISOString(),
      modelStamp: (await getOrganization(db))!.spamModelStamp,
      now: new Date(),
    });
  const post = async (body: string, storyId = storyIds[0]!, createdAt?: string) =>
    (
      await createComment(t.db, {
        storyId,
        authorId,
        bodySource: body,
        bodyHtml: body,
        status: 'PREMOD',
        spam: { score: 0.5, fingerprint: (await score(t.db, body, storyId)).fingerprint },
        ...(createdAt ? { createdAt } : {}),
      })
    ).comment.id;
  const decide = (commentId: string, status: 'APPROVED' | 'REJECTED', reason: string | null) =>
    setCommentStatus(t.db, { commentId, status, moderatorId: adminId, reason, teachSpam: true });
  const model = async () =>
    counts((await t.db.selectFrom('spam_models').select('model').executeTakeFirst())?.model ?? '');
  const lessonRows = () =>
    t.db.selectFrom('spam_lessons').select(['comment_id', 'label', 'pending']).execute();

  it('learns exactly the decisions in force, however often they changed', async () => {
    const pills = await post(PILLS);
    const budget = await post(BUDGET);
    await decide(pills, 'REJECTED', 'SPAM');
    await decide(budget, 'APPROVED', null);
    // Recorded in the decisions' transactions, learned at the fold.
    expect(await spamLessons(t.db)).toEqual({ spam: 0, ham: 0 });
    expect(await foldSpamLessons(t.db)).toBe(2);
    expect(await model()).toEqual(
      learnedFrom([
        [PILLS, 'spam'],
        [BUDGET, 'ham'],
      ]),
    );
    const decision = await t.db
      .selectFrom('moderation_decisions')
      .select(['status', 'reason'])
      .where('comment_id', '=', pills)
      .execute();
    expect(decision).toEqual([{ status: 'REJECTED', reason: 'SPAM' }]);

    // Approved after all, then rejected plainly: the ham lesson goes, nothing is left of either.
    await decide(pills, 'APPROVED', null);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(
      learnedFrom([
        [PILLS, 'ham'],
        [BUDGET, 'ham'],
      ]),
    );
    await decide(pills, 'REJECTED', null);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(learnedFrom([[BUDGET, 'ham']]));
    // A word of no lesson is gone from the model by its name too.
    expect(Object.keys((await model()).vocabulary)).not.toContain('pharmacy');
    expect((await lessonRows()).map((r) => r.comment_id)).toEqual([budget]);

    // Rejected already; now as spam: no new decision, but the lesson.
    expect(await teachSpamDecision(t.db, pills, { status: 'REJECTED', reason: 'SPAM' })).toBe(true);
    expect(await teachSpamDecision(t.db, pills, { status: 'REJECTED', reason: 'SPAM' })).toBe(
      false,
    );
    // A plain rejection after it leaves the spam lesson alone: rude is not proof of fine.
    expect(await teachSpamDecision(t.db, pills, { status: 'REJECTED', reason: null })).toBe(false);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(
      learnedFrom([
        [BUDGET, 'ham'],
        [PILLS, 'spam'],
      ]),
    );
    // Nothing pending: nothing to fold, no new stamp.
    const stamp = (await getOrganization(t.db))!.spamModelStamp;
    expect(await foldSpamLessons(t.db)).toBe(0);
    expect((await getOrganization(t.db))!.spamModelStamp).toBe(stamp);
  });

  it('teaches nothing from a stale click: the comment moved since it was looked at', async () => {
    const id = await post(PILLS);
    await decide(id, 'APPROVED', null);
    // A "Spam" click on the card as it was (rejected) arrives after the approval.
    expect(await teachSpamDecision(t.db, id, { status: 'REJECTED', reason: 'SPAM' })).toBe(false);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(learnedFrom([[PILLS, 'ham']]));
  });

  it('takes a lesson back when the text that taught it goes: an edit, a deletion, an erasure', async () => {
    const other = (
      await createUser(t.db, { username: 'other', email: 'o@news.example', passwordHash: 'hash' })
    ).id;
    const edited = await post(PILLS);
    const deleted = await post(BUDGET);
    const erasedText = 'an erased account wrote these words once';
    const { comment: erased } = await createComment(t.db, {
      storyId: storyIds[0]!,
      authorId: other,
      bodySource: erasedText,
      bodyHtml: erasedText,
      status: 'PREMOD',
    });
    for (const id of [edited, deleted, erased.id]) await decide(id, 'APPROVED', null);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(
      learnedFrom([
        [PILLS, 'ham'],
        [BUDGET, 'ham'],
        [erasedText, 'ham'],
      ]),
    );

    const after = await editComment(t.db, {
      commentId: edited,
      bodySource: 'now it says something else entirely',
      bodyHtml: 'x',
      spam: { score: 0.2, fingerprint: null },
    });
    expect(after.spamScore).toBeCloseTo(0.2, 5);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(
      learnedFrom([
        [BUDGET, 'ham'],
        [erasedText, 'ham'],
      ]),
    );

    await deleteOwnComment(t.db, deleted, authorId);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(learnedFrom([[erasedText, 'ham']]));

    await t.db
      .updateTable('users')
      .set({ deletion_requested_at: new Date(0).toISOString() })
      .where('id', '=', other)
      .execute();
    await deleteAccount(t.db, other);
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(counts(''));
    expect(await lessonRows()).toEqual([]);
  });

  it('learns nothing from a text with no words (it would break the model’s counts)', async () => {
    const id = await post('👍 🙂');
    await decide(id, 'APPROVED', null);
    expect(await lessonRows()).toEqual([]);
    expect(await foldSpamLessons(t.db)).toBe(0);
  });

  it('scores with the model in every process: each decodes it once per stamp', async () => {
    for (let i = 0; i < MIN_LESSONS; i += 1) {
      await decide(await post(`${PILLS} ${i}`), 'REJECTED', 'SPAM');
      await decide(await post(`${BUDGET} ${i}`), 'APPROVED', null);
    }
    await foldSpamLessons(t.db);
    // Another process: another database handle, its own decoded copy.
    const other = t.db.withoutPlugins();
    const stamp = (await getOrganization(t.db))!.spamModelStamp;
    const first = spamModel(other, stamp);
    expect(spamModel(other, stamp)).toBe(first);
    const before = await score(other, 'pills at the best price');
    expect(before.score).toBeGreaterThan(0.9);
    expect((await score(t.db, 'will the vote be close')).score).toBeLessThan(0.05);

    for (let i = 0; i < MIN_LESSONS * 3; i += 1) {
      await decide(await post(`pills at the best price, really ${i}`), 'APPROVED', null);
    }
    await foldSpamLessons(t.db);
    expect((await getOrganization(t.db))!.spamModelStamp).not.toBe(stamp);
    expect((await score(other, 'pills at the best price')).score).toBeLessThan(before.score);
  });

  it('finds the same text on other stories of the past week', async () => {
    const text = 'Visit our shop for the best prices in town';
    expect((await score(t.db, text)).fingerprint).not.toBeNull();
    await post(text, storyIds[0]);
    const base = (await score(t.db, text, storyIds[0])).score;
    // Only on this story: not "other stories".
    expect(base).toBeLessThan(0.1);
    await post(text, storyIds[1]);
    const once = (await score(t.db, text, storyIds[0])).score;
    await post(text, storyIds[2]);
    const twice = (await score(t.db, text, storyIds[0])).score;
    expect(once).toBeGreaterThan(base);
    expect(twice).toBeGreaterThan(once);
    // A week and a day ago: forgotten.
    const old = new Date(Date.now() - 8 * 24 * 3_600_000).toISOString();
    await post('An old text posted on another story long ago now', storyIds[1], old);
    expect((await score(t.db, 'An old text posted on another story long ago now')).score).toBe(
      base,
    );
  });

  it('looks for the same text elsewhere only when it could carry the score to the threshold', async () => {
    const scoreAt = async (source: string, accountAgeMs: number, threshold?: number) =>
      (
        await scoreComment(t.db, {
          source,
          storyId: storyIds[0]!,
          authorCreatedAt: new Date(Date.now() - accountAgeMs).toISOString(),
          modelStamp: '',
          now: new Date(),
          ...(threshold === undefined ? {} : { threshold }),
        })
      ).score;
    const plain = 'Visit our shop for the best prices in town';
    const spammy = 'Visit my website for the best prices in town https://shop.com';
    for (const text of [plain, spammy]) {
      await post(text, storyIds[1]);
      await post(text, storyIds[2]);
    }
    const old = 30 * NEW_ACCOUNT_MS;
    // A reader's plain words: even repeated they stay far below 0.9, so no query; the full
    // score (no threshold) counts the repeat.
    expect(await scoreAt(plain, old, 0.9)).toBeCloseTo(0.05, 5);
    expect(await scoreAt(plain, old)).toBeGreaterThan(0.4);
    // A new account's link and phrase: the repeat could carry it over, so it is looked for.
    expect(await scoreAt(spammy, 60_000, 0.9)).toBeGreaterThan(0.9);
    expect(await scoreAt(spammy, 60_000, 0.9)).toBe(await scoreAt(spammy, 60_000));
  });

  it('folds while decisions land, and ends with exactly the lessons decided', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await post(`${i % 2 ? PILLS : BUDGET} ${i}`));
    await Promise.all([
      ...ids.map((id, i) => decide(id, i % 2 ? 'REJECTED' : 'APPROVED', i % 2 ? 'SPAM' : null)),
      foldSpamLessons(t.db),
      foldSpamLessons(t.db),
    ]);
    // Lessons written while a fold held its rows were skipped by it: the next fold takes them.
    await foldSpamLessons(t.db);
    expect(await model()).toEqual(
      learnedFrom(
        ids.map((_, i) => [`${i % 2 ? PILLS : BUDGET} ${i}`, i % 2 ? 'spam' : 'ham'] as const),
      ),
    );
  });

  if (dialect === 'postgres') {
    it('skips a lesson being written while it folds, and the next fold takes it', async () => {
      const busy = await post(PILLS);
      const free = await post(BUDGET);
      await decide(busy, 'REJECTED', 'SPAM');
      await decide(free, 'APPROVED', null);
      // A decision in flight holds the busy lesson's row while the fold runs.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const decision = t.db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('spam_lessons')
          .select('comment_id')
          .where('comment_id', '=', busy)
          .forUpdate()
          .execute();
        locked();
        await held;
      });
      await isLocked;
      expect(await foldSpamLessons(t.db)).toBe(1);
      expect(await model()).toEqual(learnedFrom([[BUDGET, 'ham']]));
      release();
      await decision;
      expect(await foldSpamLessons(t.db)).toBe(1);
      expect(await model()).toEqual(
        learnedFrom([
          [BUDGET, 'ham'],
          [PILLS, 'spam'],
        ]),
      );
    });
  }
});
