import { sql } from 'kysely';
import type { Db } from '../inTransaction';
import { isoTime } from '../inTransaction';

/**
 * Periodic jobs run by one server process at a time. A process takes job `name`'s lease when
 * nobody holds it, when it already holds it, or when the holder let it run out (stopped,
 * crashed); one statement decides, so two processes asking at once cannot both get it.
 *
 * A lease row rather than a job queue library (pg-boss, graphile-worker): those run on
 * PostgreSQL only, and the one job here (the hourly sweep) must run once on SQLite too. A lease
 * rather than PostgreSQL's advisory locks: a session lock would pin one pooled connection for the
 * process's life, and a transaction lock would hold one transaction for the whole sweep.
 */
export async function takeJobLease(
  db: Db,
  { name, holder, now, ttlMs }: { name: string; holder: string; now: Date; ttlMs: number },
): Promise<boolean> {
  const row = await db
    .insertInto('job_leases')
    .values({ name, holder, expires_at: isoTime(new Date(now.getTime() + ttlMs)) })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({
          holder: (eb) => eb.ref('excluded.holder'),
          expires_at: (eb) => eb.ref('excluded.expires_at'),
        })
        .where(({ or, eb }) =>
          or([
            eb('job_leases.holder', '=', holder),
            eb('job_leases.expires_at', '<=', isoTime(now)),
          ]),
        ),
    )
    .returning(sql<string>`holder`.as('holder'))
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Gives job `name`'s lease up if `holder` has it (a process stopping), so another takes it at once. */
export async function releaseJobLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
}
