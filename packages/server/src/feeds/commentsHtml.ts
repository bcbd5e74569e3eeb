/**
 * A story's comments as crawlable HTML (`/api/stories/comments.html?url=<the story's URL>`): a
 * small, self-contained fragment a host includes verbatim in its own server-rendered page, inside
 * the thread's container, so that search engines credit the comments to the article and readers
 * without JavaScript read them. embed.js replaces the container's content with the live frame
 * when it renders, so a reader never sees both.
 *
 * What it holds, decided here (the issue leaves it open):
 * - The comments a signed-out reader sees (visible, not deleted), threaded as nested
 *   `<article>`s, oldest first so that a page keeps its comments as new ones arrive: a page of
 *   {@link COMMENTS_HTML_PAGE} top-level comments with their replies, at most
 *   {@link COMMENTS_HTML_REPLIES} replies per page (breadth first) and {@link COMMENTS_HTML_DEPTH}
 *   levels. A reply whose parent readers cannot see is left out with its own replies: the
 *   fragment is the thread's readable text, not its moderation history.
 * - The next page by keyset cursor (`&after=`), linked at the end (`rel="next"`).
 * - schema.org markup as JSON-LD: a `DiscussionForumPosting` (the story) with `comment`, each a
 *   `Comment` with its author, date, text, permalink and its replies as `comment`.
 * - Each comment's sanitized HTML, as the frame shows it (stored sanitized when posted); names
 *   and every other text escaped here; the JSON-LD escaped so nothing in it closes its `<script>`.
 *
 * Anonymous like a feed: 401 with "anonymous reading" off, never creating a story (an unknown
 * story answers an empty container, so an include never breaks the host's page), errors in plain
 * text with their code. In the frame's language, chosen as the frame chooses it: `&locale=` (the
 * thread's `locale` option), else the site's "Language of the comments", else `&lang=` (the host
 * page's language), else English. Kept in the shared read cache beside the anonymous GraphQL reads, dropped
 * by the same events (a comment of the story, a user shown in it, the settings), and sent with a
 * one-minute `max-age` and an ETag as the feeds are.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import type { Comment as SchemaComment, DiscussionForumPosting, WithContext } from 'schema-dts';
import type { Db } from '../db/inTransaction';
import { listComments, readerVisible } from '../db/store/commentQueries';
import { toComment } from '../db/store/comments';
import type { Comment } from '../db/store/comments';
import type { Settings } from '../db/store/organization';
import { findSiteById } from '../db/store/sites';
import { countStoryComments, findStoryByUrl } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import { findUsersByIds } from '../db/store/users';
import { isVisibleStatus } from '../db/schema';
import { requireAnonymousReading } from '../graphql/permissions';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';
import { escapeHtml, textOfHtml } from '../markdown/renderComment';
import { ParleyError } from '../ParleyError';
import type { CacheEntityRecord } from '../readCache/createReadCache';
import { EVERY_READ } from '../readCache/createReadCache';
import type { FeedAnswer } from './atomFeeds';
import { FEED_HEADERS, FEED_MAX_AGE_SECONDS, plainTextError } from './atomFeeds';
import { directionOf } from '@parley/contract';
import { emailLocale, emailWriter } from '../email/templates';
import type { EmailWriter } from '../email/templates';

/** Where the fragment is served. */
export const COMMENTS_HTML_PATH = '/api/stories/comments.html';
/** Top-level comments per page. */
export const COMMENTS_HTML_PAGE = 50;
/** Most replies a page holds, all levels together (the first ones, breadth first). */
export const COMMENTS_HTML_REPLIES = 200;
/** Most replies shown under one comment; one with more links to itself in the article. */
export const COMMENTS_HTML_REPLIES_EACH = 20;
/** Most levels of replies under a top-level comment (the frame nests three, then links on). */
export const COMMENTS_HTML_DEPTH = 8;
/** Class of the fragment's root element; also what a host's stylesheet can aim at. */
export const COMMENTS_HTML_CLASS = 'parley-comments';

/** What the fragment reads. */
export interface CommentsHtmlDeps {
  db: Db;
  /** The server's public URL, without a trailing slash (the next page's link). */
  publicUrl: string;
  settings(): Promise<Settings>;
  /** The shared read cache's store; without it every request reads the database. */
  cache?: Cache;
  /** How long a kept fragment lives, in ms. */
  cacheTtlMs?: number;
}

/** A comment with the replies the page shows under it. */
interface Node {
  comment: Comment;
  replies: Node[];
}

/** Answers the fragment's URL; undefined for any other path. */
export function createCommentsHtml(
  deps: CommentsHtmlDeps,
): (url: URL) => Promise<FeedAnswer | undefined> {
  return async (url) => {
    if (url.pathname !== COMMENTS_HTML_PATH) return undefined;
    try {
      return await answer(deps, url.searchParams, url.searchParams.get('after'));
    } catch (error) {
      if (error instanceof ParleyError) return plainTextError(error);
      throw error;
    }
  };
}

