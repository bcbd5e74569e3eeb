import { useEffect, useState } from 'preact/hooks';
import { useStreamEnv } from './StreamContext';

/** Relative-time steps: seconds per unit, largest first. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31536000],
  ['month', 2592000],
  ['week', 604800],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** How often a shown time is brought up to date, in ms. */
const TICK_MS = 60000;

/** "3 min ago" for `iso` seen at `now`, in `locale` (the browser's Intl data, no library). */
export function formatRelative(iso: string, now: number, locale: string): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** The absolute date and time of `iso`, for a tooltip. */
export function formatAbsolute(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    Date.parse(iso),
  );
}

/** A `<time>` showing how long ago `iso` was, the exact time on hover; updated every minute. */
export function RelativeTime({ iso }: { iso: string }) {
  const { params, window: win } = useStreamEnv();
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = win.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => win.clearInterval(timer);
  }, [win]);
  return (
    <time datetime={iso} title={formatAbsolute(iso, params.locale)}>
      {formatRelative(iso, now, params.locale)}
    </time>
  );
}
