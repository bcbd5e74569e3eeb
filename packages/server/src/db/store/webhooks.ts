/**
 * Webhook endpoints and their deliveries (webhooks/createWebhookDispatcher.ts). An event becomes
 * one delivery row per enabled endpoint that takes it, written by the process that saw the event;
 * a process sends a delivery by claiming it (`claimed_until`, one conditional update only one
 * process can win, as the mail queue does), so with several instances each delivery is attempted
 * by one of them at a time, and a delivered one is never sent again by the queue.
 */
import type { Selectable } from 'kysely';
import type { SealPurpose } from '../../auth/secretBox';
import { isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type {
  WebhookDeliveriesTable,
  WebhookDeliveryState,
  WebhookFormat,
  WebhooksTable,
} from '../schema';
import { commentIdsOf, isEmptyScope } from './commentScope';
import type { CommentScope } from './commentScope';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';

/** The events an endpoint may take, as their `type` says them on the wire. */
export const WEBHOOK_EVENTS = Object.freeze([
  'comment.created',
  'comment.approved',
  'comment.rejected',
  'comment.reported',
  'comment.featured',
  'user.banned',
  'user.suspended',
  'story.created',
] as const);

/** One of {@link WEBHOOK_EVENTS}. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** An endpoint's secret's seal purpose: bound to its row. */
export const webhookSecretPurpose = (webhookId: string): SealPurpose =>
  `webhooks.secret:${webhookId}`;

/** The event "Send test event" sends: every endpoint takes it, whatever it chose. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** An endpoint as the resolvers see it (its secret stays sealed in the row). */
export interface Webhook {
  id: string;
  url: string;
  description: string;
  events: WebhookEventName[];
  enabled: boolean;
  format: WebhookFormat;
  /** Only this site's events (and every user event); null for every site. */
  siteId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery as the console's log shows it. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  event: string;
  eventId: string;
  payload: string;
  state: WebhookDeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const eventsOf = (text: string): WebhookEventName[] =>
  text.split(' ').filter((e): e is WebhookEventName => WEBHOOK_EVENTS.includes(e as never));

function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: eventsOf(row.events),
    enabled: row.enabled === 1,
    format: row.format,
    siteId: row.site_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    eventId: row.event_id,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** Every endpoint, oldest first. */
export async function listWebhooks(db: Db): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toWebhook);
}

/** One endpoint, or undefined. */
export async function findWebhook(db: Db, id: string): Promise<Webhook | undefined> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toWebhook(row);
}

/** An endpoint's sealed secret ('' once given up), or undefined when it is gone. */
export async function sealedWebhookSecret(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select('secret')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.secret;
}

/**
 * Writes the organization's `webhook_events` (what some enabled endpoint takes): call it in the
 * transaction of every change of endpoints.
 */
export async function refreshWebhookEvents(db: Db): Promise<void> {
  const rows = await db.selectFrom('webhooks').select('events').where('enabled', '=', 1).execute();
  const taken = new Set(rows.flatMap((row) => eventsOf(row.events)));
  await db
    .updateTable('organization')
    .set({ webhook_events: WEBHOOK_EVENTS.filter((e) => taken.has(e)).join(' ') })
    .execute();
}

/** What an endpoint is made of; `secret` is given sealed, under the id it is made with. */
export interface WebhookInput {
  url: string;
  description: string;
  events: readonly WebhookEventName[];
  enabled: boolean;
  format: WebhookFormat;
  siteId: string | null;
}

/** Makes an endpoint; `sealSecret(id)` seals its secret for the new row. */
export async function createWebhook(
  db: Db,
  input: WebhookInput,
  sealSecret: (id: string) => string,
  now: Date,
): Promise<Webhook> {
  const id = newId();
  await db
    .insertInto('webhooks')
    .values({
      id,
      url: input.url,
      description: input.description,
      events: input.events.join(' '),
      secret: sealSecret(id),
      enabled: input.enabled ? 1 : 0,
      format: input.format,
      site_id: input.siteId,
      created_at: isoTime(now),
      updated_at: isoTime(now),
    })
    .execute();
  await refreshWebhookEvents(db);
  return {
    id,
    url: input.url,
    description: input.description,
    events: [...input.events],
    enabled: input.enabled,
    format: input.format,
    siteId: input.siteId,
    createdAt: isoTime(now),
    updatedAt: isoTime(now),
  };
}

