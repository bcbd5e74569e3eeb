/**
 * Webhook signatures, as Standard Webhooks (standardwebhooks.com) defines them, so a receiver can
 * check them with that project's libraries in many languages or with the README's dozen lines:
 *
 * - `webhook-id`: the event's id, the same on every attempt and redelivery (a receiver drops
 *   what it has seen);
 * - `webhook-timestamp`: the attempt's time, in Unix seconds (a receiver refuses one more than
 *   5 minutes from its clock, so a recorded request cannot be replayed later);
 * - `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with
 *   the secret's bytes (the base64 after `whsec_`).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Prefix of a signing secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` value of `body` sent as event `id` at `timestamp` (Unix seconds). */
export function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The signature headers of one attempt. */
export function signatureHeaders(
  secret: string,
  id: string,
  at: Date,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secret, id, timestamp, body),
  };
}
