import { seedBasics, countRows } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { createComment } from './comments';
import {
  findOrCreateStory,
  findStoryById,
  listStories,
  countStoryComments,
  updateStory,
} from './stories';

describe.each(testDialects())('stories store on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('gives 10 concurrent first readers of a URL the same single story', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const url = 'https://news.example/race';
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        findOrCreateStory(t.db, { siteId: site.id, url, title: `Race ${i}` }),
      ),
    );
    expect(new Set(results.map((r) => r.story.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // One row for the race plus the seeded story.
    expect(await countRows(t.db, 'stories')).toBe(2);
  });

  it('names a story first met without a title, and never renames a named one', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const url = 'https://news.example/untitled';
    await findOrCreateStory(t.db, { siteId: site.id, url, title: '' });
    const named = await findOrCreateStory(t.db, { siteId: site.id, url, title: 'Budget day' });
    expect(named.story.title).toBe('Budget day');
    const again = await findOrCreateStory(t.db, { siteId: site.id, url, title: 'Spoofed' });
    expect(again.story.title).toBe('Budget day');
  });

  it('closes and reopens a story and sets or clears its overrides', async () => {
    const { story } = await seedBasics(t.db, { userCount: 0 });
    expect(story).toMatchObject({
      status: 'OPEN',
      premod: null,
      liveUpdates: null,
      closedAt: null,
    });
    const closed = await updateStory(t.db, story.id, {
      status: 'CLOSED',
      premod: 'ALL',
      liveUpdates: false,
    });
    expect(closed).toMatchObject({ status: 'CLOSED', premod: 'ALL', liveUpdates: false });
    expect(closed.closedAt).not.toBeNull();
    const reopened = await updateStory(t.db, story.id, {
      status: 'OPEN',
      premod: null,
      liveUpdates: null,
    });
    expect(reopened).toMatchObject({
      status: 'OPEN',
      premod: null,
      liveUpdates: null,
      closedAt: null,
    });
    expect(await findStoryById(t.db, story.id)).toEqual(reopened);
    await expect(updateStory(t.db, 'missing', { title: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('lists stories by query, status and site across pages', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    for (let i = 0; i < 5; i += 1) {
      await findOrCreateStory(t.db, {
        siteId: site.id,
        url: `https://news.example/s${i}`,
        title: `Election 50%_${i}`,
      });
    }
    const { story: closed } = await findOrCreateStory(t.db, {
      siteId: site.id,
      url: 'https://news.example/x',
      title: 'Weather',
    });
    await updateStory(t.db, closed.id, { status: 'CLOSED' });
    const titles = async (filter: Parameters<typeof listStories>[1]) =>
      (await listStories(t.db, filter, { first: 100 })).edges.map((e) => e.node.title);
    expect(await titles({ query: 'ELECTION' })).toHaveLength(5);
    // LIKE wildcards in the query match literally.
    expect(await titles({ query: '50%_3' })).toEqual(['Election 50%_3']);
    expect(await titles({ query: '%' })).toHaveLength(5);
    expect(await titles({ status: 'CLOSED' })).toEqual(['Weather']);
    expect(await titles({ siteId: 'other' })).toEqual([]);
    const first = await listStories(t.db, { siteId: site.id }, { first: 4 });
    const second = await listStories(
      t.db,
      { siteId: site.id },
      { first: 4, after: first.pageInfo.endCursor },
    );
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const ids = [...first.edges, ...second.edges].map((e) => e.node.id);
    expect(new Set(ids).size).toBe(7);
  });

  it('counts only visible comments per story, 0 for stories without any', async () => {
    const { story, users, site } = await seedBasics(t.db, { userCount: 1 });
    const { story: empty } = await findOrCreateStory(t.db, {
      siteId: site.id,
      url: 'https://news.example/e',
      title: 'E',
    });
    const author = users[0]!.id;
    const body = { bodySource: 'x', bodyHtml: '<p>x</p>' };
    await createComment(t.db, { storyId: story.id, authorId: author, ...body });
    await createComment(t.db, { storyId: story.id, authorId: author, ...body, status: 'APPROVED' });
    await createComment(t.db, { storyId: story.id, authorId: author, ...body, status: 'PREMOD' });
    await createComment(t.db, { storyId: story.id, authorId: author, ...body, status: 'REJECTED' });
    const counts = await countStoryComments(t.db, [story.id, empty.id]);
    expect(counts.get(story.id)).toBe(2);
    expect(counts.get(empty.id)).toBe(0);
  });
});
