import { useClient } from '@urql/preact';
import { useEffect, useReducer, useState } from 'preact/hooks';
import type { SocketStatus } from '@parley/transport';
import { applyLiveEvent, EMPTY_LIVE_STATE } from './applyLiveEvent';
import type { LiveEvent, LiveState } from './applyLiveEvent';
import type { LocalComment } from './createThreadStore';
import { useStreamEnv } from './StreamContext';

/**
 * The thread's live state: follows `commentCreated` and `commentUpdated` of the story while
 * `enabled`, and takes the reader's own changes through the returned dispatch.
 */
export function useLiveComments(
  storyId: string,
  enabled: boolean,
): [LiveState, (event: LiveEvent) => void] {
  const { thread, transport } = useStreamEnv();
  const client = useClient();
  const [state, dispatch] = useReducer(applyLiveEvent, EMPTY_LIVE_STATE);
  useEffect(() => {
    if (!enabled) return;
    // After the first paint (effects run after it): subscribing is not needed to read, so its
    // code is a chunk of its own. A chunk that fails to load leaves the thread as fetched.
    let stop: (() => void) | undefined;
    let ended = false;
    void import('./followLiveComments').then(
      ({ followLiveComments }) => {
        if (!ended) stop = followLiveComments(client, transport, thread, storyId, dispatch);
      },
      () => undefined,
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [client, transport, thread, storyId, enabled]);
  return [state, dispatch];
}

/** The live socket's status, kept current. */
export function useSocketStatus(): SocketStatus {
  const { transport } = useStreamEnv();
  const [status, setStatus] = useState(transport.status);
  useEffect(() => transport.onStatusChange(setStatus), [transport]);
  return status;
}

/** The reader's local comments on `storyId` (posting, queued, held, posted), kept current. */
export function useLocalComments(storyId: string): readonly LocalComment[] {
  const { thread } = useStreamEnv();
  const [all, setAll] = useState(thread.list);
  // Subscribing in an effect can miss a change made between render and effect: read again then
  // (the store keeps its array until it changes, so an unchanged read does not re-render).
  useEffect(() => (setAll(thread.list()), thread.subscribe(() => setAll(thread.list()))), [thread]);
  return all.filter((l) => l.storyId === storyId);
}
