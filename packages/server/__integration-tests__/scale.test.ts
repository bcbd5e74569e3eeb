import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import { WebSocket } from 'ws';
import { REPOSITORY_ROOT } from '../src/clientBuilds';
import { createParleyServer } from '../src/createParleyServer';
import { RATE_LIMITS } from '../src/defaults';
import type { ParleyServer } from '../src/createParleyServer';
import { createUser } from '../src/db/store/users';
import { ignoreUser } from '../src/db/store/userModeration';
import { createTestDatabase } from '../src/db/testDatabases';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { graphqlAt } from '../src/runtime/testing/postingClients';
import { loadConfig } from '../src/runtime/loadConfig';

// The bench (`npm run bench:scale`, section 1) measures 10,000 readers; this holds what must be
// true at any size, on real servers: every reader gets each comment once, anonymous readers share
// one execution per story and operation, and what differs by viewer still differs.

const SITE = 'https://site.example';
const READERS = 100;
/** Readers per loopback address: under the server's bound of sockets per address (50). */
const PER_ADDRESS = 25;
const FIELDS = `id body status removed reactionCount viewerReacted author { username }`;
const CREATED = `subscription ($storyId: ID!) { commentCreated(storyId: $storyId) { ${FIELDS} } }`;
const UPDATED = `subscription ($storyId: ID!) { commentUpdated(storyId: $storyId) { ${FIELDS} } }`;

interface Comment {
  id: string;
  body: string;
  viewerReacted: boolean;
  reactionCount: number;
  author: { username: string } | null;
}

/** A reader following a story as the widget does (created and updated), and what they got. */
interface Reader {
  client: Client;
  created: Comment[];
  updated: Comment[];
  errors: unknown[];
}

function openReader(url: string, address: string, storyId: string, token?: string): Reader {
  const client = createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address_: string, protocols?: string | string[]) {
        super(address_, protocols, { localAddress: address });
      }
    },
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  const reader: Reader = { client, created: [], updated: [], errors: [] };
  for (const [query, into] of [
    [CREATED, reader.created],
    [UPDATED, reader.updated],
  ] as const) {
    client.subscribe(
      { query, variables: { storyId } },
      {
        next: ({ data, errors }) => {
          if (errors) reader.errors.push(errors);
          const comment = (data?.['commentCreated'] ?? data?.['commentUpdated']) as Comment;
          if (comment) into.push(comment);
        },
        error: (error) => reader.errors.push(error),
        complete: () => undefined,
      },
    );
  }
  return reader;
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One request from the site's page (its origin), failing the test on any error. */
async function graphql(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<any> {
  const headers: Record<string, string> = { origin: SITE };
  if (token) headers['authorization'] = `Bearer ${token}`;
  const answer = await graphqlAt(url, query, variables, headers);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}

async function sharedExecutions(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^parley_graphql_subscription_executions_shared (\d+)/m.exec(text)?.[1]);
}

const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

