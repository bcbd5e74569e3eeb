/**
 * Imports started from the console (portability/importJobs.ts runs them): made with a one-time
 * upload key, queued once their file is in, run by one process at a time (a job lease per job),
 * their progress and report written as they go.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { ImportJobStatus, ImportJobsTable } from '../schema';
import type { ImportReport } from '../../portability/importShared';
import { hashToken } from './tokens';

/** An import job as the API and the runner see it. */
export interface ImportJob {
  id: string;
  siteId: string;
  format: string;
  dryRun: boolean;
  /** Old origin → new origin, for threads of a site that moved. */
  rewriteOrigins: Record<string, string>;
  status: ImportJobStatus;
  fileBytes: number | null;
  readBytes: number;
  report: ImportReport | null;
  error: string | null;
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

function toJob(row: Selectable<ImportJobsTable>): ImportJob {
  return {
    id: row.id,
    siteId: row.site_id,
    format: row.format,
    dryRun: row.dry_run === 1,
    rewriteOrigins: parseJson<Record<string, string>>(row.rewrite_origins, {}),
    status: row.status,
    fileBytes: row.file_bytes,
    readBytes: row.read_bytes,
    report: parseJson<ImportReport | null>(row.report, null),
    error: row.error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Makes a job waiting for its file; resolves it and the upload key (in clear, this once). */
export async function createImportJob(
  db: Db,
  input: {
    siteId: string;
    format: string;
    dryRun: boolean;
    rewriteOrigins: Record<string, string>;
    createdBy: string;
  },
  now: Date,
): Promise<{ job: ImportJob; uploadKey: string }> {
  const uploadKey = randomBytes(32).toString('base64url');
  const row = await db
    .insertInto('import_jobs')
    .values({
      id: newId(),
      site_id: input.siteId,
      format: input.format,
      dry_run: input.dryRun ? 1 : 0,
      rewrite_origins: JSON.stringify(input.rewriteOrigins),
      status: 'uploading',
      upload_key_hash: hashToken(uploadKey),
      created_by: input.createdBy,
      created_at: isoTime(now),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { job: toJob(row), uploadKey };
}

/**
 * Takes the upload key of job `id` once: the job waiting for its file under that key, or
 * undefined (unknown, used, or the job moved on).
 */
export async function takeUploadKey(
  db: Db,
  id: string,
  key: string,
): Promise<ImportJob | undefined> {
  const row = await db
    .updateTable('import_jobs')
    .set({ upload_key_hash: null })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .where('upload_key_hash', '=', hashToken(key))
    .returningAll()
    .executeTakeFirst();
  return row && toJob(row);
}

/** The file is in: the job waits for a runner. */
export async function queueImportJob(db: Db, id: string, fileBytes: number): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ status: 'queued', file_bytes: fileBytes })
    .where('id', '=', id)
    .execute();
}

/** Jobs a runner may take: queued, or running under a process that stopped (its lease is out). */
export async function runnableImportJobs(db: Db): Promise<ImportJob[]> {
  const rows = await db
    .selectFrom('import_jobs')
    .selectAll()
    .where('status', 'in', ['queued', 'running'])
    .orderBy('created_at')
    .limit(20)
    .execute();
  return rows.map(toJob);
}

/** The runner took the job (under its lease). */
export async function startImportJob(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ status: 'running', started_at: isoTime(now), read_bytes: 0 })
    .where('id', '=', id)
    .execute();
}

/** How far it got. */
export async function saveImportProgress(
  db: Db,
  id: string,
  progress: { readBytes: number; report: ImportReport },
): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ read_bytes: progress.readBytes, report: JSON.stringify(progress.report) })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** The job ended: done with its report, or failed with its error and the report so far. */
export async function finishImportJob(
  db: Db,
  id: string,
  outcome: { report: ImportReport | null; error: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set((eb) => ({
      status: outcome.error === null ? 'done' : 'failed',
      report: outcome.report === null ? eb.ref('report') : JSON.stringify(outcome.report),
      error: outcome.error,
      // Done: read to the end. Failed: where it stopped.
      read_bytes:
        outcome.error === null
          ? sql<number>`coalesce(file_bytes, read_bytes)`
          : eb.ref('read_bytes'),
      finished_at: isoTime(now),
    }))
    .where('id', '=', id)
    .execute();
}

/** One job, or undefined. */
export async function findImportJob(db: Db, id: string): Promise<ImportJob | undefined> {
  const row = await db
    .selectFrom('import_jobs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toJob(row);
}

/** The latest jobs, newest first (those of one site with `siteId`). */
export async function listImportJobs(
  db: Db,
  { siteId, first }: { siteId?: string | null; first: number },
): Promise<ImportJob[]> {
  let query = db
    .selectFrom('import_jobs')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (siteId) query = query.where('site_id', '=', siteId);
  return (await query.limit(first).execute()).map(toJob);
}
