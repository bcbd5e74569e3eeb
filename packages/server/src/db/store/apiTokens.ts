/**
 * API tokens: what scripts and other servers send as `Authorization: Bearer parley_pat_…`. An
 * admin makes one with a name and a scope; its secret is answered once and only its SHA-256 is
 * stored (the secret is 32 random bytes: a fast hash is enough, nobody guesses it). A token acts
 * as the admin who made it, within its scope (graphql/apiTokenAccess.ts), and stops working when
 * it is revoked or when that admin is no longer an admin (or is erased, which deletes it).
 */
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { ApiTokenScope, ApiTokensTable } from '../schema';
import { hashToken as hashSecret } from './tokens';
import { toUser } from './users';
import type { User } from './users';

export type { ApiTokenScope } from '../schema';

/** What every API token's secret starts with: tells it from a session token at a glance. */
export const API_TOKEN_PREFIX = 'parley_pat_';

/** A token's last use is written at most this often, not on every request. */
export const API_TOKEN_TOUCH_MS = 5 * 60_000;

/** An API token as the console lists it (never its secret, which is not stored). */
export interface ApiToken {
  id: string;
  name: string;
  scope: ApiTokenScope;
  createdBy: string;
  /** The maker's session epoch when it was made. */
  creatorEpoch: number;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function toApiToken(row: Selectable<ApiTokensTable>): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdBy: row.created_by,
    creatorEpoch: row.creator_epoch,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Whether a bearer credential is an API token's secret (rather than a session token). */
export function isApiTokenSecret(credential: string): boolean {
  return credential.startsWith(API_TOKEN_PREFIX);
}

/** Stores a new token and answers it with its secret, which nothing can read again. */
export async function createApiToken(
  db: Db,
  input: { name: string; scope: ApiTokenScope; createdBy: string; creatorEpoch: number },
  now: Date,
): Promise<{ token: ApiToken; secret: string }> {
  const secret = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row: Selectable<ApiTokensTable> = {
    id: newId(),
    name: input.name,
    scope: input.scope,
    token_hash: hashSecret(secret),
    created_by: input.createdBy,
    creator_epoch: input.creatorEpoch,
    created_at: isoTime(now),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('api_tokens').values(row).execute();
  return { token: toApiToken(row), secret };
}

/** Every token, newest first; revoked ones stay listed (when, and what they were called). */
export async function listApiTokens(db: Db): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toApiToken);
}

/** One token by id, revoked or not. */
export async function findApiToken(db: Db, id: string): Promise<ApiToken | undefined> {
  const row = await db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiToken(row);
}

/**
 * Revokes a token now; a token already revoked keeps its first revocation time. Undefined when
 * there is no such token.
 */
export async function revokeApiToken(db: Db, id: string, now: Date): Promise<ApiToken | undefined> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: isoTime(now) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return findApiToken(db, id);
}

/**
 * The token a secret (or an id) names and the user it acts as, in one query; undefined when no
 * token has it. Revoked tokens are answered too: the caller says why it refuses.
 */
export async function findApiTokenStanding(
  db: Db,
  by: { secret: string } | { id: string },
): Promise<{ token: ApiToken; user: User } | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.created_by')
    .selectAll('users')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.name as token_name',
      'api_tokens.scope as token_scope',
      'api_tokens.creator_epoch as token_creator_epoch',
      'api_tokens.created_at as token_created_at',
      'api_tokens.last_used_at as token_last_used_at',
      'api_tokens.revoked_at as token_revoked_at',
    ])
    .where((eb) =>
      'secret' in by
        ? eb('api_tokens.token_hash', '=', hashSecret(by.secret))
        : eb('api_tokens.id', '=', by.id),
    )
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const {
    token_id: id,
    token_name: name,
    token_scope: scope,
    token_creator_epoch: creatorEpoch,
    token_created_at: createdAt,
    token_last_used_at: lastUsedAt,
    token_revoked_at: revokedAt,
    ...user
  } = row;
  return {
    token: { id, name, scope, createdBy: user.id, creatorEpoch, createdAt, lastUsedAt, revokedAt },
    user: toUser(user),
  };
}

/** Marks the token used now, when its last mark is older than {@link API_TOKEN_TOUCH_MS}. */
export async function touchApiToken(db: Db, token: ApiToken, now: Date): Promise<void> {
  if (
    token.lastUsedAt !== null &&
    now.getTime() - Date.parse(token.lastUsedAt) < API_TOKEN_TOUCH_MS
  ) {
    return;
  }
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: isoTime(now) })
    .where('id', '=', token.id)
    .execute();
}

/** Revokes every working token `userId` made (they stopped being an admin). */
export async function revokeApiTokensOf(db: Db, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: isoTime(now) })
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
