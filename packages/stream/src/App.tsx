import { Provider, useQuery } from '@urql/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { AuthBar } from './AuthBar';
import { signOutStaleToken } from './auth/signOutStaleToken';
import { Composer } from './Composer';
import { isModerator, StreamDataContext, StreamEnvContext, useStreamEnv } from './StreamContext';
import type { StreamData, StreamEnv } from './StreamContext';
import type { FrameParams } from './params';
import { Thread, TOP_LEVEL_PAGE_SIZE } from './Thread';
import type { CommentSort } from './Thread';
import { CommentThread } from './ReplyList';
import { LazyPanel } from './LazyPanel';

/** The first render's one query: who is reading, the settings, the story and its first page. */
// One line: template literals keep their whitespace in the bundle.
export const STREAM_QUERY = graphql(
  `query Stream($url:String,$id:ID,$title:String,$sort:CommentSort,$first:Int){viewer{id username email avatarUrl role status suspendedUntil badges isGuest}settings{editWindowSeconds maxCommentLength signUpOpen liveUpdates guidelinesHtml locale premod reactionLabel featuredTab voting commentImages guestComments customCssUrl}story(url:$url,id:$id,title:$title){id url title status commentCount settings{effectivePremod liveUpdates premod}featuredComments(first:1){edges{node{id}}}pinnedComment{...CommentThread}comments(orderBy:$sort,first:$first){pageInfo{hasNextPage endCursor}edges{cursor node{...CommentThread}}}}}`,
  [CommentThread],
);

const ROOT_QUERY_CONTEXT = { cacheResult: false };

/** The root query's variables for the frame's parameters (the server renders with the same). */
export const streamVariables = (
  params: FrameParams,
  sort: CommentSort = params.sort ?? 'CREATED_AT_DESC',
) => ({
  url: params.storyID ? undefined : params.storyURL,
  id: params.storyID,
  title: params.storyTitle,
  sort,
  first: TOP_LEVEL_PAGE_SIZE,
});

/** The frame's tabs. Profile and Configure load their code on first open. */
export type Tab = 'comments' | 'featured' | 'profile' | 'configure';

/** The whole stream: providers around {@link Stream}. */
export function App({ env }: { env: StreamEnv }) {
  // A new session (sign in / out) remounts the stream so every query runs as the new reader;
  // drafts live in storage, so nothing typed is lost.
  const [sessionVersion, setSessionVersion] = useState(0);
  useEffect(() => env.session.subscribe(() => setSessionVersion((v) => v + 1)), [env.session]);
  return (
    <Provider value={env.transport.client}>
      <StreamEnvContext.Provider value={env}>
        {/* The server's first page is the anonymous one: a reader signing in starts afresh. */}
        <Stream key={sessionVersion} initial={sessionVersion ? undefined : env.initial} />
      </StreamEnvContext.Provider>
    </Provider>
  );
}

/**
 * Loads the story and shows the state it is in. With `initial` (the page the server rendered) it
 * starts from that answer without a request, and asks again only when the reader has a session
 * (the server rendered the anonymous view), sorts, or something asks to refetch.
 */
