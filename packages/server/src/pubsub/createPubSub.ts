import { createPubSub as createYogaPubSub } from 'graphql-yoga';
import type { PubSub, PubSubEventTarget } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DEFAULT_REDIS_PREFIX, LIVE_UPDATE_COALESCE_MS } from '../defaults';
import { createUpdateCoalescer } from './coalesceUpdates';

/**
 * A comment was published or changed. Events carry ids, not rows: subscribers reload the comment
 * through the same permission-checked code as queries, and over Redis a payload is JSON, so a
 * `Date` or a class instance would not survive the trip anyway.
 */
export interface CommentEvent {
  /** The comment's id. */
  commentId: string;
  /** The story the comment belongs to (also the routing key). */
  storyId: string;
}

/** A comment entered or left a moderation queue. */
export interface ModerationQueueEvent {
  /** The comment's id. */
  commentId: string;
  /** Site of the comment's story, so moderators of one site can filter. */
  siteId: string;
}

/** A site was created or changed (its permitted origins with it): every process forgets its list. */
export interface SitesChangedEvent {
  siteId: string;
}

/**
 * The organization's row changed (its settings, its webhooks' events, the spam model's stamp):
 * there is one, so the event names nothing.
 */
export type OrganizationChangedEvent = Record<string, never>;

/**
 * Topics and their publish arguments. `commentCreated` and `commentUpdated` are keyed by story id
 * (yoga's `publish(topic, id, payload)` / `subscribe(topic, id)` form), so a reader of one story
 * only wakes for that story; the moderation queue is one topic, filtered by site in the resolver.
 */
export type ParleyPubSubTopics = {
  commentCreated: [storyId: string, event: CommentEvent];
  commentUpdated: [storyId: string, event: CommentEvent];
  moderationQueueUpdated: [event: ModerationQueueEvent];
  sitesChanged: [event: SitesChangedEvent];
  organizationChanged: [event: OrganizationChangedEvent];
};

/** Topic names, for code that must not spell them out (metrics, tests). */
export const PUBSUB_TOPICS = Object.freeze({
  commentCreated: 'commentCreated',
  commentUpdated: 'commentUpdated',
  moderationQueueUpdated: 'moderationQueueUpdated',
  sitesChanged: 'sitesChanged',
  organizationChanged: 'organizationChanged',
} as const satisfies { [K in keyof ParleyPubSubTopics]: K });

/** A topic name. */
export type PubSubTopic = keyof ParleyPubSubTopics;

/** Field of an event's payload carrying when it was published (ms since the epoch). */
const SENT_AT = 'sentAt';

/** Prefix of every Redis channel, so several installs (or test runs) can share one Redis. */
export const DEFAULT_PUBSUB_PREFIX = DEFAULT_REDIS_PREFIX;

/** Options of {@link createPubSub}. */
export interface CreatePubSubOptions {
  /** Redis to share events between processes; unset keeps events in this process. @default undefined */
  redisUrl?: string;
  /** Channel prefix in Redis (ignored in process). @default 'parley:' */
  prefix?: string;
  /** Where Redis connection errors go; ioredis reconnects by itself, so they are warnings. */
  logger?: Pick<Logger, 'warn'>;
  /**
   * Told, once per event this process receives, how long it took from `publish` (in whichever
   * process) to here, in seconds, with its topic: the pub/sub lag metric. Across processes it
   * also holds the difference of their clocks, which NTP keeps to milliseconds.
   */
  onDelivered?: (topic: PubSubTopic | 'other', lagSeconds: number) => void;
  /**
   * `commentUpdated` events of one comment are coalesced over this window (the first sent at
   * once, at most one more at its end); 0 sends every one. @default LIVE_UPDATE_COALESCE_MS
   */
  coalesceUpdatesMs?: number;
}

/** yoga's PubSub for Parley's topics, plus {@link ParleyPubSub.close}. */
export type ParleyPubSub = PubSub<ParleyPubSubTopics> & {
  /** Ends the Redis connections (a no-op in process); pending subscriptions stop receiving. */
  close(): Promise<void>;
  /** Resolves once Redis accepts commands (at once in process); lets a server fail fast at start. */
  ready(): Promise<void>;
};

