// Loader-only defaults. Values the frame also needs (namespace, container id, stream path, the
// theme names) live in protocol.ts and are imported from there.

/** Prefix of every message the loader writes to the console, so site owners can find ours. */
export const LOG_PREFIX = '[parley]';

/**
 * How far below the viewport the stream starts loading with `autoRender`: far enough that the
 * thread is usually ready when the reader scrolls to it, near enough that readers who never
 * reach it never load it.
 */
export const AUTO_RENDER_MARGIN = '800px';

/** Query parameter of a permalink on the host page (`?commentID=…`), the same name the stream uses. */
export const PERMALINK_PARAM = 'commentID';

/** Theme when neither the `theme` option nor `data-theme` sets one. */
export const DEFAULT_THEME = 'light';

/** Media query that `theme: 'auto'` follows. */
export const DARK_SCHEME_QUERY = '(prefers-color-scheme:dark)';

/** Elements count.js fills in. */
export const COUNT_SELECTOR = '.parley-count';

/** The one query count.js runs (commentCounts answers in the order of `urls`). */
export const COUNTS_QUERY = 'query Counts($urls:[String!]!){commentCounts(urls:$urls)}';
/**
 * The id count.js sends instead of {@link COUNTS_QUERY}: the transport's `documentId` of it,
 * written out because count.js carries no GraphQL code. `npm run codegen` puts the pair in the
 * trusted documents and fails, naming the right id, if this one no longer matches.
 */
export const COUNTS_DOCUMENT_ID = '11jgkn0';

/** Elements recent.js fills in. */
export const RECENT_SELECTOR = '.parley-recent';

/** Comments recent.js lists when the element has no `data-count`, and at most. */
export const RECENT_DEFAULT_COUNT = 5;
export const RECENT_MAX_COUNT = 20;

/** Characters of a comment's text recent.js shows before "…". */
export const RECENT_EXCERPT_LENGTH = 160;

/** The one query recent.js runs. */
export const RECENT_QUERY =
  'query Recent($siteId:ID,$storyURL:String,$first:Int){recentComments(siteId:$siteId,storyURL:$storyURL,first:$first){id body createdAt author{username}story{id url title}}}';
/** The id recent.js sends instead of {@link RECENT_QUERY} (as {@link COUNTS_DOCUMENT_ID}). */
export const RECENT_DOCUMENT_ID = '5qv8h6';
