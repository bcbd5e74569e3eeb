import { File as NodeFile } from 'node:buffer';
import { gql } from '@urql/core';
import type { OperationResult } from '@urql/core';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { pipe, subscribe } from 'wonka';
import { createTransport } from './createTransport';
import { documentId } from './lruCacheExchange';
import { DEFAULTS } from './defaults';
import { TransportError } from './TransportError';
import type { Transport, TransportOptions } from './types';

const URL = 'http://parley.test/graphql';
const server = setupServer();

interface Seen {
  at: number;
  body: { query: string; variables?: Record<string, unknown> };
  headers: Headers;
}
let seen: Seen[];
let transport: Transport | undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  seen = [];
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
});
afterEach(async () => {
  server.resetHandlers();
  await transport?.dispose();
  transport = undefined;
  jest.useRealTimers();
});

/** Answers every POST with `answer(n)` for the n-th request (0-based), recording it. */
function respond(answer: (n: number, seen: Seen) => Response | Promise<Response>) {
  server.use(
    http.post(URL, async ({ request }) => {
      const entry: Seen = {
        at: Date.now(),
        headers: request.headers,
        body: request.headers.get('content-type')?.includes('json')
          ? ((await request.json()) as Seen['body'])
          : { query: '' },
      };
      seen.push(entry);
      return answer(seen.length - 1, entry);
    }),
  );
}

function make(options: Partial<TransportOptions> = {}): Transport {
  transport = createTransport({ url: URL, ...options });
  return transport;
}

const StoryQuery = gql`
  query Story($id: ID!) {
    story(id: $id) {
      id
      title
    }
  }
`;
const storyData = (id: string, title = 'Hello') => ({
  data: { story: { __typename: 'Story', id, title } },
});

/** Runs a query and resolves with its first settled result. */
function query(t: Transport, id = '1', context = {}): Promise<OperationResult> {
  return t.client.query(StoryQuery, { id }, context).toPromise();
}

/** Lets pending promises, msw handlers and zero-delay work settle without moving the clock. */
async function settle(): Promise<void> {
  await jest.advanceTimersByTimeAsync(0);
}

describe('requests', () => {
  it('POSTs JSON to the url, with no Authorization header when there is no token', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    const result = await query(make({ getToken: () => '' }));
    expect(result.data.story.title).toBe('Hello');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(seen[0]!.headers.get('authorization')).toBeNull();
    expect(seen[0]!.body.variables).toEqual({ id: '1' });
  });

  it('sends Authorization: Bearer <token> exactly when getToken returns one, read per request', async () => {
    let token: string | null = 'first';
    respond(() => HttpResponse.json(storyData('1')));
    const t = make({ getToken: async () => token });
    await query(t, '1');
    token = null;
    await query(t, '2');
    token = 'second';
    await query(t, '3');
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer first',
      null,
      'Bearer second',
    ]);
  });

  it('keeps an Authorization header the operation sets itself (a token from an email link)', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    const t = make({ getToken: () => 'session' });
    await query(t, '1', { fetchOptions: { headers: { authorization: 'Bearer from-link' } } });
    await query(t, '2');
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer from-link',
      'Bearer session',
    ]);
  });
});

describe('persisted documents', () => {
  it('send the document’s id, not its text: queries as GET, mutations as JSON POSTs', async () => {
    const gets: URL[] = [];
    server.use(
      http.get(URL, ({ request }) => {
        gets.push(new globalThis.URL(request.url));
        return HttpResponse.json(storyData('1'));
      }),
    );
    respond(() => HttpResponse.json({ data: { signOut: { __typename: 'Payload', ok: true } } }));
    const t = make({ persisted: true });
    expect((await query(t, '1')).data.story.title).toBe('Hello');
    expect(gets).toHaveLength(1);
    const params = gets[0]!.searchParams;
    expect(params.get('query')).toBeNull();
    expect(JSON.parse(params.get('extensions')!)).toEqual({
      persistedQuery: { documentId: documentId(StoryQuery) },
    });
    expect(JSON.parse(params.get('variables')!)).toEqual({ id: '1' });

    const SignOut = gql`
      mutation SignOut {
        signOut {
          ok
        }
      }
    `;
    await t.client.mutation(SignOut, {}).toPromise();
    expect(seen).toHaveLength(1);
    const body = seen[0]!.body as Record<string, unknown>;
    expect(body['query']).toBeUndefined();
    expect(body['extensions']).toEqual({ persistedQuery: { documentId: documentId(SignOut) } });
    // Two documents, two ids; the manifest script fails on a clash among the clients' own.
    expect(documentId(SignOut)).not.toBe(documentId(StoryQuery));
  });

  it('are off by default: a client with its own documents POSTs their text', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    await query(make());
    expect(seen[0]!.body.query).toContain('query Story');
  });
});

