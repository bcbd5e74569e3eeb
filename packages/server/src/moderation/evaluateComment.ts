import { characterCount, commentBodyProblem } from '@parley/contract';
import { ParleyError } from '../ParleyError';
import type { DEFAULT_SETTINGS } from '../defaults';
import { containsLink, plainText } from '../markdown/renderComment';
import { createWordMatcher } from './matchWords';

/** Pre-moderation mode, sitewide or per story: OFF, ALL, LINKS or NEW_COMMENTERS. */
export type PremodMode = (typeof DEFAULT_SETTINGS)['premod'];

/** A user's role. */
export type AuthorRole = 'COMMENTER' | 'STAFF' | 'MODERATOR' | 'ADMIN';

/** Why a comment was held for, or flagged to, moderators. */
export type HeldReason =
  'SUSPECT_WORD' | 'LINK' | 'NEW_COMMENTER' | 'PREMOD_USER' | 'PREMOD_ALL' | 'GUEST' | 'SPAM';

/** The organization settings the decision reads (a subset of `DEFAULT_SETTINGS`). */
export interface CommentModerationSettings {
  /** Sitewide pre-moderation. @default 'OFF' */
  premod: PremodMode;
  /** Approved comments a new commenter needs before publishing at once. @default 3 */
  newCommenterApprovals: number;
  /** Words that reject a comment. @default [] */
  bannedWords: readonly string[];
  /** Words that publish a comment but queue it as reported. @default [] */
  suspectWords: readonly string[];
  /** Longest body, in characters. @default 5000 */
  maxCommentLength: number;
  /** Whether guests' comments wait for a moderator. @default true */
  guestPremod: boolean;
}

/** Everything the decision needs about one comment being written. */
export interface EvaluateCommentInput {
  /** The Markdown source as typed. */
  body: string;
  /** Organization settings. */
  settings: CommentModerationSettings;
  /** The story: its status and its pre-moderation override (null or absent: use the sitewide mode). */
  story: { status: 'OPEN' | 'CLOSED'; premod?: PremodMode | null };
  /** The author's standing. */
  author: {
    banned: boolean;
    suspendedUntil: Date | null;
    premod: boolean;
    approvedCount: number;
    role: AuthorRole;
    /** A guest (no account): held while `guestPremod` is on. @default false */
    guest?: boolean;
  };
  /** The current time (injected so suspensions are testable). */
  now: Date;
}

/** What to store: the status, why it was held or flagged, and which suspect words matched. */
export interface CommentModerationResult {
  /** `NONE` publishes at once; `PREMOD` holds the comment for a moderator. */
  status: 'NONE' | 'PREMOD';
  /** Every reason that applied, in a stable order; empty for a clean comment. */
  heldBecause: HeldReason[];
  /** True when a suspect word matched: the comment is published but also queued as reported. */
  reported: boolean;
  /** The suspect words found, as written in the settings. */
  matchedWords: string[];
}

/** Moderators and admins run the queue; their own words are trusted (see evaluateComment). */
const WORD_TRUSTED_ROLES: ReadonlySet<AuthorRole> = new Set(['MODERATOR', 'ADMIN']);
/** Roles that skip every pre-moderation rule. */
const PREMOD_EXEMPT_ROLES: ReadonlySet<AuthorRole> = new Set(['STAFF', 'MODERATOR', 'ADMIN']);

/**
 * Decides what happens to a comment being created or edited. Throws a {@link ParleyError} when the
 * comment must not be stored at all; otherwise returns the status to store it with.
 *
 * Checks, in this order (the first failure wins, so the error names the most fundamental problem):
 * 1. story closed → `STORY_CLOSED`;
 * 2. author banned → `USER_BANNED`; suspended until after `now` → `USER_SUSPENDED` (`until`);
 * 3. body blank after trimming → `COMMENT_EMPTY`; longer than `maxCommentLength` characters
 *    (code points, measured after trimming) → `COMMENT_TOO_LONG` (`field: 'body'`);
 * 4. a banned word, matched on the rendered text (so `**word**` or `wo*rd*` still match) →
 *    `BANNED_WORD` (`field: 'body'`);
 * 5. suspect words → `reported`, reason `SUSPECT_WORD`, status unchanged;
 * 6. pre-moderation: the story's override, else the sitewide mode (`ALL` → `PREMOD_ALL`, `LINKS`
 *    with a link → `LINK`, `NEW_COMMENTERS` below `newCommenterApprovals` → `NEW_COMMENTER`), and the
 *    author's own premod flag (`PREMOD_USER`), a guest while guests are pre-moderated (`GUEST`);
 *    any of these → status `PREMOD`. The spam score comes after ({@link withSpamScore}).
 *
 * Roles: STAFF, MODERATOR and ADMIN skip step 6 (they speak for the site). MODERATOR and ADMIN also
 * skip steps 4–5: they maintain the word lists and quote offending comments when explaining a
 * decision, and a moderator flagging themselves to themselves helps no one. STAFF is not a
 * moderator, so banned and suspect words apply to staff as to commenters. Bans, suspensions,
 * closed stories and length limits apply to everyone.
 */
