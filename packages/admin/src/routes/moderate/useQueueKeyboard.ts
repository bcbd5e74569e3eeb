import { useEffect, useRef } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';
import type { ConsoleMessageKey } from '../../i18n';

/**
 * What each shortcut does (the catalog key of its text); the dialog that lists them reads the
 * same table.
 */
export const SHORTCUTS: readonly { key: string; does: ConsoleMessageKey }[] = [
  { key: 'j', does: 'console.moderate.shortcuts.next' },
  { key: 'k', does: 'console.moderate.shortcuts.previous' },
  { key: 'a', does: 'console.moderate.shortcuts.approve' },
  { key: 'r', does: 'console.moderate.shortcuts.reject' },
  { key: 's', does: 'console.moderate.shortcuts.spam' },
  { key: 'f', does: 'console.moderate.shortcuts.feature' },
  { key: 'b', does: 'console.moderate.shortcuts.ban' },
  { key: 'u', does: 'console.moderate.shortcuts.undo' },
  { key: 'z', does: 'console.moderate.shortcuts.single' },
  { key: '?', does: 'console.moderate.shortcuts.help' },
];

/** Handlers of the queue's shortcuts. */
export interface QueueKeyHandlers {
  next: () => void;
  previous: () => void;
  approve: () => void;
  reject: () => void;
  spam: () => void;
  feature: () => void;
  ban: () => void;
  undo: () => void;
  single: () => void;
  help: () => void;
}

/** Whether a key press belongs to a text field or a control that uses keys itself. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) {
    return true;
  }
  return false;
}

/**
 * The shortcut a key press means: the character typed (on AZERTY, the key that types "a" is "a");
 * on a layout whose letters are not Latin (Cyrillic, Hebrew, Arabic, Greek) the Latin letter of
 * the same key (`KeyJ` → "j"), so the shortcuts work without switching layouts ("?" is a
 * character of every layout's own).
 */
export function shortcutKey(event: Pick<KeyboardEvent, 'key' | 'code' | 'shiftKey'>): string {
  // A character of a Latin layout (a letter, "?", "_" on German Shift+"-"): as typed.
  if (/^[\x20-\x7e]$/.test(event.key)) return event.key;
  const letter = /^Key([A-Z])$/.exec(event.code)?.[1];
  if (letter) return event.shiftKey ? letter : letter.toLowerCase();
  return event.key;
}

/**
 * The queue's single-key shortcuts, on the console's window. Ignored while typing, with a
 * modifier held (browser and screen-reader shortcuts), and while a dialog is open (the dialog
 * owns the keyboard then).
 */
export function useQueueKeyboard(handlers: QueueKeyHandlers): void {
  const { window } = useConsoleEnv();
  // The latest handlers without re-binding the listener on every render.
  const current = useRef(handlers);
  current.current = handlers;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (window.document.querySelector('[aria-modal="true"]')) return;
      const h = current.current;
      const actions: Record<string, () => void> = {
        j: h.next,
        k: h.previous,
        a: h.approve,
        r: h.reject,
        s: h.spam,
        f: h.feature,
        b: h.ban,
        u: h.undo,
        z: h.single,
        '?': h.help,
      };
      const action = actions[shortcutKey(event)];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [window]);
}
