// GraphQL selections shared by the stream's queries, mutations and subscriptions, so that every
// copy of a comment in urql's cache and in the UI has the same fields.

/** Page size of top-level comments (first render and every "Load more"). */
export const TOP_LEVEL_PAGE_SIZE = 20;

/** Replies fetched with each comment, per level. */
export const REPLIES_PAGE_SIZE = 3;

/** A comment as the thread shows it (no replies). */
export const COMMENT_FIELDS = `
  id body createdAt editedAt editableUntil status tags replyCount reactionCount viewerReacted
  parent { id }
  author { id username avatarUrl badges }
`;

/** A comment with its first replies, three levels deep (deeper: "Continue this thread"). */
export const COMMENT_WITH_REPLIES = `
  ${COMMENT_FIELDS}
  replies(first: ${REPLIES_PAGE_SIZE}) {
    pageInfo { hasNextPage endCursor }
    edges { node {
      ${COMMENT_FIELDS}
      replies(first: ${REPLIES_PAGE_SIZE}) {
        pageInfo { hasNextPage endCursor }
        edges { node { ${COMMENT_FIELDS} } }
      }
    } }
  }
`;

/** The signed-in user, as the stream needs it. */
export const VIEWER_FIELDS = `id username email avatarUrl role status suspendedUntil badges`;
