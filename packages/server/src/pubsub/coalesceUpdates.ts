/**
 * Sends at most two events per key and window: the first at once (a single edit or reaction
 * reaches readers without delay), then — if more came meanwhile — one more when the window ends.
 * Events carry ids and readers load the comment fresh, so that last one shows the final state.
 */
export interface UpdateCoalescer<T> {
  /** Sends `event` now, or folds it into the one sent at the end of `key`'s window. */
  push(key: string, event: T): void;
  /** Sends every pending trailing event now and stops the timers (server close). */
  flush(): void;
}

/** Creates a coalescer that hands events to `send`, per key, once per `windowMs`. */
export function createUpdateCoalescer<T>(
  send: (event: T) => void,
  windowMs: number,
): UpdateCoalescer<T> {
  // Open windows: the event to send at the end, if another came after the first.
  const windows = new Map<string, { timer: ReturnType<typeof setTimeout>; pending?: T }>();
  const close = (key: string) => {
    const window = windows.get(key);
    if (window === undefined) return;
    windows.delete(key);
    clearTimeout(window.timer);
    if (window.pending !== undefined) send(window.pending);
  };
  return {
    push(key, event) {
      const open = windows.get(key);
      if (open !== undefined) {
        open.pending = event;
        return;
      }
      send(event);
      const timer = setTimeout(() => close(key), windowMs);
      timer.unref?.();
      windows.set(key, { timer });
    },
    flush() {
      for (const key of [...windows.keys()]) close(key);
    },
  };
}
