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
  now: Date,
): Promise<ImportJob | undefined> {
  const row = await db
    .updateTable('import_jobs')
    .set({ upload_key_hash: null })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .where('upload_key_hash', '=', hashToken(key))
    // The link works for an hour (then the sweep fails the job).
    .where('created_at', '>=', isoTime(new Date(now.getTime() - IMPORT_ORPHAN_MS)))
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
    .limit(100)
    .execute();
  return rows.map(toJob);
}

/** Most times a job is taken: one whose import stops its process every time fails then. */
export const IMPORT_MAX_ATTEMPTS = 3;

/**
 * The runner holding the job's lease takes it: queued or running (a stopped process's), once
 * more. False when it moved on meanwhile (another runner finished it) or was taken too often.
 */
export async function startImportJob(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('import_jobs')
    .set((eb) => ({
      status: 'running',
      started_at: isoTime(now),
      read_bytes: 0,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .where('attempts', '<', IMPORT_MAX_ATTEMPTS)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return true;
  await db
    .updateTable('import_jobs')
    .set({
      status: 'failed',
      error: `The import stopped its server ${IMPORT_MAX_ATTEMPTS} times: it was given up. Import the file with \`parley import\` to see where it stops.`,
      finished_at: isoTime(now),
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .where('attempts', '>=', IMPORT_MAX_ATTEMPTS)
    .execute();
  return false;
}

/** Entries of each list kept with a job (the console shows 100; `parley import` prints all). */
export const STORED_REPORT_ENTRIES = 1000;

/** A report as a job keeps it: its lists cut to STORED_REPORT_ENTRIES, their lengths kept. */
export interface StoredImportReport extends ImportReport {
  skippedTotal?: number;
  notesTotal?: number;
}

function stored(report: ImportReport): string {
  const kept: StoredImportReport = {
    ...report,
    skipped: report.skipped.slice(0, STORED_REPORT_ENTRIES),
    notes: report.notes.slice(0, STORED_REPORT_ENTRIES),
    skippedTotal: report.skipped.length,
    notesTotal: report.notes.length,
  };
  return JSON.stringify(kept);
}

/** How far it got (while it is running). */
export async function saveImportProgress(
  db: Db,
  id: string,
  progress: { readBytes: number; report: ImportReport },
): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ read_bytes: progress.readBytes, report: stored(progress.report) })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/**
 * The job ended: done with its report, or failed with its error and the report so far. Only a
 * job still waiting or running ends (once); false when it had ended already.
 */
export async function finishImportJob(
  db: Db,
  id: string,
  outcome: { report: ImportReport | null; error: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('import_jobs')
    .set((eb) => ({
      status: outcome.error === null ? 'done' : 'failed',
      report: outcome.report === null ? eb.ref('report') : stored(outcome.report),
      error: outcome.error,
      upload_key_hash: null,
      // Done: read to the end. Failed: where it stopped.
      read_bytes:
        outcome.error === null
          ? sql<number>`coalesce(file_bytes, read_bytes)`
          : eb.ref('read_bytes'),
      finished_at: isoTime(now),
    }))
    .where('id', '=', id)
    .where('status', 'in', ['uploading', 'queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How long an upload may wait to come, and a job to be taken by a process with its file, in ms. */
export const IMPORT_ORPHAN_MS = 60 * 60 * 1000;

/**
 * Fails the jobs nobody will finish: an upload that never came (an hour after the job was
 * made), and a job no process has held for an hour (its file was on an instance that is gone).
 * Resolves how many.
 */
export async function failOrphanImportJobs(db: Db, now: Date): Promise<number> {
  const before = isoTime(new Date(now.getTime() - IMPORT_ORPHAN_MS));
  const uploads = await db
    .updateTable('import_jobs')
    .set({
      status: 'failed',
      upload_key_hash: null,
      error: 'The file never came: start the import again.',
      finished_at: isoTime(now),
    })
    .where('status', '=', 'uploading')
    .where('created_at', '<', before)
    .executeTakeFirst();
  const held = db
    .selectFrom('job_leases')
    .select('name')
    .where('expires_at', '>=', before)
    .where('name', 'like', 'import:%');
  const orphans = await db
    .updateTable('import_jobs')
    .set({
      status: 'failed',
      error:
        'No server has held this import for an hour (its file was on one that is gone): upload it again.',
      finished_at: isoTime(now),
    })
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.fn.coalesce('started_at', 'created_at'), '<', before)
    .where((eb) => eb(sql<string>`'import:' || id`, 'not in', held))
    .executeTakeFirst();
  return Number(uploads.numUpdatedRows) + Number(orphans.numUpdatedRows);
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
