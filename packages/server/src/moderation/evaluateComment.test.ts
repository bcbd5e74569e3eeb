import { DEFAULT_SETTINGS } from '../defaults';
import { ParleyError } from '../ParleyError';
import type { EvaluateCommentInput } from './evaluateComment';
import { evaluateComment, withSpamScore } from './evaluateComment';

const NOW = new Date('2025-06-01T12:00:00.000Z');

type Overrides = {
  body?: string;
  settings?: Partial<EvaluateCommentInput['settings']>;
  story?: Partial<EvaluateCommentInput['story']>;
  author?: Partial<EvaluateCommentInput['author']>;
};

function input(overrides: Overrides = {}): EvaluateCommentInput {
  return {
    body: overrides.body ?? 'A perfectly ordinary comment.',
    settings: { ...DEFAULT_SETTINGS, ...overrides.settings },
    story: { status: 'OPEN', premod: null, ...overrides.story },
    author: {
      banned: false,
      suspendedUntil: null,
      premod: false,
      approvedCount: 0,
      role: 'COMMENTER',
      ...overrides.author,
    },
    now: NOW,
  };
}

/** Runs the decision and returns the ParleyError it throws (fails the test if it does not). */
function rejection(overrides: Overrides): ParleyError {
  try {
    evaluateComment(input(overrides));
  } catch (error) {
    if (error instanceof ParleyError) return error;
    throw error;
  }
  throw new Error('expected evaluateComment to throw');
}

describe('evaluateComment: rejections', () => {
  it('publishes a clean comment under the default settings', () => {
    expect(evaluateComment(input())).toEqual({
      status: 'NONE',
      heldBecause: [],
      reported: false,
      matchedWords: [],
    });
  });

  it('rejects a comment on a closed story', () => {
    expect(rejection({ story: { status: 'CLOSED' } }).code).toBe('STORY_CLOSED');
  });

  it('rejects a banned author', () => {
    expect(rejection({ author: { banned: true } }).code).toBe('USER_BANNED');
  });

  it('rejects a suspended author and says until when', () => {
    const until = new Date(NOW.getTime() + 60_000);
    const error = rejection({ author: { suspendedUntil: until } });
    expect(error.code).toBe('USER_SUSPENDED');
    expect(error.extensions.until).toBe(until.toISOString());
  });

  it('lets an author whose suspension has ended write again', () => {
    const ended = new Date(NOW.getTime() - 1);
    expect(evaluateComment(input({ author: { suspendedUntil: ended } })).status).toBe('NONE');
  });

  it.each(['', '   ', '\n\t \n'])('rejects the blank body %j', (body) => {
    expect(rejection({ body }).code).toBe('COMMENT_EMPTY');
  });

  it('rejects a body over maxCommentLength with field body', () => {
    const error = rejection({ body: 'x'.repeat(11), settings: { maxCommentLength: 10 } });
    expect(error.code).toBe('COMMENT_TOO_LONG');
    expect(error.extensions.field).toBe('body');
  });

  it('counts characters, not UTF-16 units, and ignores surrounding whitespace', () => {
    const settings = { maxCommentLength: 10 };
    expect(evaluateComment(input({ body: '😀'.repeat(10), settings })).status).toBe('NONE');
    expect(evaluateComment(input({ body: `  ${'x'.repeat(10)}\n\n`, settings })).status).toBe(
      'NONE',
    );
  });

  it('checks in the documented order: story, then author, then body', () => {
    const everything: Overrides = {
      body: '',
      story: { status: 'CLOSED' },
      author: { banned: true, suspendedUntil: new Date(NOW.getTime() + 1000) },
    };
    expect(rejection(everything).code).toBe('STORY_CLOSED');
    expect(rejection({ ...everything, story: { status: 'OPEN' } }).code).toBe('USER_BANNED');
    expect(
      rejection({ ...everything, story: { status: 'OPEN' }, author: { banned: false } }).code,
    ).toBe('COMMENT_EMPTY');
  });
});

describe('evaluateComment: banned and suspect words', () => {
  const words = { bannedWords: ['darn', 'Crème brûlée', 'buy now'], suspectWords: ['heck'] };

  it.each([
    ['plain', 'well darn it'],
    ['upper case', 'DARN!'],
    ['inside strong emphasis', 'well **darn** it'],
    ['split by emphasis', 'well d*ar*n it'],
    ['inside a link label', '[darn](https://x.example)'],
    ['accented, in another case', 'CRÈME BRÛLÉE for all'],
    ['a phrase across a line break', 'buy\nnow'],
    ['in full-width letters', 'ｄａｒｎ'],
  ])('rejects a banned word %s', (_name, body) => {
    const error = rejection({ body, settings: words });
    expect(error.code).toBe('BANNED_WORD');
    expect(error.extensions.field).toBe('body');
  });

  it.each([
    ['inside a longer word', 'darnedest'],
    ['inside a word with an accented letter', 'darné'],
    ['joined by an underscore', 'darn_it'],
  ])('does not match %s', (_name, body) => {
    expect(evaluateComment(input({ body, settings: words })).status).toBe('NONE');
  });

  it('publishes a suspect-word comment but queues it as reported', () => {
    expect(evaluateComment(input({ body: 'what the **HECK**', settings: words }))).toEqual({
      status: 'NONE',
      heldBecause: ['SUSPECT_WORD'],
      reported: true,
      matchedWords: ['heck'],
    });
  });

  it('applies banned words to staff but not to moderators or admins', () => {
    expect(rejection({ body: 'darn', settings: words, author: { role: 'STAFF' } }).code).toBe(
      'BANNED_WORD',
    );
    for (const role of ['MODERATOR', 'ADMIN'] as const) {
      const result = evaluateComment(
        input({ body: 'darn heck', settings: words, author: { role } }),
      );
      expect(result).toEqual({
        status: 'NONE',
        heldBecause: [],
        reported: false,
        matchedWords: [],
      });
    }
  });

  it('ignores blank entries in the word lists', () => {
    const settings = { bannedWords: ['', '  '], suspectWords: [''] };
    expect(evaluateComment(input({ body: 'anything at all', settings })).reported).toBe(false);
  });

  it('treats regular-expression characters in a word literally', () => {
    const settings = { bannedWords: ['c++', 'a.b'] };
    expect(rejection({ body: 'I write c++ daily', settings }).code).toBe('BANNED_WORD');
    expect(evaluateComment(input({ body: 'axb', settings })).status).toBe('NONE');
  });
});

