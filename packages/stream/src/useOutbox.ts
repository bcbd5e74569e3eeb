import { useEffect, useRef } from 'preact/hooks';
import { TransportError } from '@parley/transport';
import type { Outbox, OutboxEnv } from './createOutbox';
import { useStreamEnv } from './StreamContext';

// The outbox (createOutbox.ts) is a chunk of its own: a reader who only reads never needs it. It
// loads at idle after the first paint for a signed-in reader (a post queued in an earlier page
// view is then sent), and at once on the first Post if it has not loaded by then.

/** Longest wait for an idle moment before the outbox loads anyway, in ms. */
export const OUTBOX_IDLE_TIMEOUT_MS = 2000;

interface OutboxSlot {
  /** The outbox, once its chunk has loaded. */
  outbox?: Outbox;
  /** The chunk on its way; cleared when it failed, so the next call tries again. */
  loading?: Promise<Outbox>;
  /** Callers waiting for the outbox without asking for it to load. */
  waiting: Set<(outbox: Outbox) => void>;
}

// Keyed by the page view's thread store, as the outbox itself is (outboxFor).
const slots = new WeakMap<OutboxEnv['thread'], OutboxSlot>();

function slotOf(env: OutboxEnv): OutboxSlot {
  let slot = slots.get(env.thread);
  if (!slot) slots.set(env.thread, (slot = { waiting: new Set() }));
  return slot;
}

/** The page view's outbox, its chunk fetched on the first call; rejects when it cannot be fetched. */
export function loadOutbox(env: OutboxEnv): Promise<Outbox> {
  const slot = slotOf(env);
  if (slot.outbox) return Promise.resolve(slot.outbox);
  return (slot.loading ??= import('./createOutbox').then(
    ({ outboxFor }) => {
      const outbox = (slot.outbox = outboxFor(env));
      slot.waiting.forEach((run) => run(outbox));
      slot.waiting.clear();
      return outbox;
    },
    (error: unknown) => {
      slot.loading = undefined;
      throw error;
    },
  ));
}

/** Runs `run` with the outbox now if it has loaded, else once it does; returns the cancel function. */
function whenLoaded(env: OutboxEnv, run: (outbox: Outbox) => void): () => void {
  const slot = slotOf(env);
  if (slot.outbox) {
    run(slot.outbox);
    return () => undefined;
  }
  slot.waiting.add(run);
  return () => void slot.waiting.delete(run);
}

/** Calls `run` when the browser is idle (or after {@link OUTBOX_IDLE_TIMEOUT_MS}); returns the cancel function. */
function whenIdle(win: Window, run: () => void): () => void {
  if (typeof win.requestIdleCallback === 'function') {
    const id = win.requestIdleCallback(run, { timeout: OUTBOX_IDLE_TIMEOUT_MS });
    return () => win.cancelIdleCallback(id);
  }
  const id = win.setTimeout(run, 0);
  return () => win.clearTimeout(id);
}

/**
 * The page view's outbox for the box of `storyId` / `parentId`: while `active` (a signed-in
 * reader) it loads at idle, then sends the story's queued posts and again whenever the connection
 * returns; it hands this box its refused posts: `onReject(error, body)`, or `onReject(error)` on
 * mount for a refusal that came while the box was closed (its text is already in the draft).
 * Returns `withOutbox(run)`, which runs `run` with the outbox (at once when it has loaded) or
 * calls `onReject` with NETWORK_ERROR when its chunk cannot be fetched.
 */
export function useOutbox(
  storyId: string,
  parentId: string | null,
  active: boolean,
  onReject: (error: TransportError, body?: string) => void,
): (run: (outbox: Outbox) => void) => void {
  const env = useStreamEnv();
  const latest = useRef(onReject);
  latest.current = onReject;
  useEffect(() => {
    if (!active) return;
    let stop: (() => void) | undefined;
    let ended = false;
    const win = env.window;
    const start = () =>
      void loadOutbox(env).then(
        (outbox) => {
          if (!ended) stop = outbox.watch(storyId);
        },
        // Offline before the chunk came: the queued posts wait for the connection anyway.
        () => !ended && win.addEventListener('online', start, { once: true }),
      );
    const cancel = whenIdle(win, start);
    return () => {
      ended = true;
      cancel();
      win.removeEventListener('online', start);
      stop?.();
    };
  }, [env, storyId, active]);
  useEffect(() => {
    let off: (() => void) | undefined;
    const cancel = whenLoaded(env, (outbox) => {
      const missed = outbox.takeRefusal(storyId, parentId);
      if (missed) latest.current(missed);
      off = outbox.onReject((entry, error) => {
        if (entry.storyId !== storyId || entry.parentId !== parentId) return false;
        latest.current(error, entry.body);
        return true;
      });
    });
    return () => {
      cancel();
      off?.();
    };
  }, [env, storyId, parentId]);
  return (run) => {
    const loaded = slotOf(env).outbox;
    if (loaded) return run(loaded);
    loadOutbox(env).then(run, () =>
      latest.current(new TransportError('NETWORK_ERROR', 'the outbox chunk could not be fetched')),
    );
  };
}
