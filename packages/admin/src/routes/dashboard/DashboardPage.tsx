import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { errorText } from '../../errorText';
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
  const refresh = (
    <button
      type="button"
      onClick={() => reexecute({ requestPolicy: 'network-only' })}
      disabled={fetching}
    >
      {fetching && data ? 'Refreshing…' : 'Refresh'}
    </button>
  );

  if (!data) {
    return (
      <main className="page dashboard">
        <h1>Dashboard</h1>
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
        <h1>Dashboard</h1>
        {refresh}
      </div>
      {error && <p role="alert">{errorText(errorCodeOf(error))}</p>}
      <div className="period-cards">
        <PeriodCard title="Today" period={today} />
        <PeriodCard title="All time" period={allTime} />
      </div>
      <section aria-labelledby="dashboard-hourly">
        <h2 id="dashboard-hourly">Comments per hour, last 48 hours</h2>
        <HourlyChart hours={commentsPerHour} />
      </section>
      <section aria-labelledby="dashboard-top">
        <h2 id="dashboard-top">Most commented stories today</h2>
        {topStoriesToday.length === 0 ? (
          <p>No comments yet today.</p>
        ) : (
          <ol className="top-stories">
            {topStoriesToday.map(({ story, count }) => (
              <li key={story.id}>
                <Link href={moderateStoryHref(story.id)}>{story.title ?? story.url}</Link>
                <span className="count">{count === 1 ? '1 comment' : `${count} comments`}</span>
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
  const rate = period.rejectionRate.toLocaleString(undefined, PERCENT);
  return (
    <section className="period-card">
      <h2>{title}</h2>
      <dl>
        <div>
          <dt>New comments</dt>
          <dd>{period.newComments.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Rejection rate</dt>
          <dd>
            {rate}
            <span className="detail"> ({period.rejectedComments.toLocaleString()} rejected)</span>
          </dd>
        </div>
        <div>
          <dt>New users</dt>
          <dd>{period.newUsers.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Bans</dt>
          <dd>{period.bans.toLocaleString()}</dd>
        </div>
      </dl>
    </section>
  );
}
