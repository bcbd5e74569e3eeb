/**
 * Atom feeds (RFC 4287) of the latest published comments: of one story
 * (`/feeds/story.atom?url=<the story's URL>`) and of one site (`/feeds/site/<site id>.atom`), the
 * newest FEED_ENTRIES, for feed readers and other sites' tools. Each entry is one comment: its
 * author, its sanitized HTML, its permalink (`?commentID=` on the story, which the stream opens
 * at) as link and id. Written by the `feed` package; tested against the RFC's rules.
 *
 * Anonymous like a reader without an account: with "anonymous reading" off they answer 401.
 * Errors are plain text, `CODE: what went wrong`, with the HTTP status that fits. Answers may be
 * kept a minute (`max-age=60`) and carry an ETag (304 to a poller holding it): feed readers poll.
 * Entry titles are the comment's text as readers see it, from its sanitized HTML, never its
 * Markdown source (the author's and moderators' alone).
 */
import { createHash } from 'node:crypto';
import { Feed } from 'feed';
import { listRecentComments } from '../db/store/commentQueries';
import type { RecentScope } from '../db/store/commentQueries';
import type { Db } from '../db/inTransaction';
import type { Settings } from '../db/store/organization';
import { findSiteById } from '../db/store/sites';
import { findStoriesByIds, findStoryByUrl } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import { findUsersByIds } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import { requireAnonymousReading } from '../graphql/permissions';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';
import { DOCUMENT_HEADERS } from '../runtime/documentSecurity';

/** Where the feeds are served. */
export const FEEDS_PREFIX = '/feeds/';
/** Comments a feed holds, newest first. */
export const FEED_ENTRIES = 20;
/** How long a reader or a proxy may keep a feed, in seconds. */
const FEED_MAX_AGE_SECONDS = 60;

/**
 * On every answer: a document of Parley's origin that runs nothing and is read as what it says
 * (as the static files and pages go out), and open to other sites' scripts (a feed is public).
 */
const FEED_HEADERS = {
  ...DOCUMENT_HEADERS,
  'content-security-policy': "default-src 'none'; sandbox",
  'access-control-allow-origin': '*',
};

/** A feed's answer. */
export interface FeedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the feeds read. */
export interface FeedDeps {
  db: Db;
  /** The server's public URL, without a trailing slash (the feeds' own links). */
  publicUrl: string;
  /** Settings in force (anonymous reading). */
  settings(): Promise<Settings>;
}

/** Answers a feed's URL; undefined for a path under FEEDS_PREFIX that names no feed. */
export type FeedHandler = (url: URL) => Promise<FeedAnswer | undefined>;

// A site id is a UUID: nothing in it is escaped in a path.
const SITE_FEED = /^\/feeds\/site\/([\w-]+)\.atom$/;
const STORY_FEED = '/feeds/story.atom';

// Characters XML 1.0 does not allow in a document: a comment, a name or a title could hold one.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (value: string) => value.replace(NOT_XML, '');
// What goes out as CDATA (an entry's title and content, as HTML): never the section's end, which
// the `feed` package (xml-js) would leave in place. In HTML, `&gt;` reads as `>`.
const cdataHtml = (value: string) => xmlText(value).replaceAll(']]>', ']]&gt;');
const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
/**
 * The text of a comment's sanitized HTML (what a signed-out reader is shown: never the Markdown
 * source, which is the author's and moderators'), on one line. markdown-it and sanitize-html
 * write only these entities.
 */
const textOf = (html: string) =>
  xmlText(html)
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The feeds' handler. */
export function createFeeds(deps: FeedDeps): FeedHandler {
  return async (url) => {
    try {
      const siteId = SITE_FEED.exec(url.pathname)?.[1];
      if (siteId !== undefined) return await siteFeed(deps, siteId);
      if (url.pathname === STORY_FEED) return await storyFeed(deps, url.searchParams.get('url'));
      return undefined;
    } catch (error) {
      if (!(error instanceof ParleyError)) throw error;
      const status =
        { INVALID_INPUT: 400, UNAUTHENTICATED: 401, NOT_FOUND: 404 }[error.code as string] ?? 500;
      return {
        status,
        headers: {
          ...FEED_HEADERS,
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
        },
        body: `${error.code}: ${error.message}\n`,
      };
    }
  };
}

