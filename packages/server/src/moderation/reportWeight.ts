import { REPORT_WEIGHTS } from '../defaults';

const DAY_MS = 86_400_000;

/** What a report's weight is read from: the reporter at the moment of reporting. */
export interface ReporterStanding {
  emailVerified: boolean;
  /** ISO time the account was created. */
  createdAt: string;
  /** Past reports whose comment a moderator then rejected. */
  upheld: number;
  /** Past reports whose comment a moderator then approved, having seen them. */
  dismissed: number;
}

/**
 * How much a report counts toward the automatic hold, in hundredths of a report.
 *
 * An unconfirmed email counts for nothing: such accounts cost an attacker nothing to make. A
 * confirmed account counts a quarter on its first day, half in its first week, and fully after;
 * then its record scales that: each upheld report (net of dismissed ones) adds a quarter, up to
 * double, and a reporter whose reports are mostly dismissed counts half. Every report, whatever
 * its weight, still puts the comment in the REPORTED queue for a moderator.
 */
export function reportWeight(standing: ReporterStanding, now = Date.now()): number {
  if (!standing.emailVerified) return Math.round(REPORT_WEIGHTS.unconfirmed * 100);
  const ageMs = now - Date.parse(standing.createdAt);
  const age =
    ageMs < DAY_MS
      ? REPORT_WEIGHTS.firstDay
      : ageMs < 7 * DAY_MS
        ? REPORT_WEIGHTS.firstWeek
        : REPORT_WEIGHTS.established;
  const net = standing.upheld - standing.dismissed;
  const record =
    net < 0
      ? REPORT_WEIGHTS.mostlyDismissedFactor
      : Math.min(REPORT_WEIGHTS.maxRecordFactor, 1 + net * REPORT_WEIGHTS.perUpheld);
  return Math.round(age * record * 100);
}
