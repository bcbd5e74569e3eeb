import type { StreamData } from '../StreamContext';
import type { CommentData, Connection } from '../CommentView';
import type { StoryData, StreamSettings, Viewer } from '../StreamContext';

// Builders of the root query's data for thread tests: a comment is complete by default and a
// test overrides only what it is about.

/** A published comment by `user_<id>`, written three minutes ago. */
export function makeComment(id: string, overrides: Partial<CommentData> = {}): CommentData {
  return {
    id,
    body: `<p>Body of ${id}</p>`,
    createdAt: new Date(Date.now() - 3 * 60_000).toISOString(),
    editedAt: null,
    editableUntil: null,
    status: 'NONE',
    removed: false,
    tags: [],
    replyCount: 0,
    reactionCount: 0,
    downvoteCount: 0,
    viewerVote: null,
    parent: null,
    author: { id: `u-${id}`, username: `user_${id}`, avatarUrl: null, badges: [], isGuest: false },
    ...overrides,
  };
}

/** A connection of `nodes` with cursors `cursor-<id>`. */
export function makeConnection<T extends { id: string }>(
  nodes: T[],
  hasNextPage = false,
): Connection<T> {
  return {
    edges: nodes.map((node) => ({ cursor: `cursor-${node.id}`, node })),
    pageInfo: { hasNextPage, endCursor: nodes.length ? `cursor-${nodes.at(-1)?.id}` : null },
  };
}

/** A signed-in commenter. */
export const TEST_VIEWER: Viewer = {
  id: 'u-me',
  username: 'me',
  avatarUrl: null,
  badges: [],
  isGuest: false,
  email: 'me@example.test',
  role: 'COMMENTER',
  status: 'ACTIVE',
  suspendedUntil: null,
};

/** Options of {@link makeRootData} and {@link makeStreamData}. */
export interface StreamDataOptions {
  viewer?: Viewer | null;
  hasNextPage?: boolean;
  story?: Partial<StoryData>;
  settings?: Partial<StreamSettings>;
}

/** The root query's answer around `comments` (the first page), as the server sends it. */
export function makeRootData(
  comments: CommentData[],
  options: StreamDataOptions = {},
): Omit<StreamData, 'refetch'> {
  return {
    viewer: options.viewer ?? null,
    settings: {
      editWindowSeconds: 30,
      maxCommentLength: 2000,
      signUpOpen: true,
      liveUpdates: true,
      guidelinesHtml: '',
      locale: 'en',
      premod: 'OFF',
      reactionLabel: '',
      featuredTab: true,
      voting: 'LIKE',
      commentImages: false,
      guestComments: false,
      customCssUrl: '',
      ...options.settings,
    },
    story: {
      id: 's1',
      url: 'http://host.test/article',
      title: 'Article',
      status: 'OPEN',
      commentCount: comments.length,
      settings: { effectivePremod: 'OFF', liveUpdates: true, premod: null },
      featuredComments: makeConnection([]),
      pinnedComment: null,
      comments: makeConnection(comments, options.hasNextPage),
      ...options.story,
    },
  };
}

/** The root query's data around `comments` (the first page), with a `refetch` spy. */
export function makeStreamData(
  comments: CommentData[],
  options: StreamDataOptions = {},
): StreamData {
  return { ...makeRootData(comments, options), refetch: jest.fn() };
}
