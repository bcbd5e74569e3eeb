import { filter, map, pipe } from 'graphql-yoga';
import { findCommentById, isVisibleStatus } from '../../db/store/comments';
import type { Comment } from '../../db/store/comments';
import { listIgnoredIds } from '../../db/store/userModeration';
import type { CommentEvent } from '../../pubsub/createPubSub';
import { ParleyError } from '../../ParleyError';
import { accessCheckOnly, noResults } from '../../runtime/shareSubscriptions';
import type { ParleyContext } from '../context';
import { staffSessionHolds } from '../context';
import { requireReader } from '../permissions';
import type { Resolvers } from './resolverTypes.generated';

/**
 * Who may follow a story live: anyone when anonymous reading is on, else the signed-in; never
 * when live updates are off for the story (the stream then shows a refresh hint instead).
 */
async function checkLiveAccess(ctx: ParleyContext, storyId: string): Promise<void> {
  const story = await ctx.loaders.story.load(storyId);
  if (!story) throw new ParleyError('NOT_FOUND', 'There is no such story.', { field: 'storyId' });
  await requireReader(ctx);
  const settings = await ctx.settings();
  if (!(story.liveUpdates ?? settings.liveUpdates)) {
    throw new ParleyError('FORBIDDEN', 'Live updates are off for this story.');
  }
}

/**
 * Turns a story's events into fresh comments. A subscription lives for hours, so the per-request
 * loaders are emptied for each event (an author renamed since, a parent edited since). The
 * viewer's ignore list is read once, when the subscription starts: reading it per event would
 * cost a query per comment per reader, and the widget hides a newly ignored user on its side.
 *
 * A plain pipe over the pub/sub iterator, not a generator around it: a generator waiting for the
 * next event cannot be returned, so a reader who leaves a quiet story would pin its listener.
 */
async function freshComments(
  ctx: ParleyContext,
  events: AsyncIterable<CommentEvent>,
  keep: (comment: Comment) => boolean = () => true,
): Promise<AsyncIterable<Comment>> {
  const ignored = ctx.viewer ? new Set(await listIgnoredIds(ctx.db, ctx.viewer.id)) : new Set();
  return pipe(
    events,
    map(async (event: CommentEvent) => {
      // A script's token is asked again at each event (tokens are few): revoked, it ends here,
      // before any staff field of a held or rejected comment goes out.
      if (ctx.apiToken !== null && !(await staffSessionHolds(ctx))) {
        throw new ParleyError('TOKEN_INVALID', 'This API token no longer works.', {
          httpStatus: 401,
        });
      }
      for (const loader of Object.values(ctx.loaders)) loader.clearAll();
      // One event that cannot be read (the database away for a moment) is skipped, logged: a
      // rejection here would end the subscription — for every reader sharing it.
      return commentOf(ctx, event).catch((error: unknown) => {
        ctx.logger.error({ err: error, event }, 'A live update could not be read; skipped');
        return undefined;
      });
    }),
    filter(
      (comment): comment is Comment =>
        comment !== undefined && !ignored.has(comment.authorId) && keep(comment),
    ),
  );
}

/**
 * The comment an event is about, read once per event and database however many subscriptions
 * of this process receive it: every listener gets the same event object (in process and from
 * Redis alike), and the row is the same for all — what each viewer may see of it is decided as
 * their selection resolves.
 */
const loaded = new WeakMap<object, WeakMap<CommentEvent, Promise<Comment | undefined>>>();
function commentOf(ctx: ParleyContext, event: CommentEvent): Promise<Comment | undefined> {
  let byEvent = loaded.get(ctx.db);
  if (byEvent === undefined) loaded.set(ctx.db, (byEvent = new WeakMap()));
  let comment = byEvent.get(event);
  if (comment === undefined) {
    byEvent.set(event, (comment = findCommentById(ctx.db, event.commentId)));
    // A failed read is not kept: the next subscriber of the event tries again.
    comment.catch(() => byEvent.delete(event));
  }
  return comment;
}

export const subscriptionsResolvers = {
  Subscription: {
    commentCreated: {
      subscribe: async (root, { storyId }, ctx) => {
        await checkLiveAccess(ctx, storyId);
        if (accessCheckOnly(root)) return noResults();
        return freshComments(ctx, ctx.pubsub.subscribe('commentCreated', storyId), (comment) =>
          isVisibleStatus(comment.status),
        );
      },
      resolve: (comment: Comment) => comment,
    },
    // Every change goes out, removals included (a rejected comment leaves the stream); the
    // Comment type hides the body of a comment the reader may not see.
    commentUpdated: {
      subscribe: async (root, { storyId }, ctx) => {
        await checkLiveAccess(ctx, storyId);
        if (accessCheckOnly(root)) return noResults();
        return freshComments(ctx, ctx.pubsub.subscribe('commentUpdated', storyId));
      },
      resolve: (comment: Comment) => comment,
    },
  },
} satisfies Resolvers;
