/** Users: accounts, sign-in lookups, SSO users and profile changes. */
import { randomBytes } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import { ParleyError } from '../../ParleyError';
import { isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import { isUniqueViolation } from '../isUniqueViolation';
import type { UserRole, UsersTable } from '../schema';
import { usernameSkeleton } from '../../validation/lookalikes';

/** A user as the resolvers see it. */
export interface User {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  /** Null for SSO users. */
  passwordHash: string | null;
  role: UserRole;
  banned: boolean;
  /** Suspended while this time is in the future. */
  suspendedUntil: string | null;
  premod: boolean;
  avatarUrl: string | null;
  notificationPrefs: Record<string, unknown>;
  deletionRequestedAt: string | null;
  ssoSiteId: string | null;
  ssoId: string | null;
  createdAt: string;
  /** Tokens must carry this epoch; a password change bumps it, ending other sessions. */
  sessionEpoch: number;
  /** Badges from the host's SSO token (`"Subscriber"`). */
  badges: string[];
  /** Whether sign-ins ask for a code from an authenticator app (store/twoFactor.ts). */
  twoFactorEnabled: boolean;
  /** The key of their private feed of replies (feeds/atomFeeds.ts); null until made. */
  repliesFeedKey: string | null;
  /** A guest (store/guests.ts): a name and maybe an address, no account. */
  guest: boolean;
  /** Where a guest last posted from; null for members. */
  ipAddress: string | null;
  /**
   * The language emails to them are written in (a catalog's locale): their sign-in popup's at
   * sign-up and each sign-in, a staff member's console choice; null until known (0032).
   */
  locale: string | null;
  /** Whether they chose `locale` themselves (the console's switch): sign-ins keep it then. */
  localeChosen: boolean;
}

/** Maps a `users` row to a {@link User}. */
export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.email_verified === 1,
    passwordHash: row.password_hash,
    role: row.role,
    banned: row.banned === 1,
    suspendedUntil: row.suspended_until,
    premod: row.premod === 1,
    avatarUrl: row.avatar_url,
    notificationPrefs: parseJson(row.notification_prefs, {}),
    deletionRequestedAt: row.deletion_requested_at,
    ssoSiteId: row.sso_site_id,
    ssoId: row.sso_id,
    createdAt: row.created_at,
    sessionEpoch: row.session_epoch,
    badges: parseJson<string[]>(row.badges, []),
    twoFactorEnabled: row.totp_enabled_at !== null,
    repliesFeedKey: row.replies_feed_key,
    guest: row.guest === 1,
    ipAddress: row.ip_address,
    locale: row.locale,
    localeChosen: row.locale_chosen === 1,
  };
}

/**
 * The key that makes usernames and emails unique case-insensitively. Lower-casing in JS (not SQL)
 * gives the same result on both dialects, for non-ASCII letters too.
 */
