/**
 * Webhook deliveries: each event queued for an endpoint (db/store/webhooks.ts) is POSTed, signed
 * (signWebhook.ts), through the address guard (postWebhook.ts), and on a failure tried again
 * later with a growing delay — after a restart too, and by whichever server process claims it.
 *
 * - A 2xx answer delivers it. Anything else (another status, no answer in 10 s, a refused
 *   address) retries after 30 s, then twice as long each time, at most an hour apart, until the
 *   delivery is a day old: then it is given up (FAILED), and stays in the log for "Send again".
 * - A delivery whose endpoint was disabled meanwhile is given up at its next attempt.
 * - Every attempt writes its outcome (status, duration, the answer's start, the error) under
 *   its own claim, so an attempt that outlived its claim cannot undo the next one's.
 * - At shutdown, `close` cuts the attempts in flight short and `drain` waits while they are
 *   recorded as failed attempts, to be made again after the next start (one the endpoint had
 *   received may so come twice: receivers drop a `webhook-id` they have seen).
 */
import type { SecretBox } from '../auth/secretBox';
import type { Db } from '../db/inTransaction';
import {
  claimWebhookDelivery,
  dueWebhookDeliveryIds,
  findWebhookDelivery,
  makeWebhookDeliveryDue,
  recordWebhookAttempt,
  webhookSecretPurpose,
} from '../db/store/webhooks';
import type { ClaimedDelivery, WebhookDelivery } from '../db/store/webhooks';
import { retryDelayMs } from '../email/createMailQueue';
import { createInFlight } from '../runtime/inFlight';
import type { Logger } from '../runtime/createLogger';
import { postWebhook } from './postWebhook';
import { signatureHeaders } from './signWebhook';

/** How deliveries are retried and kept (see the file comment). */
export const WEBHOOK_RETRY = Object.freeze({
  /** Delay after the first failure; doubled after each further one. */
  firstDelayMs: 30_000,
  /** Longest delay between attempts. */
  maxDelayMs: 3_600_000,
  /** A delivery still failing this long after its event is given up. */
  giveUpAfterMs: 86_400_000,
  /** How long a process holds a delivery it is attempting: well past an attempt's time-out. */
  claimMs: 60_000,
  /** How often each process looks for deliveries due. */
  tickMs: 15_000,
  /** Deliveries taken per look, attempted at once. */
  batch: 10,
  /** Days a finished delivery stays in the console's log (the hourly sweep deletes older ones). */
  keepDays: 30,
});

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  db: Db;
  /** Opens the endpoints' secrets. */
  box: SecretBox;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Whether endpoints may be at private addresses (the admin setting), asked per attempt. */
  allowPrivateAddresses(): Promise<boolean>;
  /** Sent as the User-Agent: `Parley-Webhooks/1 (+<publicUrl>)`. */
  publicUrl: string;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Time between looks for deliveries due; 0 never looks by itself (tests call flush). */
  tickMs?: number;
  /** An attempt's time limit. @default WEBHOOK_LIMITS.timeoutMs */
  timeoutMs?: number;
  /** Told each attempt's outcome (the metrics). */
  onResult?(result: 'delivered' | 'retrying' | 'failed'): void;
}

