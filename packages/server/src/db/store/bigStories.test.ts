/**
 * What makes a 100,000-comment story answer as one of 100 (0014_big_stories; the figures are
 * bench:scale's): the stories' counters always equal a recount, and the hot read paths use an
 * index — no full scan of the comments, and on SQLite no sort of a story's comments for a page.
 */
import { sql } from 'kysely';
import { PENDING_SQL, REPORTABLE_SQL } from '../schema';
import type { CommentStatus } from '../schema';
import { testDialects, useTestDatabase } from '../testDatabases';
import { seedBasics, testBox } from '../testFixtures';
import { deleteAccount } from './accountDeletion';
import { listRecentComments, moderationCounts } from './commentQueries';
import { createComment, setCommentStatus } from './comments';
import { createSite } from './sites';
import { storyStatusCounts } from './storyCounts';
import { countStoryComments, findOrCreateStory } from './stories';
import { updateUser } from './users';

describe.each(testDialects())('big stories on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  /** The counters as a recount gives them: comments not erased, per status. */
  async function recount(storyId: string) {
    const rows = await t.db
      .selectFrom('comments')
      .select(['status', sql<number | string>`count(*)`.as('n')])
      .where('story_id', '=', storyId)
      .where('deleted_at', 'is', null)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  it('keeps each story’s counters equal to a recount through posts, decisions and erasures', async () => {
    const { story, users } = await seedBasics(t.db, { userCount: 4 });
    const statuses: CommentStatus[] = ['NONE', 'PREMOD', 'APPROVED', 'REJECTED', 'SYSTEM_WITHHELD'];
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      const { comment } = await createComment(t.db, {
        storyId: story.id,
        authorId: users[i % users.length]!.id,
        parentId: i > 3 && i % 3 === 0 ? ids[i - 2]! : null,
        bodySource: `c${i}`,
        bodyHtml: `<p>c${i}</p>`,
        status: statuses[i % 2 === 0 ? 0 : 1],
      });
      ids.push(comment.id);
    }
    for (const [i, id] of ids.entries()) {
      if (i % 4 === 0) continue;
      await setCommentStatus(t.db, {
        commentId: id,
        status: statuses[(i * 7) % statuses.length]!,
        moderatorId: null,
      });
    }
    // The same status again changes nothing.
    await setCommentStatus(t.db, { commentId: ids[1]!, status: 'APPROVED', moderatorId: null });
    await setCommentStatus(t.db, { commentId: ids[1]!, status: 'APPROVED', moderatorId: null });
    expect((await storyStatusCounts(t.db, [story.id])).get(story.id)).toEqual(
      await recount(story.id),
    );
    // An erased account's comments leave the counts.
    await updateUser(t.db, users[1]!.id, { deletionRequestedAt: '2020-01-01T00:00:00.000Z' });
    expect(await deleteAccount(t.db, users[1]!.id)).toBeDefined();
    const counters = (await storyStatusCounts(t.db, [story.id])).get(story.id) ?? {};
    const recounted = await recount(story.id);
    for (const status of statuses) expect(counters[status] ?? 0).toBe(recounted[status] ?? 0);
    expect((await countStoryComments(t.db, [story.id])).get(story.id)).toBe(
      (recounted['NONE'] ?? 0) + (recounted['APPROVED'] ?? 0),
    );
    const queues = await moderationCounts(t.db, { storyId: story.id });
    expect(queues).toMatchObject({
      PENDING: (recounted['PREMOD'] ?? 0) + (recounted['SYSTEM_WITHHELD'] ?? 0),
      UNMODERATED: recounted['NONE'] ?? 0,
      APPROVED: recounted['APPROVED'] ?? 0,
      REJECTED: recounted['REJECTED'] ?? 0,
    });
  });

  it('takes decisions crossing each other’s statuses at once without a deadlock, counts exact', async () => {
    const { story, users } = await seedBasics(t.db, { userCount: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const { comment } = await createComment(t.db, {
        storyId: story.id,
        authorId: users[i % 2]!.id,
        bodySource: `c${i}`,
        bodyHtml: `<p>c${i}</p>`,
        status: i % 2 === 0 ? 'APPROVED' : 'REJECTED',
      });
      ids.push(comment.id);
    }
    // Every comment flips at once, some APPROVED→REJECTED while others go REJECTED→APPROVED: on
    // PostgreSQL each takes the two counter rows, in one order for all (else 40P01 deadlocks).
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(
        ids.map((id, i) =>
          setCommentStatus(t.db, {
            commentId: id,
            status: (i + round) % 2 === 0 ? 'REJECTED' : 'APPROVED',
            moderatorId: null,
          }),
        ),
      );
    }
    expect((await storyStatusCounts(t.db, [story.id])).get(story.id)).toEqual(
      await recount(story.id),
    );
  });

  /** The planner's plan for `query` with `storyId`, as lines of text. */
  async function plan(query: ReturnType<typeof sql>): Promise<string[]> {
    if (dialect === 'postgres') {
      // Tables of a test are tiny: a sequential scan would be cheapest. Forbidding it shows
      // whether an index can answer at all, which is what this test is about.
      return t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
        return rows.map((row) => row['QUERY PLAN']);
      });
    }
    const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(t.db);
    return rows.map((row) => row.detail);
  }

  const STORY = 'story-1';
  const HOT_PATHS: [string, ReturnType<typeof sql>, { sorts: boolean }][] = [
    [
      'a story’s first page of top-level comments',
      sql`select * from comments where story_id = ${STORY} and parent_id is null
          order by created_at desc, id desc limit 21`,
      { sorts: false },
    ],
    [
      '“Load more”: the page after a cursor',
      sql`select * from comments where story_id = ${STORY} and parent_id is null
          and (created_at < ${'2026-01-01'} or (created_at = ${'2026-01-01'} and id < ${'x'}))
          order by created_at desc, id desc limit 21`,
      { sorts: false },
    ],
    [
      'a comment’s replies',
      sql`select * from comments where parent_id = ${'c-1'} order by created_at asc limit 4`,
      { sorts: false },
    ],
    [
      'the Pending queue of a story',
      sql`select * from comments where story_id = ${STORY} and ${sql.raw(PENDING_SQL)}
          order by created_at desc, id desc limit 21`,
      { sorts: false },
    ],
    [
      'the Unmoderated queue of a story',
      sql`select * from comments where story_id = ${STORY} and status = 'NONE'
          order by created_at desc, id desc limit 21`,
      { sorts: false },
    ],
    [
      'the Reported queue of a story (its count is a counter: storyCounts.ts)',
      sql`select * from comments where story_id = ${STORY} and ${sql.raw(REPORTABLE_SQL)}
          order by created_at desc, id desc limit 21`,
      { sorts: false },
    ],
    [
      'what a reconnecting reader missed (commentsSince)',
      sql`select * from comments where story_id = ${STORY} and published_at >= ${'2026-01-01'}
          and status in ('NONE', 'APPROVED') and deleted_at is null
          order by published_at asc, id asc limit 100`,
      { sorts: false },
    ],
    [
      'a story’s latest comments (recent.js)',
      sql`select * from comments where story_id = ${STORY} and published_at is not null
          and status in ('NONE', 'APPROVED') and deleted_at is null
          order by published_at desc, id desc limit 5`,
      { sorts: false },
    ],
    [
      // feeds/commentsHtml.ts: readerVisible, oldest first.
      'the crawlable HTML’s page of top-level comments',
      sql`select * from comments where story_id = ${STORY} and parent_id is null
          and ((status in ('NONE', 'APPROVED') and deleted_at is null) or reply_count > 0)
          order by created_at asc, id asc limit 51`,
      { sorts: false },
    ],
    [
      // feeds/commentsHtml.ts withReplies: each parent's first replies, one query a level.
      'the crawlable HTML’s replies, a few of each parent',
      sql`select * from (select * from comments where parent_id = ${'c-1'}
            and ((status in ('NONE', 'APPROVED') and deleted_at is null) or reply_count > 0)
            order by created_at asc, id asc limit 20) as reply
          union all
          select * from (select * from comments where parent_id = ${'c-2'}
            and ((status in ('NONE', 'APPROVED') and deleted_at is null) or reply_count > 0)
            order by created_at asc, id asc limit 20) as reply`,
      { sorts: false },
    ],
    [
      'the story counters',
      sql`select * from story_comment_counts where story_id = ${STORY}`,
      { sorts: false },
    ],
    [
      // What the store asks (commentQueries.ts listRepliesTo), written out.
      'a reader’s replies feed',
      sql`select reply.* from comments as reply
          inner join comments as parent on parent.id = reply.parent_id
          where reply.parent_author_id = ${'user-1'} and parent.deleted_at is null
          and reply.author_id != ${'user-1'}
          and reply.author_id not in
            (select ignored_id from ignored_users where user_id = ${'user-1'})
          and reply.published_at is not null and reply.status in ('NONE', 'APPROVED')
          and reply.deleted_at is null
          order by reply.published_at desc, reply.id desc limit 20`,
      { sorts: false },
    ],
  ];

  /** `query` as the planner is shown it: on PostgreSQL with its parameters written in. */
  const explained = (query: ReturnType<typeof sql>) =>
    dialect === 'postgres'
      ? sql`${sql.raw(
          query.compile(t.db).sql.replace(/\$(\d+)/g, (_match, n: string) => {
            const value = query.compile(t.db).parameters[Number(n) - 1];
            return `'${String(value)}'`;
          }),
        )}`
      : query;

  it.each(HOT_PATHS)('reads %s through an index, without a full scan', async (_name, query) => {
    const lines = await plan(explained(query));
    const joined = lines.join('\n');
    if (dialect === 'postgres') {
      expect(joined).not.toMatch(/Seq Scan on (comments|story_comment_counts)/);
    } else {
      expect(joined).not.toMatch(/^SCAN (comments|story_comment_counts)\b/m);
      expect(joined).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });

  it('reads a site’s latest comments (recent.js) down its own index, a quiet site’s too, sorting nothing', async () => {
    // A busy site of 40 stories and 4,000 comments next to a quiet one of 2, statistics fresh:
    // the planners choose by what an install has, not by an empty table. Walking every comment
    // by date to find the quiet site's two would read them all.
    const { site: busy, users } = await seedBasics(t.db, { userCount: 1 });
    for (let i = 0; i < 39; i += 1) {
      await findOrCreateStory(t.db, {
        siteId: busy.id,
        url: `https://news.example/s${i}`,
        title: '',
      });
    }
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 4000),
      s(id, k) as (select id, row_number() over (order by id) - 1 from stories)
      insert into comments (id, story_id, site_id, author_id, body_source, body_html, status,
                            tags, created_at, published_at)
      select 'c' || i, s.id, ${busy.id}, ${users[0]!.id}, 'x', '<p>x</p>', 'NONE', '[]',
             '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from n join s on s.k = n.i % 40`.execute(t.db);
    const { site: quiet } = await createSite(
      t.db,
      { name: 'Quiet', url: 'https://quiet.example', allowedOrigins: ['https://quiet.example'] },
      testBox,
    );
    const { story } = await findOrCreateStory(t.db, {
      siteId: quiet.id,
      url: 'https://quiet.example/a',
      title: '',
    });
    // A second apart: two posts in one millisecond (a fast run) would tie, and fall back on ids.
    for (const [i, body] of ['one', 'two'].entries()) {
      await createComment(t.db, {
        storyId: story.id,
        authorId: users[0]!.id,
        bodySource: body,
        bodyHtml: `<p>${body}</p>`,
        createdAt: new Date(Date.UTC(2026, 5, 1, 0, 0, i)).toISOString(),
      });
    }
    await sql`analyze`.execute(t.db);
    // What the store asks (commentQueries.ts listRecentComments), for each site.
    for (const site of [busy, quiet]) {
      const query = sql`select * from comments where published_at is not null
          and status in ('NONE', 'APPROVED') and deleted_at is null and site_id = ${site.id}
          order by published_at desc, id desc limit 5`;
      const joined = (await plan(explained(query))).join('\n');
      expect(joined).toMatch(/comments_site_published/);
      if (dialect === 'postgres') {
        expect(joined).not.toMatch(/Seq Scan on comments|Sort/);
      } else {
        expect(joined).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    }
    // And the store's answer: the quiet site's own, newest first.
    const listed = await listRecentComments(t.db, { siteId: quiet.id }, 5);
    expect(listed.map((c) => c.bodySource)).toEqual(['two', 'one']);
  });
});
