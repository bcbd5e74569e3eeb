import { useClient } from '@urql/preact';
import { useEffect, useReducer, useState } from 'preact/hooks';
import type { SocketStatus } from '@parley/transport';
import { applyLiveEvent, EMPTY_LIVE_STATE } from './applyLiveEvent';
import type { LiveEvent, LiveState } from './applyLiveEvent';
import type { LocalComment } from './createThreadStore';
import { COMMENT_CREATED_SUBSCRIPTION, COMMENT_UPDATED_SUBSCRIPTION } from './fragments';
import { useStreamEnv } from './StreamContext';
import type { CommentData } from './types';

/**
 * The thread's live state: follows `commentCreated` and `commentUpdated` of the story while
 * `enabled`, and takes the reader's own changes through the returned dispatch.
 */
export function useLiveComments(
  storyId: string,
  enabled: boolean,
): [LiveState, (event: LiveEvent) => void] {
  const { thread } = useStreamEnv();
  const client = useClient();
  const [state, dispatch] = useReducer(applyLiveEvent, EMPTY_LIVE_STATE);
  useEffect(() => {
    if (!enabled) return;
    const follow = (query: string, field: string, type: 'created' | 'updated') =>
      client
        .subscription<Record<string, CommentData | undefined>>(query, { storyId })
        .subscribe(({ data }) => {
          const comment = data?.[field];
          // The reader's own comment is on screen already, from the composer's answer.
          if (!comment) return;
          if (type === 'created' && thread.list().some((l) => l.comment?.id === comment.id)) return;
          dispatch({ type, comment });
        });
    const subscriptions = [
      follow(COMMENT_CREATED_SUBSCRIPTION, 'commentCreated', 'created'),
      follow(COMMENT_UPDATED_SUBSCRIPTION, 'commentUpdated', 'updated'),
    ];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [client, thread, storyId, enabled]);
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
