import { randomBytes } from 'node:crypto';
import { SEALED_PREFIX, UnreadableSecretError, createSecretBox, ssoKeyPurpose } from './secretBox';

const keyA = randomBytes(32);
const keyB = randomBytes(32);

describe('createSecretBox', () => {
  const box = createSecretBox({ current: keyA });

  it('seals a value that opens again, and never holds it in clear', () => {
    const sealed = box.seal('hunter2-smtp', 'settings.smtpPassword');
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain('hunter2');
    expect(Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url').toString()).not.toContain(
      'hunter2',
    );
    expect(box.open(sealed, 'settings.smtpPassword')).toBe('hunter2-smtp');
  });

  it('seals the same value differently each time (a fresh IV)', () => {
    const a = box.seal('same', 'sso_keys.secret:k1');
    expect(box.seal('same', 'sso_keys.secret:k1')).not.toBe(a);
  });

  it('keeps the empty string (nothing set) empty', () => {
    expect(box.seal('', 'settings.smtpPassword')).toBe('');
    expect(box.open('', 'settings.smtpPassword')).toBe('');
    expect(box.needsResealing('', 'settings.smtpPassword')).toBe(false);
  });

  it('does not open a value under another purpose, nor another row’s', () => {
    const sealed = box.seal('x', 'settings.smtpPassword');
    expect(() => box.open(sealed, 'sso_keys.secret:k1')).toThrow(UnreadableSecretError);
    const key = box.seal('x', ssoKeyPurpose('k1'));
    expect(box.open(key, ssoKeyPurpose('k1'))).toBe('x');
    expect(() => box.open(key, ssoKeyPurpose('k2'))).toThrow(UnreadableSecretError);
  });

  it('does not open a value that was tampered with', () => {
    const sealed = box.seal('abcdef', 'sso_keys.secret:k1');
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    const tampered = SEALED_PREFIX + bytes.toString('base64url');
    expect(() => box.open(tampered, 'sso_keys.secret:k1')).toThrow(/another PARLEY_SECRET/);
    expect(() => box.open(`${SEALED_PREFIX}AAAA`, 'sso_keys.secret:k1')).toThrow(
      UnreadableSecretError,
    );
  });

  it('opens values sealed under a previous key and says they need sealing again', () => {
    const old = createSecretBox({ current: keyB }).seal('from before', 'sso_keys.secret:k1');
    const rotated = createSecretBox({ current: keyA, previous: [keyB] });
    expect(rotated.open(old, 'sso_keys.secret:k1')).toBe('from before');
    expect(rotated.needsResealing(old, 'sso_keys.secret:k1')).toBe(true);
    const fresh = rotated.seal('from before', 'sso_keys.secret:k1');
    expect(rotated.needsResealing(fresh, 'sso_keys.secret:k1')).toBe(false);
    // Sealed under the current key only: the old key alone no longer opens it.
    expect(() => createSecretBox({ current: keyB }).open(fresh, 'sso_keys.secret:k1')).toThrow(
      UnreadableSecretError,
    );
  });

  it('refuses a value no key opens', () => {
    const other = createSecretBox({ current: keyB }).seal('x', 'sso_keys.secret:k1');
    expect(() => box.open(other, 'sso_keys.secret:k1')).toThrow(UnreadableSecretError);
    expect(() => box.needsResealing(other, 'sso_keys.secret:k1')).toThrow(UnreadableSecretError);
  });

  it('passes a value stored before sealing through, and says it needs sealing', () => {
    expect(box.open('plain-old-secret', 'sso_keys.secret:k1')).toBe('plain-old-secret');
    expect(box.needsResealing('plain-old-secret', 'sso_keys.secret:k1')).toBe(true);
  });
});