describe('timeout and retry', () => {
  it('aborts an attempt with no complete response after requestTimeoutMs', async () => {
    let signal: AbortSignal | undefined;
    server.use(
      http.post(URL, async ({ request }) => {
        signal = request.signal;
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const settled = jest.fn();
    query(make({ retryDelaysMs: [] })).then(settled);
    await jest.advanceTimersByTimeAsync(DEFAULTS.requestTimeoutMs - 1);
    expect(settled).not.toHaveBeenCalled();
    expect(signal?.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true); // the request itself is cancelled, not just abandoned
    expect(settled).toHaveBeenCalledTimes(1);
    const error = settled.mock.calls[0][0].error;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('REQUEST_TIMEOUT');
  });

  it('tries a failing query three times, after exactly 1000 then 3000 ms, then delivers the error', async () => {
    respond(() => new HttpResponse('oops', { status: 500 }));
    const settled = jest.fn();
    query(make()).then(settled);
    await settle();
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(2999);
    expect(seen).toHaveLength(2);
    expect(settled).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(3);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(3);
    expect(seen.map((s) => s.at - seen[0]!.at)).toEqual([0, 1000, 4000]);
    expect(settled.mock.calls[0][0].error).toMatchObject({ code: 'BAD_RESPONSE', status: 500 });
  });

  it('counts a timed-out attempt as failed and retries it', async () => {
    respond(async (n) => {
      if (n === 0) await delay('infinite');
      return HttpResponse.json(storyData('1', 'second try'));
    });
    const settled = jest.fn();
    query(make()).then(settled);
    await jest.advanceTimersByTimeAsync(DEFAULTS.requestTimeoutMs + 1000);
    expect(seen.map((s) => s.at - seen[0]!.at)).toEqual([0, DEFAULTS.requestTimeoutMs + 1000]);
    expect(settled.mock.calls[0][0].data.story.title).toBe('second try');
  });

  it.each([
    ['an empty body', () => new HttpResponse(null, { status: 200 })],
    ['an empty 204', () => new HttpResponse(null, { status: 204 })],
    ['a network error', () => HttpResponse.error()],
    ['HTTP 503', () => HttpResponse.json({ errors: [{ message: 'busy' }] }, { status: 503 })],
  ])('retries after %s and succeeds on a later attempt', async (_name, failure) => {
    respond((n) => (n < 2 ? failure() : HttpResponse.json(storyData('1'))));
    const settled = jest.fn();
    query(make()).then(settled);
    await jest.advanceTimersByTimeAsync(4000);
    expect(seen).toHaveLength(3);
    expect(settled.mock.calls[0][0].data.story.title).toBe('Hello');
  });

  it('never retries GraphQL errors in a successful response, and delivers their code', async () => {
    respond(() =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'Closed', extensions: { code: 'STORY_CLOSED' } }],
      }),
    );
    const settled = jest.fn();
    query(make()).then(settled);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(seen).toHaveLength(1);
    expect(settled.mock.calls[0][0].error).toMatchObject({ code: 'STORY_CLOSED' });
  });

  it('delivers the coded GraphQL error of a final 4xx response (e.g. RATE_LIMITED with field)', async () => {
    respond(() =>
      HttpResponse.json(
        { errors: [{ message: 'Slow down', extensions: { code: 'RATE_LIMITED', field: 'body' } }] },
        { status: 429 },
      ),
    );
    const settled = jest.fn();
    query(make()).then(settled);
    await jest.advanceTimersByTimeAsync(4000);
    expect(seen).toHaveLength(3);
    const error = settled.mock.calls[0][0].error as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect([error.code, error.field, error.status]).toEqual(['RATE_LIMITED', 'body', 429]);
    expect(error.graphQLErrors[0]?.message).toBe('Slow down');
  });

  it('counts a token read that never settles against the time limit', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    const settled = jest.fn();
    query(make({ getToken: () => new Promise<string>(() => undefined), retryDelaysMs: [] })).then(
      settled,
    );
    await jest.advanceTimersByTimeAsync(DEFAULTS.requestTimeoutMs);
    expect(seen).toHaveLength(0);
    expect(settled.mock.calls[0][0].error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('honours custom retry delays', async () => {
    respond(() => new HttpResponse(null, { status: 502 }));
    const settled = jest.fn();
    query(make({ retryDelaysMs: [10, 20, 30] })).then(settled);
    await jest.advanceTimersByTimeAsync(100);
    expect(seen.map((s) => s.at - seen[0]!.at)).toEqual([0, 10, 30, 60]);
    expect(settled.mock.calls[0][0].error).toMatchObject({ code: 'BAD_RESPONSE', status: 502 });
  });

  it('stops retrying when the transport is disposed', async () => {
    respond(() => new HttpResponse(null, { status: 500 }));
    const t = make();
    void query(t);
    await settle();
    expect(seen).toHaveLength(1);
    await t.dispose();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(seen).toHaveLength(1);
  });
});

const PostComment = gql`
  mutation PostComment($input: CreateCommentInput!) {
    createComment(input: $input) {
      comment {
        id
        body
      }
    }
  }
`;
const postedData = {
  data: { createComment: { __typename: 'CreateCommentPayload', comment: null } },
};

describe('mutations', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('carries one Idempotency-Key on every attempt, so a retry is safe', async () => {
    respond((n) =>
      n < 2 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(postedData),
    );
    const t = make();
    const settled = jest.fn();
    t.client
      .mutation(PostComment, { input: { storyId: 's', body: 'hi' } })
      .toPromise()
      .then(settled);
    await jest.advanceTimersByTimeAsync(4000);
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(settled.mock.calls[0][0].operation.context.clientMutationId).toBe(keys[0]);
  });

  it('uses the caller’s input.clientMutationId as the key (a queued post resent after reload)', async () => {
    respond(() => HttpResponse.json(postedData));
    await make()
      .client.mutation(PostComment, { input: { body: 'hi', clientMutationId: 'queued-42' } })
      .toPromise();
    expect(seen[0]!.headers.get('idempotency-key')).toBe('queued-42');
    expect(seen[0]!.body.variables).toEqual({
      input: { body: 'hi', clientMutationId: 'queued-42' },
    });
  });

  it('fills a declared $clientMutationId variable with the key', async () => {
    respond(() => HttpResponse.json({ data: { react: { __typename: 'ReactPayload' } } }));
    const React = gql`
      mutation React($commentId: ID!, $clientMutationId: String) {
        react(commentId: $commentId, clientMutationId: $clientMutationId) {
          __typename
        }
      }
    `;
    await make().client.mutation(React, { commentId: 'c1' }).toPromise();
    const key = seen[0]!.headers.get('idempotency-key');
    expect(key).toMatch(UUID);
    expect(seen[0]!.body.variables).toEqual({ commentId: 'c1', clientMutationId: key });
  });

  it('gives every mutation its own key', async () => {
    respond(() => HttpResponse.json(postedData));
    const t = make();
    await t.client.mutation(PostComment, { input: { body: 'a' } }).toPromise();
    await t.client.mutation(PostComment, { input: { body: 'b' } }).toPromise();
    const [a, b] = seen.map((s) => s.headers.get('idempotency-key'));
    expect(a).not.toBe(b);
  });

  it('sends a mutation without a key exactly once, even when it fails', async () => {
    respond(() => new HttpResponse(null, { status: 500 }));
    const settled = jest.fn();
    make()
      .client.mutation(PostComment, { input: { body: 'x' } }, { clientMutationId: false })
      .toPromise()
      .then(settled);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('idempotency-key')).toBeNull();
    expect(settled.mock.calls[0][0].error).toMatchObject({ code: 'BAD_RESPONSE', status: 500 });
  });
});