/** The event target yoga's PubSub runs on (in memory, or Redis). */
type EventTargetLike = PubSubEventTarget<ParleyPubSubTopics>;

/**
 * Creates the pub/sub behind subscriptions: in process by default; with `redisUrl`, events go
 * through Redis so every process behind a load balancer delivers every event.
 */
export function createPubSub(options: CreatePubSubOptions = {}): ParleyPubSub {
  const base = createBasePubSub(options);
  const windowMs = options.coalesceUpdatesMs ?? LIVE_UPDATE_COALESCE_MS;
  if (windowMs <= 0) return base;
  const updates = createUpdateCoalescer<CommentEvent>(
    (event) => base.publish('commentUpdated', event.storyId, event),
    windowMs,
  );
  const publish = ((topic: keyof ParleyPubSubTopics, ...args: unknown[]) => {
    if (topic === 'commentUpdated') {
      const event = args[1] as CommentEvent;
      updates.push(event.commentId, event);
      return;
    }
    (base.publish as (topic: string, ...args: unknown[]) => void)(topic, ...args);
  }) as ParleyPubSub['publish'];
  return {
    ...base,
    publish,
    close: async () => {
      // What was folded into a window still goes out: the last edit must reach readers.
      updates.flush();
      await base.close();
    },
  };
}

/** The pub/sub itself, without coalescing. */
function createBasePubSub({
  redisUrl,
  prefix = DEFAULT_PUBSUB_PREFIX,
  logger,
  onDelivered,
}: CreatePubSubOptions = {}): ParleyPubSub {
  if (redisUrl === undefined) {
    const pubsub = createYogaPubSub<ParleyPubSubTopics>({
      eventTarget: timed(new EventTarget() as EventTargetLike, '', onDelivered),
    });
    return Object.assign(pubsub, { close: async () => {}, ready: async () => {} });
  }
  // Redis puts a connection that has SUBSCRIBEd into subscriber mode, where it cannot PUBLISH:
  // hence two connections.
  const publishClient = new Redis(redisUrl);
  // No ready check on the subscriber: ioredis' check sends INFO, and a SUBSCRIBE issued while the
  // socket is connecting can reach Redis first; INFO then fails ("Connection in subscriber mode")
  // and the subscription is silently lost. Measured here: about one run in two of the Redis test.
  const subscribeClient = new Redis(redisUrl, { enableReadyCheck: false });
  for (const client of [publishClient, subscribeClient]) {
    // Without a listener an 'error' event would crash the process; ioredis retries on its own.
    client.on('error', (error: Error) => logger?.warn({ err: error }, 'Redis pub/sub error'));
  }
  const eventTarget = timed(
    withChannelPrefix(
      createRedisEventTarget({
        publishClient: unawaitedCaught(publishClient, logger),
        subscribeClient: unawaitedCaught(subscribeClient, logger),
      }) as EventTargetLike,
      prefix,
    ),
    prefix,
    onDelivered,
  );
  const pubsub = createYogaPubSub<ParleyPubSubTopics>({ eventTarget });
  return Object.assign(pubsub, {
    close: async () => {
      await Promise.all([quit(publishClient), quit(subscribeClient)]);
    },
    ready: async () => {
      await Promise.all([publishClient.ping(), subscribeClient.ping()]);
    },
  });
}

/** The commands the event target sends without awaiting them. */
const UNAWAITED = new Set<string | symbol>(['publish', 'subscribe', 'unsubscribe']);

/**
 * `client` for yoga's Redis event target, which sends PUBLISH, SUBSCRIBE and UNSUBSCRIBE without
 * awaiting them: while Redis is away, ioredis rejects them (at its retry limit, or when the
 * client is closed), and a rejection nobody handles ends the process. A reader leaving during an
 * outage did that; now it is logged, and ioredis resubscribes what is still listened to when
 * Redis is back.
 */
