import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { toTransportError } from '@parley/transport';
import { useStreamData, useStreamEnv } from '../StreamContext';
import { MY_COMMENTS_PAGE_SIZE } from './profileDefaults';
import { PanelSection } from '../panels/PanelSection';

/** One page of the viewer's own comments, newest first, with the story each is on. */
export const MY_COMMENTS_QUERY = graphql(`
  query MyComments($first: Int, $after: String) {
    viewer {
      id
      comments(first: $first, after: $after) {
        edges {
          cursor
          node {
            id
            body
            createdAt
            status
            story {
              id
              url
              title
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

/** A comment as "My comments" lists it. */
export type MyComment = NonNullable<
  NonNullable<ResultOf<typeof MY_COMMENTS_QUERY>['viewer']>['comments']
>['edges'][number]['node'];

/**
 * "My comments": pages are kept as a list of cursors, each page its own cached query, so "more"
 * appends without refetching what is already shown.
 */
export function MyComments() {
  const { t } = useStreamEnv();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <PanelSection title={t('profile.comments.title')}>
      <ul class="parley-my-comments">
        {cursors.map((after, index) => (
          <MyCommentsPage
            key={after ?? ''}
            after={after}
            last={index === cursors.length - 1}
            onMore={(cursor) => setCursors((list) => [...list, cursor])}
          />
        ))}
      </ul>
    </PanelSection>
  );
}

function MyCommentsPage({
  after,
  last,
  onMore,
}: {
  after: string | null;
  last: boolean;
  onMore(cursor: string): void;
}) {
  const { t } = useStreamEnv();
  const [result, reexecute] = useQuery({
    query: MY_COMMENTS_QUERY,
    variables: { first: MY_COMMENTS_PAGE_SIZE, after },
    requestPolicy: 'cache-and-network',
  });
  const connection = result.data?.viewer?.comments;
  if (!connection) {
    if (result.error) {
      return (
        <li role="alert">
          {t(`error.${toTransportError(result.error).code}`)}{' '}
          <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
            {t('stream.retry')}
          </button>
        </li>
      );
    }
    return result.fetching ? <li role="status">{t('stream.loading')}</li> : null;
  }
  const { edges, pageInfo } = connection;
  return (
    <>
      {after === null && edges.length === 0 && <li>{t('profile.comments.empty')}</li>}
      {edges.map(({ node }) => (
        <MyCommentItem key={node.id} comment={node} />
      ))}
      {last && pageInfo.hasNextPage && pageInfo.endCursor !== null && (
        <li>
          <button type="button" onClick={() => onMore(pageInfo.endCursor as string)}>
            {t('profile.comments.more')}
          </button>
        </li>
      )}
    </>
  );
}

function MyCommentItem({ comment }: { comment: MyComment }) {
  const { t, bridge, params } = useStreamEnv();
  const { story } = useStreamData();
  const date = new Date(comment.createdAt);
  const link = commentLink(comment.story.url, comment.id);
  const held = comment.status === 'PREMOD' || comment.status === 'SYSTEM_WITHHELD';
  return (
    <li class="parley-my-comment">
      <p class="parley-my-comment-meta">
        <time dateTime={comment.createdAt}>
          {date.toLocaleString(params.locale, { dateStyle: 'medium', timeStyle: 'short' })}
        </time>
        {held && <span class="parley-tag"> {t('profile.comments.held')}</span>}
        {comment.status === 'REJECTED' && (
          <span class="parley-tag"> {t('profile.comments.rejected')}</span>
        )}
      </p>
      {/* Sanitized HTML from the server (the widget never parses Markdown). */}
      <div class="parley-my-comment-body" dangerouslySetInnerHTML={{ __html: comment.body }} />
      <p class="parley-my-comment-links">
        {comment.story.id === story.id && (
          <button type="button" onClick={() => bridge.send('permalink', { commentId: comment.id })}>
            {t('profile.comments.show')}
          </button>
        )}{' '}
        {/* `_top`: the story is the host's page, which must not open inside the comments frame.
            The loader opens `?commentID=` on arrival, so the link lands on the comment. */}
        {link !== undefined && (
          <a href={link} target="_top">
            {t('profile.comments.onStory', { story: comment.story.title ?? comment.story.url })}
          </a>
        )}
      </p>
    </li>
  );
}

/**
 * The story URL with `commentID` set, which the loader opens; undefined unless http(s), so a
 * stored URL can never become a `javascript:` link.
 */
function commentLink(storyUrl: string, commentId: string): string | undefined {
  try {
    const url = new URL(storyUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.searchParams.set('commentID', commentId);
    return url.href;
  } catch {
    return undefined;
  }
}
