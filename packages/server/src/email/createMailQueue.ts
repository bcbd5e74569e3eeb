/**
 * The mail queue: every email is written to the database (sealed: it holds live links) before it
 * is sent, tried at once, and on a failure tried again later with a growing delay — after a
 * restart too, and by whichever server process claims it first (db/store/mailQueue.ts). So a mail
 * server that is down, or refusing while an admin fixes its settings, delays mail; it never
 * loses it.
 *
 * - A sent email leaves the queue.
 * - A failure retries after 30 s, then twice as long each time, at most an hour apart, for up to
 *   7 days; then it is given up with an error in the log. Nothing is given up sooner: a refusal
 *   (a relay denied, a login refused) is as often the settings being fixed as a bad address.
 * - An email a process cannot open (sealed under a `PARLEY_SECRET` it lacks, during a change of
 *   secret) is put back for another process, not dropped.
 * - A process holds an email it sends for `claimMs`; the SMTP transport times out well before
 *   (createMailer.ts), and an attempt writes its outcome only under its own claim, so an attempt
 *   that outlived its claim cannot undo the next one's.
 * - `send` answers what the first attempt did: the delivery, or `queued` with the retry time;
 *   with `retry: false` (the admin's test email) it only tries, and a failure is its answer.
 * - At shutdown, `drain` waits for the attempts in flight; what is left stays queued for the next
 *   start (an attempt cut short is claimed again once its claim runs out, so it may be sent twice,
 *   never lost).
 */
import { newId } from '../db/inTransaction';
import { createInFlight } from '../runtime/inFlight';
import type { Db } from '../db/inTransaction';
import {
  claimMail,
  dueMailIds,
  enqueueMail,
  removeMail,
  rescheduleMail,
} from '../db/store/mailQueue';
import type { SealPurpose, SecretBox } from '../auth/secretBox';
import type { Logger } from '../runtime/createLogger';
import type { MailDelivery, MailMessage, Mailer } from './createMailer';

/** How the queue retries (see the file comment). */
export const MAIL_RETRY = Object.freeze({
  /** Delay after the first failure; doubled after each further one. */
  firstDelayMs: 30_000,
  /** Longest delay between attempts. */
  maxDelayMs: 3_600_000,
  /** An email still unsent this long after it was queued is given up. */
  giveUpAfterMs: 7 * 86_400_000,
  /**
   * How long a process holds an email it is sending before another may take it: longer than an
   * SMTP attempt can last (createMailer.ts's timeouts add up to 2 minutes).
   */
  claimMs: 600_000,
  /** How often each process looks for emails due. */
  tickMs: 15_000,
  /** Emails taken per look. */
  batch: 20,
});

/** Options of {@link createMailQueue}. */
export interface MailQueueOptions {
  db: Db;
  /** Seals the queued messages. */
  box: SecretBox;
  /** What sends (SMTP or the outbox). */
  transport: Mailer;
  logger: Pick<Logger, 'warn' | 'error' | 'info'>;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Time between looks for emails due; 0 never looks by itself (tests call flush). @default MAIL_RETRY.tickMs */
  tickMs?: number;
  /** Told each attempt's outcome (the metrics): sent or filed, queued again, or given up. */
  onResult?(result: 'sent' | 'filed' | 'queued' | 'failed'): void;
}

/** The queue: a {@link Mailer} that keeps what it could not send yet. */
export interface MailQueue extends Mailer {
  /** Tries every email due now (also what the timer runs); resolves how many were sent. */
  flush(): Promise<number>;
}

/** A queued email's seal purpose: bound to its row. */
const purposeOf = (id: string): SealPurpose => `mail_queue.message:${id}`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The delay before attempt `attempts + 1`, after `attempts` failures: the first delay, doubled
 * after each further failure, at most the longest (the mail queue's, or `policy`'s: webhooks').
 */
export function retryDelayMs(
  attempts: number,
  policy: { firstDelayMs: number; maxDelayMs: number } = MAIL_RETRY,
): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (attempts - 1));
}