describe('query cache', () => {
  it('answers a cache-first query from the cache until the time to live ends', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    const t = make();
    await query(t);
    await query(t);
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(DEFAULTS.queryCache.ttlMs - 1);
    await query(t);
    expect(seen).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await query(t);
    expect(seen).toHaveLength(2);
  });

  it('keeps 100 entries and evicts the least recently used at the 101st', async () => {
    respond((_n, s) => HttpResponse.json(storyData(String(s.body.variables?.id))));
    const t = make();
    for (let i = 0; i < DEFAULTS.queryCache.max; i++) await query(t, String(i));
    expect(seen).toHaveLength(100);
    await query(t, '0'); // a hit: "0" becomes the most recently used
    expect(seen).toHaveLength(100);
    await query(t, '100'); // the 101st entry evicts "1", now the least recently used
    expect(seen).toHaveLength(101);
    await query(t, '0');
    await query(t, '2');
    expect(seen).toHaveLength(101);
    await query(t, '1');
    expect(seen).toHaveLength(102);
    expect(seen[101]!.body.variables).toEqual({ id: '1' });
  });

  it('fetches again with network-only, and answers cache-and-network from the cache then the network', async () => {
    respond((n) => HttpResponse.json(storyData('1', `v${n}`)));
    const t = make();
    await query(t);
    const fresh = await query(t, '1', { requestPolicy: 'network-only' });
    expect(fresh.data.story.title).toBe('v1');
    const results: OperationResult[] = [];
    const { unsubscribe } = pipe(
      t.client.query(StoryQuery, { id: '1' }, { requestPolicy: 'cache-and-network' }),
      subscribe((r) => results.push(r)),
    );
    await settle();
    unsubscribe();
    expect(results.map((r) => [r.data.story.title, r.stale])).toEqual([
      ['v1', true],
      ['v2', false],
    ]);
  });

  it('invalidates cached queries holding a typename the mutation returns, and refetches active ones', async () => {
    const CommentsQuery = gql`
      query Comments {
        comments {
          id
          body
        }
      }
    `;
    let comments = [{ __typename: 'Comment', id: 'c1', body: 'first' }];
    respond((_n, s) =>
      s.body.query.includes('mutation')
        ? HttpResponse.json({
            data: {
              createComment: {
                __typename: 'CreateCommentPayload',
                comment: { __typename: 'Comment', id: 'c2', body: 'second' },
              },
            },
          })
        : s.body.query.includes('story')
          ? HttpResponse.json(storyData('1'))
          : HttpResponse.json({ data: { comments } }),
    );
    const t = make();
    await query(t); // a Story query: not affected by a Comment mutation
    const lists: [string[], boolean][] = [];
    const { unsubscribe } = pipe(
      t.client.query(CommentsQuery, {}),
      subscribe((r) => lists.push([r.data.comments.map((c: { body: string }) => c.body), r.stale])),
    );
    await settle();
    expect(seen[1]!.body.query).toContain('__typename');
    comments = [...comments, { __typename: 'Comment', id: 'c2', body: 'second' }];
    await t.client.mutation(PostComment, { input: { body: 'second' } }).toPromise();
    await settle();
    unsubscribe();
    // urql marks the old list stale while it refetches, then delivers the fresh one.
    expect(lists).toEqual([
      [['first'], false],
      [['first'], true],
      [['first', 'second'], false],
    ]);
    await query(t);
    expect(seen).toHaveLength(4); // story, comments, mutation, comments again — not the story
  });

  it('keeps no result of a query with cacheResult: false, so a mutation does not refetch it', async () => {
    const CommentsQuery = gql`
      query Comments {
        comments {
          id
        }
      }
    `;
    respond((_n, s) =>
      s.body.query.includes('mutation')
        ? HttpResponse.json({
            data: { createComment: { comment: { __typename: 'Comment', id: 'c2', body: 'x' } } },
          })
        : HttpResponse.json({ data: { comments: [{ __typename: 'Comment', id: 'c1' }] } }),
    );
    const t = make();
    const { unsubscribe } = pipe(
      t.client.query(CommentsQuery, {}, { cacheResult: false }),
      subscribe(() => undefined),
    );
    await settle();
    await t.client.mutation(PostComment, { input: { body: 'x' } }).toPromise();
    await settle();
    unsubscribe();
    expect(seen.map((s) => s.body.query.includes('mutation'))).toEqual([false, true]);
  });

  it('caches nothing with max 0, and follows custom sizes', async () => {
    respond((_n, s) => HttpResponse.json(storyData(String(s.body.variables?.id))));
    const off = make({ queryCache: { max: 0 } });
    await query(off);
    await query(off);
    expect(seen).toHaveLength(2);
    const small = make({ queryCache: { max: 1, ttlMs: 10 } });
    await query(small, '1');
    await query(small, '1'); // hit
    await query(small, '2'); // evicts "1"
    await query(small, '1');
    expect(seen).toHaveLength(5);
    await jest.advanceTimersByTimeAsync(10);
    await query(small, '1'); // expired
    expect(seen).toHaveLength(6);
  });

  it('keeps defaults for options given as undefined', async () => {
    respond(() => HttpResponse.json(storyData('1')));
    const t = make({ queryCache: { max: undefined, ttlMs: undefined } });
    await query(t);
    await query(t);
    expect(seen).toHaveLength(1); // a NaN time to live would have cached nothing
  });

  it('invalidates by additionalTypenames, and drops inactive invalidated queries without refetching', async () => {
    respond((_n, s) =>
      s.body.query.includes('mutation')
        ? HttpResponse.json({ data: { signOut: { __typename: 'SignOutPayload', ok: true } } })
        : HttpResponse.json(storyData('1')),
    );
    const t = make();
    await query(t); // cached, then inactive (toPromise tears it down)
    const SignOut = gql`
      mutation SignOut {
        signOut {
          ok
        }
      }
    `;
    await t.client.mutation(SignOut, {}, { additionalTypenames: ['Story'] }).toPromise();
    await settle();
    expect(seen).toHaveLength(2); // no refetch of the inactive query
    await query(t);
    expect(seen).toHaveLength(3); // but its cached result is gone
  });

  it('does not cache errors', async () => {
    respond((n) =>
      n === 0
        ? HttpResponse.json({ errors: [{ message: 'no', extensions: { code: 'FORBIDDEN' } }] })
        : HttpResponse.json(storyData('1')),
    );
    const t = make();
    expect((await query(t)).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await query(t)).data.story.id).toBe('1');
    expect(seen).toHaveLength(2);
  });
});

