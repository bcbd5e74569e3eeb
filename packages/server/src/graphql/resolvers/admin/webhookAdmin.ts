/**
 * Configure › Webhooks in the API (webhooks/createWebhookDispatcher.ts sends). Only an admin
 * signed in (not an API token) adds, changes or deletes an endpoint, or rolls its secret: an
 * endpoint says where the organization's comments go. A secret is answered once, in the answer
 * that made it, as API tokens' are. The log, a test event and "send again" are any admin's.
 */
import { organizationChanged } from '../../events';
import { newId, inTransaction } from '../../../db/inTransaction';
import type { AuditChange, AuditTarget } from '../../../db/store/auditLog';
import {
  createWebhook,
  deleteWebhook,
  findWebhook,
  findWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  queueWebhookDeliveries,
  sealedWebhookSecret,
  updateWebhook,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  webhookSecretPurpose,
} from '../../../db/store/webhooks';
import type { Webhook, WebhookEventName } from '../../../db/store/webhooks';
import { ParleyError } from '../../../ParleyError';
import { checkWebhookUrl } from '../../../webhooks/postWebhook';
import { newWebhookSecret } from '../../../webhooks/signWebhook';
import { audit } from '../../audit';
import type { ParleyContext } from '../../context';
import { requireRole, requireSignedInAdmin } from '../../permissions';
import { webhookPayloads } from '../../webhookEvents';
import { findSiteById } from '../../../db/store/sites';
import type { Resolvers, WebhookEvent } from '../resolverTypes.generated';

/** Longest description, in characters. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
/** Most endpoints at once. */
export const WEBHOOKS_MAX = 20;
/** Longest URL, in characters. */
const URL_MAX_LENGTH = 2_000;

/** Secrets made during a request, by endpoint id. */
const freshSecrets = new WeakMap<ParleyContext, Map<string, string>>();

function rememberSecret(ctx: ParleyContext, id: string, secret: string): void {
  const secrets = freshSecrets.get(ctx) ?? new Map<string, string>();
  secrets.set(id, secret);
  freshSecrets.set(ctx, secrets);
}

/** `COMMENT_CREATED` ⇄ `comment.created`. */
const wireName = (event: WebhookEvent) => event.toLowerCase().replace('_', '.') as WebhookEventName;
const enumName = (event: WebhookEventName) => event.toUpperCase().replace('.', '_') as WebhookEvent;

/**
 * An endpoint's URL as the audit log says it: its origin only. For Slack and its kind the path is
 * the credential, and the audit log is read by every admin (and READ tokens).
 */
export function urlLabel(url: string): string {
  const { origin, pathname, search } = new URL(url);
  return pathname === '/' && search === '' ? origin : `${origin}/…`;
}

function target(webhook: Webhook): AuditTarget {
  return { type: 'webhook', id: webhook.id, label: urlLabel(webhook.url) };
}

function eventsOf(events: readonly WebhookEvent[]): WebhookEventName[] {
  const chosen = new Set(events.map(wireName));
  if (chosen.size === 0) {
    throw new ParleyError('INVALID_INPUT', 'Choose at least one event.', {
      field: 'events',
      problem: 'EVENTS_EMPTY',
    });
  }
  return WEBHOOK_EVENTS.filter((e) => chosen.has(e));
}

function descriptionOf(text: string | null | undefined): string {
  const trimmed = text?.trim() ?? '';
  if ([...trimmed].length > WEBHOOK_DESCRIPTION_MAX_LENGTH) {
    throw new ParleyError(
      'INVALID_INPUT',
      `A description can be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`,
      { field: 'description', problem: 'TOO_LONG', max: WEBHOOK_DESCRIPTION_MAX_LENGTH },
    );
  }
  return trimmed;
}

async function urlOf(ctx: ParleyContext, text: string): Promise<string> {
  if (text.length > URL_MAX_LENGTH) {
    throw new ParleyError('INVALID_INPUT', `A URL can be at most ${URL_MAX_LENGTH} characters.`, {
      field: 'url',
      problem: 'TOO_LONG',
      max: URL_MAX_LENGTH,
    });
  }
  const { webhooksAllowPrivateAddresses } = await ctx.settings();
  return checkWebhookUrl(text, webhooksAllowPrivateAddresses).href;
}

