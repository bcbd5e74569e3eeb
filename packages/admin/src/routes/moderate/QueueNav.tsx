import { useEffect, useId } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import type { ResultOf } from '@parley/transport/graphql';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { COUNTS_QUERY } from './queries';
import type { QueueName } from './queries';

/** Counts per queue (`ModerationCounts`). */
type QueueCounts = ResultOf<typeof COUNTS_QUERY>['moderationCounts'];

/**
 * The queues in the order the console lists them, with their URL segment and the catalog key of
 * their name (`t(label)`).
 */
export const QUEUES: readonly { name: QueueName; slug: string; label: ConsoleMessageKey }[] = [
  { name: 'PENDING', slug: 'pending', label: 'console.moderate.queue.PENDING' },
  { name: 'REPORTED', slug: 'reported', label: 'console.moderate.queue.REPORTED' },
  { name: 'UNMODERATED', slug: 'unmoderated', label: 'console.moderate.queue.UNMODERATED' },
  { name: 'APPROVED', slug: 'approved', label: 'console.moderate.queue.APPROVED' },
  { name: 'REJECTED', slug: 'rejected', label: 'console.moderate.queue.REJECTED' },
];

/** Props of {@link QueueNav}. */
export interface QueueNavProps {
  /** The open queue's slug, or null on another sub-page (decisions). */
  current: string | null;
  siteId: string | null;
  storyId: string | null;
  /** The query string to keep across queues (site, story, order), without `?`. */
  search: string;
  /** Increments at each live queue event: the counts are fetched again. */
  liveTick: number;
}

/**
 * The queue links with live counts. The count sits beside the link, not inside it, so each link
 * is named just "Pending", "Reported"… (browser tests and screen readers find it by that name);
 * the count is its description.
 */
export function QueueNav({ current, siteId, storyId, search, liveTick }: QueueNavProps) {
  const t = useT();
  const id = useId();
  const [{ data }, reexecute] = useQuery({
    query: COUNTS_QUERY,
    variables: { siteId, storyId },
    requestPolicy: 'cache-and-network',
  });
  useEffect(() => {
    if (liveTick > 0) reexecute({ requestPolicy: 'network-only' });
  }, [liveTick, reexecute]);
  const counts = data?.moderationCounts;
  const suffix = search ? `?${search}` : '';
  return (
    <nav className="mod-nav" aria-label={t('console.moderate.nav.label')}>
      <ul>
        {QUEUES.map((q) => {
          const countId = `${id}-${q.slug}`;
          const count = counts?.[q.slug as keyof QueueCounts];
          const active = q.slug === current;
          return (
            <li key={q.slug} className={active ? 'active' : undefined}>
              <Link
                href={`/moderate/${q.slug}${suffix}`}
                aria-current={active ? 'page' : undefined}
                aria-describedby={countId}
              >
                {t(q.label)}
              </Link>
              <span id={countId} className="mod-count">
                {count === undefined ? '…' : count}
                {/* Heard after the number ("3 comments"): the word's plural form in the language. */}
                <span className="visually-hidden">
                  {' '}
                  {count === undefined
                    ? t('console.moderate.nav.countUnknown')
                    : t('console.moderate.nav.count', { count })}
                </span>
              </span>
            </li>
          );
        })}
        <li className={current === null ? 'active mod-mine' : 'mod-mine'}>
          <Link
            href={`/moderate/decisions${suffix}`}
            aria-current={current === null ? 'page' : undefined}
          >
            {t('console.moderate.nav.decisions')}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