describe.each([
  ['one server on SQLite', 'sqlite'],
  ['two servers on PostgreSQL + Redis', 'postgres'],
] as const)('scale: %s', (_name, dialect) => {
  let servers: ParleyServer[] = [];
  let urls: string[] = [];
  let cleanUp: (() => Promise<void>)[] = [];
  let adminToken = '';

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-fan-out-'));
    cleanUp.push(() => rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      PORT: '0',
      PARLEY_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://parley.example',
    };
    if (dialect === 'postgres') {
      const database = await createTestDatabase('postgres');
      cleanUp.push(() => database.close());
      Object.assign(env, {
        DATABASE_URL: database.url,
        REDIS_URL: process.env['REDIS_URL']!,
        REDIS_PREFIX: `fan-out-${randomUUID()}:`,
      });
    }
    for (let i = 0; i < (dialect === 'postgres' ? 2 : 1); i++) {
      const server = await createParleyServer({ config: loadConfig(env) });
      servers.push(server);
      urls.push(`http://127.0.0.1:${await server.listen()}`);
    }
    adminToken = await installOverHttp(urls[0]!, { site: SITE, password: 'correct horse' });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    for (const step of cleanUp.reverse()) await step();
    servers = [];
    urls = [];
    cleanUp = [];
  });

  it('delivers each comment once to every reader, anonymous ones sharing one execution', async () => {
    const { story } = await graphql(urls[0]!, `query ($url: String!) { story(url: $url) { id } }`, {
      url: `${SITE}/viral`,
    });
    const { db, tokens } = servers[0]!.deps;
    const signIn = async (username: string) => {
      const user = await createUser(db, {
        username,
        email: `${username}@example.com`,
        emailVerified: true,
      });
      return { id: user.id, token: await tokens.sign({ userId: user.id, role: 'COMMENTER' }) };
    };
    const [writer, alice, bob] = [
      await signIn('wendy'),
      await signIn('alice'),
      await signIn('bob'),
    ];
    await ignoreUser(db, bob.id, writer.id);

    // Readers spread over the servers, from loopback addresses of their own.
    const at = (i: number) => urls[i % urls.length]!;
    const anonymous = Array.from({ length: READERS }, (_, i) =>
      openReader(at(i), `127.0.3.${Math.floor(i / PER_ADDRESS) + 1}`, story.id),
    );
    const aliceReader = openReader(at(0), '127.0.4.1', story.id, alice.token);
    const bobReader = openReader(at(1), '127.0.4.2', story.id, bob.token);
    const everyone = [...anonymous, aliceReader, bobReader];
    try {
      // Subscriptions start asynchronously: an admin's comment, posted until all have one.
      for (let i = 0; !everyone.every((r) => r.created.length > 0); i++) {
        if (i === 50) {
          throw new Error(
            `not every reader got a warm-up comment: ${JSON.stringify(
              everyone.flatMap((r) => r.errors),
            )}`,
          );
        }
        await graphql(
          urls[0]!,
          POST,
          { input: { storyId: story.id, body: `Warm-up ${i}` } },
          adminToken,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const reader of everyone) reader.created.length = 0;
      // Per server: one execution for the anonymous readers' created, one for their updated.
      for (const url of urls) expect(await sharedExecutions(url)).toBe(2);

      const { createComment } = await graphql(
        urls[urls.length - 1]!,
        POST,
        { input: { storyId: story.id, body: 'Hello, everyone' } },
        writer.token,
      );
      const id = createComment.comment.id as string;
      await until(
        () => [...anonymous, aliceReader].every((r) => r.created.some((c) => c.id === id)),
        'the comment on every reader',
      );
      for (const reader of [...anonymous, aliceReader]) {
        expect(reader.created.filter((c) => c.id === id)).toEqual([
          expect.objectContaining({
            body: '<p>Hello, everyone</p>',
            author: { username: 'wendy' },
            viewerReacted: false,
          }),
        ]);
      }

      // Alice reacts: she is told she did; nobody else is.
      await graphql(
        urls[0]!,
        `mutation ($input: CommentIdInput!) { createReaction(input: $input) { comment { id } } }`,
        { input: { commentId: id } },
        alice.token,
      );
      const updateOf = (reader: Reader) => reader.updated.find((c) => c.id === id);
      const following = [...anonymous, aliceReader];
      await until(() => following.every((r) => updateOf(r) !== undefined), 'the update everywhere');
      expect(updateOf(aliceReader)).toMatchObject({ reactionCount: 1, viewerReacted: true });
      for (const reader of anonymous) {
        expect(updateOf(reader)).toMatchObject({ reactionCount: 1, viewerReacted: false });
      }
      // Bob ignores the writer: her comment and its changes never reached him.
      expect(bobReader.created.some((c) => c.id === id)).toBe(false);
      expect(updateOf(bobReader)).toBeUndefined();
      expect(everyone.flatMap((r) => r.errors)).toEqual([]);
    } finally {
      await Promise.all(everyone.map((reader) => reader.client.dispose()));
    }
    // The last anonymous reader gone, the shared executions (and their listeners) are too.
    for (const url of urls) {
      const deadline = Date.now() + 5_000;
      while ((await sharedExecutions(url)) !== 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await sharedExecutions(url)).toBe(0);
    }
  }, 60_000);

  it('shares one posting limit and one read cache between the servers', async () => {
    const { db, tokens } = servers[0]!.deps;
    const user = await createUser(db, {
      username: 'pat',
      email: 'pat@example.com',
      emailVerified: true,
    });
    const token = await tokens.sign({ userId: user.id, role: 'COMMENTER' });
    const storyUrl = `${SITE}/shared`;
    const { story } = await graphql(urls[0]!, `query ($url: String!) { story(url: $url) { id } }`, {
      url: storyUrl,
    });
    // The widget's first read, as an anonymous GET by document id: the one the read cache keeps.
    const documents = JSON.parse(
      await readFile(join(REPOSITORY_ROOT, 'packages/contract/persisted-documents.json'), 'utf8'),
    ) as Record<string, string>;
    const documentId = Object.keys(documents).find((id) =>
      documents[id]!.startsWith('query Stream('),
    )!;
    const read = async (url: string): Promise<string[]> => {
      const query = new URLSearchParams({
        operationName: 'Stream',
        variables: JSON.stringify({ first: 20, sort: 'CREATED_AT_DESC', url: storyUrl }),
        extensions: JSON.stringify({ persistedQuery: { documentId } }),
      });
      const response = await fetch(`${url}/graphql?${query.toString()}`, {
        headers: { origin: SITE },
      });
      const body = (await response.json()) as any;
      return body.data.story.comments.edges.map((edge: any) => edge.node.id as string);
    };
    const last = urls[urls.length - 1]!;
    expect(await read(last)).toEqual([]);
    // The limit is RATE_LIMITS.post per user, whichever server takes each post. It counts in
    // fixed one-minute windows: posts that straddled the turn of one (a slow run; it failed so in
    // CI) would count in two. The clock the limiters read stands still for them.
    const outcomes: string[] = [];
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      for (let i = 0; i <= RATE_LIMITS.post.limit; i++) {
        const response = await fetch(`${urls[i % urls.length]!}/graphql`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: SITE,
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({
            query: POST,
            variables: { input: { storyId: story.id, body: `Post ${i}` } },
          }),
        });
        const body = (await response.json()) as any;
        outcomes.push(body.data?.createComment ? 'ok' : body.errors[0].extensions.code);
        // Each post is in the next read, on the last server, cached there or not.
        if (body.data?.createComment) {
          expect(await read(last)).toContain(body.data.createComment.comment.id);
        }
      }
    } finally {
      now.mockRestore();
    }
    expect(outcomes).toEqual([...Array(RATE_LIMITS.post.limit).fill('ok'), 'RATE_LIMITED']);
  }, 60_000);
});
