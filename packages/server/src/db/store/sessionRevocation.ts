/**
 * What stateless tokens cannot say by themselves: that a session was ended by its owner before
 * its expiry (sign-out), and that a host's SSO token was already exchanged (a replay). Each row
 * lives until the token it names would have expired anyway; expired rows are pruned as new ones
 * arrive, so both tables stay as small as the number of live tokens concerned.
 */
import { createHash } from 'node:crypto';
import { isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';

/** Ends the session whose token has `tokenId` (its `jti`) until `expiresAt`. Idempotent. */
export async function revokeSession(
  db: Db,
  tokenId: string,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<void> {
  await db.deleteFrom('revoked_sessions').where('expires_at', '<=', isoTime(now)).execute();
  await db
    .insertInto('revoked_sessions')
    .values({ token_id: tokenId, expires_at: isoTime(expiresAt) })
    .onConflict((conflict) => conflict.column('token_id').doNothing())
    .execute();
}

/** Whether the session whose token has `tokenId` was ended by a sign-out. */
export async function isSessionRevoked(db: Db, tokenId: string): Promise<boolean> {
  const row = await db
    .selectFrom('revoked_sessions')
    .select('token_id')
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
  return row !== undefined;
}

/** How a host SSO token fared at its exchange. */
export type SsoTokenUse = 'first' | 'retry' | 'replay';

/** How long after an exchange a retry carrying the same `Idempotency-Key` is still that exchange. */
export const SSO_EXCHANGE_RETRY_WINDOW_MS = 60_000;

/**
 * Records that the SSO token `token` (valid until `expiresAt`) is being exchanged. The first use
 * is `first`; the same token again is a `replay` — unless it carries the first exchange's
 * idempotency key within {@link SSO_EXCHANGE_RETRY_WINDOW_MS}: the transport retrying a request
 * whose answer was lost (`retry`). Concurrent first uses are decided by the primary key.
 */
export async function recordSsoTokenUse(
  db: Db,
  input: { token: string; expiresAt: Date; idempotencyKey: string | undefined; now: Date },
): Promise<SsoTokenUse> {
  const hash = createHash('sha256').update(input.token).digest('hex');
  const now = isoTime(input.now);
  await db.deleteFrom('sso_token_uses').where('expires_at', '<=', now).execute();
  const inserted = await db
    .insertInto('sso_token_uses')
    .values({
      token_hash: hash,
      idempotency_key: input.idempotencyKey ?? null,
      used_at: now,
      expires_at: isoTime(input.expiresAt),
    })
    .onConflict((conflict) => conflict.column('token_hash').doNothing())
    .returning('token_hash')
    .executeTakeFirst();
  if (inserted !== undefined) return 'first';
  const earlier = await db
    .selectFrom('sso_token_uses')
    .select(['idempotency_key', 'used_at'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  const sameExchange =
    earlier !== undefined &&
    input.idempotencyKey !== undefined &&
    earlier.idempotency_key === input.idempotencyKey &&
    input.now.getTime() - Date.parse(earlier.used_at) <= SSO_EXCHANGE_RETRY_WINDOW_MS;
  return sameExchange ? 'retry' : 'replay';
}
