import { seedBasics, testBox } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import {
  COMMENT_SORTS,
  listComments,
  listReplies,
  moderationCounts,
  moderationQueue,
} from './commentQueries';
import type { CommentSort } from './commentQueries';
import {
  createComment,
  deleteOwnComment,
  editComment,
  setCommentStatus,
  setCommentTags,
} from './comments';
import type { EditCommentInput } from './comments';
import { deleteAccount } from './accountDeletion';
import { addReport, bestRank } from './reactions';
import { createUser, updateUser } from './users';
import type { HeldReason } from '../schema';
import type { Comment } from './comments';
import { findOrCreateStory } from './stories';
import { createSite } from './sites';

const body = { bodySource: 'x', bodyHtml: '<p>x</p>' };
// Few distinct times and counts: most rows tie on the sort key, only the id separates them.
const TIMES = ['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z', '2024-01-01T00:00:02.000Z'];

function expectedOrder(comments: Comment[], sort: CommentSort): string[] {
  const key = (c: Comment): (string | number)[] => {
    switch (sort) {
      case 'CREATED_AT_ASC':
        return [c.createdAt, c.id];
      case 'CREATED_AT_DESC':
        return [c.createdAt, c.id];
      case 'REPLIES_DESC':
        return [c.replyCount, c.createdAt, c.id];
      case 'REACTIONS_DESC':
        return [c.reactionCount, c.createdAt, c.id];
      case 'BEST':
        return [bestRank(c.reactionCount, c.downvoteCount), c.createdAt, c.id];
    }
  };
  const sign = sort === 'CREATED_AT_ASC' ? 1 : -1;
  return [...comments]
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < ka.length; i += 1) {
        if (ka[i]! < kb[i]!) return -sign;
        if (ka[i]! > kb[i]!) return sign;
      }
      return 0;
    })
    .map((c) => c.id);
}

