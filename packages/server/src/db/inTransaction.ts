import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** A database handle or a transaction: every store function takes one first. */
export type Db = Kysely<Database>;

/** A new row id (see schema.ts for why ids are text UUIDs). */
export function newId(): string {
  return randomUUID();
}

/** The stored timestamp `days` days before `now`: where a retention of that many days ends. */
export function daysBefore(now: Date, days: number): string {
  return isoTime(new Date(now.getTime() - days * 86_400_000));
}

/** Now, or `date`, as a stored timestamp: ISO-8601 UTC text (see schema.ts). */
export function isoTime(date: Date = new Date()): string {
  return date.toISOString();
}

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one. Kysely refuses
 * nested `transaction()` calls, and a store function must work both alone and as a step of a
 * bigger write (e.g. `install` creating the admin user): this joins the outer transaction, so the
 * whole write still commits or rolls back as one.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}

/** Parses stored JSON, falling back when the column is empty or malformed (never throws). */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Escapes `%`, `_` and `\` so user text matches literally in `LIKE … ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
