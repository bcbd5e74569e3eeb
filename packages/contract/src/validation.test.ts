import { commentBodyProblem } from './comments';
import {
  checkField,
  EMAIL_RULE,
  NEW_PASSWORD_RULE,
  SIGN_UP_CODE_RULE,
  USERNAME_RULE,
} from './validation';

describe('EMAIL_RULE', () => {
  it.each([
    ['  ada@example.com ', 'ada@example.com'],
    ['Ada.Lovelace+parley@example.co.uk', 'Ada.Lovelace+parley@example.co.uk'],
    ['josé@exämple.org', 'josé@exämple.org'],
  ])('takes %p as %p', (input, value) => {
    expect(checkField(EMAIL_RULE, input)).toEqual({ value });
  });

  it.each([
    ['   ', 'EMAIL_REQUIRED'],
    [`${'a'.repeat(95)}@example.com`, 'EMAIL_TOO_LONG'],
    ['ada', 'EMAIL_INVALID'],
    ['ada@', 'EMAIL_INVALID'],
    ['@example.com', 'EMAIL_INVALID'],
    ['ada@localhost', 'EMAIL_INVALID'],
    ['a da@example.com', 'EMAIL_INVALID'],
    ['.ada@example.com', 'EMAIL_INVALID'],
    ['ada..l@example.com', 'EMAIL_INVALID'],
    ['ada@-example.com', 'EMAIL_INVALID'],
    ['ada@example.c0m', 'EMAIL_INVALID'],
  ])('refuses %p: %s', (input, problem) => {
    expect(checkField(EMAIL_RULE, input)).toEqual({ problem });
  });
});

describe('USERNAME_RULE', () => {
  it('trims, drops bidirectional controls and composes (NFC)', () => {
    expect(checkField(USERNAME_RULE, ' \u202Ee\u0301mile_1.x ')).toEqual({ value: 'émile_1.x' });
  });

  it.each([
    ['ab', 'USERNAME_LENGTH'],
    ['a'.repeat(31), 'USERNAME_LENGTH'],
    ['ada lovelace', 'USERNAME_CHARACTERS'],
    ['ada@home', 'USERNAME_CHARACTERS'],
  ])('refuses %p: %s', (input, problem) => {
    expect(checkField(USERNAME_RULE, input)).toEqual({ problem });
  });

  it('counts characters as people do: three letters with accents are three', () => {
    expect(checkField(USERNAME_RULE, 'e\u0301e\u0301e\u0301')).toEqual({ value: 'ééé' });
  });
});

describe('NEW_PASSWORD_RULE and SIGN_UP_CODE_RULE', () => {
  it('keeps a passphrase as typed, spaces included, and counts its characters', () => {
    expect(checkField(NEW_PASSWORD_RULE, ' horse  battery ')).toEqual({
      value: ' horse  battery ',
    });
    expect(checkField(NEW_PASSWORD_RULE, '1234567')).toEqual({ problem: 'PASSWORD_TOO_SHORT' });
    expect(checkField(NEW_PASSWORD_RULE, '😀😀😀😀😀😀😀')).toEqual({
      problem: 'PASSWORD_TOO_SHORT',
    });
  });

  it('takes the six digits of a code, spaces around them allowed', () => {
    expect(checkField(SIGN_UP_CODE_RULE, ' 012345 ')).toEqual({ value: '012345' });
    expect(checkField(SIGN_UP_CODE_RULE, '01234')).toEqual({ problem: 'CODE_INVALID' });
    expect(checkField(SIGN_UP_CODE_RULE, '01234a')).toEqual({ problem: 'CODE_INVALID' });
  });
});

describe('commentBodyProblem', () => {
  it('is blank after trimming, or too long counted after trimming, in characters', () => {
    expect(commentBodyProblem(' \n ', 10)).toBe('COMMENT_EMPTY');
    expect(commentBodyProblem('  0123456789  ', 10)).toBeUndefined();
    expect(commentBodyProblem('0123456789a', 10)).toBe('COMMENT_TOO_LONG');
    expect(commentBodyProblem('😀'.repeat(10), 10)).toBeUndefined();
  });
});
