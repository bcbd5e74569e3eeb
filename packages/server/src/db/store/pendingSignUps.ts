/**
 * Sign-ups waiting for their emailed code. The code is kept hashed; each wrong try counts, and the
 * sign-up is dropped after SIGN_UP_CODE.maxAttempts, so the code cannot be guessed.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { SIGN_UP_CODE } from '../../defaults';
import { inTransaction, isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';

function hashCode(emailKey: string, code: string): string {
  return createHash('sha256').update(`${emailKey}:${code}`).digest('hex');
}

/** What a pending sign-up becomes: the account to create. */
export interface PendingAccount {
  email: string;
  username: string;
  passwordHash: string;
  /** The language the sign-up was made in: the account's emails' (null: the site's). */
  locale: string | null;
}

/**
 * Records (or replaces: the latest wins) the pending sign-up of an address and returns its code.
 */
export async function startSignUp(
  db: Db,
  input: PendingAccount & { emailKey: string },
  now: Date,
): Promise<string> {
  const code = String(randomInt(0, 10 ** SIGN_UP_CODE.digits)).padStart(SIGN_UP_CODE.digits, '0');
  const row = {
    email_key: input.emailKey,
    email: input.email,
    username: input.username,
    password_hash: input.passwordHash,
    locale: input.locale,
    code_hash: hashCode(input.emailKey, code),
    attempts: 0,
    expires_at: new Date(now.getTime() + SIGN_UP_CODE.ttlSeconds * 1000).toISOString(),
    created_at: isoTime(),
  };
  // Expired sign-ups of any address go here, so the table holds only live ones.
  await db.deleteFrom('pending_sign_ups').where('expires_at', '<=', now.toISOString()).execute();
  await db
    .insertInto('pending_sign_ups')
    .values(row)
    .onConflict((oc) => oc.column('email_key').doUpdateSet(row))
    .execute();
  return code;
}

/**
 * Checks a code: the pending account when it is right (the row stays until {@link finishSignUp},
 * so a taken username can be changed and the code sent again), 'wrong' otherwise (an unknown
 * address, an expired sign-up, or a wrong code, which counts toward dropping it).
 */
export async function checkSignUpCode(
  db: Db,
  emailKey: string,
  code: string,
  now: Date,
): Promise<PendingAccount | 'wrong'> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('pending_sign_ups')
      .selectAll()
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    if (row === undefined) return 'wrong';
    if (row.expires_at <= now.toISOString()) {
      await trx.deleteFrom('pending_sign_ups').where('email_key', '=', emailKey).execute();
      return 'wrong';
    }
    const given = Buffer.from(hashCode(emailKey, code.trim()));
    if (given.length === 64 && timingSafeEqual(given, Buffer.from(row.code_hash))) {
      return {
        email: row.email,
        username: row.username,
        passwordHash: row.password_hash,
        locale: row.locale,
      };
    }
    if (row.attempts + 1 >= SIGN_UP_CODE.maxAttempts) {
      await trx.deleteFrom('pending_sign_ups').where('email_key', '=', emailKey).execute();
    } else {
      await trx
        .updateTable('pending_sign_ups')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('email_key', '=', emailKey)
        .execute();
    }
    return 'wrong';
  });
}

/** Forgets the pending sign-up of an address (its account was created). */
export async function finishSignUp(db: Db, emailKey: string): Promise<void> {
  await db.deleteFrom('pending_sign_ups').where('email_key', '=', emailKey).execute();
}
