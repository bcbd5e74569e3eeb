/**
 * The moderation route's GraphQL documents. Operation names are stable: the tests answer them
 * with msw by name.
 */
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import {
  BAN_USER_MUTATION,
  SET_USER_PREMOD_MUTATION,
  SET_USER_ROLE_MUTATION,
  SUSPEND_USER_MUTATION,
  UNBAN_USER_MUTATION,
} from '@parley/transport/user-actions';
import { ModerationCardFields } from './ModerationCard';
import { QueueFiltersFields } from './QueueFilters';

/** One page of a queue (with `commentId`, only that comment, when it is in the queue). */
export const QUEUE_QUERY = graphql(
  `
    query ModerationQueue($queue: ModerationQueue!, $siteId: ID, $storyId: ID, $commentId: ID, $first: Int, $after: String, $orderBy: CommentSort) {
      moderationQueue(queue: $queue, siteId: $siteId, storyId: $storyId, commentId: $commentId, first: $first, after: $after, orderBy: $orderBy) {
        edges { cursor node { ...ModerationCardFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  `,
  [ModerationCardFields],
);

/** The queues, as the server's `ModerationQueue` enum spells them. */
export type QueueName = VariablesOf<typeof QUEUE_QUERY>['queue'];

/** The counts in the queue links. */
export const COUNTS_QUERY = graphql(`
  query ModerationCounts($siteId: ID, $storyId: ID) {
    moderationCounts(siteId: $siteId, storyId: $storyId) {
      pending reported unmoderated approved rejected
    }
  }
`);

/** What the page needs once: the default queue rule, the words to highlight, the filters. */
export const MODERATE_SETUP_QUERY = graphql(
  `query ModerateSetup { settings { premod bannedWords suspectWords } ...QueueFiltersFields }`,
  [QueueFiltersFields],
);

/** Live queue changes (a comment entered or left a queue). */
export const QUEUE_UPDATED_SUBSCRIPTION = graphql(`
  subscription ModerationQueueUpdated($siteId: ID) {
    moderationQueueUpdated(siteId: $siteId) {
      comment { id status }
      counts { pending reported unmoderated approved rejected }
    }
  }
`);

/** The mutation of each decision a card offers, by mutation name. */
export const DECISION_MUTATIONS = {
  approveComment: graphql(`
    mutation Decide_approveComment($commentId: ID!) {
      approveComment(input: { commentId: $commentId }) { comment { id status tags } }
    }
  `),
  rejectComment: graphql(`
    mutation Decide_rejectComment($commentId: ID!) {
      rejectComment(input: { commentId: $commentId }) { comment { id status tags } }
    }
  `),
  /** A rejection as spam: the spam filter learns from it (also for a card already rejected). */
  rejectSpam: graphql(`
    mutation Decide_rejectSpam($commentId: ID!) {
      rejectComment(input: { commentId: $commentId, reason: SPAM }) { comment { id status tags } }
    }
  `),
  featureComment: graphql(`
    mutation Decide_featureComment($commentId: ID!) {
      featureComment(input: { commentId: $commentId }) { comment { id status tags } }
    }
  `),
  unfeatureComment: graphql(`
    mutation Decide_unfeatureComment($commentId: ID!) {
      unfeatureComment(input: { commentId: $commentId }) { comment { id status tags } }
    }
  `),
};

/** The decisions a card offers, by mutation name. */
export type DecisionName = keyof typeof DECISION_MUTATIONS;

/**
 * Actions on a user, each with an optional message emailed to them (unban excepted). The documents
 * are the ones the stream and the community table send too (@parley/transport/user-actions);
 * this table also puts them in the persisted-documents manifest, which lists what the console's
 * own modules export.
 */
export const USER_ACTION_MUTATIONS = {
  ban: BAN_USER_MUTATION,
  unban: UNBAN_USER_MUTATION,
  suspend: SUSPEND_USER_MUTATION,
  premod: SET_USER_PREMOD_MUTATION,
  role: SET_USER_ROLE_MUTATION,
};

/** The viewer's own latest decisions. */
export const MY_DECISIONS_QUERY = graphql(`
  query MyDecisions($first: Int) {
    myDecisions(first: $first) {
      id status reason createdAt
      comment { id bodySource story { id title url } author { username } }
    }
  }
`);
