/** `Query.dashboard` (MODERATOR and above): today's and all-time figures, the 48-hour chart. */
import { commentsPerHour, periodFigures, topStories } from '../../../db/store/dashboardQueries';
import type { PeriodFigures } from '../../../db/store/dashboardQueries';
import { requireRole } from '../../permissions';
import type { DashboardPeriod, Resolvers } from '../resolverTypes.generated';

/** Hours in the comments chart. */
export const DASHBOARD_HOURS = 48;
/** Stories in "most commented today". */
export const DASHBOARD_TOP_STORIES = 5;

/**
 * The start of "today": midnight UTC. The organization has a locale but no time zone, and the
 * console's readers may sit anywhere; UTC is the one day boundary every server agrees on.
 */
export function startOfDay(now: Date): string {
  const day = new Date(now);
  day.setUTCHours(0, 0, 0, 0);
  return day.toISOString();
}

/** A `DashboardPeriod`: the rejection rate is over decisions, 0 when none were taken. */
export function period(figures: PeriodFigures): DashboardPeriod {
  const decisions = figures.approveDecisions + figures.rejectDecisions;
  return {
    newComments: figures.newComments,
    rejectedComments: figures.rejectedComments,
    rejectionRate: decisions === 0 ? 0 : figures.rejectDecisions / decisions,
    newUsers: figures.newUsers,
    bans: figures.bans,
  };
}

/** Resolver of the dashboard. */
export const dashboardResolvers = {
  Query: {
    dashboard: async (_root, _args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      const now = ctx.now();
      const today = startOfDay(now);
      const [todayFigures, allTime, perHour, top] = await Promise.all([
        periodFigures(ctx.db, today),
        periodFigures(ctx.db),
        commentsPerHour(ctx.db, now, DASHBOARD_HOURS),
        topStories(ctx.db, today, DASHBOARD_TOP_STORIES),
      ]);
      const stories = await Promise.all(top.map((row) => ctx.loaders.story.load(row.storyId)));
      return {
        today: period(todayFigures),
        allTime: period(allTime),
        commentsPerHour: perHour,
        topStoriesToday: top.flatMap((row, i) =>
          stories[i] === undefined ? [] : [{ story: stories[i], count: row.count }],
        ),
      };
    },
  },
} satisfies Resolvers;
