import { useCallback, useEffect, useReducer, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';
import type { VariablesOf } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { QUEUE_PAGE_SIZE } from './defaults';
import { QUEUE_QUERY } from './queries';
import type { QueueName } from './queries';
import { INITIAL_QUEUE_STATE, queueReducer } from './queueReducer';

/** Which slice of a queue to list. */
export interface QueueFilter {
  queue: QueueName;
  siteId: string | null;
  storyId: string | null;
  /** Only this comment (an email's Moderate link), when it is in the queue. */
  commentId: string | null;
  order: 'newest' | 'oldest';
}

/**
 * One queue's list: the first page, fetched again at each live event (`liveTick`) and merged by
 * {@link queueReducer}, plus "Load more". Mount it with a `key` per filter so a new filter
 * starts clean.
 */
export function useQueueData(filter: QueueFilter, liveTick: number) {
  const client = useClient();
  const errorText = useErrorText();
  const [state, dispatch] = useReducer(queueReducer, INITIAL_QUEUE_STATE);
  // The code, not its text: the text follows the console's language.
  const [moreError, setMoreError] = useState<ErrorCode | null>(null);
  const variables: VariablesOf<typeof QUEUE_QUERY> = {
    queue: filter.queue,
    siteId: filter.siteId,
    storyId: filter.storyId,
    commentId: filter.commentId,
    first: QUEUE_PAGE_SIZE,
    orderBy: filter.order === 'newest' ? 'CREATED_AT_DESC' : 'CREATED_AT_ASC',
  };
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: QUEUE_QUERY,
    variables,
    requestPolicy: 'cache-and-network',
  });

  useEffect(() => {
    if (!data) return;
    dispatch({
      type: 'snapshot',
      items: data.moderationQueue.edges.map((e) => e.node),
      pageInfo: data.moderationQueue.pageInfo,
      order: filter.order,
    });
  }, [data, filter.order]);

  useEffect(() => {
    if (liveTick > 0) reexecute({ requestPolicy: 'network-only' });
  }, [liveTick, reexecute]);

  const loadMore = useCallback(async () => {
    const after = state.pageInfo.endCursor;
    if (!after) return;
    const result = await client
      .query(QUEUE_QUERY, { ...variables, after }, { requestPolicy: 'network-only' })
      .toPromise();
    if (result.error) {
      setMoreError(toTransportError(result.error).code);
      return;
    }
    if (!result.data) return;
    setMoreError(null);
    dispatch({
      type: 'more',
      items: result.data.moderationQueue.edges.map((e) => e.node),
      pageInfo: result.data.moderationQueue.pageInfo,
    });
    // `variables` is rebuilt per render from `filter`: depend on the filter's parts instead.
  }, [
    client,
    state.pageInfo.endCursor,
    filter.queue,
    filter.siteId,
    filter.storyId,
    filter.commentId,
    filter.order,
  ]);

  const loadError = error && !data ? errorText(toTransportError(error).code) : null;
  return {
    state,
    dispatch,
    loadError,
    fetching,
    loadMore,
    moreError: moreError === null ? null : errorText(moreError),
  };
}