describe('one error shape', () => {
  it('reads a code outside the shared list as INTERNAL, keeping the original in extensions', async () => {
    respond(() =>
      HttpResponse.json({ errors: [{ message: 'New!', extensions: { code: 'FROM_THE_FUTURE' } }] }),
    );
    const { error } = await query(make());
    expect(error).toMatchObject({ code: 'INTERNAL', extensions: { code: 'FROM_THE_FUTURE' } });
  });

  it('turns an uncoded GraphQL error into INTERNAL and a refused connection into NETWORK_ERROR', async () => {
    respond((n) =>
      n === 0
        ? HttpResponse.json({ errors: [{ message: 'Unexpected error.' }] })
        : HttpResponse.error(),
    );
    const t = make({ retryDelaysMs: [] });
    const first = await query(t, '1');
    const second = await query(t, '2');
    expect(first.error).toBeInstanceOf(TransportError);
    expect(first.error).toMatchObject({ code: 'INTERNAL', message: 'Unexpected error.' });
    expect(second.error).toBeInstanceOf(TransportError);
    expect(second.error).toMatchObject({ code: 'NETWORK_ERROR' });
  });
});

describe('uploads', () => {
  const UploadAvatar = gql`
    mutation UploadAvatar($file: File!) {
      uploadAvatar(file: $file) {
        user {
          id
        }
      }
    }
  `;
  const uploaded = { data: { uploadAvatar: { __typename: 'UploadAvatarPayload', user: null } } };

  it('sends a File variable as a GraphQL multipart request, with the key header', async () => {
    const parts: Record<string, string> = {};
    server.use(
      http.post(URL, async ({ request }) => {
        seen.push({ at: Date.now(), headers: request.headers, body: { query: '' } });
        const form = await request.formData();
        for (const [name, value] of form.entries()) {
          parts[name] =
            typeof value === 'string' ? value : `file:${value.name}:${await value.text()}`;
        }
        return HttpResponse.json(uploaded);
      }),
    );
    // Node's File: under jsdom, fetch and FormData are Node's too, and take only their own File.
    const file = new NodeFile(['PNGDATA'], 'me.png', { type: 'image/png' }) as unknown as File;
    const result = await make().client.mutation(UploadAvatar, { file }).toPromise();
    expect(result.error).toBeUndefined();
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.headers.get('idempotency-key')).toBeTruthy();
    expect(JSON.parse(parts.operations!)).toMatchObject({ variables: { file: null } });
    expect(JSON.parse(parts.map!)).toEqual({ 0: ['variables.file'] });
    expect(parts['0']).toBe('file:me.png:PNGDATA');
  });

  it('sends a React Native { uri, name, type } file as a multipart part (as RN’s FormData reads it)', async () => {
    // Node's FormData, like a browser's, only takes real Blobs; React Native's takes any object
    // with a `uri`. Stand in for React Native's by recording what gets appended.
    const appended: [string, unknown][] = [];
    class ReactNativeFormData {
      append(name: string, value: unknown) {
        appended.push([name, value]);
      }
    }
    const realFormData = globalThis.FormData;
    globalThis.FormData = ReactNativeFormData as unknown as typeof FormData;
    const realNavigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', {
      value: { product: 'ReactNative' },
      configurable: true,
    });
    const sent: RequestInit[] = [];
    const fetchStub: typeof fetch = async (_input, init) => {
      sent.push(init!);
      return HttpResponse.json(uploaded);
    };
    try {
      const file = { uri: 'file:///tmp/me.png', name: 'me.png', type: 'image/png' };
      const result = await make({ fetch: fetchStub })
        .client.mutation(UploadAvatar, { file })
        .toPromise();
      expect(result.error).toBeUndefined();
    } finally {
      globalThis.FormData = realFormData;
      if (realNavigator) Object.defineProperty(globalThis, 'navigator', realNavigator);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
    expect(sent[0]!.body).toBeInstanceOf(ReactNativeFormData);
    const byName = new Map(appended);
    expect(JSON.parse(byName.get('map') as string)).toEqual({ 0: ['variables.file'] });
    expect(byName.get('0')).toMatchObject({
      uri: 'file:///tmp/me.png',
      name: 'me.png',
      type: 'image/png',
    });
  });
});

