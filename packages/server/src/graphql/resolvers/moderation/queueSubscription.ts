/**
 * `moderationQueueUpdated(siteId)`: a comment entered or left a queue, with fresh counts.
 *
 * Events carry ids only (they may have crossed Redis); each is turned into the comment as it is
 * now and the counts of the subscriber's scope. A subscription's context lives as long as the
 * subscription, so its per-request loaders would keep serving the first version of a comment,
 * author or story they saw: they are emptied before each event.
 */
import { filter, map, pipe } from 'graphql-yoga';
import { findCommentById } from '../../../db/store/comments';
import type { ModerationQueueEvent } from '../../../pubsub/createPubSub';
import { staffSessionHolds } from '../../context';
import { requireRole } from '../../permissions';
import type { Resolvers, ResolversParentTypes } from '../resolverTypes.generated';
import { queueCounts } from './queueQueries';

/** What each event of the subscription resolves to. */
type QueueUpdate = ResolversParentTypes['ModerationQueueEvent'];

/** Resolvers of `Subscription.moderationQueueUpdated` (MODERATOR and above). */
export const queueSubscriptionResolvers = {
  Subscription: {
    moderationQueueUpdated: {
      subscribe: (_root, { siteId }, ctx) => {
        // Thrown here, before any listener exists: the client gets the coded error at once.
        requireRole(ctx, 'MODERATOR');
        const staffSessionStillHolds = () => staffSessionHolds(ctx);
        const mine = (event: ModerationQueueEvent) =>
          siteId === undefined || siteId === null || event.siteId === siteId;
        return pipe(
          ctx.pubsub.subscribe('moderationQueueUpdated'),
          filter(mine),
          // A moderator demoted, signed out or needing a second factor since subscribing stops
          // receiving at the next event.
          filter(staffSessionStillHolds),
          map(async (event): Promise<QueueUpdate | undefined> => {
            for (const loader of Object.values(ctx.loaders)) loader.clearAll();
            const comment = await findCommentById(ctx.db, event.commentId);
            return comment && { comment, counts: await queueCounts(ctx.db, { siteId }) };
          }),
          // A comment deleted between the event and now has nothing to show.
          filter((update): update is QueueUpdate => update !== undefined),
        );
      },
      resolve: (update: QueueUpdate) => update,
    },
  },
} satisfies Resolvers;
