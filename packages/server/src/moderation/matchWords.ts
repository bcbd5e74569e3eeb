/**
 * Whole-word, case-insensitive, Unicode-aware word-list matching for banned and suspect words.
 */

/** Letters, digits (any script) and `_` are word characters; everything else separates words. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';

/** Escapes a literal for use inside a RegExp. */
function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * NFKC folds look-alike forms (full-width `ｂａｄ`, ligatures like `ﬁ`) into plain letters, so a
 * listed word cannot be dodged with a compatibility character; case is handled by the `i` flag.
 */
function fold(text: string): string {
  // Format characters (zero-width space, soft hyphen, joiners) are invisible: `id\u200Biot` reads
  // as the banned word, so it must match as one.
  return text.normalize('NFKC').replace(/\p{Cf}/gu, '');
}

/**
 * Builds a matcher for `words`: it returns the listed words (as written in the list, in list
 * order, each once) that occur in a text as whole words — `ass` matches "Ass!" but not "class".
 * Blank entries are ignored; an entry may be a phrase ("buy now"), matched with any whitespace
 * between its words.
 */
export function createWordMatcher(words: readonly string[]): (text: string) => string[] {
  const patterns = words
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .map((word) => {
      const body = fold(word).split(/\s+/u).map(escapeRegExp).join('\\s+');
      // Lookarounds, not \b: \b only knows ASCII word characters and would split "café".
      return { word, pattern: new RegExp(`(?<!${WORD_CHAR})${body}(?!${WORD_CHAR})`, 'iu') };
    });
  return (text: string): string[] => {
    const folded = fold(text);
    const found = new Set<string>();
    for (const { word, pattern } of patterns) {
      if (pattern.test(folded)) found.add(word);
    }
    return [...found];
  };
}
