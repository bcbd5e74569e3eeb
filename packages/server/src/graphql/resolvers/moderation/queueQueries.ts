/** What moderators read: the queues, their counts and the community list. */
import { moderationCounts, moderationQueue } from '../../../db/store/commentQueries';
import type { QueueFilter } from '../../../db/store/commentQueries';
import type { Db } from '../../../db/inTransaction';
import { listUsers } from '../../../db/store/userModeration';
import { requireRole } from '../../permissions';
import type { ModerationCounts, Resolvers } from '../resolverTypes.generated';

/** The counts of every queue in `filter`'s scope, shaped for `ModerationCounts`. */
export async function queueCounts(db: Db, filter: QueueFilter): Promise<ModerationCounts> {
  const counts = await moderationCounts(db, filter);
  return {
    pending: counts.PENDING,
    reported: counts.REPORTED,
    unmoderated: counts.UNMODERATED,
    approved: counts.APPROVED,
    rejected: counts.REJECTED,
  };
}

/** Resolvers of the moderators' queries (MODERATOR and above). */
export const queueQueryResolvers = {
  Query: {
    moderationQueue: (_root, args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return moderationQueue(
        ctx.db,
        args.queue,
        { siteId: args.siteId, storyId: args.storyId },
        { first: args.first, after: args.after },
        // The generated type says non-null (the argument has a default), but a client's explicit
        // null arrives as null.
        args.orderBy ?? 'CREATED_AT_DESC',
        args.commentId,
      );
    },

    moderationCounts: (_root, args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return queueCounts(ctx.db, { siteId: args.siteId, storyId: args.storyId });
    },

    users: (_root, args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return listUsers(
        ctx.db,
        {
          query: args.query?.trim(),
          role: args.role,
          status: args.status,
          guest: args.guest,
          // The resolvers' clock, so a suspension ends for the list when it ends for `status`.
          now: ctx.now().toISOString(),
        },
        { first: args.first, after: args.after },
      );
    },
  },
} satisfies Resolvers;
