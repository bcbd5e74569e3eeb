import { randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { DEFAULT_SETTINGS } from '../defaults';
import { ParleyError } from '../ParleyError';
import { createTokenService } from './tokens';

const ISSUER = 'https://comments.example';

/** A service whose clock the test moves. */
function setup(secret: Uint8Array = randomBytes(32)) {
  let now = new Date('2025-06-01T12:00:00.000Z');
  const service = createTokenService({ secret, issuer: ISSUER, now: () => now });
  return {
    secret,
    service,
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ParleyError) return error.code;
    throw error;
  }
  throw new Error('expected a ParleyError');
}

describe('createTokenService', () => {
  it('round-trips the user id and role', async () => {
    const { service } = setup();
    const token = await service.sign({ userId: 'u1', role: 'MODERATOR' }, 60);
    const claims = await service.verify(token);
    expect(claims).toMatchObject({ userId: 'u1', role: 'MODERATOR' });
    expect(claims.expiresAt - claims.issuedAt).toBe(60);
    expect(claims.tokenId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the session epoch, reading 0 when none was signed', async () => {
    const { service } = setup();
    const withEpoch = await service.verify(
      await service.sign({ userId: 'u1', role: 'COMMENTER', epoch: 3 }),
    );
    const without = await service.verify(await service.sign({ userId: 'u1', role: 'COMMENTER' }));
    expect([withEpoch.epoch, without.epoch]).toEqual([3, 0]);
  });

  it('lasts the configured session length by default', async () => {
    const { service } = setup();
    const claims = await service.verify(await service.sign({ userId: 'u1', role: 'COMMENTER' }));
    expect(claims.expiresAt - claims.issuedAt).toBe(DEFAULT_SETTINGS.sessionSeconds);
  });

  it('gives every token its own id', async () => {
    const { service } = setup();
    const a = await service.verify(await service.sign({ userId: 'u1', role: 'COMMENTER' }, 60));
    const b = await service.verify(await service.sign({ userId: 'u1', role: 'COMMENTER' }, 60));
    expect(a.tokenId).not.toBe(b.tokenId);
  });

  it('reports TOKEN_EXPIRED once the time to live has passed', async () => {
    const { service, advance } = setup();
    const token = await service.sign({ userId: 'u1', role: 'COMMENTER' }, 60);
    advance(59);
    await expect(service.verify(token)).resolves.toMatchObject({ userId: 'u1' });
    advance(2);
    await expect(codeOf(service.verify(token))).resolves.toBe('TOKEN_EXPIRED');
  });

  it('reports TOKEN_INVALID for a token signed with another secret', async () => {
    const { service } = setup();
    const other = setup().service;
    const token = await other.sign({ userId: 'u1', role: 'ADMIN' }, 60);
    await expect(codeOf(service.verify(token))).resolves.toBe('TOKEN_INVALID');
  });

  it('reports TOKEN_INVALID for a tampered payload', async () => {
    const { service } = setup();
    const [header, , signature] = (
      await service.sign({ userId: 'u1', role: 'COMMENTER' }, 60)
    ).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'u1', role: 'ADMIN' })).toString('base64url');
    await expect(codeOf(service.verify(`${header}.${forged}.${signature}`))).resolves.toBe(
      'TOKEN_INVALID',
    );
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['an empty string', ''],
    ['an unsigned (alg none) token', new UnsecuredJWT({ sub: 'u1', role: 'ADMIN' }).encode()],
  ])('reports TOKEN_INVALID for %s', async (_name, token) => {
    const { service } = setup();
    await expect(codeOf(service.verify(token))).resolves.toBe('TOKEN_INVALID');
  });

  it('reports TOKEN_INVALID for a correctly signed token from another issuer or with a bad role', async () => {
    const { service, secret } = setup();
    const base = () =>
      new SignJWT({ role: 'COMMENTER' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('u1')
        .setIssuedAt()
        .setJti('j')
        .setExpirationTime('1h');
    const otherIssuer = await base().setIssuer('https://elsewhere.example').sign(secret);
    const badRole = await new SignJWT({ role: 'OWNER' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setJti('j')
      .setExpirationTime('1h')
      .sign(secret);
    await expect(codeOf(service.verify(otherIssuer))).resolves.toBe('TOKEN_INVALID');
    await expect(codeOf(service.verify(badRole))).resolves.toBe('TOKEN_INVALID');
  });

  it('keeps purposes apart: a device or challenge token is no session, nor the other purpose', async () => {
    const { service, advance } = setup();
    const device = await service.signFor('device', { sub: 'u1', role: 'ADMIN' }, 60);
    await expect(codeOf(service.verify(device))).resolves.toBe('TOKEN_INVALID');
    await expect(service.verifyFor('device', device)).resolves.toMatchObject({ sub: 'u1' });
    await expect(service.verifyFor('signInChallenge', device)).resolves.toBeUndefined();
    const session = await service.sign({ userId: 'u1', role: 'ADMIN' }, 60);
    await expect(service.verifyFor('device', session)).resolves.toBeUndefined();
    const foreign = await setup().service.signFor('device', { sub: 'u1' }, 60);
    await expect(service.verifyFor('device', foreign)).resolves.toBeUndefined();
    // A second-factor ticket is no device token either, and a device token no ticket.
    const ticket = await service.signFor('secondFactor', { sub: 'u1', ep: 0 }, 60);
    await expect(service.verifyFor('device', ticket)).resolves.toBeUndefined();
    await expect(service.verifyFor('secondFactor', device)).resolves.toBeUndefined();
    await expect(service.verifyFor('secondFactor', ticket)).resolves.toMatchObject({ sub: 'u1' });
    advance(61);
    await expect(service.verifyFor('device', device)).resolves.toBeUndefined();
    await expect(service.verifyFor('secondFactor', ticket)).resolves.toBeUndefined();
  });

  it('carries whether the sign-in passed a second factor, and a chosen token id', async () => {
    const { service } = setup();
    const plain = await service.verify(await service.sign({ userId: 'u1', role: 'ADMIN' }));
    expect(plain.secondFactor).toBe(false);
    const strong = await service.verify(
      await service.sign({ userId: 'u1', role: 'ADMIN', secondFactor: true, tokenId: 'jti-1' }),
    );
    expect(strong).toMatchObject({ secondFactor: true, tokenId: 'jti-1' });
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createTokenService({ secret: new Uint8Array(16), issuer: ISSUER })).toThrow(
      /at least 32 bytes/,
    );
  });
});
