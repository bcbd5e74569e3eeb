import { COMMENT_COUNTS_MAX_URLS } from '@parley/contract';
import { findSiteById, findSiteByOrigin } from '../../db/store/sites';
import {
  findOrCreateStory,
  findStoriesByUrls,
  findStoryById,
  findStoryByUrl,
  countStoryComments,
} from '../../db/store/stories';
import type { Story } from '../../db/store/stories';
import type { Settings } from '../../db/store/organization';
import { STORY_URL_MAX_LENGTH } from '../../defaults';
import { emitWebhookEvent, storyData } from '../webhookEvents';
import { ParleyError } from '../../ParleyError';
import { listCommentsSince, listRecentComments } from '../../db/store/commentQueries';
import { listIgnoredIds } from '../../db/store/userModeration';
import { requireReader } from '../permissions';
import type { Resolvers } from './resolverTypes.generated';
import { canSeeComment } from './types';
import { ipKey } from '../context';

/** Most URLs one `commentCounts` takes (written once, in @parley/contract). */
export { COMMENT_COUNTS_MAX_URLS };
/**
 * Most comments `commentsSince` answers. A reader away long enough to miss more than this gets
 * the oldest ones; the thread's next load has the rest.
 */
export const COMMENTS_SINCE_MAX = 100;
/**
 * The furthest back `commentsSince` looks: a reader away longer gets what the last hour brought
 * (a `since` of 1970 must not read a whole story); the thread's next load has the rest.
 */
export const COMMENTS_SINCE_WINDOW_MS = 3_600_000;

/** Most comments `recentComments` answers (recent.js's `data-count`), and how many by default. */
export const RECENT_COMMENTS_MAX = 20;
export const RECENT_COMMENTS_DEFAULT = 5;

const DAY_MS = 86_400_000;

/** OPEN or CLOSED, counting the organization's "close comments after N days". */
export function effectiveStoryStatus(
  story: Story,
  settings: Settings,
  now: Date,
): 'OPEN' | 'CLOSED' {
  if (story.status === 'CLOSED') return 'CLOSED';
  const { closeAfterDays } = settings;
  if (
    closeAfterDays > 0 &&
    now.getTime() - new Date(story.createdAt).getTime() > closeAfterDays * DAY_MS
  ) {
    return 'CLOSED';
  }
  return 'OPEN';
}

/**
 * A story URL as Parley keys it: http(s) only, without the fragment (`#comments` is the same
 * article) and without tracking parameters (`utm_source`, `fbclid`…); the rest of the query string
 * stays, since many sites identify articles by it (`?p=123`).
 */
export function canonicalStoryUrl(value: string): URL {
  if (value.length > STORY_URL_MAX_LENGTH) {
    throw new ParleyError(
      'INVALID_INPUT',
      `A story URL can be at most ${STORY_URL_MAX_LENGTH} characters.`,
      { field: 'url' },
    );
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ParleyError('INVALID_INPUT', 'Expected the story’s URL.', { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ParleyError('INVALID_INPUT', 'Expected an http(s) URL.', { field: 'url' });
  }
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) {
    if (TRACKING_PARAMETER.test(name)) url.searchParams.delete(name);
  }
  return url;
}

/** Campaign and click ids that shares add to a URL: the same article, not a new thread. */
const TRACKING_PARAMETER = /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|ref_src)$/i;

