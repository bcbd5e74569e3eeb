/**
 * Atom feeds (RFC 4287) of the latest published comments: of one story
 * (`/feeds/story.atom?url=<the story's URL>`) and of one site (`/feeds/site/<site id>.atom`), the
 * newest FEED_ENTRIES, for feed readers and other sites' tools; and the private feed of replies to
 * one reader's comments (`/feeds/replies/<key>.atom`, the key made by `makeRepliesFeed`). Each entry is one comment: its
 * author, its sanitized HTML, its permalink (`?commentID=` on the story, which the stream opens
 * at) as link and id. Written by the `feed` package; tested against the RFC's rules.
 *
 * The public feeds are anonymous like a reader without an account: with "anonymous reading" off
 * they answer 401. A replies feed reads as its reader (their key is their sign-in), so it answers
 * whatever that setting; it leaves out what they ignore, and goes out `private`, without CORS.
 * Errors are plain text, `CODE: what went wrong`, with the HTTP status that fits. Answers may be
 * kept a minute (`max-age=60`) and carry an ETag (304 to a poller holding it): feed readers poll.
 * Entry titles are the comment's text as readers see it, from its sanitized HTML, never its
 * Markdown source (the author's and moderators' alone).
 */
import { createHash } from 'node:crypto';
import { Feed } from 'feed';
import { listRecentComments, listRepliesTo } from '../db/store/commentQueries';
import type { Db } from '../db/inTransaction';
import type { Settings } from '../db/store/organization';
import { findSiteById } from '../db/store/sites';
import { findStoriesByIds, findStoryByUrl } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import type { Comment } from '../db/store/comments';
import { findUserByRepliesFeedKey, findUsersByIds } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import { requireAnonymousReading } from '../graphql/permissions';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';
import { DOCUMENT_HEADERS } from '../runtime/documentSecurity';
import { escapeHtml, textOfHtml } from '../markdown/renderComment';

/** Where the feeds are served. */
export const FEEDS_PREFIX = '/feeds/';
/** Comments a feed holds, newest first. */
export const FEED_ENTRIES = 20;
/** How long a reader or a proxy may keep a feed (or the comments' HTML), in seconds. */
export const FEED_MAX_AGE_SECONDS = 60;

/**
 * On every answer: a document of Parley's origin that runs nothing and is read as what it says
 * (as the static files and pages go out), and open to other sites' scripts (a feed is public).
 */
export const FEED_HEADERS = {
  ...DOCUMENT_HEADERS,
  'content-security-policy': "default-src 'none'; sandbox",
  'access-control-allow-origin': '*',
};

/** A private feed's: the same, read by no other site's script. */
const { 'access-control-allow-origin': _anyOrigin, ...PRIVATE_FEED_HEADERS } = FEED_HEADERS;

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
// A replies feed's key is base64url (makeRepliesFeedKey).
const REPLIES_FEED = /^\/feeds\/replies\/([\w-]+)\.atom$/;

/** Where a reader's private feed of replies is, for the key `makeRepliesFeed` made. */
export function repliesFeedUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/feeds/replies/${key}.atom`;
}

/** A public feed's caching and CORS. */
const PUBLIC = { cacheControl: `public, max-age=${FEED_MAX_AGE_SECONDS}`, cors: true };

// Characters XML 1.0 does not allow in a document: a comment, a name or a title could hold one.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (value: string) => value.replace(NOT_XML, '');
// What goes out as CDATA (an entry's title and content, as HTML): never the section's end, which
// the `feed` package (xml-js) would leave in place. In HTML, `&gt;` reads as `>`.
const cdataHtml = (value: string) => xmlText(value).replaceAll(']]>', ']]&gt;');
/** The text of a comment's sanitized HTML, on one line, without what XML cannot hold. */
const textOf = (html: string) => textOfHtml(xmlText(html));

/** The feeds' handler. */
export function createFeeds(deps: FeedDeps): FeedHandler {
  return async (url) => {
    try {
      const siteId = SITE_FEED.exec(url.pathname)?.[1];
      if (siteId !== undefined) return await siteFeed(deps, siteId);
      if (url.pathname === STORY_FEED) return await storyFeed(deps, url.searchParams.get('url'));
      const key = REPLIES_FEED.exec(url.pathname)?.[1];
      if (key !== undefined) return await repliesFeed(deps, key);
      return undefined;
    } catch (error) {
      if (error instanceof ParleyError) return plainTextError(error);
      throw error;
    }
  };
}

/** A refused request's answer: `CODE: what went wrong`, in plain text, with the status that fits. */
export function plainTextError(error: ParleyError): FeedAnswer {
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
    comments: () => listRecentComments(deps.db, { siteId: site.id }, FEED_ENTRIES),
    ...PUBLIC,
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
    comments: () => listRecentComments(deps.db, { storyId: story.id }, FEED_ENTRIES),
    story,
    ...PUBLIC,
  });
}

async function repliesFeed(deps: FeedDeps, key: string): Promise<FeedAnswer> {
  const user = await findUserByRepliesFeedKey(deps.db, key);
  // The same answer for a key never made and one replaced: the link is what it has.
  if (!user)
    throw new ParleyError('NOT_FOUND', 'This feed link is not valid (it may have been replaced).');
  const self = repliesFeedUrl(deps.publicUrl, key);
  return render(deps, {
    self,
    title: `Replies to ${user.username}`,
    authorName: user.username,
    since: user.createdAt,
    comments: () => listRepliesTo(deps.db, user.id, FEED_ENTRIES),
    // A reader's own: kept by their feed reader only, and read by no other site's script.
    cacheControl: `private, max-age=${FEED_MAX_AGE_SECONDS}`,
    cors: false,
  });
}

interface FeedOf {
  /** The feed's own URL: its id and its `self` link. */
  self: string;
  title: string;
  /** The page the feed is about (its alternate link); none for a reader's replies. */
  home?: string;
  /** Who the feed is by: the site's name. */
  authorName: string;
  /** Its `updated` while it has no entry. */
  since: string;
  /** Its entries, newest first. */
  comments(): Promise<Comment[]>;
  /** Its Cache-Control. */
  cacheControl: string;
  /** Whether other sites' scripts may read it (CORS `*`). */
  cors: boolean;
  /** The story, when the feed is one story's (else each entry's is read). */
  story?: Story;
}

async function render(deps: FeedDeps, of: FeedOf): Promise<FeedAnswer> {
  const comments = await of.comments();
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
      ...(of.cors ? FEED_HEADERS : PRIVATE_FEED_HEADERS),
      'content-type': 'application/atom+xml; charset=utf-8',
      'cache-control': of.cacheControl,
      // A poller holding this feed is answered 304 (the HTTP route compares).
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    },
    body,
  };
}
