import { gql } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { WebSocket } from 'ws';
import { createTransport } from '@parley/transport';
import type { Transport } from '@parley/transport';
import { answeringChallenges } from '@parley/transport/sign-in';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';
import { signUpCodeFromOutbox } from '../src/runtime/testing/readOutbox';

// The whole server over real HTTP and WebSocket on 127.0.0.1, on each database, with the
// transport the widget and the console use as its client.

const SITE = 'https://site.example';
const Install = gql`
  mutation Install($input: InstallInput!) {
    install(input: $input) {
      token
    }
  }
`;
const SignUp = gql`
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      email
    }
  }
`;
const ConfirmSignUp = gql`
  mutation ConfirmSignUp($input: ConfirmSignUpInput!) {
    confirmSignUp(input: $input) {
      token
    }
  }
`;
const Story = gql`
  query Story($url: String!) {
    story(url: $url) {
      id
    }
  }
`;
const Post = gql`
  mutation Post($input: CreateCommentInput!) {
    createComment(input: $input) {
      comment {
        id
        status
      }
    }
  }
`;
const Live = gql`
  subscription Live($storyId: ID!) {
    commentCreated(storyId: $storyId) {
      id
      body
      author {
        username
      }
    }
  }
`;

describe.each(testDialects())('the server on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer;
  let url: string;
  const transports: Transport[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    const config = loadConfig({
      PORT: '0',
      PARLEY_DATA_DIR: database.dataDir,
      DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
      LOG_LEVEL: 'silent',
    });
    server = await createParleyServer({ config });
    url = `http://127.0.0.1:${await server.listen()}`;
  });
  afterAll(async () => {
    await Promise.all(transports.map((t) => t.dispose()));
    await server?.close();
    await database?.close();
  });

  function client(token?: string): Transport {
    const transport = createTransport({
      url: `${url}/graphql`,
      WebSocket,
      getToken: () => token ?? null,
    });
    transports.push(transport);
    return transport;
  }

  it('answers /healthz after checking its database', async () => {
    const response = await fetch(`${url}/healthz`);
    expect([response.status, await response.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('installs, signs up, and delivers a post live to another reader over WebSocket', async () => {
    const anonymous = client();
    const installed = await anonymous.client
      .mutation(Install, {
        input: {
          organization: { name: 'Example', contactEmail: 'team@example.com', url: SITE },
          site: { name: 'Example', url: SITE, allowedOrigins: [SITE] },
          admin: { email: 'admin@example.com', username: 'admin', password: 'correct horse' },
        },
      })
      .toPromise();
    expect(installed.error).toBeUndefined();
    // The sign-up's proof of work, answered by the transport as the popup does.
    const started = await answeringChallenges((answer) =>
      anonymous.client
        .mutation(SignUp, {
          input: {
            email: 'writer@example.com',
            username: 'writer',
            password: 'correct horse',
            ...answer,
          },
        })
        .toPromise(),
    );
    expect(started.data.signUp.email).toBe('writer@example.com');
    // The code, from the outbox this server files its mail in.
    const code = await signUpCodeFromOutbox(database.dataDir, 'writer@example.com');
    const signedUp = await anonymous.client
      .mutation(ConfirmSignUp, { input: { email: 'writer@example.com', code } })
      .toPromise();
    const writer = client(signedUp.data.confirmSignUp.token);
    const reader = client(installed.data.install.token);

    const story = await reader.client.query(Story, { url: `${SITE}/article` }).toPromise();
    const storyId: string = story.data.story.id;
    const received: { body: string; author: { username: string } }[] = [];
    const { unsubscribe } = pipe(
      reader.client.subscription(Live, { storyId }),
      subscribe((result) => result.data && received.push(result.data.commentCreated)),
    );
    await waitFor(() => reader.status === 'connected');
    // graphql-ws acknowledges connections, not subscriptions: give the subscribe message time to
    // reach the server before posting.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const posted = await writer.client
      .mutation(Post, { input: { storyId, body: 'Hello, *live* world' } })
      .toPromise();
    expect(posted.data.createComment.comment.status).toBe('NONE');
    await waitFor(() => received.length === 1);
    expect(received[0]).toEqual({
      id: posted.data.createComment.comment.id,
      body: '<p>Hello, <em>live</em> world</p>',
      author: { username: 'writer' },
    });
    unsubscribe();
  });

  it('lets the widget’s full first-page query through the query limits (depth, cost)', async () => {
    const FirstPage = gql`
      query FirstPage($url: String!) {
        story(url: $url) {
          id
          commentCount
          comments(first: 20) {
            edges {
              node {
                id
                body
                replyCount
                viewerReacted
                author {
                  username
                  badges
                }
                replies(first: 3) {
                  edges {
                    node {
                      id
                      body
                      author {
                        username
                      }
                    }
                  }
                  pageInfo {
                    hasNextPage
                  }
                }
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      }
    `;
    const result = await client()
      .client.query(FirstPage, { url: `${SITE}/article` })
      .toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data.story.comments.edges.length).toBeGreaterThan(0);
  });

  it('answers a coded error through the transport: ORIGIN_NOT_PERMITTED', async () => {
    const result = await client()
      .client.query(Story, { url: 'https://elsewhere.example/a' })
      .toPromise();
    expect(result.error).toMatchObject({ code: 'ORIGIN_NOT_PERMITTED' });
  });
});

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
