import { TransportError } from '@parley/transport';
import { createTestEnv } from '../testing/createTestEnv';
import { signOutStaleToken } from './signOutStaleToken';

test('forgets an expired or invalid stored token', async () => {
  for (const code of ['TOKEN_EXPIRED', 'TOKEN_INVALID'] as const) {
    const env = createTestEnv();
    await env.session.signIn('stored');
    expect(signOutStaleToken(env, new TransportError(code, 'x'))).toBe(true);
    expect(env.session.getToken()).toBeNull();
  }
});

test('leaves the session alone for other errors, or when there is no token', async () => {
  const env = createTestEnv();
  await env.session.signIn('stored');
  expect(signOutStaleToken(env, new TransportError('NETWORK_ERROR', 'x'))).toBe(false);
  expect(signOutStaleToken(env, new Error('TOKEN_EXPIRED'))).toBe(false);
  expect(env.session.getToken()).toBe('stored');
  const signedOut = createTestEnv();
  const listener = jest.fn();
  signedOut.session.subscribe(listener);
  expect(signOutStaleToken(signedOut, new TransportError('TOKEN_EXPIRED', 'x'))).toBe(false);
  // No session change, so the stream is not remounted for nothing.
  expect(listener).not.toHaveBeenCalled();
});
