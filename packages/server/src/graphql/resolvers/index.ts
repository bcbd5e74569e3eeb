import type { Resolvers } from '../createParleySchema';
import { accountResolvers } from './account';
import { adminResolvers } from './admin';
import { authResolvers } from './auth';
import { commentsResolvers } from './comments';
import { moderationResolvers } from './moderation';
import { storiesResolvers } from './stories';
import { subscriptionsResolvers } from './subscriptions';
import { typeResolvers } from './types';

/** Every resolver map; `createParleySchema` merges them (a field defined twice throws). */
export const resolverMaps = [
  typeResolvers,
  authResolvers,
  accountResolvers,
  commentsResolvers,
  storiesResolvers,
  subscriptionsResolvers,
  moderationResolvers,
  adminResolvers,
] as unknown as Resolvers[];