/** Creates the queue over `transport`; it starts looking for emails due at once. */
export function createMailQueue(options: MailQueueOptions): MailQueue {
  const { db, box, transport, logger, onResult = () => undefined } = options;
  const now = options.now ?? (() => new Date());
  const tickMs = options.tickMs ?? MAIL_RETRY.tickMs;
  const inFlight = createInFlight();
  const tracked = inFlight.track;
  let flushing: Promise<number> | undefined;
  let stopped = false;

  async function attempt(mail: {
    id: string;
    message: MailMessage;
    attempts: number;
    createdAt: string;
    claim: string;
  }): Promise<MailDelivery> {
    const { id, message, claim } = mail;
    let delivery: MailDelivery;
    try {
      delivery = await transport.send(message);
    } catch (error) {
      const attempts = mail.attempts + 1;
      const at = now();
      if (at.getTime() - Date.parse(mail.createdAt) >= MAIL_RETRY.giveUpAfterMs) {
        await removeMail(db, id, claim);
        onResult('failed');
        logger.error(
          { err: error, to: message.to, subject: message.subject, attempts },
          `Email given up, unsent for 7 days: ${message.subject}`,
        );
        throw error;
      }
      const retryAt = new Date(at.getTime() + retryDelayMs(attempts));
      await rescheduleMail(db, id, claim, {
        attempts,
        nextAttemptAt: retryAt,
        error: messageOf(error),
      });
      onResult('queued');
      logger.warn(
        { err: error, to: message.to, subject: message.subject, attempts, retryAt },
        `Email not sent yet, queued to try again: ${message.subject}`,
      );
      return { via: 'queued', messageId: id, retryAt: retryAt.toISOString() };
    }
    onResult(delivery.via === 'outbox' ? 'filed' : 'sent');
    // Sent: a failure to take it off the queue must not send it again soon. The row stays
    // claimed (for claimMs) and is logged; only then would another attempt take it.
    await removeMail(db, id, claim).catch((error: unknown) =>
      logger.error({ err: error, id }, 'A sent email could not be taken off the mail queue'),
    );
    return delivery;
  }

  async function flushOnce(): Promise<number> {
    let sent = 0;
    for (const id of await dueMailIds(db, now(), MAIL_RETRY.batch)) {
      if (stopped) break;
      const at = now();
      const claimed = await claimMail(db, id, new Date(at.getTime() + MAIL_RETRY.claimMs), at);
      if (!claimed) continue; // another process has it, or sent it
      let message: MailMessage;
      try {
        message = JSON.parse(box.open(claimed.message, purposeOf(id))) as MailMessage;
      } catch (error) {
        // Sealed under a secret this process lacks (another instance's, during a change of
        // secret): put back for one that has it, and given up only with the 7 days.
        const expired = at.getTime() - Date.parse(claimed.createdAt) >= MAIL_RETRY.giveUpAfterMs;
        if (expired) {
          await removeMail(db, id, claimed.claim);
          onResult('failed');
        } else {
          await rescheduleMail(db, id, claimed.claim, {
            attempts: claimed.attempts,
            nextAttemptAt: new Date(at.getTime() + MAIL_RETRY.maxDelayMs),
            error: messageOf(error),
          });
        }
        logger.error(
          { err: error, id },
          expired
            ? 'A queued email no key here opens was given up after 7 days'
            : 'A queued email could not be opened here (another PARLEY_SECRET?); put back',
        );
        continue;
      }
      const delivery = await tracked(attempt({ ...claimed, message })).catch(() => undefined);
      if (delivery !== undefined && delivery.via !== 'queued') sent += 1;
    }
    return sent;
  }

  const flush = (): Promise<number> => {
    flushing ??= flushOnce().finally(() => (flushing = undefined));
    return flushing;
  };

  const tick = () => {
    if (stopped) return;
    flush().catch((error: unknown) => logger.error({ err: error }, 'The mail queue failed'));
  };
  const timer = tickMs > 0 ? setInterval(tick, tickMs) : undefined;
  timer?.unref();
  // What an earlier run left: sent now, not a tick later.
  if (timer) setImmediate(tick);

  return {
    smtpFromEnvironment: transport.smtpFromEnvironment,
    flush,
    async send(message, sendOptions) {
      if (sendOptions?.retry === false) {
        return tracked(transport.send(message)).then(
          (delivery) => {
            onResult(delivery.via === 'outbox' ? 'filed' : 'sent');
            return delivery;
          },
          (error: unknown) => {
            onResult('failed');
            throw error;
          },
        );
      }
      const id = newId();
      const at = now();
      const claimedUntil = new Date(at.getTime() + MAIL_RETRY.claimMs);
      await enqueueMail(
        db,
        { id, message: box.seal(JSON.stringify(message), purposeOf(id)), claimedUntil },
        at,
      );
      return tracked(
        attempt({
          id,
          message,
          attempts: 0,
          createdAt: at.toISOString(),
          claim: claimedUntil.toISOString(),
        }),
      );
    },
    async drain(timeoutMs) {
      stopped = true;
      clearInterval(timer);
      // Still in flight: queued, claimed for a while, sent by the next start.
      return inFlight.settled(timeoutMs, flushing);
    },
    close: () => {
      stopped = true;
      clearInterval(timer);
      transport.close();
    },
  };
}