/** Changes what is given of an endpoint (a new sealed secret too); undefined when it is gone. */
export async function updateWebhook(
  db: Db,
  id: string,
  patch: Partial<Omit<WebhookInput, 'format' | 'siteId'>> & { secret?: string },
  now: Date,
): Promise<Webhook | undefined> {
  const result = await db
    .updateTable('webhooks')
    .set({
      ...(patch.url === undefined ? {} : { url: patch.url }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.events === undefined ? {} : { events: patch.events.join(' ') }),
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
      ...(patch.secret === undefined ? {} : { secret: patch.secret }),
      updated_at: isoTime(now),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  await refreshWebhookEvents(db);
  return findWebhook(db, id);
}

/** Deletes an endpoint with its log; whether it existed. */
export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  await refreshWebhookEvents(db);
  return Number(result.numDeletedRows) > 0;
}

/** An event to queue: its ids, its site (none for user events), and its body in each format. */
export interface WebhookEventRecord {
  event: string;
  eventId: string;
  /** The site it happened on; undefined for what is not a site's (a ban). */
  siteId?: string;
  /** The comment and the person it tells of (what deleting or erasing them takes away). */
  commentId?: string | null;
  userId?: string | null;
  payloads: Readonly<Record<WebhookFormat, string>>;
}

/**
 * Queues `record` for every enabled endpoint that takes its event and its site (`webhookId`: for
 * that one only, whatever it takes: a test event, a redelivery); resolves the deliveries' ids,
 * due now.
 */
export async function queueWebhookDeliveries(
  db: Db,
  record: WebhookEventRecord,
  now: Date,
  webhookId?: string,
): Promise<string[]> {
  let query = db
    .selectFrom('webhooks')
    .select(['id', 'events', 'format', 'site_id'])
    .where('enabled', '=', 1);
  if (webhookId !== undefined) query = query.where('id', '=', webhookId);
  const endpoints = (await query.execute()).filter(
    (row) =>
      webhookId !== undefined ||
      (row.events.split(' ').includes(record.event) &&
        (row.site_id === null || record.siteId === undefined || row.site_id === record.siteId)),
  );
  if (endpoints.length === 0) return [];
  const rows = endpoints.map((endpoint) => ({
    id: newId(),
    webhook_id: endpoint.id,
    event: record.event,
    event_id: record.eventId,
    comment_id: record.commentId ?? null,
    user_id: record.userId ?? null,
    payload: record.payloads[endpoint.format],
    state: 'PENDING' as const,
    attempts: 0,
    next_attempt_at: isoTime(now),
    claimed_until: null,
    response_status: null,
    duration_ms: null,
    response_excerpt: null,
    error: null,
    created_at: isoTime(now),
    finished_at: null,
  }));
  await db.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((row) => row.id);
}

/** One delivery, or undefined. */
export async function findWebhookDelivery(
  db: Db,
  id: string,
): Promise<WebhookDelivery | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toDelivery(row);
}

/** An endpoint's deliveries, newest first. */
export function listWebhookDeliveries(
  db: Db,
  webhookId: string,
  page: PageArgs,
): Promise<Connection<WebhookDelivery>> {
  return paginate(
    db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId),
    [
      { column: 'created_at', field: 'created_at', direction: 'desc' },
      { column: 'id', field: 'id', direction: 'desc' },
    ],
    page,
    toDelivery,
  );
}

/** Ids of the deliveries due now and claimed by nobody, the longest waiting first. */
export async function dueWebhookDeliveryIds(db: Db, now: Date, limit: number): Promise<string[]> {
  const at = isoTime(now);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('state', '=', 'PENDING')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Makes a pending delivery due now (it skips what is left of its backoff). */
export async function makeWebhookDeliveryDue(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: isoTime(now) })
    .where('id', '=', id)
    .where('state', '=', 'PENDING')
    .execute();
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends WebhookDelivery {
  url: string;
  /** The endpoint's sealed secret. */
  secret: string;
  /** Whether the endpoint is still enabled (a disabled one's deliveries wait, then give up). */
  enabled: boolean;
  /** The claim this process holds: what its outcome is written under. */
  claim: string;
}

/**
 * Claims a due delivery until `until`; undefined when another process has it, or it is no longer
 * pending (delivered meanwhile, or its endpoint deleted).
 */
export async function claimWebhookDelivery(
  db: Db,
  id: string,
  until: Date,
  now: Date,
): Promise<ClaimedDelivery | undefined> {
  const at = isoTime(now);
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: isoTime(until) })
    .where('id', '=', id)
    .where('state', '=', 'PENDING')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .selectAll('webhook_deliveries')
    .select(['webhooks.url', 'webhooks.secret', 'webhooks.enabled'])
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toDelivery(row),
    url: row.url,
    secret: row.secret,
    enabled: row.enabled === 1,
    claim: isoTime(until),
  };
}

/** What one attempt came to. */
export interface WebhookAttemptOutcome {
  /** DELIVERED, FAILED (given up), or PENDING again at `nextAttemptAt`. */
  state: WebhookDeliveryState;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

/**
 * Records an attempt under the claim held (an attempt that outlived its claim changes nothing);
 * resolves whether it was recorded.
 */
export async function recordWebhookAttempt(
  db: Db,
  delivery: Pick<ClaimedDelivery, 'id' | 'claim' | 'attempts'>,
  outcome: WebhookAttemptOutcome,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      state: outcome.state,
      attempts: delivery.attempts + 1,
      next_attempt_at: outcome.nextAttemptAt && isoTime(outcome.nextAttemptAt),
      claimed_until: null,
      response_status: outcome.responseStatus,
      duration_ms: outcome.durationMs,
      response_excerpt: outcome.responseExcerpt,
      error: outcome.error?.slice(0, 500) ?? null,
      finished_at: outcome.state === 'PENDING' ? null : isoTime(now),
    })
    .where('id', '=', delivery.id)
    .where('claimed_until', '=', delivery.claim)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes the deliveries that tell of these comments (or, with `authorId`, of that person and
 * their comments), sent or not: what is deleted or erased leaves no copy in the log, nor goes out
 * after.
 */
export async function forgetWebhookDeliveries(trx: Db, which: CommentScope): Promise<void> {
  if (isEmptyScope(which)) return;
  await trx
    .deleteFrom('webhook_deliveries')
    .where('comment_id', 'in', commentIdsOf(trx, which))
    .execute();
  if ('authorId' in which) {
    await trx.deleteFrom('webhook_deliveries').where('user_id', '=', which.authorId).execute();
  }
}

/** Deletes the finished deliveries older than `days`; resolves how many went. */
export async function forgetOldWebhookDeliveries(db: Db, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', cutoff)
    .where('state', '!=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
