import { useEffect, useState } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';

/** Wait after the last keystroke before a search runs, in ms. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `value`, once it has stopped changing for `delayMs`: a search box then sends one query per
 * pause rather than one per keystroke. Timers come from the injected window (ConsoleContext).
 */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const { window: win } = useConsoleEnv();
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = win.setTimeout(() => setSettled(value), delayMs);
    return () => win.clearTimeout(timer);
  }, [value, delayMs, win]);
  return settled;
}
