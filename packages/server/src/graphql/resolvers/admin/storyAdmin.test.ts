import { findOrCreateStory, findStoryById } from '../../../db/store/stories';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { SITE_ORIGIN, useApi } from '../../testing/useApi';

const UPDATE = `mutation ($input: UpdateStoryInput!) {
  updateStory(input: $input) { story { id status closedAt settings { premod liveUpdates effectivePremod } } }
}`;
const STORIES = `query ($query: String, $status: StoryStatus, $siteId: ID, $first: Int, $after: String) {
  stories(query: $query, status: $status, siteId: $siteId, first: $first, after: $after) {
    edges { node { id title status } }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe.each(testDialects())('stories admin on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('closes a story and sets both overrides; null clears an override', async () => {
    const data = await api.ok(
      UPDATE,
      { input: { storyId: c.story.id, status: 'CLOSED', premod: 'ALL', liveUpdates: false } },
      c.moderator.token,
    );
    expect(data.updateStory.story).toMatchObject({
      status: 'CLOSED',
      closedAt: expect.any(String),
      settings: { premod: 'ALL', liveUpdates: false, effectivePremod: 'ALL' },
    });
    const cleared = await api.ok(
      UPDATE,
      { input: { storyId: c.story.id, premod: null } },
      c.moderator.token,
    );
    expect(cleared.updateStory.story).toMatchObject({
      status: 'CLOSED',
      settings: { premod: null, liveUpdates: false, effectivePremod: 'OFF' },
    });
    const reopened = await api.ok(
      UPDATE,
      { input: { storyId: c.story.id, status: 'OPEN' } },
      c.moderator.token,
    );
    expect(reopened.updateStory.story).toMatchObject({ status: 'OPEN', closedAt: null });
    expect(await findStoryById(api.db, c.story.id)).toMatchObject({
      premod: null,
      liveUpdates: false,
    });
  });

  it('answers NOT_FOUND for an unknown story', async () => {
    const answer = await api.request(
      UPDATE,
      { input: { storyId: 'nope', status: 'CLOSED' } },
      c.moderator.token,
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('lists stories with search and status filters, and pages', async () => {
    await findOrCreateStory(api.db, {
      siteId: c.site.id,
      url: `${SITE_ORIGIN}/b`,
      title: 'Budget vote',
    });
    await api.ok(UPDATE, { input: { storyId: c.story.id, status: 'CLOSED' } }, c.moderator.token);
    const search = await api.ok(STORIES, { query: 'budget' }, c.moderator.token);
    expect(search.stories.edges.map((e: any) => e.node.title)).toEqual(['Budget vote']);
    const closed = await api.ok(
      STORIES,
      { status: 'CLOSED', siteId: c.site.id },
      c.moderator.token,
    );
    expect(closed.stories.edges.map((e: any) => e.node.id)).toEqual([c.story.id]);
    const first = await api.ok(STORIES, { first: 1 }, c.moderator.token);
    expect(first.stories.pageInfo.hasNextPage).toBe(true);
    const next = await api.ok(
      STORIES,
      { first: 1, after: first.stories.pageInfo.endCursor },
      c.moderator.token,
    );
    expect(next.stories.edges).toHaveLength(1);
    expect(next.stories.edges[0].node.id).not.toBe(first.stories.edges[0].node.id);
  });
});
