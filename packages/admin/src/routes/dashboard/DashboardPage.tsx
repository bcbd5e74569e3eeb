import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useI18n } from '../../i18n';
import { Loading } from '../../Loading';
import { errorCodeOf } from '../../errorCodeOf';
import { HourlyChartFields, HourlyChart } from './HourlyChart';

/** What a period's card reads (today, all time). */
export const PeriodCardFields = graphql(`
  fragment PeriodCardFields on DashboardPeriod {
    newComments rejectedComments rejectionRate newUsers bans
  }
`);

/** Everything the dashboard shows, in one request. */
export const DASHBOARD_QUERY = graphql(
  `
    query ConsoleDashboard {
      dashboard {
        today { ...PeriodCardFields }
        allTime { ...PeriodCardFields }
        commentsPerHour { ...HourlyChartFields }
        topStoriesToday { story { id title url } count }
      }
    }
  `,
  [PeriodCardFields, HourlyChartFields],
);

/** The moderation queue filtered to one story (ModeratePage reads `?story=`). */
export function moderateStoryHref(storyId: string): string {
  return `~/admin/moderate?story=${encodeURIComponent(storyId)}`;
}

const PERCENT = { style: 'percent', maximumFractionDigits: 1 } as const;

/** `/admin/dashboard`: today and all time, comments per hour, most commented stories today. */
export function DashboardPage() {
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: DASHBOARD_QUERY,
    requestPolicy: 'cache-and-network',
  });
  const { t } = useI18n();
  const errorText = useErrorText();
  const refresh = (
    <button
      type="button"
      onClick={() => reexecute({ requestPolicy: 'network-only' })}
      disabled={fetching}
    >
      {fetching && data ? t('console.dashboard.refreshing') : t('console.dashboard.refresh')}
    </button>
  );

  if (!data) {
    return (
      <main className="page dashboard">
        <h1>{t('console.dashboard.title')}</h1>
        {error ? (
          <>
            <p role="alert">{errorText(errorCodeOf(error))}</p>
            {refresh}
          </>
        ) : (
          <Loading />
        )}
      </main>
    );
  }
  const { today, allTime, commentsPerHour, topStoriesToday } = data.dashboard;
  return (
    <main className="page dashboard">
      <div className="dashboard-head">
        <h1>{t('console.dashboard.title')}</h1>
        {refresh}
      </div>
      {error && <p role="alert">{errorText(errorCodeOf(error))}</p>}
      <div className="period-cards">
        <PeriodCard title={t('console.dashboard.today')} period={today} />
        <PeriodCard title={t('console.dashboard.allTime')} period={allTime} />
      </div>
      <section aria-labelledby="dashboard-hourly">
        <h2 id="dashboard-hourly">{t('console.dashboard.hourly.title')}</h2>
        <HourlyChart hours={commentsPerHour} />
      </section>
      <section aria-labelledby="dashboard-top">
        <h2 id="dashboard-top">{t('console.dashboard.top.title')}</h2>
        {topStoriesToday.length === 0 ? (
          <p>{t('console.dashboard.top.empty')}</p>
        ) : (
          <ol className="top-stories">
            {topStoriesToday.map(({ story, count }) => (
              <li key={story.id}>
                <Link href={moderateStoryHref(story.id)}>{story.title ?? story.url}</Link>
                <span className="count">{t('console.dashboard.top.count', { count })}</span>
                {story.title !== null && <span className="url">{story.url}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </main>
  );
}

function PeriodCard({
  title,
  period,
}: {
  title: string;
  period: ResultOf<typeof PeriodCardFields>;
}) {
  // Numbers in the console's language.
  const { locale, t } = useI18n();
  const rate = period.rejectionRate.toLocaleString(locale, PERCENT);
  return (
    <section className="period-card">
      <h2>{title}</h2>
      <dl>
        <div>
          <dt>{t('console.dashboard.newComments')}</dt>
          <dd>{period.newComments.toLocaleString(locale)}</dd>
        </div>
        <div>
          <dt>{t('console.dashboard.rejectionRate')}</dt>
          <dd>
            {rate}
            <span className="detail">
              {' '}
              {t('console.dashboard.rejected', { count: period.rejectedComments })}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t('console.dashboard.newUsers')}</dt>
          <dd>{period.newUsers.toLocaleString(locale)}</dd>
        </div>
        <div>
          <dt>{t('console.dashboard.bans')}</dt>
          <dd>{period.bans.toLocaleString(locale)}</dd>
        </div>
      </dl>
    </section>
  );
}