export function evaluateComment(input: EvaluateCommentInput): CommentModerationResult {
  const { body, settings, story, author, now } = input;

  if (story.status === 'CLOSED') {
    throw new ParleyError('STORY_CLOSED', 'This story is closed to new comments.');
  }
  if (author.banned) {
    throw new ParleyError('USER_BANNED', 'Your account is banned from commenting.');
  }
  if (author.suspendedUntil !== null && author.suspendedUntil.getTime() > now.getTime()) {
    const until = author.suspendedUntil.toISOString();
    throw new ParleyError('USER_SUSPENDED', `Your account is suspended until ${until}.`, { until });
  }

  const trimmed = body.trim();
  // The rule the stream checks too, before sending (@parley/contract).
  const problem = commentBodyProblem(body, settings.maxCommentLength);
  if (problem === 'COMMENT_EMPTY') {
    throw new ParleyError('COMMENT_EMPTY', 'A comment cannot be empty.', { field: 'body' });
  }
  if (problem === 'COMMENT_TOO_LONG') {
    throw new ParleyError(
      'COMMENT_TOO_LONG',
      `A comment can be at most ${settings.maxCommentLength} characters; this one has ${characterCount(trimmed)}.`,
      { field: 'body' },
    );
  }

  const heldBecause: HeldReason[] = [];
  let matchedWords: string[] = [];

  if (!WORD_TRUSTED_ROLES.has(author.role)) {
    const text = plainText(trimmed);
    const banned = createWordMatcher(settings.bannedWords)(text);
    if (banned.length > 0) {
      throw new ParleyError(
        'BANNED_WORD',
        `Your comment contains a word that is not allowed here: ${banned.join(', ')}.`,
        { field: 'body' },
      );
    }
    matchedWords = createWordMatcher(settings.suspectWords)(text);
    if (matchedWords.length > 0) heldBecause.push('SUSPECT_WORD');
  }

  let held = false;
  if (!PREMOD_EXEMPT_ROLES.has(author.role)) {
    const mode = story.premod ?? settings.premod;
    if (mode === 'ALL') heldBecause.push('PREMOD_ALL');
    if (mode === 'LINKS' && containsLink(trimmed)) heldBecause.push('LINK');
    if (mode === 'NEW_COMMENTERS' && author.approvedCount < settings.newCommenterApprovals) {
      heldBecause.push('NEW_COMMENTER');
    }
    if (author.premod) heldBecause.push('PREMOD_USER');
    if (author.guest === true && settings.guestPremod) heldBecause.push('GUEST');
    held = heldBecause.some((reason) => reason !== 'SUSPECT_WORD');
  }

  return {
    status: held ? 'PREMOD' : 'NONE',
    heldBecause,
    reported: matchedWords.length > 0,
    matchedWords,
  };
}

/**
 * The verdict with the spam score's say (moderation/spam.ts): at or above `spamThreshold`
 * percent, the comment is held, with the reason SPAM. Taken after {@link evaluateComment}, so a
 * comment refused outright costs no score; the caller scores commenters only (staff speak for
 * the site, and skip pre-moderation altogether).
 */
export function withSpamScore(
  verdict: CommentModerationResult,
  score: number,
  /** `spamThreshold`: the score, in percent, at or above which a comment is held. */
  settings: { spamThreshold: number },
): CommentModerationResult {
  if (!Number.isFinite(score) || score * 100 < settings.spamThreshold) return verdict;
  return { ...verdict, status: 'PREMOD', heldBecause: [...verdict.heldBecause, 'SPAM'] };
}
