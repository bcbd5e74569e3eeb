import { useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { toTransportError } from '@parley/transport';
import { Loading } from '../../Loading';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { DecisionHistory } from './DecisionHistory';
import { LiveStatus } from './LiveStatus';
import { UNDO_WINDOW_MS } from './defaults';
import { MODERATE_SETUP_QUERY, QUEUE_UPDATED_SUBSCRIPTION } from './queries';
import { QueueFilters } from './QueueFilters';
import { QueueList } from './QueueList';
import { QUEUES, QueueNav } from './QueueNav';
import { UserDrawer } from './UserDrawer';

/** The URL segment of the decision history, beside the queues'. */
const DECISIONS_SLUG = 'decisions';

/**
 * The default queue: Pending when the organization pre-moderates (the work waits there), else
 * Reported.
 */
export function defaultQueueSlug(premod: string): string {
  return premod === 'OFF' ? 'reported' : 'pending';
}

/** Props of {@link ModeratePage}; the console mounts it without any. */
export interface ModeratePageProps {
  /** How long a decision can be undone before it is sent, in ms. @default UNDO_WINDOW_MS */
  undoWindowMs?: number;
}

/**
 * Moderate (`/admin/moderate/:queue`): the queues with live counts, filters, cards, the user
 * drawer and "My recent decisions". Paths here are relative to `/admin` (the route is not nested).
 */
export function ModeratePage({ undoWindowMs = UNDO_WINDOW_MS }: ModeratePageProps = {}) {
  const t = useT();
  const errorText = useErrorText();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const params = new URLSearchParams(search);
  const siteId = params.get('site');
  const storyId = params.get('story');
  // An email's Moderate link: only this comment, when it is in the queue.
  const commentId = params.get('comment');
  const order = params.get('order') === 'oldest' ? 'oldest' : 'newest';
  const slug = location.split('/')[2] ?? '';
  const [userId, setUserId] = useState<string | null>(null);

  const [{ data: setup, error }] = useQuery({ query: MODERATE_SETUP_QUERY });
  // Every event (a comment entered or left a queue) bumps the tick; lists and counts refetch.
  const [{ data: liveTick = 0 }] = useSubscription(
    { query: QUEUE_UPDATED_SUBSCRIPTION, variables: { siteId } },
    (ticks: number = 0) => ticks + 1,
  );

  if (error && !setup) {
    return (
      <main className="page">
        <p role="alert">{errorText(toTransportError(error).code)}</p>
      </main>
    );
  }
  if (!setup) return <Loading />;

  const queue = QUEUES.find((q) => q.slug === slug);
  if (!queue && slug !== DECISIONS_SLUG) {
    const to = `/moderate/${defaultQueueSlug(setup.settings.premod)}${search ? `?${search}` : ''}`;
    return <Redirect to={to} replace />;
  }

  /** The queue with the same filters, without `comment`. */
  const wholeQueue = () => {
    const next = new URLSearchParams(search);
    next.delete('comment');
    const query = next.toString();
    return `/moderate/${slug}${query ? `?${query}` : ''}`;
  };

  const setFilter = (name: 'site' | 'story' | 'order', value: string | null) => {
    const next = new URLSearchParams(search);
    if (value === null) next.delete(name);
    else next.set(name, value);
    // A story belongs to one site: changing the site drops a story of another.
    if (name === 'site') next.delete('story');
    const query = next.toString();
    navigate(`/moderate/${slug}${query ? `?${query}` : ''}`);
  };

  return (
    <main className="page mod-page">
      <h1 className="visually-hidden">{t('console.moderate.title')}</h1>
      <QueueNav
        current={queue?.slug ?? null}
        siteId={siteId}
        storyId={storyId}
        search={search}
        liveTick={liveTick}
      />
      <LiveStatus />
      {queue ? (
        <>
          <QueueFilters
            setup={setup}
            siteId={siteId}
            storyId={storyId}
            order={order}
            onChange={setFilter}
          />
          <h2 className="visually-hidden">{t(queue.label)}</h2>
          {commentId !== null && (
            <p className="mod-one">
              {t('console.moderate.one.text')}{' '}
              <Link href={wholeQueue()}>{t('console.moderate.one.wholeQueue')}</Link>
            </p>
          )}
          <QueueList
            key={`${queue.slug}|${siteId}|${storyId}|${commentId}|${order}`}
            filter={{ queue: queue.name, siteId, storyId, commentId, order }}
            words={{
              banned: setup.settings.bannedWords ?? [],
              suspect: setup.settings.suspectWords ?? [],
            }}
            liveTick={liveTick}
            onOpenUser={setUserId}
            undoWindowMs={undoWindowMs}
          />
        </>
      ) : (
        <DecisionHistory />
      )}
      {userId && <UserDrawer userId={userId} onClose={() => setUserId(null)} />}
    </main>
  );
}
