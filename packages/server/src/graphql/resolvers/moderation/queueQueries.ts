/** What moderators read: the queues, their counts and the community list. */
import { moderationCounts, moderationQueue } from '../../../db/store/commentQueries';
import type { CommentSort, ModerationQueue, QueueFilter } from '../../../db/store/commentQueries';
import type { Db } from '../../../db/inTransaction';
import type { PageArgs } from '../../../db/store/paginate';
import { listUsers } from '../../../db/store/userModeration';
import type { UserFilter } from '../../../db/store/userModeration';
import type { ParleyContext } from '../../context';
import { requireRole } from '../../permissions';

/** `ModerationCounts` as the API shows it: one field per queue. */
export interface QueueCounts {
  pending: number;
  reported: number;
  unmoderated: number;
  approved: number;
  rejected: number;
}

/** The counts of every queue in `filter`'s scope, shaped for `ModerationCounts`. */
export async function queueCounts(db: Db, filter: QueueFilter): Promise<QueueCounts> {
  const counts = await moderationCounts(db, filter);
  return {
    pending: counts.PENDING,
    reported: counts.REPORTED,
    unmoderated: counts.UNMODERATED,
    approved: counts.APPROVED,
    rejected: counts.REJECTED,
  };
}

type QueueArgs = QueueFilter & PageArgs & { queue: ModerationQueue; orderBy?: CommentSort | null };

/** Resolvers of the moderators' queries (MODERATOR and above). */
export const queueQueryResolvers = {
  Query: {
    moderationQueue: (_root: unknown, args: QueueArgs, ctx: ParleyContext) => {
      requireRole(ctx, 'MODERATOR');
      return moderationQueue(
        ctx.db,
        args.queue,
        { siteId: args.siteId, storyId: args.storyId },
        { first: args.first, after: args.after },
        args.orderBy ?? 'CREATED_AT_DESC',
      );
    },

    moderationCounts: (_root: unknown, args: QueueFilter, ctx: ParleyContext) => {
      requireRole(ctx, 'MODERATOR');
      return queueCounts(ctx.db, { siteId: args.siteId, storyId: args.storyId });
    },

    users: (_root: unknown, args: UserFilter & PageArgs, ctx: ParleyContext) => {
      requireRole(ctx, 'MODERATOR');
      return listUsers(
        ctx.db,
        {
          query: args.query?.trim(),
          role: args.role,
          status: args.status,
          // The resolvers' clock, so a suspension ends for the list when it ends for `status`.
          now: ctx.now().toISOString(),
        },
        { first: args.first, after: args.after },
      );
    },
  },
};
