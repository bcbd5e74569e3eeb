/**
 * Splits a comment's source into plain and highlighted runs for the "why it is here" panel. It
 * matches as the server does (moderation/matchWords.ts): whole words, case-insensitive, letters
 * of any script, a phrase with any whitespace between its words. The server does not say which
 * word matched, so the console finds it again from the organization's lists.
 */

/** One run of text; `kind` is set when the run is a listed word. */
export interface TextRun {
  text: string;
  kind?: 'banned' | 'suspect';
}

const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}_]';

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function alternation(words: readonly string[]): string | null {
  const parts = words
    .map((w) => w.trim())
    .filter((w) => w !== '')
    // Longest first, so a phrase wins over a word inside it.
    .sort((a, b) => b.length - a.length)
    .map((w) => w.split(/\s+/u).map(escapeRegExp).join('\\s+'));
  return parts.length === 0 ? null : parts.join('|');
}

/** `text` cut into runs, the banned and suspect words marked. */
export function highlightWords(
  text: string,
  banned: readonly string[],
  suspect: readonly string[],
): TextRun[] {
  const b = alternation(banned);
  const s = alternation(suspect);
  const groups = [b && `(?<banned>${b})`, s && `(?<suspect>${s})`].filter(Boolean).join('|');
  if (groups === '') return [{ text }];
  const pattern = new RegExp(`(?<!${WORD_CHAR})(?:${groups})(?!${WORD_CHAR})`, 'giu');
  const runs: TextRun[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > at) runs.push({ text: text.slice(at, index) });
    runs.push({ text: match[0], kind: match.groups?.banned ? 'banned' : 'suspect' });
    at = index + match[0].length;
  }
  if (at < text.length) runs.push({ text: text.slice(at) });
  return runs;
}
