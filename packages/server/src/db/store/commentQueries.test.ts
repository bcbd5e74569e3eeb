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
import { createComment, setCommentTags } from './comments';
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
        .set({ reply_count: i % 2, reaction_count: i % 3 })
        .where('id', '=', c.id)
        .execute();
    }
    return made.map((c, i) => ({ ...c, replyCount: i % 2, reactionCount: i % 3 }));
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
    const add = async (storyId: string, status: Comment['status'], reports = 0) => {
      const { comment } = await createComment(t.db, {
        storyId,
        authorId: seeded.users[0]!.id,
        status,
        ...body,
      });
      if (reports > 0) {
        // An approved comment's reports were reviewed by the approval (a decision records that);
        // reports after it would bring it back to REPORTED (tested with the decision resolvers).
        const reviewed = status === 'APPROVED' ? reports : 0;
        await t.db
          .updateTable('comments')
          .set({ report_count: reports, reviewed_report_count: reviewed })
          .where('id', '=', comment.id)
          .execute();
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
});