export function unawaitedCaught(client: Redis, logger: Pick<Logger, 'warn'> | undefined): Redis {
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!UNAWAITED.has(key)) return method;
      return (...args: unknown[]) =>
        (method(...args) as Promise<unknown>).catch((error: unknown) =>
          logger?.warn({ err: error, command: String(key) }, 'Redis pub/sub command failed'),
        );
    },
  });
}

/**
 * ioredis' `keyPrefix` applies to keys, not to pub/sub channels, so the prefix is added here:
 * outgoing events are re-dispatched under `prefix + type` and listeners subscribe to the same.
 * Incoming events keep the prefixed type; yoga's PubSub only reads `detail`.
 */
function withChannelPrefix(target: EventTargetLike, prefix: string): EventTargetLike {
  return {
    addEventListener: (type, listener) => target.addEventListener(prefix + type, listener),
    removeEventListener: (type, listener) => target.removeEventListener(prefix + type, listener),
    dispatchEvent: (event) =>
      target.dispatchEvent(new CustomEvent(prefix + event.type, { detail: event.detail })),
  };
}

/**
 * Stamps each published payload with {@link SENT_AT} and reports, once per event received, the
 * time since (`onDelivered`). yoga adds one listener per subscription, and every listener of a
 * process gets the same payload object: a WeakSet of the payloads seen counts each event once.
 */
function timed(
  target: EventTargetLike,
  prefix: string,
  onDelivered: CreatePubSubOptions['onDelivered'],
): EventTargetLike {
  if (onDelivered === undefined) return target;
  const seen = new WeakSet<object>();
  // By listener, then by type: one listener added for two types has a wrapper for each.
  const wrapped = new WeakMap<object, Map<string, EventListenerOrEventListenerObject>>();
  const report = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'object' || detail === null || seen.has(detail)) return;
    seen.add(detail);
    const sentAt = (detail as Record<string, unknown>)[SENT_AT];
    if (typeof sentAt !== 'number') return;
    // Keyed topics are dispatched as `<prefix><topic>:<id>`.
    const name = event.type.slice(prefix.length).split(':')[0] ?? '';
    const topic = Object.hasOwn(PUBSUB_TOPICS, name) ? (name as PubSubTopic) : 'other';
    onDelivered(topic, Math.max(0, Date.now() - sentAt) / 1000);
  };
  return {
    addEventListener(type, listener) {
      if (listener === null) return;
      const inner = listener as EventListenerOrEventListenerObject;
      const outer = (event: Event) => {
        report(event);
        if (typeof inner === 'function') inner(event);
        else inner.handleEvent(event);
      };
      const byType = wrapped.get(inner) ?? new Map<string, EventListenerOrEventListenerObject>();
      byType.set(type, outer);
      wrapped.set(inner, byType);
      target.addEventListener(type, outer as typeof listener);
    },
    removeEventListener(type, listener) {
      if (listener === null) return;
      const byType = wrapped.get(listener as EventListenerOrEventListenerObject);
      const outer = byType?.get(type);
      byType?.delete(type);
      target.removeEventListener(type, (outer as typeof listener | undefined) ?? listener);
    },
    dispatchEvent(event) {
      const detail = (event as CustomEvent<unknown>).detail;
      const stamped =
        typeof detail === 'object' && detail !== null && !Array.isArray(detail)
          ? { ...detail, [SENT_AT]: Date.now() }
          : detail;
      return target.dispatchEvent(
        new CustomEvent(event.type, { detail: stamped }) as Parameters<
          EventTargetLike['dispatchEvent']
        >[0],
      );
    },
  };
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  // Resolve on 'end' (the socket is gone), not on QUIT's reply: an open socket keeps Node alive.
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    // QUIT needs a live connection; one still connecting (or retrying) is just dropped.
    client.disconnect();
  }
  // A client between reconnect attempts has no socket: disconnect() cancels its retry timer and
  // it never emits 'end' (its status stays 'reconnecting'). Otherwise 'end' comes, but bounded.
  if (client.status === 'reconnecting') return;
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref())]);
}

/** Longest wait for a Redis connection to report it ended. */
const QUIT_WAIT_MS = 1_000;
