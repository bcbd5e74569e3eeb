/** Single-use emailed tokens and idempotency keys: small tables with "exactly once" semantics. */
import { createHash, randomBytes } from 'node:crypto';
import { isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { TokenPurpose } from '../schema';

/** The SHA-256 (hex) a random token is stored as: a leaked database leaks no working token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Creates a single-use token for `userId` and returns it in clear (to put in an email link). Only
 * its SHA-256 is stored: a leaked database does not leak working links.
 */
export async function createToken(
  db: Db,
  input: {
    purpose: TokenPurpose;
    userId: string;
    ttlSeconds: number;
    /** Who made it, when not its user (an admin's invitation). @default null */
    createdBy?: string | null;
  },
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const id = newId();
  const expiresAt = isoTime(new Date(Date.now() + input.ttlSeconds * 1000));
  await db
    .insertInto('tokens')
    .values({
      id,
      purpose: input.purpose,
      user_id: input.userId,
      token_hash: hashToken(token),
      expires_at: expiresAt,
      created_at: isoTime(),
      created_by: input.createdBy ?? null,
    })
    .execute();
  return { id, token, expiresAt };
}

/** Outcome of {@link consumeToken}; the failure codes are the API's error codes. */
export type ConsumeTokenResult =
  | { ok: true; userId: string; createdBy: string | null }
  | { ok: false; code: 'TOKEN_INVALID' | 'TOKEN_EXPIRED' };

/**
 * Uses a token once. A single conditional UPDATE marks it used, so of two concurrent uses exactly
 * one succeeds. Unknown, used or wrong-purpose tokens are `TOKEN_INVALID`; late ones `TOKEN_EXPIRED`.
 */
export async function consumeToken(
  db: Db,
  purpose: TokenPurpose,
  token: string,
  now: string = isoTime(),
): Promise<ConsumeTokenResult> {
  const hash = hashToken(token);
  const used = await db
    .updateTable('tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'created_by'])
    .executeTakeFirst();
  if (used !== undefined) return { ok: true, userId: used.user_id, createdBy: used.created_by };
  const row = await db
    .selectFrom('tokens')
    .select(['expires_at', 'used_at', 'purpose'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  const expired = row?.purpose === purpose && row.used_at === null && row.expires_at <= now;
  return { ok: false, code: expired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID' };
}

/** A remembered response to a mutation. */
export interface IdempotentResponse {
  operation: string;
  response: unknown;
  createdAt: string;
}

/** The response remembered for `key` in `scope` (`user:<id>` or `ip:<address>`), if any. */
export async function getIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
): Promise<IdempotentResponse | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  return (
    row && {
      operation: row.operation,
      response: parseJson(row.response, null),
      createdAt: row.created_at,
    }
  );
}

/**
 * Remembers a response; the first writer wins, and what is stored (possibly an earlier racer's)
 * is returned, so both racers answer the same.
 */
export async function putIdempotencyKey(
  db: Db,
  input: { scope: string; key: string; operation: string; response: unknown },
): Promise<IdempotentResponse> {
  await db
    .insertInto('idempotency_keys')
    .values({
      scope: input.scope,
      key: input.key,
      operation: input.operation,
      response: JSON.stringify(input.response),
      created_at: isoTime(),
    })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .execute();
  const stored = await getIdempotencyKey(db, input.scope, input.key);
  if (stored === undefined) throw new Error('Idempotency key vanished after insert');
  return stored;
}

/** Forgets idempotency keys created before `before` (run periodically). Returns how many. */
export async function pruneIdempotencyKeys(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
