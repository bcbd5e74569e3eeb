import { commentDecisionResolvers } from './moderation/commentDecisions';
import { queueQueryResolvers } from './moderation/queueQueries';
import { queueSubscriptionResolvers } from './moderation/queueSubscription';
import { userActionResolvers } from './moderation/userActions';
import { userLookupResolvers } from './moderation/userLookup';
import type { Resolvers } from './resolverTypes.generated';

/**
 * Moderation: decisions on comments, actions on users, the queues and their live updates. Every
 * resolver checks the viewer's role itself (MODERATOR and above; roles are ADMIN only).
 */
export const moderationResolvers = {
  Query: { ...queueQueryResolvers.Query, ...userLookupResolvers.Query },
  Mutation: { ...commentDecisionResolvers.Mutation, ...userActionResolvers.Mutation },
  Subscription: queueSubscriptionResolvers.Subscription,
  User: userLookupResolvers.User,
  UserHistoryEntry: userLookupResolvers.UserHistoryEntry,
  ModerationDecision: userLookupResolvers.ModerationDecision,
} satisfies Resolvers;
