import { graphql, HttpResponse } from 'msw';
import type { GraphQLResponseBody } from 'msw';
import { setupServer } from 'msw/node';
import { createTestEnv } from '../testing/createTestEnv';
import { listenForHostSso } from './listenForHostSso';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const tokenError = (code: string) =>
  HttpResponse.json<GraphQLResponseBody<never>>({
    errors: [{ message: code, extensions: { code } }],
  });

/** Answers SignInWithSso: refuses any request carrying the stale Parley token, like the server. */
function ssoServer(requests: { authorization: string | null; token: unknown }[]) {
  server.use(
    graphql.mutation('SignInWithSso', ({ request, variables }) => {
      const authorization = request.headers.get('authorization');
      requests.push({ authorization, token: (variables.input as { token: unknown }).token });
      if (authorization === 'Bearer stale') return tokenError('TOKEN_EXPIRED');
      return HttpResponse.json({ data: { signInWithSso: { token: 'fresh' } } });
    }),
  );
}

test('a stale stored token does not make a good host token look expired', async () => {
  const requests: { authorization: string | null; token: unknown }[] = [];
  ssoServer(requests);
  const env = createTestEnv();
  await env.session.signIn('stale');
  const stop = listenForHostSso(env);
  env.bridge.emit('login', { token: 'host' });
  await new Promise<void>((resolve) => env.session.subscribe((t) => t === 'fresh' && resolve()));
  expect(requests).toEqual([
    { authorization: 'Bearer stale', token: 'host' },
    { authorization: null, token: 'host' },
  ]);
  expect(env.bridge.sent).toEqual([]);
  stop();
});

test('registrations share one listener; it lasts until the last one ends', async () => {
  const requests: { authorization: string | null; token: unknown }[] = [];
  ssoServer(requests);
  const env = createTestEnv();
  const first = listenForHostSso(env);
  // The remounted auth bar registers before the old one's cleanup runs.
  const second = listenForHostSso(env);
  first();
  first();
  env.bridge.emit('login', { token: 'host' });
  await new Promise<void>((resolve) => env.session.subscribe(() => resolve()));
  expect(requests).toHaveLength(1);

  // The same host token again: already exchanged, nothing is sent.
  env.bridge.emit('login', { token: 'host' });
  second();
  env.bridge.emit('logout', {});
  env.bridge.emit('login', { token: 'other' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(requests).toHaveLength(1);
  expect(env.session.getToken()).toBe('fresh');
});

test('a logout while an exchange is in flight wins', async () => {
  let release: () => void = () => undefined;
  server.use(
    graphql.mutation('SignInWithSso', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return HttpResponse.json({ data: { signInWithSso: { token: 'late' } } });
    }),
  );
  const env = createTestEnv();
  const stop = listenForHostSso(env);
  env.bridge.emit('login', { token: 'host' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  env.bridge.emit('logout', {});
  release();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(env.session.getToken()).toBeNull();
  stop();
});

test('an invalid host token is reported to the host too', async () => {
  server.use(graphql.mutation('SignInWithSso', () => tokenError('TOKEN_INVALID')));
  const env = createTestEnv();
  const stop = listenForHostSso(env);
  env.bridge.emit('login', { token: 'forged' });
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(env.bridge.sent).toEqual([{ type: 'tokenExpired', payload: {} }]);
  stop();
});
