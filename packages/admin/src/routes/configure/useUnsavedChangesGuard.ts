import { useEffect } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';
import { ENGLISH, useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

/** The catalog key of what the confirm asks before an in-app link leaves unsaved changes. */
const LEAVE_UNSAVED_KEY = 'console.configure.leaveUnsaved' satisfies ConsoleMessageKey;

/** What the confirm asks, in English (tests compare with it). */
export const LEAVE_UNSAVED_TEXT = ENGLISH(LEAVE_UNSAVED_KEY);

/**
 * While `dirty`: the browser asks before the page unloads (reload, close, another site), and a
 * click on any link in the app asks first. wouter 3 has no navigation blocker, so the click is
 * caught on the document in the capture phase, before React's root listener runs the Link's
 * navigation, and stopped there when the user stays.
 */
export function useUnsavedChangesGuard(dirty: boolean): void {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const leaveText = t(LEAVE_UNSAVED_KEY);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium shows the prompt only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      // A modified click opens another tab: this page and its changes stay.
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target as Element | null;
      const link = target?.closest?.('a[href]');
      if (!link || (link.getAttribute('target') ?? '_self') !== '_self') return;
      if (!win.confirm(leaveText)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    win.addEventListener('beforeunload', onBeforeUnload);
    win.document.addEventListener('click', onClick, true);
    return () => {
      win.removeEventListener('beforeunload', onBeforeUnload);
      win.document.removeEventListener('click', onClick, true);
    };
  }, [dirty, win, leaveText]);
}
