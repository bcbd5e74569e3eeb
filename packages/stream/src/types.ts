// Shapes of the GraphQL answers the stream reads (the selections in fragments.ts).

/** A role of a user. */
export type Role = 'COMMENTER' | 'MODERATOR' | 'ADMIN';

/** The author of a comment. */
export interface Author {
  id: string;
  username: string;
  avatarUrl: string | null;
  badges: string[];
}

/** A comment as the thread shows it. */
export interface CommentData {
  id: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
  editableUntil: string | null;
  status: 'NONE' | 'APPROVED' | 'REJECTED' | 'PREMOD' | 'SYSTEM_WITHHELD';
  tags: ('FEATURED' | 'STAFF')[];
  replyCount: number;
  reactionCount: number;
  viewerReacted: boolean;
  /** A tombstone from the server: removed, but kept because it has replies (no body, no author). */
  removed?: boolean;
  parent: { id: string } | null;
  author: Author | null;
  replies?: Connection<CommentData>;
}

/** A Relay connection. */
export interface Connection<T> {
  edges: { cursor?: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** The signed-in user. */
export interface Viewer extends Author {
  email: string | null;
  role: Role;
  status: 'ACTIVE' | 'BANNED' | 'SUSPENDED' | 'PREMOD';
  suspendedUntil: string | null;
}

/** Organization settings the stream uses. */
export interface StreamSettings {
  editWindowSeconds: number;
  maxCommentLength: number;
  signUpOpen: boolean;
  liveUpdates: boolean;
  guidelinesHtml: string;
  locale: string;
  premod: string;
}

/** The story the frame shows. */
export interface StoryData {
  id: string;
  url: string;
  title: string | null;
  status: 'OPEN' | 'CLOSED';
  commentCount: number;
  settings: { effectivePremod: string; liveUpdates: boolean; premod: string | null };
  featuredComments: Connection<{ id: string }>;
  comments: Connection<CommentData>;
}

/** Sorts of the thread. */
export type CommentSort = 'CREATED_AT_DESC' | 'CREATED_AT_ASC' | 'REPLIES_DESC' | 'REACTIONS_DESC';

/** True for moderators and admins. */
export function isModerator(viewer: Pick<Viewer, 'role'> | null | undefined): boolean {
  return viewer?.role === 'MODERATOR' || viewer?.role === 'ADMIN';
}

/** Why a reader reports a comment. */
export type ReportReason = 'OFFENSIVE' | 'ABUSIVE' | 'SPAM' | 'OTHER';

/**
 * True while readers may see the comment. Otherwise it left the stream — by its status, or as a
 * server tombstone (`removed`: rejected or erased, kept only because it has replies).
 */
export function isVisibleComment(comment: Pick<CommentData, 'status' | 'removed'>): boolean {
  return !comment.removed && (comment.status === 'NONE' || comment.status === 'APPROVED');
}
