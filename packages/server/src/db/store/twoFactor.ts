/**
 * A user's two-factor sign-in as stored: the sealed TOTP secret, whether it is in use, the last
 * step spent, and the recovery codes (hashes). Every spend is one conditional UPDATE, so two
 * requests racing with the same code or recovery code cannot both succeed, on either database.
 */
import { sql } from 'kysely';
import {
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpCodeStep,
  totpPurpose,
} from '../../auth/twoFactor';
import type { SecretBox } from '../../auth/secretBox';
import { inTransaction, isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';

/** Where a user's two-factor sign-in stands. */
export interface TwoFactorState {
  /** A confirmed enrolment: sign-ins ask for a code. */
  enabled: boolean;
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number;
}

/** The state of `userId`'s two-factor sign-in. */
export async function twoFactorState(db: Db, userId: string): Promise<TwoFactorState> {
  const [user, left] = await Promise.all([
    db.selectFrom('users').select('totp_enabled_at').where('id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('recovery_codes')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    enabled: user?.totp_enabled_at != null,
    recoveryCodesLeft: Number(left.n),
  };
}

/**
 * Starts (or starts again) an enrolment: a new secret, sealed, waiting for its first code. An
 * enrolment in use is not touched (the caller refuses that first). Resolves the clear secret.
 */
export async function startEnrolment(db: Db, box: SecretBox, userId: string): Promise<string> {
  const secret = newTotpSecret();
  await db
    .updateTable('users')
    .set({ totp_secret: box.seal(secret, totpPurpose(userId)), totp_last_step: null })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .execute();
  return secret;
}

/** The stored (sealed) TOTP secret of `userId`, pending or in use; undefined without one. */
async function storedSecret(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.totp_secret ?? undefined;
}

/**
 * Spends `code` if it is the user's current code and its step is later than the last one spent;
 * resolves the stored (sealed) secret it was checked against, undefined otherwise. `pending`
 * checks an enrolment's first code instead of an enrolment in use. The spend is conditional on
 * that same secret: one replaced meanwhile (a new enrolment in another tab) spends nothing.
 */
export async function spendTotpCode(
  db: Db,
  box: SecretBox,
  userId: string,
  code: string,
  now: Date,
  pending = false,
): Promise<string | undefined> {
  const sealed = await storedSecret(db, userId);
  if (sealed === undefined) return undefined;
  const step = totpCodeStep(box.open(sealed, totpPurpose(userId)), code, now);
  if (step === undefined) return undefined;
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_secret', '=', sealed)
    .where('totp_enabled_at', pending ? 'is' : 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? sealed : undefined;
}

/** Spends a recovery code of `userId`'s, once; false for a wrong or spent one. */
export async function spendRecoveryCode(
  db: Db,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: isoTime(now) })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryCodeHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Replaces the user's recovery codes with new ones; resolves them, in clear (shown once). */
export async function replaceRecoveryCodes(db: Db, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          user_id: userId,
          code_hash: recoveryCodeHash(code),
          used_at: null,
          created_at: isoTime(now),
        })),
      )
      .execute();
  });
  return codes;
}

/**
 * Puts the pending enrolment of `sealed` (the secret its first code was checked against) in use,
 * with new recovery codes (resolved, in clear), and moves the user's session epoch on: every
 * session signed before ends. Undefined when that enrolment is no longer pending (confirmed
 * already, or replaced by a newer one).
 */
export async function confirmEnrolment(
  db: Db,
  userId: string,
  sealed: string,
  now: Date,
): Promise<string[] | undefined> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('users')
      .set((eb) => ({
        totp_enabled_at: isoTime(now),
        session_epoch: eb('session_epoch', '+', 1),
      }))
      .where('id', '=', userId)
      .where('totp_secret', '=', sealed)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return replaceRecoveryCodes(trx, userId, now);
  });
}

/** Turns two-factor sign-in off: the secret and the recovery codes go. */
export async function disableTwoFactor(db: Db, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  });
}
