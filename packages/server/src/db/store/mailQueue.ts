/**
 * The mail queue's rows (email/createMailQueue.ts): emails waiting to be sent. A process takes
 * one by claiming it (`claimed_until`), one conditional update that only one process can win, so
 * with several instances on one database each email is sent by one of them; a claim left by a
 * process that died runs out and the email is taken again.
 */
import { isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';

/** A queued email, its message still sealed. */
export interface QueuedMail {
  id: string;
  message: string;
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
  /** The claim this process holds (its `claimed_until`): what its outcome is written under. */
  claim: string;
}

/** Queues an email, claimed by its writer until `claimedUntil` (it tries at once: that claim). */
export async function enqueueMail(
  db: Db,
  row: { id: string; message: string; claimedUntil: Date },
  now: Date,
): Promise<void> {
  await db
    .insertInto('mail_queue')
    .values({
      id: row.id,
      message: row.message,
      attempts: 0,
      next_attempt_at: isoTime(now),
      claimed_until: isoTime(row.claimedUntil),
      last_error: null,
      created_at: isoTime(now),
    })
    .execute();
}

/** Ids of the emails due now and claimed by nobody, the longest waiting first. */
export async function dueMailIds(db: Db, now: Date, limit: number): Promise<string[]> {
  const at = isoTime(now);
  const rows = await db
    .selectFrom('mail_queue')
    .select('id')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Claims a due email until `until`; undefined when another process has it, or it is gone (sent
 * meanwhile).
 */
export async function claimMail(
  db: Db,
  id: string,
  until: Date,
  now: Date,
): Promise<QueuedMail | undefined> {
  const at = isoTime(now);
  const result = await db
    .updateTable('mail_queue')
    .set({ claimed_until: isoTime(until) })
    .where('id', '=', id)
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('mail_queue').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      message: row.message,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      createdAt: row.created_at,
      claim: isoTime(until),
    }
  );
}

/**
 * Takes a sent (or given up) email off the queue — under the claim its sender held: an attempt
 * that outlived its claim (another process took the email meanwhile) changes nothing.
 */
export async function removeMail(db: Db, id: string, claim: string): Promise<void> {
  await db
    .deleteFrom('mail_queue')
    .where('id', '=', id)
    .where('claimed_until', '=', claim)
    .execute();
}

/** Records a failed attempt under the claim held: its count, when to try again, why; unclaimed. */
export async function rescheduleMail(
  db: Db,
  id: string,
  claim: string,
  failure: { attempts: number; nextAttemptAt: Date; error: string },
): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({
      attempts: failure.attempts,
      next_attempt_at: isoTime(failure.nextAttemptAt),
      claimed_until: null,
      last_error: failure.error.slice(0, 500),
    })
    .where('id', '=', id)
    .where('claimed_until', '=', claim)
    .execute();
}
