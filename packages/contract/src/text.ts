// Text as people count and read it, for the rules both sides apply.

/** Length in characters (code points): "é" or an emoji counts once, as a person counts it. */
export function characterCount(text: string): number {
  return [...text].length;
}

/** Bidirectional controls: invisible, and able to make one name display as another. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** `text` without any bidirectional control: for usernames, which never need one. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
