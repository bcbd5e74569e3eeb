import { uiLocale } from '../../formatWhen';
import type { Translate } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { ENGLISH, useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

/** What the chart reads of an hour; the dashboard's query spreads it. */
export const HourlyChartFields = graphql(
  `fragment HourlyChartFields on HourlyCount { hour count }`,
);

/** One hour of the chart: its start (ISO-8601) and how many comments were written in it. */
export type HourCount = ResultOf<typeof HourlyChartFields>;

// Drawing units of the viewBox; the SVG scales to its container's width.
const WIDTH = 720;
const HEIGHT = 200;
const AXIS_BOTTOM = 24;
const AXIS_LEFT = 32;
const GAP = 2;
/** An hour label every this many bars (48 labels would overlap at any width). */
const LABEL_EVERY = 6;

function hourLabel(iso: string): string {
  return new Date(iso).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' });
}

function longLabel(iso: string): string {
  return new Date(iso).toLocaleString(uiLocale(), {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/**
 * The chart's one-sentence summary: what a screen reader hears for the image, in the language of
 * `t` (English by default).
 */
export function chartSummary(
  hours: readonly HourCount[],
  t: Translate<ConsoleMessageKey> = ENGLISH,
): string {
  const total = hours.reduce((sum, { count }) => sum + count, 0);
  if (total === 0) return t('console.dashboard.chart.none', { count: hours.length });
  const peak = hours.reduce((best, hour) => (hour.count > best.count ? hour : best));
  return t('console.dashboard.chart.summary', {
    count: total,
    hours: hours.length,
    when: longLabel(peak.hour),
    peak: peak.count,
  });
}

/**
 * Comments per hour as bars, hand-built: a chart library would cost more than the whole route
 * for one bar chart. The SVG is one image with a summary for screen readers; the exact numbers
 * are in the table below it, the chart's text alternative.
 */
export function HourlyChart({ hours }: { hours: readonly HourCount[] }) {
  const max = Math.max(1, ...hours.map(({ count }) => count));
  const plotWidth = WIDTH - AXIS_LEFT;
  const plotHeight = HEIGHT - AXIS_BOTTOM;
  const slot = plotWidth / Math.max(1, hours.length);
  const t = useT();
  return (
    <figure className="hourly-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('console.dashboard.chart.label', { summary: chartSummary(hours, t) })}
        focusable="false"
      >
        <line x1={AXIS_LEFT} y1={plotHeight} x2={WIDTH} y2={plotHeight} className="axis" />
        <text x={AXIS_LEFT - 6} y={12} textAnchor="end" className="tick">
          {max}
        </text>
        <text x={AXIS_LEFT - 6} y={plotHeight} textAnchor="end" className="tick">
          0
        </text>
        {hours.map(({ hour, count }, i) => {
          const height = (count / max) * (plotHeight - 8);
          const x = AXIS_LEFT + i * slot;
          return (
            <g key={hour}>
              <rect
                x={x + GAP / 2}
                y={plotHeight - height}
                width={Math.max(1, slot - GAP)}
                height={height}
                className="bar"
              >
                <title>{t('console.dashboard.chart.bar', { when: longLabel(hour), count })}</title>
              </rect>
              {i % LABEL_EVERY === 0 && (
                <text x={x} y={HEIGHT - 6} className="tick">
                  {hourLabel(hour)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details className="chart-data">
        <summary>{t('console.dashboard.chart.showNumbers')}</summary>
        <table>
          <caption className="visually-hidden">{t('console.dashboard.chart.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.dashboard.chart.hour')}</th>
              <th scope="col">{t('console.dashboard.chart.comments')}</th>
            </tr>
          </thead>
          <tbody>
            {hours.map(({ hour, count }) => (
              <tr key={hour}>
                <th scope="row">
                  <time dateTime={hour}>{longLabel(hour)}</time>
                </th>
                <td>{count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