export function Stream({ initial: rendered }: { initial?: StreamEnv['initial'] }) {
  const env = useStreamEnv();
  const { t, params } = env;
  // The site's choice (the loader's `sort`), then the reader's.
  const [sort, setSort] = useState<CommentSort>(params.sort ?? 'CREATED_AT_DESC');
  const [tab, setTab] = useState<Tab>('comments');
  const [initial, setInitial] = useState(rendered);
  const [result, reexecute] = useQuery({
    query: STREAM_QUERY,
    variables: streamVariables(params, sort),
    requestPolicy: 'network-only',
    // The thread applies posts, reactions and live events itself: a mutation must not reload the
    // whole thread (the transport would refetch a kept result holding a Comment).
    context: ROOT_QUERY_CONTEXT,
    pause: !!initial,
  });
  useEffect(() => {
    if (initial) void env.session.ready.then(() => env.session.getToken() && setInitial(undefined));
  }, []);
  const data = initial ?? result.data;
  // A stored token the server refuses (expired, revoked) fails the whole query: forget it, and the
  // stream remounts signed out with a notice, instead of "could not be loaded" forever.
  useEffect(() => {
    if (result.error) signOutStaleToken(env, result.error);
  }, [env, result.error]);
  // The organization's stylesheet comes after the stream's own (and its panels'), so it wins.
  const customCss = data?.settings.customCssUrl;
  useEffect(() => {
    if (!customCss) return;
    const link = env.window.document.createElement('link');
    link.rel = 'stylesheet';
    link.href = customCss;
    env.window.document.head.append(link);
    return () => link.remove();
  }, [env, customCss]);
  const value = useMemo<StreamData | null>(
    () =>
      data?.story
        ? {
            viewer: data.viewer,
            settings: data.settings,
            story: data.story,
            refetch: () =>
              initial ? setInitial(undefined) : reexecute({ requestPolicy: 'network-only' }),
          }
        : null,
    [data, reexecute, initial],
  );

  if (result.fetching && !data) {
    return (
      <div class="parley-skeleton" role="status" aria-live="polite">
        <span class="parley-visually-hidden">{t('stream.loading')}</span>
        <div class="parley-skeleton-box" />
        <div class="parley-skeleton-line" />
        <div class="parley-skeleton-line" />
      </div>
    );
  }
  if (result.error || !value) {
    const code = result.error ? toTransportError(result.error).code : 'NOT_FOUND';
    const text =
      code === 'ORIGIN_NOT_PERMITTED'
        ? t('stream.notPermitted', { origin: originOf(params.storyURL) ?? params.origin })
        : code === 'NOT_INSTALLED'
          ? t('stream.notInstalled', { url: `${env.window.location.origin}/install` })
          : code === 'NOT_FOUND'
            ? t('stream.noStory')
            : `${t('stream.loadFailed')} ${t(`error.${code}`)}`;
    return (
      <div class="parley-notice" role="alert">
        <p>{text}</p>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          {t('stream.retry')}
        </button>
      </div>
    );
  }

  const { story, viewer, settings } = value;
  const changeSort = (next: CommentSort) => (setInitial(undefined), setSort(next));
  const hasFeatured = settings.featuredTab && story.featuredComments.edges.length > 0;
  const tabs: Tab[] = ['comments'];
  if (hasFeatured) tabs.push('featured');
  // A guest has no account to manage.
  if (viewer && !viewer.isGuest) tabs.push('profile');
  if (isModerator(viewer)) tabs.push('configure');
  const labels: Record<Tab, string> = {
    comments: t('stream.tab.comments'),
    featured: t('stream.tab.featured'),
    profile: t('stream.tab.profile'),
    configure: t('stream.tab.configure'),
  };

  return (
    <StreamDataContext.Provider value={value}>
      <section class="parley-stream" aria-label={t('stream.label')}>
        <AuthBar />
        {tabs.length > 1 && (
          <div class="parley-tabs" role="tablist" aria-label={t('stream.tabs')}>
            {tabs.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`parley-tab-${name}`}
                aria-selected={tab === name}
                aria-controls="parley-panel"
                onClick={() => setTab(name)}
              >
                {labels[name]}
              </button>
            ))}
          </div>
        )}
        <div id="parley-panel" role={tabs.length > 1 ? 'tabpanel' : undefined}>
          {tab === 'comments' && (
            <>
              {settings.guidelinesHtml !== '' && (
                <details class="parley-guidelines">
                  <summary>{t('stream.guidelines')}</summary>
                  {/* Sanitized HTML from the server (the widget never parses Markdown: one renderer, on the server). */}
                  <div dangerouslySetInnerHTML={{ __html: settings.guidelinesHtml }} />
                </details>
              )}
              {story.status === 'CLOSED' ? (
                <p class="parley-notice" role="status">
                  {t('stream.closed')}
                </p>
              ) : (
                <Composer storyId={story.id} parentId={null} />
              )}
              <Thread sort={sort} onSortChange={changeSort} />
            </>
          )}
          {tab === 'featured' && <Thread featured sort={sort} onSortChange={changeSort} />}
          {tab === 'profile' && <LazyPanel load={() => import('./profile/ProfileTab')} />}
          {tab === 'configure' && <LazyPanel load={() => import('./moderation/ConfigureTab')} />}
        </div>
      </section>
    </StreamDataContext.Provider>
  );
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
