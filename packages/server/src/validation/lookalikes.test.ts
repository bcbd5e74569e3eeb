import { stripBidiControls } from '@parley/contract';
import { neutralizeBidi, usernameSkeleton, wordMatchingForm } from './lookalikes';

describe('usernameSkeleton', () => {
  it.each([
    ['a Cyrillic а', '\u0430dmin', 'admin'],
    ['a Greek ο', 'r\u03BFot', 'root'],
    ['capitals', 'Admin', 'admin'],
    ['rn for m', 'adrnin', 'admin'],
    ['a digit one for l', 'pau1', 'paul'],
    ['a Cyrillic capital А', '\u0410DMIN', 'admin'],
    ['a full-width letter', '\uFF41dmin', 'admin'],
    ['a bidi override', 'ad\u202Emin', 'admin'],
  ])('makes a name with %s look like the original', (_name, lookalike, original) => {
    expect(usernameSkeleton(lookalike)).toBe(usernameSkeleton(original));
  });

  it.each([
    ['admin', 'admins'],
    ['café', 'cafe'],
    ['наташа', 'natasha'],
  ])('tells %j from %j', (one, other) => {
    expect(usernameSkeleton(one)).not.toBe(usernameSkeleton(other));
  });
});

describe('bidirectional controls', () => {
  it('are all removed from a username', () => {
    expect(stripBidiControls('\u202Eevil\u2066x\u2069\u200F')).toBe('evilx');
  });

  it('that reorder text are removed from a body; direction marks stay', () => {
    expect(neutralizeBidi('price \u202E01$\u202C and \u2067שלום\u2069 \u200Fok')).toBe(
      'price 01$ and שלום \u200Fok',
    );
  });
});

describe('wordMatchingForm', () => {
  it('folds look-alikes, accents, invisible characters and case', () => {
    expect(wordMatchingForm('\u0406d\u0456\u00F6t')).toBe('idiot');
    expect(wordMatchingForm('ID\u200BIOT')).toBe('idiot');
  });
});
