/** Users as moderators see them: role and status changes with history, the community list. */
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { escapeLike, inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { UserHistoryTable, UserRole } from '../schema';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';
import { requireUser, toUser, uniqueKey } from './users';
import type { User } from './users';

/** User statuses as the console filters them. */
export type UserStatusFilter = 'ACTIVE' | 'SUSPENDED' | 'BANNED' | 'PREMOD';

/** A change of role or status, recorded in the user's history. */
export interface ModerateUserInput {
  userId: string;
  /** Who did it; null for the system. */
  actorId: string | null;
  /** What happened, e.g. `BAN`, `UNBAN`, `SUSPEND`, `PREMOD`, `ROLE`. */
  action: string;
  /** Message to the user or a note, kept in the history. */
  message?: string | null;
  role?: UserRole;
  banned?: boolean;
  suspendedUntil?: string | null;
  premod?: boolean;
}

/** Applies a role/status change and writes its history entry, in one transaction. */
export function moderateUser(db: Db, input: ModerateUserInput): Promise<User> {
  return inTransaction(db, async (trx) => {
    const values: {
      role?: UserRole;
      banned?: 0 | 1;
      suspended_until?: string | null;
      premod?: 0 | 1;
    } = {};
    if (input.role !== undefined) values.role = input.role;
    if (input.banned !== undefined) values.banned = input.banned ? 1 : 0;
    if (input.suspendedUntil !== undefined) values.suspended_until = input.suspendedUntil;
    if (input.premod !== undefined) values.premod = input.premod ? 1 : 0;
    if (Object.keys(values).length > 0) {
      await trx.updateTable('users').set(values).where('id', '=', input.userId).execute();
    }
    const user = await requireUser(trx, input.userId);
    await trx
      .insertInto('user_history')
      .values({
        id: newId(),
        user_id: input.userId,
        actor_id: input.actorId,
        action: input.action,
        message: input.message ?? null,
        created_at: isoTime(),
      })
      .execute();
    return user;
  });
}

/** One entry of a user's history, as stored. */
export type UserHistoryRow = Selectable<UserHistoryTable>;

/** A user's history, oldest first. */
export function listUserHistory(db: Db, userId: string): Promise<UserHistoryRow[]> {
  return db
    .selectFrom('user_history')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Filters of {@link listUsers}. */
export interface UserFilter {
  /** Part of the username or email, case-insensitive. */
  query?: string | null;
  role?: UserRole | null;
  status?: UserStatusFilter | null;
  /** True: guests only; false: members only; absent: both. */
  guest?: boolean | null;
  /** Reference time for suspensions. @default now */
  now?: string;
}

/** The community list, newest first, with Relay paging. */
export function listUsers(db: Db, filter: UserFilter, page: PageArgs): Promise<Connection<User>> {
  const now = filter.now ?? isoTime();
  let q = db.selectFrom('users').selectAll();
  if (filter.query !== undefined && filter.query !== null && filter.query !== '') {
    const pattern = `%${escapeLike(uniqueKey(filter.query))}%`;
    // A guest's keys are `guest:<id>` (store/guests.ts): their name and address are searched
    // as typed, lower-cased by the database (ASCII on SQLite, which is what guests mostly type).
    q = q.where(
      sql<boolean>`(case when guest = 1
        then lower(username) like ${pattern} escape '\\' or guest_email_key like ${pattern} escape '\\'
        else username_key like ${pattern} escape '\\' or email_key like ${pattern} escape '\\' end)`,
    );
  }
  if (filter.guest !== undefined && filter.guest !== null) {
    q = q.where('guest', '=', filter.guest ? 1 : 0);
  }
  if (filter.role !== undefined && filter.role !== null) q = q.where('role', '=', filter.role);
  switch (filter.status) {
    case 'BANNED':
      q = q.where('banned', '=', 1);
      break;
    case 'SUSPENDED':
      q = q.where('banned', '=', 0).where('suspended_until', '>', now);
      break;
    case 'PREMOD':
      q = q.where('premod', '=', 1);
      break;
    case 'ACTIVE':
      q = q
        .where('banned', '=', 0)
        .where('premod', '=', 0)
        .where((eb) =>
          eb.or([eb('suspended_until', 'is', null), eb('suspended_until', '<=', now)]),
        );
      break;
    default:
      break;
  }
  return paginate(
    q,
    [
      { column: 'created_at', field: 'created_at', direction: 'desc' },
      { column: 'id', field: 'id', direction: 'desc' },
    ],
    page,
    toUser,
  );
}

/** Hides `ignoredId`'s comments from `userId` (idempotent). */
export async function ignoreUser(db: Db, userId: string, ignoredId: string): Promise<void> {
  await db
    .insertInto('ignored_users')
    .values({ user_id: userId, ignored_id: ignoredId, created_at: isoTime() })
    .onConflict((oc) => oc.columns(['user_id', 'ignored_id']).doNothing())
    .execute();
}

/** Stops ignoring (idempotent). */
export async function unignoreUser(db: Db, userId: string, ignoredId: string): Promise<void> {
  await db
    .deleteFrom('ignored_users')
    .where('user_id', '=', userId)
    .where('ignored_id', '=', ignoredId)
    .execute();
}

/** Ids of the users `userId` ignores. */
export async function listIgnoredIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ignored_users')
    .select('ignored_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.ignored_id);
}
