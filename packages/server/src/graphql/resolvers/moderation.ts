import { commentDecisionResolvers } from './moderation/commentDecisions';
import { queueQueryResolvers } from './moderation/queueQueries';
import { queueSubscriptionResolvers } from './moderation/queueSubscription';
import { userActionResolvers } from './moderation/userActions';

/**
 * Moderation: decisions on comments, actions on users, the queues and their live updates. Every
 * resolver checks the viewer's role itself (MODERATOR and above; roles are ADMIN only).
 */
export const moderationResolvers = {
  Query: queueQueryResolvers.Query,
  Mutation: { ...commentDecisionResolvers.Mutation, ...userActionResolvers.Mutation },
  Subscription: queueSubscriptionResolvers.Subscription,
};