export function uniqueKey(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/**
 * Whether an address is a placeholder that reaches nobody: `….invalid` (RFC 2606), as Parley
 * writes for erased accounts, imported authors without one, and provider accounts without a
 * verified one. No mail (reset links, notices) goes to one.
 */
export function isPlaceholderAddress(email: string): boolean {
  return /\.invalid$/i.test(email);
}

/** `USERNAME_TAKEN`: the same name, or (`lookAlike`) one that looks the same. */
function usernameTaken(lookAlike: boolean): ParleyError {
  return new ParleyError(
    'USERNAME_TAKEN',
    lookAlike
      ? 'That username looks like one already taken (letters from another alphabet, or look-alikes such as "rn" for "m"). Choose another.'
      : 'That username is taken.',
    { field: 'username' },
  );
}

/**
 * Turns a unique violation on username or email into `USERNAME_TAKEN`/`EMAIL_TAKEN` (with
 * `field`); returns any other error unchanged, for the caller to rethrow.
 */
export function toTakenError(error: unknown): unknown {
  if (isUniqueViolation(error, 'users_username_key_unique')) return usernameTaken(false);
  if (isUniqueViolation(error, 'users_username_skeleton_unique')) return usernameTaken(true);
  if (isUniqueViolation(error, 'users_email_key_unique')) {
    return new ParleyError('EMAIL_TAKEN', 'An account with that email exists.', { field: 'email' });
  }
  return error;
}

/** What {@link createUser} needs. */
export interface CreateUserInput {
  username: string;
  email: string;
  /** Omit for SSO users. */
  passwordHash?: string | null;
  /** @default 'COMMENTER' */
  role?: UserRole;
  /** @default false */
  emailVerified?: boolean;
  ssoSiteId?: string | null;
  ssoId?: string | null;
  /** Badges from the host (SSO users). @default [] */
  badges?: string[];
  /** @default now */
  createdAt?: string;
  /** The language of their emails. @default null (the site's) */
  locale?: string | null;
}

/** Creates a user; a taken username or email throws `USERNAME_TAKEN`/`EMAIL_TAKEN`. */
export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  try {
    const row = await db
      .insertInto('users')
      .values({
        id: newId(),
        username: input.username,
        username_key: uniqueKey(input.username),
        username_skeleton: usernameSkeleton(input.username),
        email: input.email,
        email_key: uniqueKey(input.email),
        email_verified: input.emailVerified === true ? 1 : 0,
        password_hash: input.passwordHash ?? null,
        role: input.role ?? 'COMMENTER',
        notification_prefs: '{}',
        sso_site_id: input.ssoSiteId ?? null,
        sso_id: input.ssoId ?? null,
        badges: JSON.stringify(input.badges ?? []),
        created_at: input.createdAt ?? isoTime(),
        locale: input.locale ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  } catch (error) {
    throw toTakenError(error);
  }
}

/** The user with `id`, if any. */
export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** Users by ids, in no particular order (for batching loaders). */
export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  return rows.map(toUser);
}

/** The user with this email, compared case-insensitively. */
export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email_key', '=', uniqueKey(email))
    .executeTakeFirst();
  return row && toUser(row);
}

/** The user with this username, compared case-insensitively. */
export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', uniqueKey(username))
    .executeTakeFirst();
  return row && toUser(row);
}

/**
 * Whether `username` is free: neither it nor a look-alike belongs to anyone. Asked at the first
 * step of a sign-up, whose answer must not say it (the email to the address does);
 * {@link createUser} decides.
 */
export async function isUsernameFree(db: Db, username: string): Promise<boolean> {
  const key = uniqueKey(username);
  const skeleton = usernameSkeleton(username);
  const row = await db
    .selectFrom('users')
    .select(['id'])
    .where((eb) => eb.or([eb('username_key', '=', key), eb('username_skeleton', '=', skeleton)]))
    .executeTakeFirst();
  return row === undefined;
}

/** Fields a user (or an admin on their behalf) may change. */
export interface UserProfilePatch {
  username?: string;
  email?: string;
  emailVerified?: boolean;
  passwordHash?: string | null;
  avatarUrl?: string | null;
  notificationPrefs?: Record<string, unknown>;
  deletionRequestedAt?: string | null;
  badges?: string[];
  locale?: string | null;
  localeChosen?: boolean;
}