describe('plain data shaped like a file', () => {
  it('sends a { uri, name, type } input as JSON outside React Native', async () => {
    respond(() => HttpResponse.json(postedData));
    const link = { uri: 'https://example.com/a', name: 'A', type: 'text/html' };
    const result = await make().client.mutation(PostComment, { input: { link } }).toPromise();
    expect(result.error).toBeUndefined();
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(seen[0]!.body.variables).toEqual({ input: { link } });
  });
});

describe('error reports', () => {
  const SENTRY_ENVELOPES = 'http://sentry.test/api/1/envelope/';

  it('with a DSN, loads the reporter on demand and sends the report to Sentry, cut to 250 characters', async () => {
    jest.useRealTimers(); // the SDK's own flush timers
    const envelopes: string[] = [];
    server.use(
      http.post(SENTRY_ENVELOPES, async ({ request }) => {
        envelopes.push(await request.text());
        return HttpResponse.json({});
      }),
    );
    const t = make({ errorReports: { dsn: 'http://public@sentry.test/1', release: 'test' } });
    t.reportError(new Error(`boom ${'x'.repeat(400)}`), { storyId: 's1' });
    await t.dispose(); // flushes
    const events = envelopes
      .flatMap((envelope) => envelope.split('\n'))
      .filter((line) => line.includes('"exception"'))
      .map((line) => JSON.parse(line));
    expect(events).toHaveLength(1);
    const value: string = events[0].exception.values[0].value;
    expect(value.startsWith('boom xxx')).toBe(true);
    expect(value.length).toBeLessThanOrEqual(DEFAULTS.errorReports.maxValueLength);
    expect(events[0]).toMatchObject({ release: 'test', extra: { storyId: 's1' } });
  });

  it('without a DSN sends nothing; logs only in development', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      make().reportError(new Error('quiet'));
      await settle();
      expect(log).not.toHaveBeenCalled();
      const error = new Error('loud');
      make({ errorReports: { development: true } }).reportError(error, { where: 'test' });
      expect(log).toHaveBeenCalledWith('[parley]', error, { where: 'test' });
    } finally {
      log.mockRestore();
    }
  });
});

describe('offline storage', () => {
  it('is reachable through the transport, with the quota from the options', async () => {
    const t = make({ storage: { maxBytes: 100 } });
    await t.storage.set('draft:story-1', 'hello');
    expect(await t.storage.get('draft:story-1')).toBe('hello');
    // Node has neither IndexedDB nor localStorage; jsdom has localStorage only.
    expect(t.storage.backend).toBe(typeof localStorage === 'undefined' ? 'memory' : 'localstorage');
    expect(await t.storage.usage()).toEqual({ bytes: 20, maxBytes: 100 });
    await expect(t.storage.set('big', 'x'.repeat(200))).rejects.toMatchObject({
      code: 'STORAGE_QUOTA_EXCEEDED',
    });
    expect(await t.storage.keys()).toEqual(['draft:story-1']);
  });
});
