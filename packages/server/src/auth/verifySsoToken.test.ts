import { SignJWT, UnsecuredJWT } from 'jose';
import type { JWTPayload } from 'jose';
import { SSO_KEY_ROTATION_OVERLAP_SECONDS } from '../defaults';
import { ParleyError } from '../ParleyError';
import type { SsoKey } from './verifySsoToken';
import { isSsoKeyUsable, ssoKeyExpiryAfterRotation, verifySsoToken } from './verifySsoToken';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_SECONDS = NOW.getTime() / 1000;
const USER = { id: 'host-42', email: 'ada@host.example', username: 'ada' };

const active: SsoKey = { secret: 'active-key-secret-value', expiresAt: null, revoked: false };

/** Signs a payload the way a host site would. */
function hostSign(payload: JWTPayload, secret = active.secret, alg = 'HS256'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

function valid(extra: JWTPayload = {}): JWTPayload {
  return { user: USER, iat: NOW_SECONDS - 10, exp: NOW_SECONDS + 300, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<ParleyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected a ParleyError');
}

describe('verifySsoToken', () => {
  it('returns the user from a token signed with the active key', async () => {
    const token = await hostSign(valid({ user: { ...USER, badges: ['Subscriber'] } }));
    await expect(verifySsoToken(token, [active], NOW)).resolves.toEqual({
      user: { ...USER, badges: ['Subscriber'] },
      iat: NOW_SECONDS - 10,
      exp: NOW_SECONDS + 300,
    });
  });

  it('defaults badges to none and turns a numeric id into a string', async () => {
    const token = await hostSign(valid({ user: { ...USER, id: 42 } }));
    const { user } = await verifySsoToken(token, [active], NOW);
    expect(user).toEqual({ ...USER, id: '42', badges: [] });
  });

  it('still accepts a rotated-out key within the overlap, and not after', async () => {
    const rotatedAt = new Date(NOW.getTime() - 1000);
    const old: SsoKey = {
      secret: 'old-key-secret-value',
      expiresAt: ssoKeyExpiryAfterRotation(rotatedAt),
      revoked: false,
    };
    expect(old.expiresAt!.getTime() - rotatedAt.getTime()).toBe(
      SSO_KEY_ROTATION_OVERLAP_SECONDS * 1000,
    );
    const token = await hostSign(valid(), old.secret);
    await expect(verifySsoToken(token, [active, old], NOW)).resolves.toMatchObject({ user: USER });

    const later = new Date(old.expiresAt!.getTime() + 1000);
    const laterToken = await hostSign(
      valid({ iat: later.getTime() / 1000, exp: later.getTime() / 1000 + 60 }),
      old.secret,
    );
    expect((await failure(verifySsoToken(laterToken, [active, old], later))).code).toBe(
      'TOKEN_INVALID',
    );
  });

  it('never accepts a revoked key', async () => {
    const revoked: SsoKey = { ...active, revoked: true };
    expect(isSsoKeyUsable(revoked, NOW)).toBe(false);
    const token = await hostSign(valid());
    expect((await failure(verifySsoToken(token, [revoked], NOW))).code).toBe('TOKEN_INVALID');
  });

  it('reports TOKEN_EXPIRED for an expired token with a good signature', async () => {
    const token = await hostSign(valid({ iat: NOW_SECONDS - 600, exp: NOW_SECONDS - 1 }));
    expect((await failure(verifySsoToken(token, [active], NOW))).code).toBe('TOKEN_EXPIRED');
  });

  it.each([
    ['an unknown key', () => hostSign(valid(), 'a-key-the-site-never-had')],
    ['alg none', async () => new UnsecuredJWT(valid()).encode()],
    ['HS512', () => hostSign(valid(), active.secret, 'HS512')],
    ['garbage', async () => 'a.b.c'],
    ['a not-yet-valid token', () => hostSign(valid({ nbf: NOW_SECONDS + 3600 }))],
  ])('reports TOKEN_INVALID for %s', async (_name, make) => {
    expect((await failure(verifySsoToken(await make(), [active], NOW))).code).toBe('TOKEN_INVALID');
  });

  it('reports TOKEN_INVALID when the site has no keys', async () => {
    const token = await hostSign(valid());
    expect((await failure(verifySsoToken(token, [], NOW))).code).toBe('TOKEN_INVALID');
  });

  it.each<[string, JWTPayload]>([
    ['no user', { user: undefined }],
    ['a user that is a string', { user: 'ada' }],
    ['no user id', { user: { ...USER, id: undefined } }],
    ['an empty email', { user: { ...USER, email: ' ' } }],
    ['a numeric username', { user: { ...USER, username: 7 } }],
    ['badges that are not strings', { user: { ...USER, badges: [1] } }],
    ['no exp', { exp: undefined }],
    ['no iat', { iat: undefined }],
  ])('reports INVALID_INPUT (field token) for a payload with %s', async (_name, extra) => {
    const token = await hostSign(valid(extra));
    const error = await failure(verifySsoToken(token, [active], NOW));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.extensions.field).toBe('token');
  });
});
