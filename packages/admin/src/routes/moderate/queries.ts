/**
 * The moderation route's GraphQL documents and the shapes it reads. Operation names are stable:
 * the tests answer them with msw by name.
 */
import type { CommunityUser, UserStatus } from '../community/communityQueries';

export type { UserStatus };

/** The queues, as the server's `ModerationQueue` enum spells them. */
export type QueueName = 'PENDING' | 'REPORTED' | 'UNMODERATED' | 'APPROVED' | 'REJECTED';

/** Why a comment is held (`HeldReason`). */
export type HeldReason =
  | 'BANNED_WORD'
  | 'SUSPECT_WORD'
  | 'LINK'
  | 'NEW_COMMENTER'
  | 'PREMOD_USER'
  | 'PREMOD_ALL'
  | 'REPORTS';

/** A comment's status (`CommentStatus`). */
export type CommentStatus = 'NONE' | 'APPROVED' | 'REJECTED' | 'PREMOD' | 'SYSTEM_WITHHELD';

/** A report on a comment, as a moderator sees it. */
export interface QueueReport {
  id: string;
  reason: 'OFFENSIVE' | 'ABUSIVE' | 'SPAM' | 'OTHER';
  details: string | null;
  reporter: { id: string; username: string } | null;
  createdAt: string;
}

/** One card of a queue. */
export interface QueueComment {
  id: string;
  /** Sanitized HTML from the server: the only string rendered as HTML. */
  body: string;
  bodySource: string | null;
  status: CommentStatus;
  tags: string[];
  createdAt: string;
  editedAt: string | null;
  heldBecause: HeldReason[] | null;
  reports: QueueReport[] | null;
  author: { id: string; username: string; status: UserStatus | null } | null;
  parent: { id: string; bodySource: string | null; author: { username: string } | null } | null;
  story: { id: string; title: string | null; url: string };
}

/** Counts per queue (`ModerationCounts`). */
export type QueueCounts = Record<
  'pending' | 'reported' | 'unmoderated' | 'approved' | 'rejected',
  number
>;

const COMMENT_FIELDS = `
  id body bodySource status tags createdAt editedAt heldBecause
  reports { id reason details reporter { id username } createdAt }
  author { id username status }
  parent { id bodySource author { username } }
  story { id title url }
`;

/** One page of a queue. */
export const QUEUE_QUERY = `query ModerationQueue($queue: ModerationQueue!, $siteId: ID, $storyId: ID, $first: Int, $after: String, $orderBy: CommentSort) {
  moderationQueue(queue: $queue, siteId: $siteId, storyId: $storyId, first: $first, after: $after, orderBy: $orderBy) {
    edges { cursor node { ${COMMENT_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Result of {@link QUEUE_QUERY}. */
export interface QueueData {
  moderationQueue: {
    edges: { cursor: string; node: QueueComment }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** The counts in the queue links. */
export const COUNTS_QUERY = `query ModerationCounts($siteId: ID, $storyId: ID) {
  moderationCounts(siteId: $siteId, storyId: $storyId) { pending reported unmoderated approved rejected }
}`;

/** What the page needs once: the default queue rule, the words to highlight, the filters. */
export const MODERATE_SETUP_QUERY = `query ModerateSetup {
  settings { premod bannedWords suspectWords }
  sites { id name }
  stories(first: 100) { edges { node { id title url site { id } } } }
}`;

/** Result of {@link MODERATE_SETUP_QUERY}. */
export interface SetupData {
  settings: { premod: string; bannedWords: string[] | null; suspectWords: string[] | null };
  sites: { id: string; name: string }[];
  stories: {
    edges: { node: { id: string; title: string | null; url: string; site: { id: string } } }[];
  };
}

/** Live queue changes (a comment entered or left a queue). */
export const QUEUE_UPDATED_SUBSCRIPTION = `subscription ModerationQueueUpdated($siteId: ID) {
  moderationQueueUpdated(siteId: $siteId) { comment { id status } counts { pending reported unmoderated approved rejected } }
}`;

/** Event of {@link QUEUE_UPDATED_SUBSCRIPTION}. */
export interface QueueUpdatedData {
  moderationQueueUpdated: { comment: { id: string; status: CommentStatus }; counts: QueueCounts };
}

/** The decisions a card offers, by mutation name. */
export type DecisionName =
  'approveComment' | 'rejectComment' | 'featureComment' | 'unfeatureComment';

/** The mutation of a decision. */
export function decisionMutation(name: DecisionName): string {
  return `mutation Decide_${name}($commentId: ID!) {
  ${name}(input: { commentId: $commentId }) { comment { id status tags } }
}`;
}

/** The user drawer: everything about one person. */
export const USER_DRAWER_QUERY = `query ModerationUser($id: ID!) {
  user(id: $id) {
    id username email role status suspendedUntil createdAt
    all: comments(first: 20) { edges { node { id body status createdAt story { id title url } } } }
    rejected: comments(first: 20, status: REJECTED) { edges { node { id body status createdAt story { id title url } } } }
    history { id action message actor { username } createdAt }
  }
}`;

/** A comment in the drawer's lists. */
export interface DrawerComment {
  id: string;
  body: string;
  status: CommentStatus;
  createdAt: string;
  story: { id: string; title: string | null; url: string };
}

/** The user of {@link USER_DRAWER_QUERY}. */
export interface DrawerUser extends CommunityUser {
  all?: { edges: { node: DrawerComment }[] } | null;
  rejected?: { edges: { node: DrawerComment }[] } | null;
  history:
    | {
        id: string;
        action: string;
        message: string | null;
        actor: { username: string } | null;
        createdAt: string;
      }[]
    | null;
}

const USER_RESULT = `user { id role status suspendedUntil }`;

/** Actions on a user, each with an optional message emailed to them. */
export const USER_ACTION_MUTATIONS = {
  ban: `mutation BanUser($userId: ID!, $message: String) { banUser(input: { userId: $userId, message: $message }) { ${USER_RESULT} } }`,
  unban: `mutation UnbanUser($userId: ID!) { unbanUser(input: { userId: $userId }) { ${USER_RESULT} } }`,
  suspend: `mutation SuspendUser($userId: ID!, $until: DateTime!, $message: String) { suspendUser(input: { userId: $userId, until: $until, message: $message }) { ${USER_RESULT} } }`,
  premod: `mutation SetUserPremod($userId: ID!, $premod: Boolean!, $message: String) { setUserPremod(input: { userId: $userId, premod: $premod, message: $message }) { ${USER_RESULT} } }`,
  role: `mutation SetUserRole($userId: ID!, $role: Role!, $message: String) { setUserRole(input: { userId: $userId, role: $role, message: $message }) { ${USER_RESULT} } }`,
} as const;

/** The viewer's own latest decisions. */
export const MY_DECISIONS_QUERY = `query MyDecisions($first: Int) {
  myDecisions(first: $first) { id status createdAt comment { id bodySource story { id title url } author { username } } }
}`;

/** Result of {@link MY_DECISIONS_QUERY}. */
export interface MyDecisionsData {
  myDecisions: {
    id: string;
    status: CommentStatus;
    createdAt: string;
    comment: {
      id: string;
      bodySource: string | null;
      story: { id: string; title: string | null; url: string };
      author: { username: string } | null;
    } | null;
  }[];
}