/** Updates profile fields; a taken username or email throws `USERNAME_TAKEN`/`EMAIL_TAKEN`. */
export async function updateUser(db: Db, id: string, patch: UserProfilePatch): Promise<User> {
  const values: Updateable<UsersTable> = {};
  if (patch.username !== undefined) {
    values.username = patch.username;
    values.username_key = uniqueKey(patch.username);
    values.username_skeleton = usernameSkeleton(patch.username);
  }
  if (patch.email !== undefined) {
    values.email = patch.email;
    values.email_key = uniqueKey(patch.email);
  }
  if (patch.emailVerified !== undefined) values.email_verified = patch.emailVerified ? 1 : 0;
  if (patch.passwordHash !== undefined) values.password_hash = patch.passwordHash;
  if (patch.avatarUrl !== undefined) values.avatar_url = patch.avatarUrl;
  if (patch.notificationPrefs !== undefined) {
    values.notification_prefs = JSON.stringify(patch.notificationPrefs);
  }
  if (patch.deletionRequestedAt !== undefined) {
    values.deletion_requested_at = patch.deletionRequestedAt;
  }
  if (patch.badges !== undefined) values.badges = JSON.stringify(patch.badges);
  if (patch.locale !== undefined) values.locale = patch.locale;
  if (patch.localeChosen !== undefined) values.locale_chosen = patch.localeChosen ? 1 : 0;
  if (Object.keys(values).length === 0) return requireUser(db, id);
  try {
    let update = db.updateTable('users').set(values);
    // A new password ends every session signed with the old one (see session_epoch).
    if (patch.passwordHash !== undefined) {
      // …and the replies feed's link, which reads as the account (users.replies_feed_key).
      update = update.set((eb) => ({
        session_epoch: eb('session_epoch', '+', 1),
        replies_feed_key: null,
      }));
    }
    const row = await update.where('id', '=', id).returningAll().executeTakeFirst();
    if (row === undefined) throw new ParleyError('NOT_FOUND', `No user ${id}.`);
    return toUser(row);
  } catch (error) {
    throw toTakenError(error);
  }
}

/** The user with `id`, or `NOT_FOUND`. */
export async function requireUser(db: Db, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (user === undefined) throw new ParleyError('NOT_FOUND', `No user ${id}.`);
  return user;
}

/** A user as a site's SSO token describes them. */
export interface SsoUserInput {
  siteId: string;
  /** The host's id for the user. */
  ssoId: string;
  email: string;
  username: string;
  /** Badges the host gives the user. @default [] */
  badges?: string[];
}

/**
 * Creates the SSO user on first sign-in, or refreshes their email, username and badges from the
 * host.
 * Concurrent first sign-ins converge on one row (the (site, sso id) pair is unique).
 */
export async function upsertSsoUser(db: Db, input: SsoUserInput): Promise<User> {
  const find = (trx: Db) =>
    trx
      .selectFrom('users')
      .selectAll()
      .where('sso_site_id', '=', input.siteId)
      .where('sso_id', '=', input.ssoId)
      .executeTakeFirst();
  const existing = await find(db);
  const badges = input.badges ?? [];
  if (existing !== undefined) {
    const current = toUser(existing);
    if (
      current.email === input.email &&
      current.username === input.username &&
      JSON.stringify(current.badges) === JSON.stringify(badges)
    ) {
      return current;
    }
    return updateUser(db, existing.id, {
      email: input.email,
      // Only a new name is written: a name kept from before the look-alike rule stays valid.
      ...(current.username === input.username ? {} : { username: input.username }),
      badges,
    });
  }
  try {
    return await createUser(db, { ...input, badges, ssoSiteId: input.siteId, emailVerified: true });
  } catch (error) {
    const raced = await find(db);
    if (raced !== undefined) return toUser(raced);
    throw error;
  }
}

/**
 * Gives the user a new key for their private feed of replies, replacing any earlier one (whose
 * link stops working), and answers it. 24 random bytes: nobody guesses a feed.
 */
export async function makeRepliesFeedKey(db: Db, userId: string): Promise<string> {
  const key = randomBytes(24).toString('base64url');
  await db.updateTable('users').set({ replies_feed_key: key }).where('id', '=', userId).execute();
  return key;
}

/** The user whose replies feed has this key; undefined for none. */
export async function findUserByRepliesFeedKey(db: Db, key: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('replies_feed_key', '=', key)
    .executeTakeFirst();
  return row && toUser(row);
}