async function requireWebhook(ctx: ParleyContext, id: string): Promise<Webhook> {
  const webhook = await findWebhook(ctx.db, id);
  if (!webhook) throw new ParleyError('NOT_FOUND', 'No such webhook.', { field: 'webhookId' });
  return webhook;
}

/**
 * Attempts a delivery just queued, when this process sends deliveries; resolves it as it stands.
 * None was queued (undefined) when the endpoint was disabled or deleted meanwhile.
 */
async function deliverNow(ctx: ParleyContext, id: string | undefined) {
  const delivery =
    id === undefined
      ? undefined
      : ctx.webhooks
        ? await ctx.webhooks.deliverNow(id)
        : await findWebhookDelivery(ctx.db, id);
  if (!delivery)
    throw new ParleyError('NOT_FOUND', 'The delivery is gone (its endpoint was deleted).');
  return { delivery };
}

function requireEnabled(webhook: Webhook): void {
  if (!webhook.enabled) {
    throw new ParleyError('INVALID_INPUT', 'The endpoint is disabled: enable it first.', {
      field: 'webhookId',
    });
  }
}

export const webhookAdminResolvers = {
  Query: {
    webhooks: (_root, _args, ctx) => {
      requireRole(ctx, 'ADMIN');
      return listWebhooks(ctx.db);
    },
  },

  Mutation: {
    createWebhook: async (_root, { input }, ctx) => {
      requireSignedInAdmin(ctx, 'Webhooks');
      const values = {
        url: await urlOf(ctx, input.url),
        description: descriptionOf(input.description),
        events: eventsOf(input.events),
        enabled: input.enabled ?? true,
        format: input.format ?? 'STANDARD',
        siteId: input.siteId ?? null,
      };
      if (values.siteId !== null && !(await findSiteById(ctx.db, values.siteId))) {
        throw new ParleyError('NOT_FOUND', 'No such site.', { field: 'siteId' });
      }
      const secret = newWebhookSecret();
      const webhook = await inTransaction(ctx.db, async (trx) => {
        if ((await listWebhooks(trx)).length >= WEBHOOKS_MAX) {
          throw new ParleyError(
            'INVALID_INPUT',
            `At most ${WEBHOOKS_MAX} endpoints: delete one first.`,
            { field: 'url', problem: 'WEBHOOKS_MAX', max: WEBHOOKS_MAX },
          );
        }
        const made = await createWebhook(
          trx,
          values,
          (id) => ctx.box.seal(secret, webhookSecretPurpose(id)),
          ctx.now(),
        );
        await audit(ctx, trx, 'WEBHOOK_CREATE', target(made), [
          { field: 'events', before: null, after: made.events.join(' ') },
        ]);
        return made;
      });
      organizationChanged(ctx); // the events some endpoint takes
      rememberSecret(ctx, webhook.id, secret);
      return { webhook };
    },

    updateWebhook: async (_root, { input }, ctx) => {
      requireSignedInAdmin(ctx, 'Webhooks');
      const patch = {
        ...(input.url == null ? {} : { url: await urlOf(ctx, input.url) }),
        ...(input.description == null ? {} : { description: descriptionOf(input.description) }),
        ...(input.events == null ? {} : { events: eventsOf(input.events) }),
        ...(input.enabled == null ? {} : { enabled: input.enabled }),
      };
      if (patch.enabled === true && (await sealedWebhookSecret(ctx.db, input.webhookId)) === '') {
        throw new ParleyError(
          'INVALID_INPUT',
          'This endpoint lost its signing secret (PARLEY_SECRET changed): roll a new one first.',
          { field: 'enabled' },
        );
      }
      const webhook = await inTransaction(ctx.db, async (trx) => {
        const before = await findWebhook(trx, input.webhookId);
        if (!before) throw new ParleyError('NOT_FOUND', 'No such webhook.', { field: 'webhookId' });
        const after = (await updateWebhook(trx, before.id, patch, ctx.now())) ?? before;
        const changes: AuditChange[] = (['description', 'enabled'] as const)
          .filter((field) => before[field] !== after[field])
          .map((field) => ({ field, before: before[field], after: after[field] }));
        if (before.url !== after.url) {
          changes.push({ field: 'url', before: urlLabel(before.url), after: urlLabel(after.url) });
        }
        const [was, is] = [before.events.join(' '), after.events.join(' ')];
        if (was !== is) changes.push({ field: 'events', before: was, after: is });
        if (changes.length > 0) await audit(ctx, trx, 'WEBHOOK_UPDATE', target(after), changes);
        return after;
      });
      organizationChanged(ctx);
      return { webhook };
    },

    deleteWebhook: async (_root, { input }, ctx) => {
      requireSignedInAdmin(ctx, 'Webhooks');
      await inTransaction(ctx.db, async (trx) => {
        const webhook = await findWebhook(trx, input.webhookId);
        if (!webhook)
          throw new ParleyError('NOT_FOUND', 'No such webhook.', { field: 'webhookId' });
        await deleteWebhook(trx, webhook.id);
        await audit(ctx, trx, 'WEBHOOK_DELETE', target(webhook));
      });
      organizationChanged(ctx);
      return { webhookId: input.webhookId };
    },

    rollWebhookSecret: async (_root, { input }, ctx) => {
      requireSignedInAdmin(ctx, 'Webhooks');
      const secret = newWebhookSecret();
      const webhook = await inTransaction(ctx.db, async (trx) => {
        const before = await findWebhook(trx, input.webhookId);
        if (!before) throw new ParleyError('NOT_FOUND', 'No such webhook.', { field: 'webhookId' });
        const sealed = ctx.box.seal(secret, webhookSecretPurpose(before.id));
        const after =
          (await updateWebhook(trx, before.id, { secret: sealed }, ctx.now())) ?? before;
        await audit(ctx, trx, 'WEBHOOK_SECRET_ROLL', target(after));
        return after;
      });
      rememberSecret(ctx, webhook.id, secret);
      return { webhook };
    },

    sendTestWebhook: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const webhook = await requireWebhook(ctx, input.webhookId);
      requireEnabled(webhook);
      const at = ctx.now();
      const eventId = `evt_${newId()}`;
      const data = {
        webhook: { id: webhook.id, url: webhook.url },
        message: 'A test event from Parley: the endpoint is reached and the signature checks.',
      };
      const [id] = await queueWebhookDeliveries(
        ctx.db,
        {
          event: WEBHOOK_TEST_EVENT,
          eventId,
          payloads: webhookPayloads(WEBHOOK_TEST_EVENT, eventId, at, data, ctx.publicUrl),
        },
        at,
        webhook.id,
      );
      return deliverNow(ctx, id);
    },

    redeliverWebhook: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const delivery = await findWebhookDelivery(ctx.db, input.deliveryId);
      if (!delivery) {
        throw new ParleyError('NOT_FOUND', 'No such delivery.', { field: 'deliveryId' });
      }
      requireEnabled(await requireWebhook(ctx, delivery.webhookId));
      // The same body: it was made for this endpoint's format.
      const payloads = { STANDARD: delivery.payload, SLACK: delivery.payload };
      const [id] = await queueWebhookDeliveries(
        ctx.db,
        { ...delivery, payloads },
        ctx.now(),
        delivery.webhookId,
      );
      return deliverNow(ctx, id);
    },
  },

  Webhook: {
    events: (webhook) => webhook.events.map(enumName),
    secret: (webhook, _args, ctx) => freshSecrets.get(ctx)?.get(webhook.id) ?? null,
    deliveries: (webhook, args, ctx) => listWebhookDeliveries(ctx.db, webhook.id, args),
    site: (webhook, _args, ctx) =>
      webhook.siteId === null ? null : findSiteById(ctx.db, webhook.siteId),
  },
} satisfies Resolvers;
