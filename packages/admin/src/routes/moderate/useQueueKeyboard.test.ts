import { shortcutKey } from './useQueueKeyboard';

describe('shortcutKey', () => {
  it('is the character typed on a Latin layout (AZERTY’s "a" key types "a")', () => {
    expect(shortcutKey({ key: 'a', code: 'KeyQ', shiftKey: false })).toBe('a');
    expect(shortcutKey({ key: '?', code: 'Comma', shiftKey: true })).toBe('?');
    // Shift+J is not a shortcut: it stays "J".
    expect(shortcutKey({ key: 'J', code: 'KeyJ', shiftKey: true })).toBe('J');
  });

  it('is the Latin letter of the key on Cyrillic, Hebrew and Arabic layouts', () => {
    expect(shortcutKey({ key: 'о', code: 'KeyJ', shiftKey: false })).toBe('j');
    expect(shortcutKey({ key: 'ש', code: 'KeyA', shiftKey: false })).toBe('a');
    expect(shortcutKey({ key: 'ب', code: 'KeyF', shiftKey: false })).toBe('f');
    // Punctuation is as typed: German Shift+"-" ("_" where the US "?" is) opens nothing.
    expect(shortcutKey({ key: '_', code: 'Slash', shiftKey: true })).toBe('_');
    expect(shortcutKey({ key: '?', code: 'Digit7', shiftKey: true })).toBe('?');
    expect(shortcutKey({ key: 'Escape', code: 'Escape', shiftKey: false })).toBe('Escape');
  });
});
