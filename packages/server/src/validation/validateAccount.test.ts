import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../defaults';
import { ParleyError } from '../ParleyError';
import { emailKey, validateEmail, validatePassword, validateUsername } from './validateAccount';

function failure(run: () => unknown): ParleyError {
  try {
    run();
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected a ParleyError');
}

describe('validateUsername', () => {
  it.each(['ada', 'ada.lovelace', 'ada_1815', 'Zoë', 'наташа', '李小龍', 'x'.repeat(30)])(
    'accepts %j',
    (name) => {
      expect(validateUsername(name)).toBe(name);
    },
  );

  it('trims and returns the NFC form', () => {
    expect(validateUsername('  Zoe\u0308 ')).toBe('Zo\u00eb');
  });

  it.each([
    ['too short', 'x'.repeat(USERNAME_MIN_LENGTH - 1)],
    ['too long', 'x'.repeat(USERNAME_MAX_LENGTH + 1)],
    ['empty after trimming', '   '],
  ])('rejects a username %s with a length message', (_name, input) => {
    const error = failure(() => validateUsername(input));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.extensions.field).toBe('username');
    expect(error.message).toContain(`${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH}`);
  });

  it.each(['ada lovelace', 'ada-l', 'ada@x', '<script>', 'ada\u200b'])(
    'rejects %j for its characters',
    (input) => {
      const error = failure(() => validateUsername(input));
      expect(error.extensions.field).toBe('username');
      expect(error.message).toMatch(/only letters, digits/);
    },
  );

  it('reports the field name it was given', () => {
    expect(failure(() => validateUsername('x', 'newUsername')).extensions.field).toBe(
      'newUsername',
    );
  });
});

describe('validateEmail', () => {
  it('returns the trimmed address and a lower-case key', () => {
    expect(validateEmail('  Ada.Lovelace@Example.COM ')).toEqual({
      address: 'Ada.Lovelace@Example.COM',
      key: 'ada.lovelace@example.com',
    });
    expect(emailKey(' Ada@Example.com')).toBe('ada@example.com');
  });

  it.each(['a@b.co', 'first.last+tag@sub.example.org', "o'brien@example.ie", 'josé@café.fr'])(
    'accepts %j',
    (address) => {
      expect(validateEmail(address).address).toBe(address);
    },
  );

  it.each([
    ['empty', ''],
    ['no @', 'ada.example.com'],
    ['no name', '@example.com'],
    ['no domain', 'ada@'],
    ['a domain without a dot', 'ada@localhost'],
    ['two @', 'ada@b@example.com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['a double dot', 'ada..l@example.com'],
    ['a trailing dot in the name', 'ada.@example.com'],
    ['an empty domain label', 'ada@example..com'],
    ['a label starting with -', 'ada@-example.com'],
    ['a numeric ending', 'ada@example.123'],
    ['markup', '<ada>@example.com'],
  ])('rejects an address with %s', (_name, address) => {
    const error = failure(() => validateEmail(address));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.extensions.field).toBe('email');
  });

  it(`rejects an address longer than ${EMAIL_MAX_LENGTH} characters, accepts exactly that`, () => {
    const domain = '@example.com';
    const exact = `${'a'.repeat(EMAIL_MAX_LENGTH - domain.length)}${domain}`;
    expect(validateEmail(exact).address).toBe(exact);
    const error = failure(() => validateEmail(`a${exact}`));
    expect(error.message).toContain(`at most ${EMAIL_MAX_LENGTH}`);
  });
});

describe('validatePassword', () => {
  it('accepts 8 characters, spaces included', () => {
    expect(() => validatePassword('x'.repeat(PASSWORD_MIN_LENGTH))).not.toThrow();
    expect(() => validatePassword('  a b c ')).not.toThrow();
  });

  it('rejects fewer than 8 characters, counting an emoji once', () => {
    const error = failure(() => validatePassword('😀'.repeat(PASSWORD_MIN_LENGTH - 1)));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.extensions.field).toBe('password');
    expect(error.message).toContain(`at least ${PASSWORD_MIN_LENGTH}`);
  });
});
