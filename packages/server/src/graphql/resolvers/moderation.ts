import { commentDecisionResolvers } from './moderation/commentDecisions';
import { moderationAlertResolvers } from './moderation/moderationAlertResolvers';
import { queueQueryResolvers } from './moderation/queueQueries';
import { queueSubscriptionResolvers } from './moderation/queueSubscription';
import { userActionResolvers } from './moderation/userActions';
import { userLookupResolvers } from './moderation/userLookup';
import type { Resolvers } from './resolverTypes.generated';

/**
 * Moderation: decisions on comments, actions on users, the queues and their live updates, the
 * moderators' email alerts. Every resolver checks the viewer's role itself (MODERATOR and above;
 * roles are ADMIN only), but an email's moderation link, which is its own authority.
 */
export const moderationResolvers = {
  Query: {
    ...queueQueryResolvers.Query,
    ...userLookupResolvers.Query,
  },
  Mutation: {
    ...commentDecisionResolvers.Mutation,
    ...userActionResolvers.Mutation,
    ...moderationAlertResolvers.Mutation,
  },
  Subscription: queueSubscriptionResolvers.Subscription,
  User: { ...userLookupResolvers.User, ...moderationAlertResolvers.User },
  ModerationAlert: moderationAlertResolvers.ModerationAlert,
  UserHistoryEntry: userLookupResolvers.UserHistoryEntry,
  ModerationDecision: userLookupResolvers.ModerationDecision,
} satisfies Resolvers;