async function siteFeed(deps: FeedDeps, siteId: string): Promise<FeedAnswer> {
  requireAnonymousReading(await deps.settings());
  const site = await findSiteById(deps.db, siteId);
  if (!site) throw new ParleyError('NOT_FOUND', 'There is no such site.');
  return render(deps, {
    self: `${deps.publicUrl}/feeds/site/${site.id}.atom`,
    title: `Latest comments on ${site.name}`,
    authorName: site.name,
    home: site.url,
    since: site.createdAt,
    scope: { siteId: site.id },
  });
}

async function storyFeed(deps: FeedDeps, value: string | null): Promise<FeedAnswer> {
  requireAnonymousReading(await deps.settings());
  if (!value) throw new ParleyError('INVALID_INPUT', 'Name the story: ?url=<its URL>.');
  const key = canonicalStoryUrl(value).toString();
  // Never created by a feed: a story exists once a reader opened it.
  const story = await findStoryByUrl(deps.db, key);
  if (!story) throw new ParleyError('NOT_FOUND', 'No story has this URL yet.');
  const site = await findSiteById(deps.db, story.siteId);
  return render(deps, {
    authorName: site?.name ?? story.url,
    self: `${deps.publicUrl}${STORY_FEED}?url=${encodeURIComponent(story.url)}`,
    title: `Comments on “${story.title || story.url}”`,
    home: story.url,
    since: story.createdAt,
    scope: { storyId: story.id },
    story,
  });
}

interface FeedOf {
  /** The feed's own URL: its id and its `self` link. */
  self: string;
  title: string;
  /** The page the feed is about. */
  home: string;
  /** Who the feed is by: the site's name. */
  authorName: string;
  /** Its `updated` while it has no entry. */
  since: string;
  scope: RecentScope;
  /** The story, when the feed is one story's (else each entry's is read). */
  story?: Story;
}

async function render(deps: FeedDeps, of: FeedOf): Promise<FeedAnswer> {
  const comments = await listRecentComments(deps.db, of.scope, FEED_ENTRIES);
  const storyIds = [...new Set(comments.map((c) => c.storyId))];
  const stories = of.story
    ? new Map([[of.story.id, of.story]])
    : await findStoriesByIds(deps.db, storyIds);
  const authors = new Map(
    (await findUsersByIds(deps.db, [...new Set(comments.map((c) => c.authorId))])).map((u) => [
      u.id,
      u.username,
    ]),
  );
  const updatedOf = (c: (typeof comments)[number]) => c.editedAt ?? c.createdAt;
  // The latest change of any entry (an edit can be newer than the newest comment).
  const updated = comments.map(updatedOf).sort().at(-1) ?? of.since;
  const feed = new Feed({
    id: of.self,
    title: xmlText(of.title),
    link: of.home,
    updated: new Date(updated),
    copyright: '',
    generator: 'Parley',
    feedLinks: { atom: of.self },
    // The feed's author stands for every entry (RFC 4287 4.1.1): an entry names its own.
    author: { name: xmlText(of.authorName) },
  });
  for (const comment of comments) {
    const story = stories.get(comment.storyId);
    if (!story) continue; // its story went between the two reads
    const permalink = new URL(story.url);
    permalink.searchParams.set('commentID', comment.id);
    const author = authors.get(comment.authorId) ?? 'Deleted user';
    const text = textOf(comment.bodyHtml);
    feed.addItem({
      title: cdataHtml(
        escapeHtml(`${author}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`),
      ),
      id: permalink.href,
      link: permalink.href,
      date: new Date(updatedOf(comment)),
      published: new Date(comment.createdAt),
      content: cdataHtml(comment.bodyHtml),
      author: [{ name: xmlText(author) }],
    });
  }
  const body = feed.atom1();
  return {
    status: 200,
    headers: {
      ...FEED_HEADERS,
      'content-type': 'application/atom+xml; charset=utf-8',
      'cache-control': `public, max-age=${FEED_MAX_AGE_SECONDS}`,
      // A poller holding this feed is answered 304 (the HTTP route compares).
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    },
    body,
  };
}
