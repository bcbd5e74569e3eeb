import { stripBidiControls } from '@parley/contract';
import { rectifyConfusion } from 'unicode-confusables';

/**
 * Text that looks like other text: usernames that impersonate (Cyrillic `аdmin`),
 * banned words dodged with look-alikes (`іdіot`, `fück`), and bidirectional controls that make
 * text display in another order than it is stored.
 */

// An unclosed bidirectional override flips everything after it on screen ("Trojan Source"), so a
// name or a comment could show as something else. Usernames lose every control
// (`stripBidiControls`, @parley/contract, as both sides apply it); comments lose these:
/** Embeddings, overrides and isolates: the controls that reorder text beyond one character. */
const BIDI_REORDERING = /[\u202A-\u202E\u2066-\u2069]/gu;

/**
 * A comment body with its embeddings, overrides and isolates removed, so it cannot reorder what
 * surrounds it or itself. The marks (LRM, RLM, ALM) stay: they only settle the direction of the
 * neutral characters beside them, which writers of Arabic and Hebrew rely on.
 */
export function neutralizeBidi(text: string): string {
  return text.replace(BIDI_REORDERING, '');
}

/**
 * The UTS #39 skeleton of a username, case-insensitive as usernames are: lower-cased, decomposed
 * (NFD), each character replaced by its prototype in Unicode's confusables table, decomposed and
 * lower-cased again. Two names with the same skeleton look alike (`аdmin` in Cyrillic and
 * `Admin`, `adrnin` and `admin`, `pau1` and `paul`), so only one of them may be taken.
 *
 * Lower-casing first keeps every capitalisation of a name in one class, as `username_key` does;
 * the price is that a capital `I` counts as `i`, so `admIn` and `admln` stay distinct.
 */
export function usernameSkeleton(username: string): string {
  return rectifyConfusion(stripBidiControls(username).toLowerCase().normalize('NFD'))
    .normalize('NFD')
    .toLowerCase();
}

/**
 * The form banned and suspect words are matched in: compatibility forms folded (NFKC: full-width
 * `ｂａｄ`, ligatures), invisible format characters removed (`id\u200Biot`), look-alikes replaced
 * by their prototype (Cyrillic `і`, digits `0` and `1`), accents dropped (`fück`), lower-cased
 * (first, so `Idiot` stays `idiot` rather than `ldiot`, and again after the table, which maps
 * `0` to `O`). Applied to the word list and to the comment alike.
 */
export function wordMatchingForm(text: string): string {
  const visible = text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .toLowerCase();
  return rectifyConfusion(visible.normalize('NFD'))
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
}
