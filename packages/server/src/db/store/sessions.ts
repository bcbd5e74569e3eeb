/**
 * Signed-in devices: a row per session signed, which its owner sees (created, last used, browser
 * and system) and can end. Tokens stay stateless — what refuses an ended one is its id in
 * `revoked_sessions` (sessionRevocation.ts) or the user's moved-on epoch; these rows only list.
 * Tokens signed before this table existed have no row: they work on, unlisted, until they expire.
 */
import UAParser from 'ua-parser-js';
import { inTransaction, isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';
import { revokeSession } from './sessionRevocation';
import { toUser } from './users';
import type { User } from './users';

/** A session's last use is written at most this often, not on every request. */
export const SESSION_TOUCH_MS = 5 * 60_000;

/** A signed-in session, as its owner sees it. */
export interface SessionRow {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  /** "Firefox on Linux"; empty when unknown. */
  device: string;
  secondFactor: boolean;
}

/** "Firefox on Linux" from a User-Agent header; empty when it says nothing recognisable. */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return '';
  const { browser, os } = new UAParser(userAgent.slice(0, 512)).getResult();
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name ?? os.name ?? '';
}

/**
 * Records a session just signed. The user's rows that list nothing any more (expired, or of an
 * epoch a password change ended) go at the same time.
 */
export async function recordSession(
  db: Db,
  session: {
    id: string;
    userId: string;
    epoch: number;
    secondFactor: boolean;
    userAgent: string | null | undefined;
    expiresAt: Date;
  },
  now: Date,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', session.userId)
    .where((eb) => eb.or([eb('expires_at', '<=', isoTime(now)), eb('epoch', '!=', session.epoch)]))
    .execute();
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      epoch: session.epoch,
      second_factor: session.secondFactor ? 1 : 0,
      device: deviceName(session.userAgent),
      created_at: isoTime(now),
      last_used_at: isoTime(now),
      expires_at: isoTime(session.expiresAt),
    })
    .execute();
}

/** What a signed-in request needs to know of its session (see {@link findSessionStanding}). */
export interface SessionStanding {
  user: User;
  /** Ended by a sign-out (`revoked_sessions`). */
  revoked: boolean;
  /** When the session was last marked used; undefined when it has no row. */
  lastUsed: string | undefined;
}

/**
 * The user a session token names, whether the session was signed out and when it was last
 * marked used — one query, which every signed-in request runs (three were three round trips to
 * PostgreSQL: bench:scale's write section counted 11 per post). Undefined when there is no such
 * user.
 */
export async function findSessionStanding(
  db: Db,
  userId: string,
  tokenId: string,
): Promise<SessionStanding | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) => [
      eb
        .selectFrom('sessions')
        .select('sessions.last_used_at')
        .where('sessions.id', '=', tokenId)
        .as('session_last_used_at'),
      eb
        .exists(
          eb
            .selectFrom('revoked_sessions')
            .select('revoked_sessions.token_id')
            .where('revoked_sessions.token_id', '=', tokenId),
        )
        .as('session_revoked'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { session_last_used_at: lastUsed, session_revoked: revoked, ...user } = row;
  // true/false on PostgreSQL, 1/0 on SQLite.
  return { user: toUser(user), revoked: Boolean(revoked), lastUsed: lastUsed ?? undefined };
}

/** Marks the session used now, when its last mark is older than {@link SESSION_TOUCH_MS}. */
export async function touchSession(db: Db, id: string, lastUsedAt: string, now: Date) {
  if (now.getTime() - Date.parse(lastUsedAt) < SESSION_TOUCH_MS) return;
  await db
    .updateTable('sessions')
    .set({ last_used_at: isoTime(now) })
    .where('id', '=', id)
    .execute();
}

/** The user's live sessions (of their current epoch, unexpired), last used first. */
export async function listSessions(
  db: Db,
  user: { id: string; sessionEpoch: number },
  now: Date,
): Promise<SessionRow[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('epoch', '=', user.sessionEpoch)
    .where('expires_at', '>', isoTime(now))
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    device: row.device,
    secondFactor: row.second_factor === 1,
  }));
}

/**
 * Ends one of the user's sessions: its token is refused from now on. False when the user has no
 * such session (another user's id included: nobody ends a session not theirs this way).
 */
export async function endSession(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('expires_at')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return false;
  await endSignedInSession(db, { tokenId: id, expiresAt: new Date(row.expires_at) }, now);
  return true;
}

/**
 * Ends every session of the user: their epoch moves on, so every token signed before is refused,
 * and the signed-in devices list empties.
 */
export async function endEverySession(db: Db, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      // The replies feed's link reads as the account: it ends with the sessions.
      .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1), replies_feed_key: null }))
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  });
}

/** Ends the session of a token its holder signs out with (its row, if it has one, goes too). */
export async function endSignedInSession(
  db: Db,
  session: { tokenId: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await revokeSession(db, session.tokenId, session.expiresAt, now);
  await db.deleteFrom('sessions').where('id', '=', session.tokenId).execute();
}

/** Deletes the rows of expired sessions, every user's (the periodic sweep). */
export async function pruneSessions(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('expires_at', '<=', isoTime(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
