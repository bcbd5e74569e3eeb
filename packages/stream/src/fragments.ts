// GraphQL selections shared by the stream's queries, mutations and subscriptions, so that every
// copy of a comment in urql's cache and in the UI has the same fields.

/** Page size of top-level comments (first render and every "Load more"). */
export const TOP_LEVEL_PAGE_SIZE = 20;

/** Replies fetched with each comment, per level. */
export const REPLIES_PAGE_SIZE = 3;

/** A comment as the thread shows it (no replies). */
export const COMMENT_FIELDS =
  'id body createdAt editedAt editableUntil status removed tags replyCount reactionCount viewerReacted parent{id} author{id username avatarUrl badges}';

const replies = (fields: string) =>
  `replies(first:${REPLIES_PAGE_SIZE}){pageInfo{hasNextPage endCursor}edges{node{${fields}}}}`;

/** A comment with its first replies, three levels deep (deeper: "Continue this thread"). */
export const COMMENT_WITH_REPLIES = `${COMMENT_FIELDS} ${replies(`${COMMENT_FIELDS} ${replies(COMMENT_FIELDS)}`)}`;

/** The signed-in user, as the stream needs it. */
export const VIEWER_FIELDS = `id username email avatarUrl role status suspendedUntil badges`;

/** Top-level comments per page of the Featured tab. */
export const FEATURED_PAGE_SIZE = 20;

/** Replies per "Show more replies" / "Continue this thread" page. */
export const MORE_REPLIES_PAGE_SIZE = 10;

// One line each: template literals keep their whitespace in the bundle, and these are in the
// first-render budget.
const page = (name: string, root: string, field: string, sortArg = '') =>
  `query ${name}($id:ID!,$first:Int,$after:String${sortArg && ',$sort:CommentSort'}){${root}(id:$id){id ${field}(${sortArg}first:$first,after:$after){pageInfo{hasNextPage endCursor}edges{cursor node{${COMMENT_WITH_REPLIES}}}}}}`;

/** The next page of a story's top-level comments ("Load more"). */
export const MORE_COMMENTS_QUERY = page('MoreComments', 'story', 'comments', 'orderBy:$sort,');

/** A page of the story's featured comments (the Featured tab). */
export const FEATURED_QUERY = page('FeaturedComments', 'story', 'featuredComments');

/** A page of one comment's replies ("Show more replies", "Continue this thread"). */
export const REPLIES_QUERY = page('Replies', 'comment', 'replies');

/** One comment and its parent, for a permalink to a comment outside the first page. */
export const PERMALINK_QUERY = `query PermalinkComment($id:ID!){comment(id:$id){${COMMENT_WITH_REPLIES} parent{${COMMENT_FIELDS}}}}`;
