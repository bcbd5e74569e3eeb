import { seedBasics, countRows } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { createComment, findCommentById } from './comments';
import {
  addReaction,
  addReport,
  bestRank,
  listReports,
  reactedCommentIds,
  removeReaction,
  setVote,
  votesOf,
} from './reactions';
import type { VoteValue } from './reactions';
import { createUser } from './users';

describe.each(testDialects())('reactions and reports on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let seeded: Seeded;
  let commentId: string;
  beforeEach(async () => {
    seeded = await seedBasics(t.db, { userCount: 6 });
    const { comment } = await createComment(t.db, {
      storyId: seeded.story.id,
      authorId: seeded.users[0]!.id,
      bodySource: 'x',
      bodyHtml: 'x',
    });
    commentId = comment.id;
  });
  const reactionCount = async () => (await findCommentById(t.db, commentId))?.reactionCount;

  it('adds and removes reactions idempotently', async () => {
    const userId = seeded.users[1]!.id;
    expect(await addReaction(t.db, commentId, userId)).toEqual({ reactionCount: 1, changed: true });
    expect(await addReaction(t.db, commentId, userId)).toEqual({
      reactionCount: 1,
      changed: false,
    });
    expect(await reactedCommentIds(t.db, userId, [commentId, 'other'])).toEqual(
      new Set([commentId]),
    );
    expect(await removeReaction(t.db, commentId, userId)).toEqual({
      reactionCount: 0,
      changed: true,
    });
    expect(await removeReaction(t.db, commentId, userId)).toEqual({
      reactionCount: 0,
      changed: false,
    });
  });

  it('keeps reaction_count exact under concurrent adds and removes', async () => {
    const users = seeded.users.map((u) => u.id);
    // Every user clicks several times at once; then half of them take their reaction back, also racing.
    await Promise.all(users.flatMap((u) => [1, 2, 3].map(() => addReaction(t.db, commentId, u))));
    expect(await reactionCount()).toBe(users.length);
    const leaving = users.slice(0, 3);
    await Promise.all([
      ...leaving.flatMap((u) => [1, 2].map(() => removeReaction(t.db, commentId, u))),
      ...users.slice(3).map((u) => addReaction(t.db, commentId, u)),
    ]);
    expect(await reactionCount()).toBe(users.length - leaving.length);
    expect(await countRows(t.db, 'reactions')).toBe(users.length - leaving.length);
  });

  it('stays exact when many users add and remove at once', async () => {
    const extra = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createUser(t.db, { username: `r${i}`, email: `r${i}@example.com` }),
      ),
    );
    await Promise.all(
      extra.map((u, i) =>
        addReaction(t.db, commentId, u.id).then(() =>
          i % 2 === 0 ? removeReaction(t.db, commentId, u.id) : undefined,
        ),
      ),
    );
    expect(await reactionCount()).toBe(10);
    expect(await countRows(t.db, 'reactions')).toBe(10);
  });

  it('casts, flips and takes back votes, each counted once, the Best rank following', async () => {
    const [, a, b] = seeded.users.map((u) => u.id);
    const stored = async () => {
      const row = await t.db
        .selectFrom('comments')
        .select(['reaction_count', 'downvote_count', 'best_rank'])
        .where('id', '=', commentId)
        .executeTakeFirstOrThrow();
      expect(row.best_rank).toBe(bestRank(row.reaction_count, row.downvote_count));
      return [row.reaction_count, row.downvote_count];
    };
    expect((await setVote(t.db, commentId, a!, -1)).changed).toBe(true);
    expect((await setVote(t.db, commentId, a!, -1)).changed).toBe(false);
    expect(await stored()).toEqual([0, 1]);
    await setVote(t.db, commentId, b!, 1);
    // A down vote flipped up: one row, its counters moved both ways.
    const flipped = await setVote(t.db, commentId, a!, 1);
    expect(flipped.comment).toMatchObject({ reactionCount: 2, downvoteCount: 0 });
    expect(await stored()).toEqual([2, 0]);
    expect(await votesOf(t.db, a!, [commentId])).toEqual(new Map([[commentId, 1]]));
    await setVote(t.db, commentId, a!, -1);
    expect(await reactedCommentIds(t.db, a!, [commentId])).toEqual(new Set());
    // removeReaction takes back a down vote too.
    expect(await removeReaction(t.db, commentId, a!)).toEqual({ reactionCount: 1, changed: true });
    expect(await stored()).toEqual([1, 0]);
    expect(await countRows(t.db, 'reactions')).toBe(1);
  });

  it('keeps up and down counts exact when readers change their votes at once', async () => {
    const users = seeded.users.map((u) => u.id);
    const choices: VoteValue[] = [1, -1, 0, -1, 1, 1];
    await Promise.all(
      users.flatMap((u, i) =>
        choices.map((_, j) => setVote(t.db, commentId, u, choices[(i + j) % 6]!)),
      ),
    );
    const votes = await t.db.selectFrom('reactions').select('value').execute();
    const up = votes.filter((v) => v.value === 1).length;
    const down = votes.filter((v) => v.value === -1).length;
    const comment = await findCommentById(t.db, commentId);
    expect([comment?.reactionCount, comment?.downvoteCount]).toEqual([up, down]);
  });

  it('ranks by the Wilson lower bound, not by the raw score', () => {
    expect(bestRank(0, 0)).toBe(0);
    expect(bestRank(40, 2)).toBeGreaterThan(bestRank(2, 0));
    // Same score (+5): 5 of 5 up is a surer share than 105 of 205.
    expect(bestRank(105, 100)).toBeLessThan(bestRank(5, 0));
    expect(bestRank(10, 0)).toBeGreaterThan(bestRank(9, 0));
    // Nobody voted it up: below every comment someone did, the more down votes the lower.
    expect(bestRank(0, 10)).toBe(-10);
    expect(bestRank(0, 1)).toBeLessThan(bestRank(0, 0));
    expect(bestRank(1, 1_000_000)).toBeGreaterThan(bestRank(0, 0));
    // 1 up of 1: the bound is 1 / (1 + z²), about 0.2065.
    expect(bestRank(1, 0) / 1e9).toBeCloseTo(0.2065, 4);
    expect(Number.isInteger(bestRank(7, 3))).toBe(true);
  });

  it('takes one report per user per comment and returns the new report count', async () => {
    const [, a, b] = seeded.users;
    const first = await addReport(t.db, {
      commentId,
      userId: a!.id,
      reason: 'SPAM',
      details: 'buy now',
      weight: 25,
    });
    expect(first).toEqual({ reportCount: 1, reportWeight: 0.25, created: true });
    expect(await addReport(t.db, { commentId, userId: a!.id, reason: 'OTHER' })).toEqual({
      reportCount: 1,
      reportWeight: 0.25,
      created: false,
    });
    const racing = await Promise.all(
      [1, 2, 3].map(() => addReport(t.db, { commentId, userId: b!.id, reason: 'ABUSIVE' })),
    );
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    expect(racing.map((r) => r.reportWeight)).toContain(1.25);
    expect((await findCommentById(t.db, commentId))?.reportCount).toBe(2);
    const reports = await listReports(t.db, commentId);
    expect(reports.map((r) => r.reason).sort()).toEqual(['ABUSIVE', 'SPAM']);
  });
});
