import { testBox } from '../../../db/testFixtures';
import { createSite } from '../../../db/store/sites';
import { findOrCreateStory } from '../../../db/store/stories';
import { moderateUser } from '../../../db/store/userModeration';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const QUEUE = `query ($queue: ModerationQueue!, $siteId: ID, $storyId: ID, $first: Int, $after: String, $orderBy: CommentSort) {
  moderationQueue(queue: $queue, siteId: $siteId, storyId: $storyId, first: $first, after: $after, orderBy: $orderBy) {
    edges { node { id status heldBecause bodySource } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const COUNTS = `query ($siteId: ID, $storyId: ID) {
  moderationCounts(siteId: $siteId, storyId: $storyId) { pending reported unmoderated approved rejected }
}`;
const USERS = `query ($query: String, $role: Role, $status: UserStatus, $first: Int, $after: String) {
  users(query: $query, role: $role, status: $status, first: $first, after: $after) {
    edges { node { username status } }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe.each(testDialects())('moderation queries on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('lists a queue newest first, page by page, with what moderators need', async () => {
    const times = [
      '2024-01-01T00:00:00.000Z',
      '2024-01-02T00:00:00.000Z',
      '2024-01-03T00:00:00.000Z',
    ];
    const held = [];
    for (const createdAt of times) {
      held.push(await c.comment({ status: 'PREMOD', heldBecause: ['LINK'], createdAt }));
    }
    await c.comment(); // published: not pending
    const first = await api.ok(QUEUE, { queue: 'PENDING', first: 2 }, c.moderator.token);
    expect(first.moderationQueue.edges.map((e: any) => e.node.id)).toEqual([
      held[2]!.id,
      held[1]!.id,
    ]);
    expect(first.moderationQueue.edges[0].node).toMatchObject({
      status: 'PREMOD',
      heldBecause: ['LINK'],
      bodySource: 'text',
    });
    const next = await api.ok(
      QUEUE,
      { queue: 'PENDING', first: 2, after: first.moderationQueue.pageInfo.endCursor },
      c.moderator.token,
    );
    expect(next.moderationQueue.edges.map((e: any) => e.node.id)).toEqual([held[0]!.id]);
    expect(next.moderationQueue.pageInfo.hasNextPage).toBe(false);
  });

  it('lists a queue oldest first when asked (the console’s "oldest" order)', async () => {
    const early = await c.comment({ status: 'PREMOD', createdAt: '2024-01-01T00:00:00.000Z' });
    const late = await c.comment({ status: 'PREMOD', createdAt: '2024-01-02T00:00:00.000Z' });
    const answer = await api.ok(
      QUEUE,
      { queue: 'PENDING', orderBy: 'CREATED_AT_ASC' },
      c.moderator.token,
    );
    expect(answer.moderationQueue.edges.map((e: any) => e.node.id)).toEqual([early.id, late.id]);
  });

  it('scopes queues and counts by site and by story', async () => {
    const { site: other } = await createSite(
      api.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const { story: otherStory } = await findOrCreateStory(api.db, {
      siteId: other.id,
      url: 'https://other.example/x',
      title: 'X',
    });
    await c.comment({ status: 'PREMOD' });
    await c.comment({ status: 'REJECTED' });
    await c.comment({ status: 'APPROVED' });
    const elsewhere = await c.comment({ status: 'PREMOD', storyId: otherStory.id });

    const all = await api.ok(COUNTS, {}, c.moderator.token);
    expect(all.moderationCounts).toEqual({
      pending: 2,
      reported: 0,
      unmoderated: 0,
      approved: 1,
      rejected: 1,
    });
    const site = await api.ok(COUNTS, { siteId: other.id }, c.moderator.token);
    expect(site.moderationCounts).toMatchObject({ pending: 1, approved: 0, rejected: 0 });
    const story = await api.ok(COUNTS, { storyId: c.story.id }, c.moderator.token);
    expect(story.moderationCounts).toMatchObject({ pending: 1, approved: 1, rejected: 1 });
    const queue = await api.ok(QUEUE, { queue: 'PENDING', siteId: other.id }, c.moderator.token);
    expect(queue.moderationQueue.edges.map((e: any) => e.node.id)).toEqual([elsewhere.id]);
  });

  it('lists users with search, role and status filters, and pages', async () => {
    await moderateUser(api.db, {
      userId: c.target.user.id,
      actorId: null,
      action: 'BAN',
      banned: true,
    });
    const search = await api.ok(USERS, { query: ' TARG ' }, c.moderator.token);
    expect(search.users.edges).toEqual([{ node: { username: 'target', status: 'BANNED' } }]);
    const banned = await api.ok(USERS, { status: 'BANNED' }, c.moderator.token);
    expect(banned.users.edges.map((e: any) => e.node.username)).toEqual(['target']);
    const mods = await api.ok(USERS, { role: 'MODERATOR' }, c.moderator.token);
    expect(mods.users.edges.map((e: any) => e.node.username)).toEqual(['moderator']);
    const names = new Set<string>();
    let after: string | null = null;
    do {
      const page: any = await api.ok(USERS, { first: 2, after }, c.moderator.token);
      for (const edge of page.users.edges) names.add(edge.node.username);
      after = page.users.pageInfo.hasNextPage ? page.users.pageInfo.endCursor : null;
    } while (after !== null);
    expect([...names].sort()).toEqual(['admin', 'commenter', 'moderator', 'staff', 'target']);
  });

  it('ends a suspension for the list when it ends for the resolvers’ clock', async () => {
    await moderateUser(api.db, {
      userId: c.target.user.id,
      actorId: null,
      action: 'SUSPEND',
      suspendedUntil: '2030-01-01T00:00:00.000Z',
    });
    api.setNow(new Date('2029-12-31T00:00:00.000Z'));
    const during = await api.ok(USERS, { status: 'SUSPENDED' }, c.moderator.token);
    expect(during.users.edges).toEqual([{ node: { username: 'target', status: 'SUSPENDED' } }]);
    api.setNow(new Date('2030-01-02T00:00:00.000Z'));
    const after = await api.ok(USERS, { status: 'SUSPENDED' }, c.moderator.token);
    expect(after.users.edges).toEqual([]);
  });
});
