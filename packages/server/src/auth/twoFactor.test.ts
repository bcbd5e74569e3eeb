import { deviceName } from '../db/store/sessions';
import {
  isTotpCode,
  newRecoveryCodes,
  recoveryCodeHash,
  totpCode,
  totpCodeStep,
  totpStep,
} from './twoFactor';

// RFC 6238's SHA-1 test secret ("12345678901234567890"), in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it('are the RFC 6238 ones (SHA-1, 6 digits, 30 s)', () => {
    // RFC 6238 appendix B gives 8 digits: 94287082 and 07081804; the app shows the last six.
    expect(totpCode(RFC_SECRET, new Date(59_000))).toBe('287082');
    expect(totpCode(RFC_SECRET, new Date(1_111_111_109_000))).toBe('081804');
  });

  it('take a code one step either side of now, and say which step', () => {
    const now = new Date('2026-11-26T10:00:10.000Z');
    const step = totpStep(now);
    const previous = totpCode(RFC_SECRET, new Date(now.getTime() - 30_000));
    const next = totpCode(RFC_SECRET, new Date(now.getTime() + 30_000));
    const stale = totpCode(RFC_SECRET, new Date(now.getTime() - 60_000));
    expect(totpCodeStep(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step);
    expect(totpCodeStep(RFC_SECRET, previous, now)).toBe(step - 1);
    expect(totpCodeStep(RFC_SECRET, next, now)).toBe(step + 1);
    expect(totpCodeStep(RFC_SECRET, stale, now)).toBeUndefined();
    // Spaces as apps group them ("123 456") are fine; anything but six digits is no code.
    const spaced = `${totpCode(RFC_SECRET, now).slice(0, 3)} ${totpCode(RFC_SECRET, now).slice(3)}`;
    expect(totpCodeStep(RFC_SECRET, spaced, now)).toBe(step);
    expect(totpCodeStep(RFC_SECRET, '12345', now)).toBeUndefined();
    expect(totpCodeStep(RFC_SECRET, 'abcdef', now)).toBeUndefined();
    expect(isTotpCode('123 456')).toBe(true);
    expect(isTotpCode('abcde-fghjk')).toBe(false);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes without look-alike letters, hashed without case, spaces or dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(recoveryCodeHash('ABCDE FGHJK')).toBe(recoveryCodeHash('abcde-fghjk'));
    expect(recoveryCodeHash('abcde-fghjk')).not.toBe(recoveryCodeHash('abcde-fghjm'));
  });
});

describe('deviceName', () => {
  it('names the browser and the system, or what is known of them', () => {
    expect(
      deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox on Linux');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Mobile Safari on iOS');
    expect(deviceName('curl/8.5.0')).toBe('');
    expect(deviceName(undefined)).toBe('');
    expect(deviceName('')).toBe('');
  });
});
