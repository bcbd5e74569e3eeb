import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createComment } from '../src/db/store/comments';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { atomProblems } from '../src/feeds/testing/atomProblems';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// The Atom feeds against the real server: valid per RFC 4287's rules (atomProblems), the story's
// and the site's latest published comments newest first, and every bad request a coded answer.
const SITE = 'https://site.example';
const STORY_URL = `${SITE}/a-story`;

describe.each(testDialects())('Atom feeds on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer;
  let url: string;
  let act: ReturnType<typeof graphqlAs>;
  let siteId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    url = `http://127.0.0.1:${await server.listen()}`;
    act = graphqlAs(
      url,
      await installOverHttp(url, { site: SITE, password: 'correct horse battery' }),
    );
    const sites = (await act<{ sites: { id: string }[] }>(`{ sites { id } }`)).sites;
    siteId = sites[0]!.id;
    const storyOf = async (storyUrl: string) =>
      (
        await act<{ story: { id: string } }>(`query ($url: String) { story(url: $url) { id } }`, {
          url: storyUrl,
        })
      ).story.id;
    const story = await storyOf(STORY_URL);
    const other = await storyOf(`${SITE}/another`);
    const post = async (name: string, body: string, storyId = story) => {
      const answer = await act<{ createComment: { comment: { id: string } } }>(
        `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
        { input: { storyId, body } },
      );
      ids[name] = answer.createComment.comment.id;
      // Apart in time: the feeds' order is the order of publishing.
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await post('first', 'The **first** one');
    // Text that would end a CDATA section, and a character XML does not allow.
    await post('tricky', 'Ends ]]> here, and a bell \u0007 too <script>alert(1)</script>');
    await post('removed', 'Rejected later');
    await post('elsewhere', 'On another story', other);
    await act(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`,
      {
        id: ids['removed'],
      },
    );
    await post('deleted', 'Deleted by its author');
    await act(
      `mutation ($id: ID!) { deleteComment(input: { commentId: $id }) { comment { id } } }`,
      {
        id: ids['deleted'],
      },
    );
    // Held for review: never published.
    const author = await database.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await createComment(database.db, {
      storyId: story,
      authorId: author.id,
      bodySource: 'Held',
      bodyHtml: '<p>Held</p>',
      status: 'PREMOD',
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${url}${path}`, { method });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.text(),
    };
  };
  /** The entries' ids (the comments' permalinks) and titles, in order. */
  const entries = (xml: string) =>
    [...xml.matchAll(/<entry>[\s\S]*?<id>([^<]*)<\/id>/g)].map((m) =>
      m[1]!.replaceAll('&amp;', '&'),
    );
  const permalink = (story: string, id: string) => `${story}?commentID=${id}`;

  it('serves a story’s latest published comments as a valid Atom feed, newest first', async () => {
    const feed = await get(`/feeds/story.atom?url=${encodeURIComponent(`${STORY_URL}#comments`)}`);
    expect(feed.status).toBe(200);
    expect(feed.type).toBe('application/atom+xml; charset=utf-8');
    expect(atomProblems(feed.body)).toEqual([]);
    expect(entries(feed.body)).toEqual([
      permalink(STORY_URL, ids['tricky']!),
      permalink(STORY_URL, ids['first']!),
    ]);
    expect(feed.body).toContain('<title>Comments on “https://site.example/a-story”</title>');
    expect(feed.body).toContain('<author>\n        <name>Example</name>');
    // An entry's title is the start of its text as readers see it (never the Markdown source,
    // which is the author's and moderators'), escaped as the HTML its type says it is.
    expect(feed.body).toContain(
      '<title type="html"><![CDATA[admin: Ends ]]&gt; here, and a bell too &lt;script&gt;alert(1)&lt;/script&gt;]]></title>',
    );
    expect(feed.body).toContain('<![CDATA[<p>The <strong>first</strong> one</p>]]>');
    expect(feed.body).toContain('<title type="html"><![CDATA[admin: The first one]]></title>');
    expect(feed.body).not.toContain('**first**');
    // Nothing held, rejected or deleted.
    for (const hidden of ['Held', 'Rejected later', 'Deleted by its author']) {
      expect(feed.body).not.toContain(hidden);
    }
    // The server's sanitized HTML: no script, and the text survives as text.
    expect(feed.body).not.toContain('<script>');
    expect(feed.body).toContain(
      // Its own address, on the server's public URL.
      `/feeds/story.atom?url=${encodeURIComponent(STORY_URL)}"/>`,
    );
    // What a document of Parley's origin goes out with, open to other sites' scripts.
    const response = await fetch(`${url}/feeds/story.atom?url=${encodeURIComponent(STORY_URL)}`);
    const headers = [
      'x-content-type-options',
      'content-security-policy',
      'access-control-allow-origin',
      'cache-control',
    ];
    expect(Object.fromEntries(headers.map((name) => [name, response.headers.get(name)]))).toEqual({
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=60',
    });
    // A poller holding it is answered 304.
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await fetch(`${url}/feeds/story.atom?url=${encodeURIComponent(STORY_URL)}`, {
      headers: { 'if-none-match': etag },
    });
    expect([again.status, await again.text()]).toEqual([304, '']);
    // HEAD answers the same, without the body.
    const head = await get(`/feeds/story.atom?url=${encodeURIComponent(STORY_URL)}`, 'HEAD');
    expect([head.status, head.type, head.body]).toEqual([200, feed.type, '']);
  });

  it('serves a site’s latest published comments, across its stories', async () => {
    const feed = await get(`/feeds/site/${siteId}.atom`);
    expect(feed.status).toBe(200);
    expect(atomProblems(feed.body)).toEqual([]);
    expect(entries(feed.body)).toEqual([
      permalink(`${SITE}/another`, ids['elsewhere']!),
      permalink(STORY_URL, ids['tricky']!),
      permalink(STORY_URL, ids['first']!),
    ]);
  });

  it('answers what it cannot serve with a coded error', async () => {
    const refusal = async (path: string) => {
      const answer = await get(path);
      return [answer.status, answer.type, answer.body.split(':')[0]];
    };
    const text = 'text/plain; charset=utf-8';
    expect(await refusal('/feeds/story.atom')).toEqual([400, text, 'INVALID_INPUT']);
    expect(await refusal('/feeds/story.atom?url=javascript%3Aalert(1)')).toEqual([
      400,
      text,
      'INVALID_INPUT',
    ]);
    // A story nobody opened: not created by asking for its feed.
    expect(await refusal(`/feeds/story.atom?url=${encodeURIComponent(`${SITE}/never`)}`)).toEqual([
      404,
      text,
      'NOT_FOUND',
    ]);
    expect(await refusal(`/feeds/site/${crypto.randomUUID()}.atom`)).toEqual([
      404,
      text,
      'NOT_FOUND',
    ]);
    // Not a feed at all: the server's own 404.
    expect((await get('/feeds/nothing.atom')).status).toBe(404);
    await act(
      `mutation { updateSettings(input: { anonymousReading: false }) { settings { anonymousReading } } }`,
    );
    try {
      expect(await refusal(`/feeds/site/${siteId}.atom`)).toEqual([401, text, 'UNAUTHENTICATED']);
    } finally {
      await act(
        `mutation { updateSettings(input: { anonymousReading: true }) { settings { anonymousReading } } }`,
      );
    }
  });

  it('holds the feeds to rules that a broken one breaks (the checker can fail)', () => {
    expect(atomProblems('<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>')).toEqual([
      expect.stringMatching(/^not well-formed XML/),
    ]);
    expect(
      atomProblems(
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><updated>yesterday</updated>' +
          '<entry><id>x</id><title>e</title><updated>2026-01-01T00:00:00Z</updated></entry></feed>',
      ),
    ).toEqual([
      'the feed has 0 atom:id (one needed)',
      'the feed updated is not an RFC 3339 date: yesterday',
      'the feed has no self link (RFC 4287 4.1.1 SHOULD; we keep it a rule)',
      "entry 1's id is not an IRI",
      'entry 1 has no author',
      'entry 1 has neither content nor an alternate link',
    ]);
  });
});
