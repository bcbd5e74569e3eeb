/**
 * The local spam score: no network call, no third party. Two kinds of evidence, added as log-odds:
 *
 * - **What this organization's moderators taught.** A naive Bayes model (the `classificator`
 *   library) learns "spam" from comments rejected as spam and "ham" from approved ones
 *   (store/spamModel.ts keeps it in the database, so every process uses the same one). Until it has
 *   {@link MIN_LESSONS} of each it says nothing, and the score starts from {@link PRIOR}.
 * - **Signals that need no training** ({@link spamSignals}): known spam phrases, links per word,
 *   many links, a brand-new account (with a link, more so), the same text posted on other stories.
 *
 * The score is the logistic of their sum, 0 to 1. The model alone can hold a comment (it is
 * clamped to 0.02–0.98, log-odds ±3.9); the untrained signals need to agree with each other (the
 * prior is 0.05 and the default threshold 0.9, so two phrases and a link from a day-old account,
 * or a repeated text with a link, but not one phrase or one link).
 */
import { createHash } from 'node:crypto';
import bayes from 'classificator';
import type { Naivebayes } from 'classificator';
import { readText } from '../markdown/renderComment';
import { wordMatchingForm } from '../validation/lookalikes';
import { createWordMatcher } from './matchWords';

/** Lessons of each class the model needs before its opinion counts. */
export const MIN_LESSONS = 10;

/** Where the score starts without a trained model: 0.05, in log-odds. */
export const PRIOR = Math.log(0.05 / 0.95);

/** The model's opinion is clamped to this probability and 1 minus it, so signals still count. */
const MODEL_CLAMP = 0.02;

/** An account younger than this is "brand new". */
export const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

/** How far back the same text on other stories counts. */
export const REPEAT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** A text shorter than this many words is never "the same text" ("Thanks!", "Great piece."). */
export const FINGERPRINT_MIN_WORDS = 6;

/**
 * Phrases of common spam, shipped as a small default list (matched as whole words, through the
 * same look-alike folding as the banned words). Each found adds {@link WEIGHTS.phrase}, two at
 * most: one alone never holds a comment, so a reader discussing "bitcoin" is not held for it.
 */
export const SPAM_PHRASES: readonly string[] = Object.freeze([
  'buy now',
  'click here',
  'order now',
  'limited time offer',
  'free money',
  'make money',
  'earn money',
  'earn $',
  'work from home',
  'double your',
  'investment opportunity',
  'guaranteed profit',
  'guaranteed returns',
  'crypto signals',
  'forex signals',
  'bitcoin investment',
  'casino',
  'free spins',
  'slot machines',
  'betting tips',
  'viagra',
  'cialis',
  'weight loss pills',
  'payday loan',
  'no credit check',
  'cheap loans',
  'seo services',
  'backlinks',
  'rank your website',
  'replica watches',
  'hot singles',
  'essay writing service',
  'visit my website',
  'check my profile',
  'dm me on telegram',
  'whatsapp me',
  'discount code',
  '100% free',
]);

/** How much each signal adds to the log-odds. */
export const WEIGHTS = Object.freeze({
  /** Per known spam phrase, at most two counted. */
  phrase: 1.5,
  /** At least one link per ten words. */
  linkDense: 1,
  /** Three links or more. */
  manyLinks: 1,
  /** An account less than a day old (a guest's is as old as their first post). */
  newAccount: 0.5,
  /** …that posts a link. */
  newAccountLink: 1.5,
  /** The same text on one other story in the last week. */
  repeatedOnce: 2,
  /** …on two or more. */
  repeatedMore: 3,
});

const phraseMatcher = createWordMatcher(SPAM_PHRASES);

/** What a comment's text says, read once: its tokens, words, links and fingerprint. */
export interface SpamText {
  /** The model's tokens: `w:` and a folded word, `link:<host>` and `tld:<tld>` per link, `#num`, `#money`. */
  tokens: string[];
  /** Words a reader sees. */
  words: number;
  /** Links (Markdown, bare URLs, addresses). */
  links: number;
  /** Known spam phrases found. */
  phrases: string[];
  /** A hash of the tokens; null below {@link FINGERPRINT_MIN_WORDS} words. */
  fingerprint: string | null;
}

/** Reads a comment's Markdown source for the filter. */
export function readSpamText(source: string): SpamText {
  const { text, links: targets } = readText(source);
  // The model reads links as their hosts; a bare URL's visible text is the URL itself.
  const visible = wordMatchingForm(text).replace(/\b(?:https?:\/\/|mailto:|www\.)\S*/giu, ' ');
  const words = visible.match(/[\p{L}\p{N}$€£]+/gu) ?? [];
  const tokens: string[] = [];
  for (const word of words) {
    if (/^[$€£]\d|^\d+[$€£]$/u.test(word)) tokens.push('#money');
    else if (/^\d+$/u.test(word)) tokens.push('#num');
    // Prefixed: a bare word such as "constructor" would find Object.prototype's in the model's
    // plain-object counts.
    else if (word.length >= 2 && word.length <= 30) tokens.push(`w:${word.replace(/[$€£]/gu, '')}`);
  }
  for (const target of targets) {
    const host = linkHost(target);
    // The host, and its top-level domain: a new spam domain is new, its `.xyz` is not.
    tokens.push(`link:${host}`);
    const tld = /\.([a-z0-9-]+)$/u.exec(host)?.[1];
    if (tld !== undefined) tokens.push(`tld:${tld}`);
  }
  return {
    tokens,
    words: words.length,
    links: targets.length,
    phrases: phraseMatcher(text),
    fingerprint:
      words.length < FINGERPRINT_MIN_WORDS
        ? null
        : createHash('sha256').update(tokens.join(' ')).digest('base64url').slice(0, 22),
  };
}