async function answer(
  deps: CommentsHtmlDeps,
  query: URLSearchParams,
  after: string | null,
): Promise<FeedAnswer> {
  const settings = await deps.settings();
  requireAnonymousReading(settings);
  const value = query.get('url');
  if (!value) throw new ParleyError('INVALID_INPUT', 'Name the story: ?url=<its URL>.');
  const key = canonicalStoryUrl(value).toString();
  // As the frame: the thread's `locale` option, else the site's setting, else the page's `lang`.
  const writer = emailWriter(emailLocale(query.get('locale'), settings.locale, query.get('lang')));
  // Only first pages are kept: what a host includes. A cursor can be written many ways (and made
  // up), so keeping later pages would let anyone fill the cache with copies.
  // No `.` in the key: the read cache reads one as the start of an ETag's version.
  const cacheKey =
    after === null
      ? `comments-html:${writer.locale}:${createHash('sha256').update(key).digest('base64url')}`
      : undefined;
  const kept = cacheKey
    ? ((await deps.cache?.get(cacheKey))?.data as { html?: string } | undefined)
    : undefined;
  const html = kept?.html ?? (await render(deps, key, after, cacheKey, writer));
  return {
    status: 200,
    headers: {
      ...FEED_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': `public, max-age=${FEED_MAX_AGE_SECONDS}`,
      // The comments belong to the article that includes them, not to this address.
      'x-robots-tag': 'noindex',
      etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`,
    },
    body: html,
  };
}

async function render(
  deps: CommentsHtmlDeps,
  key: string,
  after: string | null,
  cacheKey: string | undefined,
  writer: EmailWriter,
): Promise<string> {
  const { t, locale } = writer;
  // Never created here: a story exists once a reader opened it. An unknown one is not kept: it
  // may be opened any moment, and nothing would drop the empty answer then.
  const story = await findStoryByUrl(deps.db, key);
  if (!story) return container(key, locale, '');
  // What readers see: visible comments, and removed ones that still have visible replies.
  const page = await listComments(
    deps.db,
    { storyId: story.id, parentId: null, orderBy: 'CREATED_AT_ASC' },
    { first: COMMENTS_HTML_PAGE, after },
  );
  const roots = await withReplies(
    deps.db,
    page.edges.map((edge) => edge.node),
  );
  const comments = flatten(roots);
  const authors = new Map(
    (await findUsersByIds(deps.db, [...new Set(comments.map((c) => c.authorId))])).map((u) => [
      u.id,
      u.username,
    ]),
  );
  const site = await findSiteById(deps.db, story.siteId);
  const nameOf = (comment: Comment) => authors.get(comment.authorId) ?? t('thread.deletedUser');
  const next = page.pageInfo.hasNextPage
    ? `${deps.publicUrl}${COMMENTS_HTML_PATH}?${new URLSearchParams({
        url: story.url,
        after: page.pageInfo.endCursor ?? '',
        // The language chosen, as it was chosen: the next page reads as this one.
        locale,
      })}`
    : undefined;
  const html = container(
    story.url,
    locale,
    roots.map((node) => articleOf(story, node, nameOf, t)).join('') +
      (next
        ? `<nav><a rel="next" href="${escapeHtml(next)}">${escapeHtml(t('noScript.more'))}</a></nav>`
        : '') +
      jsonLd(
        discussion(
          story,
          site?.name,
          site?.url,
          roots,
          nameOf,
          (await countStoryComments(deps.db, [story.id])).get(story.id) ?? comments.length,
        ),
      ),
  );
  if (cacheKey) {
    const entities: CacheEntityRecord[] = [
      ...EVERY_READ,
      { typename: 'Story', id: story.id },
      ...comments.flatMap((comment) => [
        { typename: 'Comment', id: comment.id },
        { typename: 'User', id: comment.authorId },
      ]),
    ];
    await deps.cache?.set(cacheKey, { data: { html } }, entities, deps.cacheTtlMs ?? 60_000);
  }
  return html;
}

/** Whether readers see `comment` itself, or only its place (removed, with replies they see). */
const shown = (comment: Comment) => isVisibleStatus(comment.status) && comment.deletedAt === null;

/**
 * Under each of `roots`, its replies as readers see them (removed ones kept while they have
 * visible replies), level by level: one query a level, each parent's first
 * {@link COMMENTS_HTML_REPLIES_EACH} oldest read down the `(parent_id, created_at)` index (never
 * every reply of a comment that has thousands), until {@link COMMENTS_HTML_REPLIES} replies or
 * {@link COMMENTS_HTML_DEPTH} levels.
 */
async function withReplies(db: Db, roots: Comment[]): Promise<Node[]> {
  const nodes = roots.map((comment) => ({ comment, replies: [] as Node[] }));
  let level = nodes;
  let room = COMMENTS_HTML_REPLIES;
  for (let depth = 0; depth < COMMENTS_HTML_DEPTH && room > 0; depth++) {
    const parents = new Map(level.map((node) => [node.comment.id, node]));
    const ids = level.filter((node) => node.comment.replyCount > 0).map((n) => n.comment.id);
    const firstReplies = (id: string) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('comments')
            .selectAll()
            .where('parent_id', '=', id)
            .where(readerVisible)
            .orderBy('created_at', 'asc')
            .orderBy('id', 'asc')
            .limit(COMMENTS_HTML_REPLIES_EACH)
            .as('reply'),
        )
        .selectAll();
    const [first, ...others] = ids.map(firstReplies);
    if (!first) break;
    const rows = await others.reduce((q, part) => q.unionAll(part), first).execute();
    level = [];
    for (const row of rows) {
      const parent = parents.get(row.parent_id ?? '');
      if (!parent || room === 0) continue;
      const node = { comment: toComment(row), replies: [] };
      parent.replies.push(node);
      level.push(node);
      room -= 1;
    }
    // Each parent's replies oldest first (a union keeps no order across its parts).
    for (const node of parents.values())
      node.replies.sort(
        (a, b) =>
          a.comment.createdAt.localeCompare(b.comment.createdAt) ||
          a.comment.id.localeCompare(b.comment.id),
      );
  }
  return nodes;
}

function flatten(nodes: Node[]): Comment[] {
  return nodes.flatMap((node) => [node.comment, ...flatten(node.replies)]);
}

/** The fragment's root: what embed.js replaces, named by the story it shows. */
function container(storyUrl: string, locale: string, inner: string): string {
  return `<section class="${COMMENTS_HTML_CLASS}" lang="${escapeHtml(locale)}" dir="${directionOf(locale)}" data-story-url="${escapeHtml(storyUrl)}">${inner}</section>`;
}

/** Where a comment opens in the host's page: the frame reads `?commentID=`. */
function permalinkOf(story: Story, comment: Comment): string {
  const url = new URL(story.url);
  url.searchParams.set('commentID', comment.id);
  return url.href;
}

function articleOf(
  story: Story,
  node: Node,
  nameOf: (comment: Comment) => string,
  t: EmailWriter['t'],
): string {
  const { comment, replies } = node;
  const permalink = escapeHtml(permalinkOf(story, comment));
  return (
    `<article id="parley-comment-${escapeHtml(comment.id)}">` +
    (shown(comment)
      ? `<header><strong>${escapeHtml(nameOf(comment))}</strong> ` +
        `<a href="${permalink}"><time datetime="${escapeHtml(comment.createdAt)}">${comment.createdAt.slice(0, 10)}</time></a></header>` +
        comment.bodyHtml
      : // Deleted by its author or removed by the moderators: said as the live thread says it.
        `<p>${escapeHtml(t('thread.removed'))}</p>`) +
    replies.map((reply) => articleOf(story, reply, nameOf, t)).join('') +
    // More replies than the page holds: the rest are in the live thread, at this comment.
    (replies.length < comment.replyCount
      ? `<p><a href="${permalink}">${escapeHtml(t('noScript.continue'))}</a></p>`
      : '') +
    `</article>`
  );
}

/** The story and its comments (this page's) as schema.org sees them. */
function discussion(
  story: Story,
  siteName: string | undefined,
  siteUrl: string | undefined,
  roots: Node[],
  nameOf: (comment: Comment) => string,
  /** Every visible comment of the story (the count.js count), not only this page's. */
  count: number,
): WithContext<DiscussionForumPosting> {
  const commentOf = (node: Node): SchemaComment => ({
    '@type': 'Comment',
    '@id': permalinkOf(story, node.comment),
    url: permalinkOf(story, node.comment),
    author: { '@type': 'Person', name: nameOf(node.comment) },
    datePublished: node.comment.createdAt,
    ...(node.comment.editedAt ? { dateModified: node.comment.editedAt } : {}),
    text: textOfHtml(node.comment.bodyHtml),
    ...(node.replies.some((reply) => shown(reply.comment))
      ? { comment: node.replies.filter((reply) => shown(reply.comment)).map(commentOf) }
      : {}),
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'DiscussionForumPosting',
    '@id': story.url,
    url: story.url,
    mainEntityOfPage: story.url,
    headline: story.title || story.url,
    // A posting needs text; the article's own is the host page's, so its title stands for it.
    text: story.title || story.url,
    datePublished: story.createdAt,
    // The article's own author is the host page's to state; the posting is the site's.
    author: {
      '@type': 'Organization',
      name: siteName ?? new URL(story.url).host,
      ...(siteUrl ? { url: siteUrl } : {}),
    },
    commentCount: count,
    // A removed comment is no schema.org Comment: it and the replies under it are left out here.
    comment: roots.filter((node) => shown(node.comment)).map(commentOf),
  };
}

/**
 * JSON-LD in a `<script>`: `<` written as `\u003c`, so no text in it (a comment's `</script>`)
 * can close the element; U+2028/2029 too, which some parsers end a line at.
 */
function jsonLd(value: object): string {
  const json = JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `<script type="application/ld+json">${json}</script>`;
}