describe.each(testDialects())('comment queries on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let seeded: Seeded;
  beforeEach(async () => {
    seeded = await seedBasics(t.db, { userCount: 2 });
  });

  async function thread(count: number): Promise<Comment[]> {
    const made: Comment[] = [];
    for (let i = 0; i < count; i += 1) {
      const { comment } = await createComment(t.db, {
        storyId: seeded.story.id,
        authorId: seeded.users[0]!.id,
        createdAt: TIMES[i % TIMES.length],
        ...body,
      });
      made.push(comment);
    }
    // Counts with ties: set them directly, the sort only reads the columns.
    for (const [i, c] of made.entries()) {
      await t.db
        .updateTable('comments')
        .set({
          reply_count: i % 2,
          reaction_count: i % 3,
          downvote_count: i % 4,
          best_rank: bestRank(i % 3, i % 4),
        })
        .where('id', '=', c.id)
        .execute();
    }
    return made.map((c, i) => ({
      ...c,
      replyCount: i % 2,
      reactionCount: i % 3,
      downvoteCount: i % 4,
    }));
  }

  it.each(COMMENT_SORTS)(
    'pages through %s without duplicates or gaps despite ties',
    async (sort) => {
      const all = await thread(23);
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const page: Awaited<ReturnType<typeof listComments>> = await listComments(
          t.db,
          { storyId: seeded.story.id, parentId: null, orderBy: sort },
          { first: 5, after },
        );
        pages += 1;
        seen.push(...page.edges.map((e) => e.node.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(pages).toBe(5);
      expect(seen).toEqual(expectedOrder(all, sort));
    },
  );

  it('caps first at 100 and refuses a forged cursor with INVALID_INPUT', async () => {
    await thread(3);
    const filter = { storyId: seeded.story.id };
    expect((await listComments(t.db, filter, { first: 1000 })).edges).toHaveLength(3);
    await expect(listComments(t.db, filter, { after: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(listComments(t.db, filter, { first: -1 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('lists replies oldest first, only visible ones, and featured comments', async () => {
    const [parent] = await thread(1);
    const reply = (text: string, status: Comment['status'], createdAt: string) =>
      createComment(t.db, {
        storyId: seeded.story.id,
        authorId: seeded.users[1]!.id,
        parentId: parent!.id,
        bodySource: text,
        bodyHtml: text,
        status,
        createdAt,
      });
    await reply('b', 'NONE', TIMES[1]!);
    await reply('a', 'APPROVED', TIMES[0]!);
    await reply('held', 'PREMOD', TIMES[0]!);
    const replies = await listReplies(t.db, parent!.id, {});
    expect(replies.edges.map((e) => e.node.bodySource)).toEqual(['a', 'b']);
    const topLevel = await listComments(t.db, { storyId: seeded.story.id, parentId: null }, {});
    expect(topLevel.edges.map((e) => e.node.id)).toEqual([parent!.id]);
    await setCommentTags(t.db, parent!.id, ['FEATURED']);
    const featured = await listComments(t.db, { storyId: seeded.story.id, featured: true }, {});
    expect(featured.edges.map((e) => e.node.id)).toEqual([parent!.id]);
  });

  it('fills the moderation queues and counts them, per site and per story', async () => {
    const { site: otherSite } = await createSite(
      t.db,
      {
        name: 'B',
        url: 'https://b.example',
        allowedOrigins: ['https://b.example'],
      },
      testBox,
    );
    const { story: other } = await findOrCreateStory(t.db, {
      siteId: otherSite.id,
      url: 'https://b.example/1',
      title: 'B',
    });
    const reporters = [
      seeded.users[1]!,
      ...(await Promise.all(
        ['r1', 'r2'].map((name) =>
          createUser(t.db, { username: name, email: `${name}@example.com`, role: 'COMMENTER' }),
        ),
      )),
    ];
    // Through the stores, as the resolvers write: a comment posted, reported, then decided.
    const add = async (storyId: string, status: Comment['status'], reports = 0) => {
      const { comment } = await createComment(t.db, {
        storyId,
        authorId: seeded.users[0]!.id,
        status: reports > 0 ? 'NONE' : status,
        ...body,
      });
      for (const reporter of reporters.slice(0, reports)) {
        await addReport(t.db, { commentId: comment.id, userId: reporter.id, reason: 'SPAM' });
      }
      if (reports > 0 && status !== 'NONE') {
        // An approval is a moderator's decision, which reviews the reports so far (reports
        // after it would bring it back to REPORTED); the system's hold is not.
        await setCommentStatus(t.db, {
          commentId: comment.id,
          status,
          moderatorId: status === 'SYSTEM_WITHHELD' ? null : seeded.users[1]!.id,
        });
      }
      return comment.id;
    };
    const s = seeded.story.id;
    const premod = await add(s, 'PREMOD');
    const withheld = await add(s, 'SYSTEM_WITHHELD', 3);
    const reported = await add(s, 'NONE', 1);
    const plain = await add(s, 'NONE');
    const approved = await add(s, 'APPROVED', 2);
    const rejected = await add(s, 'REJECTED');
    await add(other.id, 'PREMOD');

    const ids = async (
      queue: Parameters<typeof moderationQueue>[1],
      filter = { siteId: seeded.site.id },
    ) => (await moderationQueue(t.db, queue, filter, {})).edges.map((e) => e.node.id).sort();
    expect(await ids('PENDING')).toEqual([premod, withheld].sort());
    expect(await ids('REPORTED')).toEqual([reported]);
    expect(await ids('UNMODERATED')).toEqual([reported, plain].sort());
    expect(await ids('APPROVED')).toEqual([approved]);
    expect(await ids('REJECTED')).toEqual([rejected]);
    expect(await ids('PENDING', { siteId: otherSite.id })).toHaveLength(1);
    expect(await moderationQueue(t.db, 'PENDING', {}, {})).toMatchObject({
      edges: expect.any(Array),
    });
    expect((await moderationQueue(t.db, 'PENDING', {}, {})).edges).toHaveLength(3);

    expect(await moderationCounts(t.db, { siteId: seeded.site.id })).toEqual({
      PENDING: 2,
      REPORTED: 1,
      UNMODERATED: 2,
      APPROVED: 1,
      REJECTED: 1,
    });
    expect(await moderationCounts(t.db, { storyId: other.id })).toEqual({
      PENDING: 1,
      REPORTED: 0,
      UNMODERATED: 0,
      APPROVED: 0,
      REJECTED: 0,
    });
    expect((await moderationCounts(t.db, { storyId: 'none' })).PENDING).toBe(0);
  });

  it('keeps the Reported counter equal to the Reported queue through every write', async () => {
    const story = seeded.story.id;
    const [author, moderator] = [seeded.users[0]!, seeded.users[1]!];
    const others = await Promise.all(
      ['q1', 'q2'].map((name) =>
        createUser(t.db, { username: name, email: `${name}@example.com`, role: 'COMMENTER' }),
      ),
    );
    const queue = async () =>
      (await moderationQueue(t.db, 'REPORTED', { storyId: story }, { first: 50 })).edges.length;
    const counted = async () => (await moderationCounts(t.db, { storyId: story })).REPORTED;
    const steps: number[] = [];
    const check = async () => {
      const expected = await queue();
      expect(await counted()).toBe(expected);
      steps.push(expected);
    };
    const post = async (heldBecause: HeldReason[] | null = null) =>
      (
        await createComment(t.db, {
          storyId: story,
          authorId: author.id,
          heldBecause,
          ...body,
        })
      ).comment.id;
    const report = (commentId: string, userId: string) =>
      addReport(t.db, { commentId, userId, reason: 'SPAM' });
    const edit = (commentId: string, changes: Partial<EditCommentInput>) =>
      editComment(t.db, { commentId, ...body, ...changes });

    const suspect = await post(['SUSPECT_WORD']);
    await check();
    const reported = await post();
    await report(reported, others[0]!.id);
    await check();
    await report(reported, others[1]!.id);
    await report(reported, others[1]!.id); // the same reporter again: not a new report
    await check();
    await setCommentStatus(t.db, {
      commentId: reported,
      status: 'APPROVED',
      moderatorId: moderator.id,
    });
    await check();
    await report(reported, moderator.id); // a report after the approval brings it back
    await check();
    await edit(suspect, { heldBecause: null }); // the suspect word edited out
    await check();
    const plain = await post();
    await edit(plain, { heldBecause: ['SUSPECT_WORD'] }); // and one edited in
    await check();
    // Held on an edit (what the resolver does to a published comment): the edit's own change
    // and the status change, applied together.
    const another = await post(['SUSPECT_WORD']);
    await check();
    await edit(another, { status: 'PREMOD', heldBecause: ['LINK'] });
    await check();
    // An edit that holds a reported comment (a link under link pre-moderation).
    await edit(reported, { status: 'PREMOD', heldBecause: ['LINK'] });
    await check();
    await setCommentStatus(t.db, {
      commentId: plain,
      status: 'REJECTED',
      moderatorId: moderator.id,
    });
    await check();
    const held = await post();
    await report(held, others[0]!.id);
    await setCommentStatus(t.db, {
      commentId: held,
      status: 'SYSTEM_WITHHELD',
      moderatorId: null,
      heldBecause: ['REPORTS'],
    });
    await check();
    await post(['SUSPECT_WORD']);
    const last = await post();
    await report(last, others[1]!.id);
    await check();
    // Its author deletes a reported comment, and a suspect one.
    const deletedReported = await post();
    await report(deletedReported, others[0]!.id);
    await check();
    await deleteOwnComment(t.db, deletedReported, author.id);
    await check();
    await deleteOwnComment(t.db, await post(['SUSPECT_WORD']), author.id);
    await check();
    await updateUser(t.db, author.id, { deletionRequestedAt: '2026-01-01T00:00:00.000Z' });
    await deleteAccount(t.db, author.id, new Date('2026-02-01T00:00:00.000Z'));
    await check();
    // The sequence went up and down, and ended with every comment erased.
    expect(steps).toEqual([1, 2, 2, 1, 2, 1, 2, 3, 2, 1, 0, 0, 2, 3, 2, 2, 0]);
  });
});