/** A link's host, lower-cased, without `www.`; `mail` for an address, `other` when unreadable. */
function linkHost(target: string): string {
  if (target.startsWith('mailto:')) return 'mail';
  try {
    return new URL(target).hostname.replace(/^www\./u, '') || 'other';
  } catch {
    return 'other';
  }
}

/** What the filter knows of the comment's author and its story, beside the text. */
export interface SpamContext {
  /** How old the author's account is, in ms. */
  accountAgeMs: number;
  /** Other stories where the same text was posted in the last {@link REPEAT_WINDOW_MS}. */
  repeatedOnStories: number;
}

/** The signals that need no training, each with its weight. */
export function spamSignals(
  text: SpamText,
  context: SpamContext,
): { name: string; weight: number }[] {
  const signals: { name: string; weight: number }[] = [];
  const phrases = Math.min(text.phrases.length, 2);
  if (phrases > 0) signals.push({ name: 'phrases', weight: phrases * WEIGHTS.phrase });
  if (text.links > 0 && text.links * 10 >= Math.max(text.words, 1)) {
    signals.push({ name: 'linkDense', weight: WEIGHTS.linkDense });
  }
  if (text.links >= 3) signals.push({ name: 'manyLinks', weight: WEIGHTS.manyLinks });
  if (context.accountAgeMs < NEW_ACCOUNT_MS) {
    signals.push({ name: 'newAccount', weight: WEIGHTS.newAccount });
    if (text.links > 0) signals.push({ name: 'newAccountLink', weight: WEIGHTS.newAccountLink });
  }
  if (context.repeatedOnStories >= 2) {
    signals.push({ name: 'repeated', weight: WEIGHTS.repeatedMore });
  } else if (context.repeatedOnStories === 1) {
    signals.push({ name: 'repeated', weight: WEIGHTS.repeatedOnce });
  }
  return signals;
}

/**
 * The model's probability that `tokens` are spam, or undefined while it has fewer than
 * {@link MIN_LESSONS} lessons of either class. Computed here from the model's counts (its
 * `tokenProbability`, its priors) with `Math.log`: the library's own `categorize` works in
 * decimal.js and took 7.7 ms a comment in a probe (0.03 ms this way), on the posting path.
 */
export function modelSpamProbability(model: Naivebayes, tokens: string[]): number | undefined {
  const spamDocs = model.docCount['spam'] ?? 0;
  const hamDocs = model.docCount['ham'] ?? 0;
  if (spamDocs < MIN_LESSONS || hamDocs < MIN_LESSONS) return undefined;
  let spam = Math.log(spamDocs / model.totalDocuments);
  let ham = Math.log(hamDocs / model.totalDocuments);
  for (const [token, count] of Object.entries(model.frequencyTable(tokens))) {
    if (!model.vocabulary[token]) continue;
    spam += count * Math.log(model.tokenProbability(token, 'spam'));
    ham += count * Math.log(model.tokenProbability(token, 'ham'));
  }
  return probability(spam - ham);
}

/** Log-odds as a probability. */
function probability(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/** A probability as log-odds, clamped to [`clamp`, 1 − `clamp`] so none is infinite. */
function logOddsOf(p: number, clamp: number): number {
  const clamped = Math.min(1 - clamp, Math.max(clamp, p));
  return Math.log(clamped / (1 - clamped));
}

/**
 * The score (0 to 1) from the model's opinion (undefined: untrained), the signals and any other
 * evidence in log-odds (`extraLogOdds`: Akismet's verdict, {@link AKISMET_WEIGHTS}).
 */
export function spamScore(
  text: SpamText,
  context: SpamContext,
  model: Naivebayes | undefined,
  extraLogOdds = 0,
): number {
  const opinion = model && modelSpamProbability(model, text.tokens);
  let logOdds = (opinion === undefined ? PRIOR : logOddsOf(opinion, MODEL_CLAMP)) + extraLogOdds;
  for (const signal of spamSignals(text, context)) logOdds += signal.weight;
  return probability(logOdds);
}

/** `score` with `logOdds` more evidence. */
export function withLogOdds(score: number, logOdds: number): number {
  return probability(logOddsOf(score, 1e-9) + logOdds);
}

/** What Akismet's verdict adds to the log-odds, when it is asked (moderation/akismet.ts). */
export const AKISMET_WEIGHTS = Object.freeze({ ham: -1, spam: 3, discard: 5 });

/** The tokens as the model's text: they hold no spaces, so its tokenizer splits on spaces. */
export function modelText(tokens: readonly string[]): string {
  return tokens.join(' ');
}

const MODEL_OPTIONS = { tokenizer: (text: string) => (text === '' ? [] : text.split(' ')) };

/** A new, untrained model. */
export function newSpamModel(): Naivebayes {
  return bayes(MODEL_OPTIONS);
}

/** A model from its stored JSON. */
export function storedSpamModel(json: string): Naivebayes {
  return bayes.fromJson(json, MODEL_OPTIONS);
}
