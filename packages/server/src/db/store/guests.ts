/**
 * Guests (issue 17): readers who comment with a name and, if they like, an address, without an
 * account. A guest is a `users` row with `guest = 1` (migration 0028_guests), so everything a
 * comment needs of its author (loaders, moderation, the queues, Community) works unchanged, and a
 * guest's session is an ordinary session token. What sets a guest apart:
 *
 * - `username` is the name as typed, not unique among guests (two may be "Sam"); `username_key`
 *   is `guest:<id>` and `username_skeleton` null, so a guest reserves no member's name, and no
 *   lookup by username (sign-in, mentions) ever finds one;
 * - `email` is the address they gave (or a `.invalid` placeholder) with `email_key`
 *   `guest:<id>`: no sign-in, sign-up or password reset finds a guest by it; reply emails go
 *   there once its owner followed the confirmation link (`email_verified`), as for members;
 * - `guest_email_key` is the address's key, by which a member who confirmed the same address
 *   claims the guest's comments (`claimGuestComments`);
 * - the resolvers let a guest post, edit and delete their own comments and nothing else
 *   (graphql/guestAccess.ts).
 */
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { GUEST_NAME_MAX_LENGTH, GUEST_NAME_MIN_LENGTH, stripBidiControls } from '@parley/contract';
import { daysBefore, inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { UsersTable } from '../schema';
import { ParleyError } from '../../ParleyError';
import { usernameSkeleton } from '../../validation/lookalikes';
import { toUser, uniqueKey } from './users';
import type { User } from './users';

/** Letters, digits, spaces and `_ . - '`: what people write their names with. */
const GUEST_NAME = /^[\p{L}\p{M}\p{N}_.\-' ]+$/u;

/** What a guest's address is when they gave none: it reaches nobody (isPlaceholderAddress). */
function placeholderOf(id: string): string {
  return `guest-${id}@guest.invalid`;
}

/**
 * A guest's name as stored: compatibility forms folded (NFKC: full-width `ａｄｍｉｎ` is `admin`),
 * without bidirectional controls or invisible characters (variation selectors, joiners), runs of
 * spaces made one, trimmed; `INVALID_INPUT` (field `name`) unless 2–30 characters of letters,
 * digits, spaces and `_ . - '`.
 */
export function validateGuestName(input: string): string {
  // Invisible characters go before folding, so that what they separated composes (NFC).
  const name = stripBidiControls(input)
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .normalize('NFKC')
    .replace(/\s+/gu, ' ')
    .trim();
  const length = [...name].length;
  if (length < GUEST_NAME_MIN_LENGTH || length > GUEST_NAME_MAX_LENGTH) {
    throw new ParleyError(
      'INVALID_INPUT',
      `A name has ${GUEST_NAME_MIN_LENGTH} to ${GUEST_NAME_MAX_LENGTH} characters.`,
      { field: 'name' },
    );
  }
  if (!GUEST_NAME.test(name)) {
    throw new ParleyError('INVALID_INPUT', "A name has letters, digits, spaces and _ . - ' only.", {
      field: 'name',
    });
  }
  return name;
}

/** Names no guest takes, whatever members there are: who speaks for the site. */
const RESERVED_GUEST_NAMES = [
  'admin',
  'administrator',
  'moderator',
  'mod',
  'staff',
  'parley',
  'system',
  'official',
];

/** `text` without combining marks (accents, dots above), which a guest could add to any name. */
function withoutMarks(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/**
 * The usernames a guest name could pass for: its words (split at spaces and `' . _ -`) joined by
 * nothing, by `_` and by `.`, the separators usernames have — so "Ad Min", "Admin." and "Ann Lee"
 * are checked as "admin" and "ann_lee" — each with its marks and without them ("Admi̇n" is
 * "Admin"; "José" stays "José" too, for a member of that name).
 */
function lookalikeUsernames(name: string): string[] {
  const words = name.split(/[\s'._-]+/u).filter(Boolean);
  const joined = ['', '_', '.'].map((separator) => words.join(separator));
  return [...new Set([...joined, ...joined.map(withoutMarks)])].filter(Boolean);
}

/** Whether a word of the name, or its plural, is a name reserved for the site's people. */
function soundsOfficial(name: string): boolean {
  const reserved = new Set(
    RESERVED_GUEST_NAMES.flatMap((each) => [each, `${each}s`]).map(usernameSkeleton),
  );
  return name
    .split(/[\s'._-]+/u)
    .some((word) => word !== '' && reserved.has(usernameSkeleton(withoutMarks(word))));
}

/**
 * Whether a guest may go by `name` (as {@link validateGuestName} gives it): not when it is, or
 * looks like (case, other alphabets, look-alikes such as "rn" for "m", marks and separators
 * aside), a member's username, nor when a word of it names the site's people ("Site Admin",
 * "Moderators"). Guests' own names reserve nothing. One query, by the unique keys' indexes.
 */
export async function isGuestNameFree(db: Db, name: string): Promise<boolean> {
  if (soundsOfficial(name)) return false;
  const candidates = lookalikeUsernames(name);
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('username_key', 'in', candidates.map(uniqueKey)),
        eb('username_skeleton', 'in', candidates.map(usernameSkeleton)),
      ]),
    )
    .executeTakeFirst();
  return row === undefined;
}

/** What {@link createGuest} needs. */
export interface NewGuest {
  /** As {@link validateGuestName} gives it. */
  name: string;
  /** A validated address, or null. */
  email: string | null;
  /** Where they asked from. */
  ip: string | null;
  now: Date;
}

/** Adds a guest (see the module's notes). */
export async function createGuest(db: Db, input: NewGuest): Promise<User> {
  const row = await db
    .insertInto('users')
    .values(
      guestRow(newId(), {
        name: input.name,
        email: input.email,
        ip: input.ip,
        createdAt: isoTime(input.now),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

/**
 * A guest's `users` row, as the module's notes describe it: what {@link createGuest} and the
 * Parley import (importParley.ts) write. `email` null: the `.invalid` placeholder.
 */
export function guestRow(
  id: string,
  input: {
    name: string;
    email: string | null;
    ip: string | null;
    createdAt: string;
    /** @default false */
    emailVerified?: boolean;
    /** @default false */
    banned?: boolean;
  },
): Insertable<UsersTable> {
  return {
    id,
    username: input.name,
    username_key: `guest:${id}`,
    username_skeleton: null,
    email: input.email ?? placeholderOf(id),
    email_key: `guest:${id}`,
    email_verified: input.email !== null && input.emailVerified === true ? 1 : 0,
    password_hash: null,
    role: 'COMMENTER',
    banned: input.banned === true ? 1 : 0,
    notification_prefs: '{}',
    created_at: input.createdAt,
    guest: 1,
    guest_email_key: input.email === null ? null : uniqueKey(input.email),
    ip_address: input.ip,
  };
}

/** Records where a guest posts from (what moderators ban the range of). */
export async function recordGuestAddress(
  db: Db,
  guest: User,
  ip: string | undefined,
): Promise<void> {
  if (!guest.guest || ip === undefined || ip === guest.ipAddress) return;
  await db.updateTable('users').set({ ip_address: ip }).where('id', '=', guest.id).execute();
}

/**
 * Whether `member` may claim guests' comments: a member (not a guest) who confirmed their address
 * here — not an SSO account, whose address its host vouches for (another site's host could
 * otherwise claim any reader's guest comments).
 */
function mayClaim(member: User): boolean {
  return !member.guest && member.emailVerified && member.ssoSiteId === null;
}

/**
 * The guests whose comments `member` may claim: those who confirmed the address `member`
 * confirmed. Nobody's, for one who may not claim ({@link mayClaim}) or a placeholder.
 */
function claimableGuests(db: Db, member: User) {
  const key = mayClaim(member) ? uniqueKey(member.email) : null;
  return db
    .selectFrom('users')
    .select('id')
    .where('guest', '=', 1)
    .where('email_verified', '=', 1)
    .where('guest_email_key', '=', key ?? '\u0000');
}

/** How many comments (not deleted ones) `member` may claim from guests. */
export async function countClaimableComments(db: Db, member: User): Promise<number> {
  if (!mayClaim(member)) return 0;
  const row = await db
    .selectFrom('comments')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('author_id', 'in', claimableGuests(db, member))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Moves the claimable guests' comments to `member`, in one transaction: each comment (deleted ones
 * too: they were the same person's), and the replies' record of whom they answer (the replies
 * feed). The guests' sessions end (they would go on posting as someone else now), and their rows
 * keep neither the address nor where they wrote from. Returns how many comments moved (deleted ones aside, as
 * {@link countClaimableComments} counts) and the stories they are on.
 */
export async function claimGuestComments(
  db: Db,
  member: User,
): Promise<{ claimed: number; storyIds: string[] }> {
  if (!mayClaim(member)) return { claimed: 0, storyIds: [] };
  return inTransaction(db, async (trx) => {
    const guests = (await claimableGuests(trx, member).execute()).map((row) => row.id);
    if (guests.length === 0) return { claimed: 0, storyIds: [] };
    const moved = await trx
      .updateTable('comments')
      .set({ author_id: member.id })
      .where('author_id', 'in', guests)
      .returning(['story_id', 'deleted_at'])
      .execute();
    // `parent_author_id` is written by inserts only in the store's types; a claim is the one
    // place an author changes.
    await sql`update comments set parent_author_id = ${member.id}
      where parent_author_id in (${sql.join(guests)})`.execute(trx);
    // Empty now: what they were (an address, where they wrote from) goes with their comments.
    for (const id of guests) {
      await trx
        .updateTable('users')
        .set((eb) => ({
          email: placeholderOf(id),
          email_verified: 0,
          guest_email_key: null,
          ip_address: null,
          locale: null,
          session_epoch: eb('session_epoch', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
    }
    return {
      claimed: moved.filter((row) => row.deleted_at === null).length,
      storyIds: [...new Set(moved.map((row) => row.story_id))],
    };
  });
}

/**
 * Forgets the address of every guest who wrote nothing for `retentionDays` (the setting
 * `ipRetentionDays`; hourly housekeeping) since their last comment, or their session if none:
 * it is kept to ban a network that is writing now, not to know forever where someone wrote
 * from. Returns how many were forgotten.
 */
export async function forgetOldGuestAddresses(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<number> {
  const cutoff = daysBefore(now, retentionDays);
  const result = await db
    .updateTable('users')
    .set({ ip_address: null })
    .where('guest', '=', 1)
    .where('ip_address', 'is not', null)
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('comments')
            .select('comments.id')
            .whereRef('comments.author_id', '=', 'users.id')
            .where('comments.created_at', '>=', cutoff),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
