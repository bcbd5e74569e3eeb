/**
 * Atom feeds (RFC 4287) of the latest published comments: of one story
 * (`/feeds/story.atom?url=<the story's URL>`) and of one site (`/feeds/site/<site id>.atom`), the
 * newest FEED_ENTRIES, for feed readers and other sites' tools. Each entry is one comment: its
 * author, its sanitized HTML, its permalink (`?commentID=` on the story, which the stream opens
 * at) as link and id. Written by the `feed` package; tested against the RFC's rules.
 *
 * Anonymous like a reader without an account: with "anonymous reading" off they answer 401.
 * Errors are plain text, `CODE: what went wrong`, with the HTTP status that fits. Answers may be
 * kept a minute (`max-age=60`): feed readers poll.
 */
import { Feed } from 'feed';
import { listRecentComments } from '../db/store/commentQueries';
import type { RecentScope } from '../db/store/commentQueries';
import type { Db } from '../db/inTransaction';
import type { Settings } from '../db/store/organization';
import { findSiteById } from '../db/store/sites';
import { findStoryByUrl } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import { findUsersByIds } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';

/** Where the feeds are served. */
export const FEEDS_PREFIX = '/feeds/';
/** Comments a feed holds, newest first. */
export const FEED_ENTRIES = 20;
/** How long a reader or a proxy may keep a feed, in seconds. */
const FEED_MAX_AGE_SECONDS = 60;

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

// Characters XML 1.0 does not allow in a document, and the end of a CDATA section (titles and
// content go out as CDATA): a comment could hold either.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (value: string) => value.replace(NOT_XML, '').replaceAll(']]>', ']]&gt;');
// An entry's title goes out as HTML (the `feed` package's type="html"): its text escaped.
const htmlText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

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
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        body: `${error.code}: ${error.message}\n`,
      };
    }
  };
}

async function requireAnonymousReading(deps: FeedDeps): Promise<void> {
  if (!(await deps.settings()).anonymousReading) {
    throw new ParleyError('UNAUTHENTICATED', 'This site’s comments are for signed-in readers.');
  }
}

async function siteFeed(deps: FeedDeps, siteId: string): Promise<FeedAnswer> {
  await requireAnonymousReading(deps);
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
  await requireAnonymousReading(deps);
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
  const stories = new Map<string, Pick<Story, 'url' | 'title'>>(
    of.story ? [[of.story.id, of.story]] : [],
  );
  if (!of.story && storyIds.length) {
    const rows = await deps.db
      .selectFrom('stories')
      .select(['id', 'url', 'title'])
      .where('id', 'in', storyIds)
      .execute();
    for (const row of rows) stories.set(row.id, row);
  }
  const authors = new Map(
    (await findUsersByIds(deps.db, [...new Set(comments.map((c) => c.authorId))])).map((u) => [
      u.id,
      u.username,
    ]),
  );
  const updatedOf = (c: (typeof comments)[number]) => c.editedAt ?? c.createdAt;
  const feed = new Feed({
    id: of.self,
    title: xmlText(of.title),
    link: of.home,
    updated: new Date(comments[0] ? updatedOf(comments[0]) : of.since),
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
    // The Markdown the author wrote, as plain text on one line.
    const text = comment.bodySource.replace(NOT_XML, '').replace(/\s+/g, ' ').trim();
    feed.addItem({
      title: xmlText(htmlText(`${author}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`)),
      id: permalink.href,
      link: permalink.href,
      date: new Date(updatedOf(comment)),
      published: new Date(comment.createdAt),
      content: xmlText(comment.bodyHtml),
      author: [{ name: xmlText(author) }],
    });
  }
  return {
    status: 200,
    headers: {
      'content-type': 'application/atom+xml; charset=utf-8',
      'cache-control': `public, max-age=${FEED_MAX_AGE_SECONDS}`,
    },
    body: feed.atom1(),
  };
}
