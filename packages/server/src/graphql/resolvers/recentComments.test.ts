import { createComment } from '../../db/store/comments';
import { createSite } from '../../db/store/sites';
import { findOrCreateStory } from '../../db/store/stories';
import { testBox } from '../../db/testFixtures';
import { testDialects } from '../../db/testDatabases';
import { PUBLIC_URL, SITE_ORIGIN, useApi } from '../testing/useApi';

const RECENT = `query ($siteId: ID, $storyURL: String, $first: Int) {
  recentComments(siteId: $siteId, storyURL: $storyURL, first: $first) {
    id body createdAt author { username } story { url }
  }
}`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id status } }
}`;
const STORY = `query ($url: String!) { story(url: $url) { id } }`;

const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;

describe.each(testDialects())('recent comments on %s', (dialect) => {
  const api = useApi(dialect);

  /** A site with two stories, comments a minute apart, and another site's comment. */
  async function seed() {
    const { adminToken, siteId } = await api.install();
    const writer = await api.signUp('writer');
    const storyUrl = (path: string) => `${SITE_ORIGIN}${path}`;
    const storyA = (await api.ok(STORY, { url: storyUrl('/a') })).story.id as string;
    const storyB = (await api.ok(STORY, { url: storyUrl('/b') })).story.id as string;
    let minute = 0;
    const post = async (storyId: string, body: string) => {
      api.setNow(new Date(Date.UTC(2026, 10, 1, 12, minute++)));
      const { createComment: created } = await api.ok(
        POST,
        { input: { storyId, body } },
        writer.token,
      );
      return created.comment.id as string;
    };
    const a1 = await post(storyA, 'A one');
    const b1 = await post(storyB, 'B one');
    const a2 = await post(storyA, 'A two');
    const deleted = await post(storyA, 'Deleted');
    await api.ok(
      `mutation ($id: ID!) { deleteComment(input: { commentId: $id }) { comment { id } } }`,
      { id: deleted },
      writer.token,
    );
    const rejected = await post(storyB, 'Rejected');
    await api.ok(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`,
      { id: rejected },
      adminToken,
    );
    // Held: never published, so in no list.
    await api.db
      .updateTable('organization')
      .set({ settings: JSON.stringify({ premod: 'ALL' }) })
      .execute();
    await post(storyA, 'Held');
    await api.db.updateTable('organization').set({ settings: '{}' }).execute();
    // Another site's story, newest of all.
    const { site: other } = await createSite(
      api.db,
      { name: 'Other', url: 'https://other.example', allowedOrigins: ['https://other.example'] },
      testBox,
    );
    const { story: elsewhere } = await findOrCreateStory(api.db, {
      siteId: other.id,
      url: 'https://other.example/x',
      title: '',
    });
    await createComment(api.db, {
      storyId: elsewhere.id,
      authorId: writer.userId,
      bodySource: 'Elsewhere',
      bodyHtml: '<p>Elsewhere</p>',
      createdAt: new Date(Date.UTC(2026, 10, 2)).toISOString(),
    });
    return { siteId, otherSiteId: other.id, storyUrl, ids: { a1, b1, a2 } };
  }

  it('lists a site’s latest published comments, newest first, nothing held, rejected or deleted', async () => {
    const { siteId, otherSiteId, storyUrl, ids } = await seed();
    const { recentComments } = await api.ok(RECENT, { siteId });
    expect(recentComments).toEqual([
      {
        id: ids.a2,
        body: '<p>A two</p>',
        createdAt: '2026-11-01T12:02:00.000Z',
        author: { username: 'writer' },
        story: { url: storyUrl('/a') },
      },
      expect.objectContaining({ id: ids.b1, story: { url: storyUrl('/b') } }),
      expect.objectContaining({ id: ids.a1, body: '<p>A one</p>' }),
    ]);
    const two = await api.ok(RECENT, { siteId, first: 2 });
    expect(two.recentComments.map((c: { id: string }) => c.id)).toEqual([ids.a2, ids.b1]);
    const other = await api.ok(RECENT, { siteId: otherSiteId });
    expect(other.recentComments.map((c: { body: string }) => c.body)).toEqual(['<p>Elsewhere</p>']);
  });

  it('lists one story’s, and none for a story nobody opened (without creating it)', async () => {
    const { storyUrl, ids } = await seed();
    // The URL as a link on the host page has it: the fragment and tracking do not matter.
    const { recentComments } = await api.ok(RECENT, {
      storyURL: `${storyUrl('/a')}?utm_source=x#comments`,
    });
    expect(recentComments.map((c: { id: string }) => c.id)).toEqual([ids.a2, ids.a1]);
    const none = await api.ok(RECENT, { storyURL: storyUrl('/never-opened') });
    expect(none.recentComments).toEqual([]);
    const stories = await api.db.selectFrom('stories').select('url').execute();
    expect(stories.map((s) => s.url)).not.toContain(storyUrl('/never-opened'));
  });

  it('refuses unclear questions with coded errors', async () => {
    const { siteId, storyUrl } = await seed();
    const fieldOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
      answer.errors?.[0]?.extensions?.field;
    const neither = await api.request(RECENT, {});
    expect([codeOf(neither), fieldOf(neither)]).toEqual(['INVALID_INPUT', 'siteId']);
    const both = await api.request(RECENT, { siteId, storyURL: storyUrl('/a') });
    expect(codeOf(both)).toBe('INVALID_INPUT');
    for (const first of [0, 21]) {
      const answer = await api.request(RECENT, { siteId, first });
      expect([codeOf(answer), fieldOf(answer)]).toEqual(['INVALID_INPUT', 'first']);
    }
    const notUrl = await api.request(RECENT, { storyURL: 'javascript:alert(1)' });
    expect([codeOf(notUrl), fieldOf(notUrl)]).toEqual(['INVALID_INPUT', 'storyURL']);
    const unknown = await api.request(RECENT, { siteId: crypto.randomUUID() });
    expect([codeOf(unknown), fieldOf(unknown)]).toEqual(['NOT_FOUND', 'siteId']);
  });

  it('is for signed-in readers only when anonymous reading is off', async () => {
    const { siteId } = await seed();
    await api.db
      .updateTable('organization')
      .set({ settings: JSON.stringify({ anonymousReading: false }) })
      .execute();
    expect(codeOf(await api.request(RECENT, { siteId }))).toBe('UNAUTHENTICATED');
    const reader = await api.signUp('reader');
    expect((await api.ok(RECENT, { siteId }, reader.token)).recentComments).toHaveLength(3);
  });
});

describe.each(testDialects())('the latest-comments snippet on %s', (dialect) => {
  const api = useApi(dialect);

  it('names the site and the server’s recent.js', async () => {
    const { adminToken, siteId } = await api.install();
    const { sites } = await api.ok(`{ sites { id recentSnippet } }`, {}, adminToken);
    expect(sites).toEqual([
      {
        id: siteId,
        recentSnippet: `<div class="parley-recent" data-site="${siteId}" data-count="5"></div>\n<script src="${PUBLIC_URL}/recent.js" async></script>`,
      },
    ]);
  });
});
