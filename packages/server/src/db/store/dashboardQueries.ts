/**
 * Figures of the console's dashboard: what happened in a period (new comments, rejections, new
 * users, bans), comments per hour, and the most commented stories. Every figure is one grouped
 * query that works the same on SQLite and PostgreSQL: timestamps are fixed-width ISO text (see
 * schema.ts), so `>=` on text is a time comparison and the first 13 characters are the hour.
 */
import { sql } from 'kysely';
import type { Db } from '../inTransaction';
import type { UserRole } from '../schema';

/**
 * History actions the moderation resolvers write with `moderateUser` (which takes free text). They
 * live here, beside the one query that reads one of them back (`bans` counts `BAN`).
 */
export const USER_ACTIONS = Object.freeze({
  BAN: 'BAN',
  UNBAN: 'UNBAN',
  SUSPEND: 'SUSPEND',
  PREMOD: 'PREMOD',
  UNPREMOD: 'UNPREMOD',
  ROLE: 'ROLE',
} as const);

/** What happened in one period. */
export interface PeriodFigures {
  /** Comments written (any status). */
  newComments: number;
  /** Distinct comments a moderator rejected. */
  rejectedComments: number;
  /** Approve decisions taken. */
  approveDecisions: number;
  /** Reject decisions taken. */
  rejectDecisions: number;
  /** Accounts created. */
  newUsers: number;
  /** Bans issued. */
  bans: number;
}

/** One hour of the comments chart. */
export interface HourlyCount {
  /** Start of the hour, ISO-8601 UTC. */
  hour: string;
  count: number;
}

/** A story and how many comments it got. */
export interface StoryCount {
  storyId: string;
  count: number;
}

// COUNT is a bigint string on pg and a number on SQLite; SUM over no rows is NULL on both.
const toNumber = (value: unknown): number => Number(value ?? 0);

/** Figures of the period starting at `since` (ISO time); without `since`, of all time. */
export async function periodFigures(db: Db, since?: string): Promise<PeriodFigures> {
  // Every stored timestamp sorts after the empty string, so "all time" is the same query.
  const from = since ?? '';
  const [comments, decisions, users, bans] = await Promise.all([
    db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('moderation_decisions')
      .select([
        sql<number>`sum(case when status = 'APPROVED' then 1 else 0 end)`.as('approved'),
        sql<number>`sum(case when status = 'REJECTED' then 1 else 0 end)`.as('rejected'),
        sql<number>`count(distinct case when status = 'REJECTED' then comment_id end)`.as(
          'rejectedComments',
        ),
      ])
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_at', '>=', from)
      // Members who joined: a guest is a name typed once, not someone who signed up.
      .where('guest', '=', 0)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('user_history')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('action', '=', USER_ACTIONS.BAN)
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    newComments: toNumber(comments.n),
    rejectedComments: toNumber(decisions.rejectedComments),
    approveDecisions: toNumber(decisions.approved),
    rejectDecisions: toNumber(decisions.rejected),
    newUsers: toNumber(users.n),
    bans: toNumber(bans.n),
  };
}

const HOUR_MS = 3_600_000;

/**
 * Comments written in each of the `hours` hours up to and including the current one, oldest
 * first; hours without comments are 0, so a chart gets every bar.
 */
export async function commentsPerHour(db: Db, now: Date, hours = 48): Promise<HourlyCount[]> {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const first = new Date(current - (hours - 1) * HOUR_MS).toISOString();
  const rows = await db
    .selectFrom('comments')
    .select([sql<string>`substr(created_at, 1, 13)`.as('hour'), (eb) => eb.fn.countAll().as('n')])
    .where('created_at', '>=', first)
    .groupBy(sql`substr(created_at, 1, 13)`)
    .execute();
  const byHour = new Map(rows.map((row) => [row.hour, toNumber(row.n)]));
  return Array.from({ length: hours }, (_, i) => {
    const hour = new Date(current - (hours - 1 - i) * HOUR_MS).toISOString();
    return { hour, count: byHour.get(hour.slice(0, 13)) ?? 0 };
  });
}

/** The `limit` stories with the most comments written since `since`, most first (ties by id). */
export async function topStories(db: Db, since: string, limit = 5): Promise<StoryCount[]> {
  const rows = await db
    .selectFrom('comments')
    .select(['story_id', (eb) => eb.fn.countAll().as('n')])
    .where('created_at', '>=', since)
    .groupBy('story_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('story_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ storyId: row.story_id, count: toNumber(row.n) }));
}

/** How many users have exactly `role` (the last-admin check reads it). */
export async function countUsersWithRole(db: Db, role: UserRole): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('role', '=', role)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}
