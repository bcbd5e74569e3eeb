/**
 * Whole-word, case-insensitive, Unicode-aware word-list matching for banned and suspect words.
 */
import { wordMatchingForm } from '../validation/lookalikes';

/** Letters, digits (any script) and `_` are word characters; everything else separates words. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';

/** Escapes a literal for use inside a RegExp. */
function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// Words and texts are compared in one form, wordMatchingForm (validation/lookalikes.ts):
// full-width and ligature forms folded, invisible format characters dropped (`id\u200Biot`),
// look-alikes from other scripts replaced (`іdіot` in Cyrillic), accents dropped (`fück`),
// lower-cased.

/**
 * Builds a matcher for `words`: it returns the listed words (as written in the list, in list
 * order, each once) that occur in a text as whole words — `ass` matches "Ass!" but not "class".
 * Blank entries are ignored; an entry may be a phrase ("buy now"), matched with any whitespace
 * between its words.
 */
export function createWordMatcher(words: readonly string[]): (text: string) => string[] {
  let matcher = matchers.get(words);
  if (matcher === undefined) matchers.set(words, (matcher = buildWordMatcher(words)));
  return matcher;
}

/**
 * Matchers by their list: the settings' lists are the same arrays for every request while a
 * process keeps the organization (runtime/organizationCache.ts), and building one compiled a
 * pattern per word for every post (bench:scale, section 5). Keyed by identity: pass a list that
 * is not changed afterwards (the stored settings' lists are frozen).
 */
const matchers = new WeakMap<readonly string[], (text: string) => string[]>();

function buildWordMatcher(words: readonly string[]): (text: string) => string[] {
  const patterns = words
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .map((word) => {
      const body = wordMatchingForm(word).split(/\s+/u).map(escapeRegExp).join('\\s+');
      // Lookarounds, not \b: \b only knows ASCII word characters and would split "café".
      return { word, pattern: new RegExp(`(?<!${WORD_CHAR})${body}(?!${WORD_CHAR})`, 'iu') };
    });
  return (text: string): string[] => {
    const folded = wordMatchingForm(text);
    const found = new Set<string>();
    for (const { word, pattern } of patterns) {
      if (pattern.test(folded)) found.add(word);
    }
    return [...found];
  };
}
