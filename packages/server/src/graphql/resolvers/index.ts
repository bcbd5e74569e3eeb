import { accountResolvers } from './account';
import { twoFactorResolvers } from './account/twoFactor';
import { adminResolvers } from './admin';
import { authResolvers } from './auth';
import { commentImageResolvers } from './commentImages';
import { commentsResolvers } from './comments';
import { guestResolvers } from './guests';
import { moderationResolvers } from './moderation';
import { moderationLinkResolvers } from './moderation/moderationAlertResolvers';
import type { Resolvers } from './resolverTypes.generated';
import { portabilityResolvers } from './portability';
import { signInProviderResolvers } from './signInProviders';
import { storiesResolvers } from './stories';
import { subscriptionsResolvers } from './subscriptions';
import { typeResolvers } from './types';

/** Every resolver map, each with its own type (defaultResolverCheck.ts reads which fields). */
export const RESOLVER_MAPS = [
  typeResolvers,
  authResolvers,
  accountResolvers,
  twoFactorResolvers,
  commentsResolvers,
  commentImageResolvers,
  storiesResolvers,
  subscriptionsResolvers,
  moderationResolvers,
  moderationLinkResolvers,
  adminResolvers,
  signInProviderResolvers,
  portabilityResolvers,
  guestResolvers,
] as const;

/** Every resolver map; `createParleySchema` merges them (a field defined twice throws). */
export const resolverMaps: readonly Resolvers[] = RESOLVER_MAPS;
