import { randomUUID } from 'node:crypto';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { loadTrustedDocuments } from '../src/runtime/plugins/trustedDocuments';

// The shared read cache against the real server: each event that changes what a reader sees takes
// effect on the next anonymous read, which is otherwise answered from the cache. On SQLite one
// process (the cache in its memory); on PostgreSQL + Redis two processes sharing one cache in
// Redis, the event on one and the read on the other.
const REDIS_URL = process.env['REDIS_URL'];
const SITE = 'https://site.example';
const STORY_URL = `${SITE}/a-story`;
const READ = `query Read($url: String) {
  settings { reactionLabel }
  story(url: $url) { id status comments(first: 10) { edges { node { id body } } } }
}`;

interface Read {
  status: number;
  etag: string | null;
  cacheControl: string | null;
  vary: string | null;
  reactionLabel?: string;
  storyStatus?: string;
  bodies?: string[];
}

describe.each(testDialects())('the read cache on %s', (dialect) => {
  let database: TestDatabase;
  const servers: ParleyServer[] = [];
  let writer: string;
  let reader: string;
  let token: string;
  let beforeInstall: boolean;

  /** Whether an anonymous reader of the reading process is told Parley is installed. */
  async function installed(): Promise<boolean> {
    const search = new URLSearchParams({ query: '{ settings { installed } }' });
    const response = await fetch(`${reader}/graphql?${search}`);
    return ((await response.json()) as { data: { settings: { installed: boolean } } }).data.settings
      .installed;
  }

  it('tells every anonymous reader once Parley is installed', async () => {
    expect(beforeInstall).toBe(false);
    expect(await installed()).toBe(true);
  });

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    const redisPrefix = `parley-test-${randomUUID()}:`;
    const start = async () => {
      const server = await createParleyServer({
        config: loadConfig({
          PORT: '0',
          PARLEY_DATA_DIR: database.dataDir,
          DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
          REDIS_URL: dialect === 'postgres' ? REDIS_URL : undefined,
          LOG_LEVEL: 'silent',
        }),
        logger: createMemoryLogger().logger,
        redisPrefix,
      });
      servers.push(server);
      return `http://127.0.0.1:${await server.listen()}`;
    };
    writer = await start();
    reader = dialect === 'postgres' ? await start() : writer;
    beforeInstall = await installed();
    token = await installOverHttp(writer, { site: SITE, password: 'correct horse battery' });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await database?.close();
  });

  /** A signed-in POST on the writing process. */
  const act = (query: string, variables?: Record<string, unknown>) =>
    graphqlAs(writer, token)<Record<string, { comment?: { id: string }; story?: { id: string } }>>(
      query,
      variables,
    );

  /** An anonymous GET on the reading process, as a CDN or the stream would send it. */
  async function read(headers: Record<string, string> = {}): Promise<Read> {
    const search = new URLSearchParams({
      query: READ,
      variables: JSON.stringify({ url: STORY_URL }),
    });
    const response = await fetch(`${reader}/graphql?${search}`, {
      headers: { accept: 'application/json', ...headers },
    });
    const read: Read = {
      status: response.status,
      etag: response.headers.get('etag'),
      cacheControl: response.headers.get('cache-control'),
      vary: response.headers.get('vary'),
    };
    if (response.status !== 200) return read;
    const { data } = (await response.json()) as {
      data: {
        settings: { reactionLabel: string };
        story: { status: string; comments: { edges: { node: { body: string } }[] } };
      };
    };
    return {
      ...read,
      reactionLabel: data.settings.reactionLabel,
      storyStatus: data.story.status,
      bodies: data.story.comments.edges.map((edge) => edge.node.body.replace(/<[^>]+>|\n/g, '')),
    };
  }

  it('answers anonymous reads from the cache until an event changes what they show', async () => {
    const story = (
      await act(
        `mutation ($url: String) { s: story(url: $url) { id } }`.replace('mutation', 'query'),
        {
          url: STORY_URL,
        },
      )
    ).s as unknown as { id: string };
    const post = async (body: string) =>
      (
        await act(
          `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
          { input: { storyId: story.id, body } },
        )
      ).createComment?.comment?.id as string;
    const first = await post('First');
    await post('Second');

    const cold = await read();
    expect(cold).toMatchObject({ status: 200, bodies: ['Second', 'First'] });
    expect(cold.etag).toEqual(expect.any(String));
    expect(cold.cacheControl).toMatch(/^public, max-age=0, s-maxage=\d+$/);
    // The same answer from the cache, and a 304 for a client that holds it.
    expect(await read()).toEqual(cold);
    expect(await read({ 'if-none-match': cold.etag as string })).toMatchObject({ status: 304 });
    // A signed-in reader's answer is theirs alone, even when their browser revalidates the
    // anonymous answer it kept for the same URL before signing in.
    const signedIn = await read({
      authorization: `Bearer ${token}`,
      'if-none-match': cold.etag as string,
    });
    expect(signedIn).toMatchObject({ status: 200, cacheControl: 'private, no-cache' });
    expect(cold.vary).toMatch(/Authorization/);

    // A moderator rejects a comment: gone from the next read, as soon as the mutation returned.
    await act(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`,
      {
        id: first,
      },
    );
    const afterReject = await read();
    expect(afterReject.bodies).toEqual(['Second']);
    // A client holding the old answer gets the new one, not "304 Not Modified".
    expect(afterReject.etag).not.toBe(cold.etag);
    expect(await read({ 'if-none-match': cold.etag as string })).toMatchObject({
      status: 200,
      bodies: ['Second'],
    });

    // A new comment is in the next read; an edit too.
    const third = await post('Third');
    expect((await read()).bodies).toEqual(['Third', 'Second']);
    await act(
      `mutation ($id: ID!) { editComment(input: { commentId: $id, body: "Third, edited" }) { comment { id } } }`,
      { id: third },
    );
    expect((await read()).bodies).toEqual(['Third, edited', 'Second']);

    // Story and site settings take effect on the next load.
    await act(
      `mutation ($id: ID!) { updateStory(input: { storyId: $id, status: CLOSED }) { story { id } } }`,
      { id: story.id },
    );
    expect((await read()).storyStatus).toBe('CLOSED');
    await act(
      `mutation { updateSettings(input: { reactionLabel: "Respect" }) { settings { reactionLabel } } }`,
    );
    expect((await read()).reactionLabel).toBe('Respect');
  });

  it('keeps the latest comments (recent.js) until one is removed, or one is added to a listed story', async () => {
    const url = `${SITE}/recent-story`;
    const RECENT = `query ($url: String, $siteId: ID) {
      recentComments(storyURL: $url, siteId: $siteId) { id body story { id url title } }
    }`;
    const recent = async (variables: Record<string, string>) => {
      const search = new URLSearchParams({ query: RECENT, variables: JSON.stringify(variables) });
      const response = await fetch(`${reader}/graphql?${search}`);
      const { data } = (await response.json()) as {
        data: { recentComments: { body: string }[] };
      };
      return data.recentComments.map((c) => c.body.replace(/<[^>]+>|\n/g, ''));
    };
    const storyOf = async (storyUrl: string) =>
      (
        (await act(`query ($url: String) { s: story(url: $url) { id } }`, { url: storyUrl }))
          .s as unknown as { id: string }
      ).id;
    const storyId = await storyOf(url);
    const otherStoryId = await storyOf(`${SITE}/another-story`);
    const post = async (body: string, onStory = storyId) =>
      (
        await act(
          `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
          { input: { storyId: onStory, body } },
        )
      ).createComment?.comment?.id as string;
    const { sites } = (await act(`{ sites { id } }`)) as unknown as { sites: { id: string }[] };
    const site = { siteId: sites[0]!.id };
    const first = await post('One');
    await post('Two');
    expect(await recent({ url })).toEqual(['Two', 'One']);
    const siteList = await recent(site);
    expect(siteList.slice(0, 2)).toEqual(['Two', 'One']);
    // Kept: a change no event announces (a hand edit) does not show.
    await database.db
      .updateTable('comments')
      .set({ body_html: '<p>Edited by hand</p>' })
      .where('id', '=', first)
      .execute();
    expect(await recent({ url })).toEqual(['Two', 'One']);
    expect(await recent(site)).toEqual(siteList);
    // A removal drops both lists at once; a comment on the listed story drops its list.
    await act(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`,
      { id: first },
    );
    expect(await recent({ url })).toEqual(['Two']);
    expect((await recent(site)).slice(0, 1)).toEqual(['Two']);
    await post('Three');
    expect(await recent({ url })).toEqual(['Three', 'Two']);
    // One on a story the site list does not show yet waits for the list's 10 s (RECENT_TTL_MS).
    const listed = await recent(site);
    await post('Elsewhere', otherStoryId);
    expect(await recent(site)).toEqual(listed);
  });

  it('answers a kept answer to an anonymous GET of a trusted document before yoga, the same as yoga would', async () => {
    const url = `${SITE}/fast`;
    const created = await act(`query ($url: String) { s: story(url: $url) { id } }`, { url });
    const storyId = (created.s as unknown as { id: string }).id;
    const documents = loadTrustedDocuments();
    const id = [...documents].find(([, text]) => text.startsWith('query Stream('))![0];
    const search = new URLSearchParams({
      operationName: 'Stream',
      variables: JSON.stringify({ first: 20, sort: 'CREATED_AT_DESC', url }),
      extensions: JSON.stringify({ persistedQuery: { documentId: id } }),
    });
    const get = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${reader}/graphql?${search}`, {
        headers: { accept: 'application/graphql-response+json, application/json', ...headers },
      });
      const kept = ['content-type', 'etag', 'last-modified', 'cache-control', 'vary'];
      return {
        status: response.status,
        headers: Object.fromEntries(kept.map((name) => [name, response.headers.get(name)])),
        body: await response.text(),
      };
    };
    const miss = await get(); // yoga, which keeps it
    const fast = await get(); // the kept answer, before yoga
    const throughYoga = await get({ 'if-none-match': '"another"' }); // yoga's own hit
    expect(fast).toEqual(throughYoga);
    expect(fast.body).toBe(miss.body);
    expect(fast.headers['cache-control']).toMatch(/^public/);

    // Dropped with the rest when a comment comes.
    await act(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId, body: 'Fresh' } },
    );
    expect((await get()).body).toContain('Fresh');
  });
});
