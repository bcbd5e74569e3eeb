import { useEffect, useRef } from 'preact/hooks';
import { outboxFor } from './createOutbox';
import type { TransportError } from '@parley/transport';
import type { Outbox } from './createOutbox';
import { useStreamEnv } from './StreamContext';

/**
 * The page view's outbox for the box of `storyId` / `parentId`: while `active` (a signed-in
 * reader) it sends the story's queued posts now and whenever the connection returns, and hands
 * this box its refused posts: `onReject(error, body)`, or `onReject(error)` on mount for a
 * refusal that came while the box was closed (its text is already in the draft).
 */
export function useOutbox(
  storyId: string,
  parentId: string | null,
  active: boolean,
  onReject: (error: TransportError, body?: string) => void,
): Outbox {
  const outbox = outboxFor(useStreamEnv());
  const latest = useRef(onReject);
  latest.current = onReject;
  useEffect(() => (active ? outbox.watch(storyId) : undefined), [outbox, storyId, active]);
  useEffect(() => {
    const missed = outbox.takeRefusal(storyId, parentId);
    if (missed) latest.current(missed);
    return outbox.onReject((entry, error) => {
      if (entry.storyId !== storyId || entry.parentId !== parentId) return false;
      latest.current(error, entry.body);
      return true;
    });
  }, [outbox, storyId, parentId]);
  return outbox;
}
