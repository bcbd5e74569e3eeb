/**
 * What the resolvers tell webhooks (webhooks/createWebhookDispatcher.ts). An event is queued right
 * after the change it reports is stored, by the process that made it, once per endpoint that takes
 * it; when no enabled endpoint takes it (the organization row says, read once per request anyway),
 * it costs no query at all. Queuing never fails the change: an error is logged.
 *
 * Every body is `{ id, type, createdAt, data }`; `data` holds ids, names, links and the comment's
 * text — never an email or an IP address.
 */
import { newId } from '../db/inTransaction';
import type { Comment } from '../db/store/comments';
import type { Story } from '../db/store/stories';
import type { User } from '../db/store/users';
import { queueWebhookDeliveries } from '../db/store/webhooks';
import type { WebhookEventName } from '../db/store/webhooks';
import type { WebhookFormat } from '../db/schema';
import { slackBody } from '../webhooks/slackMessage';
import type { ParleyContext } from './context';
import { permalink } from './resolvers/notifications';

/** A person as a webhook names them. */
const personOf = (user: Pick<User, 'id' | 'username'>) => ({
  id: user.id,
  username: user.username,
});

/** A story as a webhook shows it. */
export const storyData = (story: Story) => ({
  id: story.id,
  siteId: story.siteId,
  url: story.url,
  title: story.title,
  createdAt: story.createdAt,
});

/** A comment as a webhook shows it, with its story; undefined when either is gone. */
export async function commentData(ctx: ParleyContext, comment: Comment) {
  const [story, author] = await Promise.all([
    ctx.loaders.story.load(comment.storyId),
    ctx.loaders.user.load(comment.authorId),
  ]);
  if (!story) return undefined;
  return {
    comment: {
      id: comment.id,
      url: permalink(story.url, comment.id),
      parentId: comment.parentId,
      status: comment.status,
      heldBecause: comment.heldBecause ?? [],
      body: comment.bodyHtml,
      bodySource: comment.bodySource,
      createdAt: comment.createdAt,
      editedAt: comment.editedAt,
      author: author ? personOf(author) : null,
    },
    story: storyData(story),
  };
}

/** The viewer who acted, as `moderator` in a body; null when the system did. */
export function actorData(ctx: ParleyContext) {
  return ctx.viewer ? personOf(ctx.viewer) : null;
}

/** A user acted on, as a body's `user`. */
export const userData = personOf;

/** The event's body in each format: signed JSON (`{ id, type, createdAt, data }`) and Slack's. */
export function webhookPayloads(
  type: string,
  id: string,
  at: Date,
  data: unknown,
  publicUrl: string,
): Record<WebhookFormat, string> {
  return {
    STANDARD: JSON.stringify({ id, type, createdAt: at.toISOString(), data }),
    SLACK: slackBody(type, data, publicUrl),
  };
}

/**
 * Queues `event` for the endpoints that take it; `data` is built only when one does (undefined:
 * nothing to say, such as a comment whose story is gone).
 */
export async function emitWebhookEvent(
  ctx: ParleyContext,
  event: WebhookEventName,
  data: () => Promise<object | undefined> | object | undefined,
): Promise<void> {
  try {
    const organization = await ctx.organization();
    if (!organization?.webhookEvents.includes(event)) return;
    const body = await data();
    if (body === undefined) return;
    const at = ctx.now();
    const eventId = `evt_${newId()}`;
    // A comment's or a story's event is its site's; a user's is every site's.
    const about = body as {
      story?: { siteId?: string };
      comment?: { id: string; author: { id: string } | null };
      user?: { id: string };
    };
    const site = about.story?.siteId;
    const queued = await queueWebhookDeliveries(
      ctx.db,
      {
        event,
        eventId,
        ...(site === undefined ? {} : { siteId: site }),
        commentId: about.comment?.id ?? null,
        userId: about.comment?.author?.id ?? about.user?.id ?? null,
        payloads: webhookPayloads(event, eventId, at, body, ctx.publicUrl),
      },
      at,
    );
    if (queued.length > 0) ctx.webhooks?.soon();
  } catch (error) {
    ctx.logger.error({ err: error, event }, 'A webhook event could not be queued');
  }
}