export const storiesResolvers = {
  Query: {
    story: async (_root, args, ctx) => {
      await requireReader(ctx);
      if (args.id) return (await findStoryById(ctx.db, args.id)) ?? null;
      if (!args.url) {
        throw new ParleyError('INVALID_INPUT', 'Give the story’s id or URL.', { field: 'url' });
      }
      if (!(await ctx.organization())) {
        throw new ParleyError('NOT_INSTALLED', 'Parley is not installed yet.');
      }
      const url = canonicalStoryUrl(args.url);
      const site = await findSiteByOrigin(ctx.db, url.origin);
      if (!site) {
        throw new ParleyError(
          'ORIGIN_NOT_PERMITTED',
          `${url.origin} is not a permitted origin of any site. Add it to the site’s permitted origins in the console.`,
          { field: 'url' },
        );
      }
      const existing = await findStoryByUrl(ctx.db, url.toString());
      if (existing) return existing;
      if (ctx.readOnly) return null;
      // Only creating costs: reading an existing story is free, inventing URLs is limited.
      await ctx.rateLimiter.consume('storyCreate', ipKey(ctx));
      const { story, created } = await findOrCreateStory(ctx.db, {
        siteId: site.id,
        url: url.toString(),
        title: args.title?.trim().slice(0, 300) ?? '',
      });
      if (created)
        await emitWebhookEvent(ctx, 'story.created', () => ({ story: storyData(story) }));
      return story;
    },

    comment: async (_root, { id }, ctx) => {
      await requireReader(ctx);
      const comment = await ctx.loaders.comment.load(id);
      return comment && canSeeComment(comment, ctx) ? comment : null;
    },

    recentComments: async (_root, { siteId, storyURL, first }, ctx) => {
      await requireReader(ctx);
      const limit = first ?? RECENT_COMMENTS_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > RECENT_COMMENTS_MAX) {
        throw new ParleyError('INVALID_INPUT', `Ask for 1 to ${RECENT_COMMENTS_MAX} comments.`, {
          field: 'first',
        });
      }
      if (siteId != null && storyURL != null) {
        throw new ParleyError('INVALID_INPUT', 'Name a site (siteId) or a story, not both.', {
          field: 'storyURL',
        });
      }
      if (storyURL != null) {
        let key: string;
        try {
          key = canonicalStoryUrl(storyURL).toString();
        } catch (error) {
          if (!(error instanceof ParleyError)) throw error;
          throw new ParleyError(error.code, error.message, { field: 'storyURL' });
        }
        const story = await findStoryByUrl(ctx.db, key);
        return story ? listRecentComments(ctx.db, { storyId: story.id }, limit) : [];
      }
      if (siteId == null) {
        throw new ParleyError('INVALID_INPUT', 'Name a site (siteId) or a story (storyURL).', {
          field: 'siteId',
        });
      }
      const site = await findSiteById(ctx.db, siteId);
      if (!site) {
        throw new ParleyError('NOT_FOUND', 'There is no such site.', { field: 'siteId' });
      }
      return listRecentComments(ctx.db, { siteId: site.id }, limit);
    },

    commentsSince: async (_root, { storyId, since }, ctx) => {
      await requireReader(ctx);
      const earliest = new Date(ctx.now().getTime() - COMMENTS_SINCE_WINDOW_MS);
      const from = since < earliest ? earliest : since;
      const comments = await listCommentsSince(ctx.db, storyId, from, COMMENTS_SINCE_MAX);
      if (!ctx.viewer) return comments;
      const ignored = new Set(await listIgnoredIds(ctx.db, ctx.viewer.id));
      return comments.filter((comment) => !ignored.has(comment.authorId));
    },

    commentCounts: async (_root, { urls }, ctx) => {
      if (urls.length > COMMENT_COUNTS_MAX_URLS) {
        throw new ParleyError('INVALID_INPUT', `At most ${COMMENT_COUNTS_MAX_URLS} URLs at once.`, {
          field: 'urls',
        });
      }
      // Counting never creates stories: a list page must not create one per link it shows. Two
      // queries whatever the number of links: the stories, then their counts.
      const keys = urls.map((value) => {
        try {
          return canonicalStoryUrl(value).toString();
        } catch {
          return undefined; // not a story URL: counts 0
        }
      });
      const found = await findStoriesByUrls(
        ctx.db,
        keys.filter((key): key is string => key !== undefined),
      );
      const ids = [...found.values()].map((story) => story.id);
      const counts = ids.length ? await countStoryComments(ctx.db, ids) : new Map<string, number>();
      return keys.map((key) => {
        const story = key === undefined ? undefined : found.get(key);
        return story ? (counts.get(story.id) ?? 0) : 0;
      });
    },
  },

  Story: {
    status: async (story, _args, ctx) =>
      effectiveStoryStatus(story, await ctx.settings(), ctx.now()),
  },
} satisfies Resolvers;