describe('evaluateComment: pre-moderation', () => {
  it('holds every comment with premod ALL', () => {
    const result = evaluateComment(input({ settings: { premod: 'ALL' } }));
    expect(result).toMatchObject({ status: 'PREMOD', heldBecause: ['PREMOD_ALL'] });
  });

  it('holds only comments with links under premod LINKS', () => {
    const settings = { premod: 'LINKS' as const };
    expect(evaluateComment(input({ settings })).status).toBe('NONE');
    const result = evaluateComment(input({ body: 'see https://x.example', settings }));
    expect(result).toMatchObject({ status: 'PREMOD', heldBecause: ['LINK'] });
  });

  it('holds new commenters until they have enough approved comments', () => {
    const settings = { premod: 'NEW_COMMENTERS' as const, newCommenterApprovals: 2 };
    const newcomer = evaluateComment(input({ settings, author: { approvedCount: 1 } }));
    expect(newcomer).toMatchObject({ status: 'PREMOD', heldBecause: ['NEW_COMMENTER'] });
    const regular = evaluateComment(input({ settings, author: { approvedCount: 2 } }));
    expect(regular.status).toBe('NONE');
  });

  it('holds a user marked premod whatever the sitewide mode', () => {
    const result = evaluateComment(input({ author: { premod: true } }));
    expect(result).toMatchObject({ status: 'PREMOD', heldBecause: ['PREMOD_USER'] });
  });

  it('lets the story override replace the sitewide mode, both ways', () => {
    const stricter = input({ settings: { premod: 'OFF' }, story: { premod: 'ALL' } });
    expect(evaluateComment(stricter).status).toBe('PREMOD');
    const looser = input({ settings: { premod: 'ALL' }, story: { premod: 'OFF' } });
    expect(evaluateComment(looser).status).toBe('NONE');
  });

  it('reports every reason that applied, suspect word included', () => {
    const result = evaluateComment(
      input({
        body: 'heck, see https://x.example',
        settings: { premod: 'LINKS', suspectWords: ['heck'] },
        author: { premod: true },
      }),
    );
    expect(result).toEqual({
      status: 'PREMOD',
      heldBecause: ['SUSPECT_WORD', 'LINK', 'PREMOD_USER'],
      reported: true,
      matchedWords: ['heck'],
    });
  });

  it.each(['STAFF', 'MODERATOR', 'ADMIN'] as const)('lets %s skip pre-moderation', (role) => {
    const result = evaluateComment(
      input({ settings: { premod: 'ALL' }, author: { role, premod: true } }),
    );
    expect(result.status).toBe('NONE');
  });
});

describe('evaluateComment: evasions', () => {
  const settings = { bannedWords: ['idiot', 'spam.example'] };

  it.each([
    ['a zero-width space', 'you id\u200Biot'],
    ['a soft hyphen', 'you id\u00ADiot'],
    ['a zero-width joiner', 'you i\u200Ddiot'],
  ])('catches a banned word split by %s', (_name, body) => {
    expect(rejection({ body, settings }).code).toBe('BANNED_WORD');
  });

  // Look-alikes from other scripts and accents no longer slip through.
  it.each([
    ['Cyrillic і and о', 'you \u0456d\u0456\u043Et'],
    ['a Greek omicron', 'you idi\u03BFt'],
    ['accents', 'you ídìöt'],
    ['accents written as combining marks', 'you i\u0301diot'],
    ['mathematical letters', 'you \u{1D422}\u{1D41D}\u{1D422}\u{1D428}\u{1D42D}'],
    ['look-alikes in capitals', 'YOU \u0406D\u0406\u041ET'],
  ])('catches a banned word written with %s', (_name, body) => {
    expect(rejection({ body, settings }).code).toBe('BANNED_WORD');
  });

  it('catches a banned domain hidden behind link text', () => {
    expect(
      rejection({ body: 'a [harmless label](https://spam.example/offer)', settings }).code,
    ).toBe('BANNED_WORD');
  });
});

describe('withSpamScore', () => {
  const clean = { status: 'NONE' as const, heldBecause: [], reported: false, matchedWords: [] };

  it('holds at or above the threshold, as SPAM after the other reasons', () => {
    expect(withSpamScore(clean, 0.9, { spamThreshold: 90 })).toEqual({
      ...clean,
      status: 'PREMOD',
      heldBecause: ['SPAM'],
    });
    const guest = { ...clean, status: 'PREMOD' as const, heldBecause: ['GUEST' as const] };
    expect(withSpamScore(guest, 0.95, { spamThreshold: 90 }).heldBecause).toEqual([
      'GUEST',
      'SPAM',
    ]);
  });

  it('leaves the verdict alone below it', () => {
    expect(withSpamScore(clean, 0.899, { spamThreshold: 90 })).toBe(clean);
  });
});