/** The deliveries' sender of one process. */
export interface WebhookDispatcher {
  /** Attempts every delivery due now (also what the timer runs); resolves how many were delivered. */
  flush(): Promise<number>;
  /** A flush as soon as the current one ends: what was just queued goes now, not a tick later. */
  soon(): void;
  /**
   * Attempts delivery `id` now (a test event, "Send again"), due or not, and resolves it as it
   * then stands; as it stands when another process holds it.
   */
  deliverNow(id: string): Promise<WebhookDelivery | undefined>;
  /** Waits (at most `ms`) for the attempts in flight. */
  drain(ms: number): Promise<void>;
  /** Stops the timer; attempts in flight finish. */
  close(): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Creates the dispatcher; it starts looking for deliveries due at once when it has a tick. */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, box, logger, onResult = () => undefined } = options;
  const now = options.now ?? (() => new Date());
  const tickMs = options.tickMs ?? WEBHOOK_RETRY.tickMs;
  const userAgent = `Parley-Webhooks/1 (+${options.publicUrl})`;
  const inFlight = createInFlight();
  const tracked = inFlight.track;
  let flushing: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  // Aborted at close(): attempts in flight end at once and are recorded (to be tried again).
  const stopping = new AbortController();

  /** Sends one claimed delivery and records what came of it; resolves whether it was delivered. */
  async function attempt(delivery: ClaimedDelivery): Promise<boolean> {
    const at = now();
    let secret: string | undefined;
    let refusal: string | null = null;
    if (!delivery.enabled) refusal = 'The endpoint was disabled.';
    else {
      try {
        secret = box.open(delivery.secret, webhookSecretPurpose(delivery.webhookId));
        if (secret === '') refusal = 'The endpoint has no signing secret: roll one.';
      } catch (error) {
        refusal = `The signing secret cannot be opened here (${messageOf(error)}).`;
      }
    }
    const response =
      refusal !== null || secret === undefined
        ? { status: null, durationMs: 0, excerpt: null, error: refusal }
        : await postWebhook(
            delivery.url,
            delivery.payload,
            {
              'content-type': 'application/json',
              'user-agent': userAgent,
              'parley-event': delivery.event,
              'parley-delivery': delivery.id,
              ...signatureHeaders(secret, delivery.eventId, at, delivery.payload),
            },
            {
              allowPrivate: await options.allowPrivateAddresses(),
              ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
              signal: stopping.signal,
            },
          );
    const delivered = response.status !== null && response.status >= 200 && response.status < 300;
    const after = now();
    // Cut short by a stop: not the endpoint's failure, and never the one that gives it up.
    const expired =
      !stopping.signal.aborted &&
      (!delivery.enabled ||
        after.getTime() - Date.parse(delivery.createdAt) >= WEBHOOK_RETRY.giveUpAfterMs);
    const state = delivered ? 'DELIVERED' : expired ? 'FAILED' : 'PENDING';
    const error =
      response.error ??
      (delivered ? null : `The endpoint answered ${response.status ?? 'nothing'}.`);
    await recordWebhookAttempt(
      db,
      delivery,
      {
        state,
        nextAttemptAt:
          state === 'PENDING'
            ? new Date(after.getTime() + retryDelayMs(delivery.attempts + 1, WEBHOOK_RETRY))
            : null,
        responseStatus: response.status,
        durationMs: response.durationMs,
        responseExcerpt: response.excerpt,
        error,
      },
      after,
    );
    onResult(delivered ? 'delivered' : state === 'FAILED' ? 'failed' : 'retrying');
    if (state === 'FAILED') {
      logger.warn(
        { deliveryId: delivery.id, webhookId: delivery.webhookId, event: delivery.event, error },
        `A webhook delivery was given up after ${delivery.attempts + 1} attempts`,
      );
    }
    return delivered;
  }

  async function claimAndAttempt(id: string, at: Date): Promise<boolean> {
    const claimed = await claimWebhookDelivery(
      db,
      id,
      new Date(at.getTime() + WEBHOOK_RETRY.claimMs),
      at,
    );
    // Another process has it, or it was delivered or deleted meanwhile.
    if (!claimed) return false;
    return tracked(attempt(claimed));
  }

  async function flushOnce(): Promise<number> {
    let delivered = 0;
    do {
      again = false;
      const at = now();
      const ids = await dueWebhookDeliveryIds(db, at, WEBHOOK_RETRY.batch);
      if (stopped) break;
      const outcomes = await Promise.all(
        ids.map((id) =>
          claimAndAttempt(id, at).catch((error: unknown) => {
            logger.error({ err: error, deliveryId: id }, 'A webhook delivery failed to run');
            return false;
          }),
        ),
      );
      delivered += outcomes.filter(Boolean).length;
      // A full batch: more may be due.
      if (ids.length === WEBHOOK_RETRY.batch) again = true;
    } while (again && !stopped);
    return delivered;
  }

  const flush = (): Promise<number> => {
    if (flushing) {
      again = true;
      return flushing;
    }
    flushing = flushOnce().finally(() => (flushing = undefined));
    return flushing;
  };

  const tick = () => {
    if (stopped) return;
    flush().catch((error: unknown) => logger.error({ err: error }, 'The webhook queue failed'));
  };
  const timer = tickMs > 0 ? setInterval(tick, tickMs) : undefined;
  timer?.unref();
  if (timer) setImmediate(tick);

  return {
    flush,
    soon: () => setImmediate(tick),
    async deliverNow(id) {
      const at = now();
      // Made due now: a redelivery waits for no backoff.
      await makeWebhookDeliveryDue(db, id, at);
      await claimAndAttempt(id, at);
      return findWebhookDelivery(db, id);
    },
    async drain(ms) {
      await inFlight.settled(ms);
    },
    close() {
      stopped = true;
      if (timer) clearInterval(timer);
      stopping.abort();
    },
  };
}
