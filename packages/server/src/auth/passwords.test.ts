import {
  SCRYPT_COST,
  SCRYPT_KEY_BYTES,
  SCRYPT_SALT_BYTES,
  hashPassword,
  verifyPassword,
} from './passwords';

describe('passwords', () => {
  let hash: string;

  beforeAll(async () => {
    hash = await hashPassword('correct horse battery staple');
  });

  it('stores scrypt$N$r$p$salt$key with the documented parameters', () => {
    const [prefix, n, r, p, salt, key] = hash.split('$');
    expect([prefix, n, r, p]).toEqual(['scrypt', String(SCRYPT_COST), '8', '1']);
    expect(SCRYPT_COST).toBe(32768);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(SCRYPT_SALT_BYTES);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(SCRYPT_KEY_BYTES);
    expect(hash).not.toContain('correct horse');
  });

  it('verifies the right password and refuses a wrong one', async () => {
    await expect(verifyPassword('correct horse battery staple', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapler', hash)).resolves.toBe(false);
    await expect(verifyPassword('', hash)).resolves.toBe(false);
  });

  it('salts every hash differently', async () => {
    const again = await hashPassword('correct horse battery staple');
    expect(again).not.toBe(hash);
    await expect(verifyPassword('correct horse battery staple', again)).resolves.toBe(true);
  });

  it('accepts the same accented password whether composed or decomposed', async () => {
    const composed = await hashPassword('caf\u00e9-secret');
    await expect(verifyPassword('cafe\u0301-secret', composed)).resolves.toBe(true);
  });

  it('still verifies a hash made with other parameters', async () => {
    // A hash from before a parameter change: N = 2^14, produced by the same encoding.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('old-password', salt, 64, { N: 2 ** 14, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    await expect(verifyPassword('old-password', old)).resolves.toBe(true);
  });

  it.each([
    ['empty', ''],
    ['another algorithm', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA'],
    ['a missing field', 'scrypt$32768$8$1$c2FsdA'],
    ['an extra field', `scrypt$32768$8$1$c2FsdA$aGFzaA$x`],
    ['a cost that is not a power of two', 'scrypt$30000$8$1$c2FsdA$aGFzaA'],
    ['an absurd cost', `scrypt$${2 ** 24}$8$1$c2FsdA$aGFzaA`],
    ['a non-numeric parameter', 'scrypt$abc$8$1$c2FsdA$aGFzaA'],
    ['an empty key', 'scrypt$32768$8$1$c2FsdA$'],
  ])('refuses a malformed stored hash: %s', async (_name, stored) => {
    await expect(verifyPassword('anything', stored)).resolves.toBe(false);
  });
});
