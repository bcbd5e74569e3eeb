/**
 * Import and export from the console, over HTTP beside GraphQL:
 *
 * - `PUT /api/imports/<job>/upload?key=…`: the file of an import job made by `createImportJob`
 *   (the key is one-time), streamed to `<dataDir>/imports/`, at most IMPORT_UPLOAD_MAX_BYTES;
 * - the runner: each process looks for queued jobs whose file it has, takes a job's lease, runs
 *   it with `importFile` (batches in transactions, idempotent), writing progress as it goes and
 *   the report at the end. A process that stops leaves its job running; once the lease runs out,
 *   a process takes it again and the import resumes (what was written is found, not doubled);
 * - `GET /api/exports/<site>?token=…`: the site's export as a download, the token from
 *   `createExportDownload` (a minute, admins). On SQLite it reads through a connection of its
 *   own, in one read transaction: a snapshot, while the server's connection goes on writing.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect } from 'kysely';
import type { Logger } from 'pino';
import type { TokenService } from '../auth/tokens';
import type { Db } from '../db/inTransaction';
import type { Database } from '../db/schema';
import { SQLITE_FILE_NAME } from '../db/createDatabase';
import { releaseJobLease, takeJobLease } from '../db/store/jobLeases';
import {
  failOrphanImportJobs,
  finishImportJob,
  queueImportJob,
  runnableImportJobs,
  saveImportProgress,
  startImportJob,
  takeUploadKey,
} from '../db/store/importJobs';
import type { ImportJob } from '../db/store/importJobs';
import { findSiteById } from '../db/store/sites';
import { findUserById } from '../db/store/users';
import { ParleyError } from '../ParleyError';
import { sendJson } from '../runtime/httpHelpers';
import { exportSite } from './exportSite';
import { importFile } from './importFile';
import { partialReport } from './importShared';
import type { ImportReport } from './importShared';

/** Where the routes live. */
export const IMPORTS_PREFIX = '/api/imports/';
export const EXPORTS_PREFIX = '/api/exports/';
/** The largest import file the console uploads, in bytes (1 GiB: Disqus's biggest exports). */
export const IMPORT_UPLOAD_MAX_BYTES = 1024 ** 3;
/** How often a process looks for a job to run, in ms (an upload wakes it at once). */
export const IMPORT_POLL_MS = 5000;
/** A job's lease, in ms: renewed as it runs; a stopped process's job is taken again after it. */
export const IMPORT_LEASE_MS = 60_000;
/** How often jobs nobody will finish are looked for, in ms. */
const ORPHAN_SWEEP_MS = 60_000;
/** How often a running job's progress is written, in ms (its report can be long). */
export const IMPORT_PROGRESS_MS = 2000;
/** How long an export download link works, in seconds. */
export const EXPORT_LINK_SECONDS = 60;

/** Where job `id`'s file waits. */
export function importFilePath(dataDir: string, id: string): string {
  return join(dataDir, 'imports', `${id}.upload`);
}

/** What the runner and routes need of the server. */
export interface PortabilityDeps {
  db: Db;
  dataDir: string;
  tokens: TokenService;
  logger: Logger;
  now: () => Date;
}

/** The runner of import jobs in this process. */
export interface ImportRunner {
  /** Looks for a job now, and for jobs nobody will finish (after an upload). */
  wake(): void;
  /** Resolves once the runner has looked (tests). */
  idle(): Promise<void>;
  /** Stops taking jobs; a job running is left to be taken again once its lease runs out. */
  close(): void;
}

/** How often a running job's lease is renewed, in ms (a third of its length). */
const LEASE_RENEW_MS = IMPORT_LEASE_MS / 3;

/** Thrown into an import whose process lost its lease (another took the job): it stops. */
class LeaseLost extends Error {}

/** An import's error as the console says it: the file's fault, or the server's (logged). */
function describeFailure(error: unknown): string {
  if (error instanceof ParleyError) return error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return 'The gzipped file is cut off or damaged: export it again.';
  }
  if (code === 'ENOSPC') return 'The server’s disk is full: nothing more was written.';
  return 'The import stopped on an unexpected error (the server’s log says which): what was written stays; start it again to resume.';
}

/** Starts the runner of import jobs. */
export function startImportRunner(deps: PortabilityDeps): ImportRunner {
  const holder = `import-runner-${randomUUID()}`;
  let closing = false;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  const tick = (sweep = false) => {
    if (busy || closing) return running;
    busy = true;
    running = lookForJob(sweep)
      .catch((error: unknown) => deps.logger.error({ err: error }, 'The import runner failed'))
      .finally(() => {
        busy = false;
      });
    return running;
  };

  // Orphans are an hour old before they are failed: the timer's look at them is once a minute
  // (not two writes every IMPORT_POLL_MS in every process); a wake (an upload) looks at once.
  let sweptAt = -Infinity;
  async function lookForJob(sweep: boolean): Promise<void> {
    const now = deps.now();
    if (sweep || now.getTime() - sweptAt >= ORPHAN_SWEEP_MS) {
      sweptAt = now.getTime();
      await failOrphanImportJobs(deps.db, now);
    }
    for (const job of await runnableImportJobs(deps.db)) {
      // Another process's upload (a data folder of its own): its process runs it.
      if (!existsSync(importFilePath(deps.dataDir, job.id))) continue;
      const name = `import:${job.id}`;
      const lease = () =>
        takeJobLease(deps.db, { name, holder, now: deps.now(), ttlMs: IMPORT_LEASE_MS });
      if (!(await lease())) continue;
      try {
        if (await startImportJob(deps.db, job.id, deps.now())) await run(job, lease);
      } finally {
        await releaseJobLease(deps.db, name, holder).catch(() => undefined);
      }
      return;
    }
  }

  async function run(job: ImportJob, renewLease: () => Promise<boolean>): Promise<void> {
    const path = importFilePath(deps.dataDir, job.id);
    let file: ReadStream | undefined;
    let latest: ImportReport | undefined;
    let lost = false;
    let saving: Promise<void> = Promise.resolve();
    // The lease is renewed on its own clock, whatever the import is doing (a file that lists its
    // threads first calls onProgress late); lost, the import stops at its next batch.
    const renewing = setInterval(() => {
      void renewLease().then(
        (held) => {
          if (!held) lost = true;
        },
        () => undefined,
      );
    }, LEASE_RENEW_MS);
    const save = () => {
      if (latest === undefined || lost) return;
      const progress = { readBytes: file?.bytesRead ?? 0, report: latest };
      saving = saving
        .then(() => saveImportProgress(deps.db, job.id, progress))
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'Import progress not saved'));
    };
    const saver = setInterval(save, IMPORT_PROGRESS_MS);
    const stop = async () => {
      clearInterval(renewing);
      clearInterval(saver);
      await saving;
    };
    try {
      const report = await importFile(deps.db, job.format, path, {
        siteId: job.siteId,
        dryRun: job.dryRun,
        rewriteOrigins: new Map(Object.entries(job.rewriteOrigins)),
        onOpen: (stream) => {
          file = stream;
        },
        onProgress: (report) => {
          latest = report;
          // Between batches (each committed): stopping here leaves nothing half-written.
          if (lost || closing) throw new LeaseLost();
        },
      });
      await stop();
      if (await finishImportJob(deps.db, job.id, { report, error: null }, deps.now())) {
        deps.logger.info(
          { job: job.id, comments: report.comments.imported, skipped: report.skipped.length },
          'Import finished',
        );
      }
    } catch (error) {
      await stop();
      // Stopping, or another process has the job now: it stays running, theirs (or the next
      // process's once the lease runs out) to resume; the file stays with it.
      if (closing || lost || error instanceof LeaseLost) return;
      if (!(error instanceof ParleyError)) {
        deps.logger.error({ err: error, job: job.id }, 'Import failed');
      }
      await finishImportJob(
        deps.db,
        job.id,
        { report: partialReport(error) ?? latest ?? null, error: describeFailure(error) },
        deps.now(),
      );
    }
    await rm(path, { force: true });
  }

  const interval = setInterval(() => void tick(), IMPORT_POLL_MS);
  interval.unref();
  void tick();
  return {
    wake: () => void tick(true),
    idle: () => running,
    close: () => {
      closing = true;
      clearInterval(interval);
    },
  };
}

/** Answers a request under the import and export paths; false for any other path. */
export type PortabilityRoutes = (
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
) => Promise<boolean>;

const NO_STORE = { 'cache-control': 'no-store' };

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { errors: [{ message, extensions: { code } }] }, NO_STORE);
}

/** Downloads of exports at once, per process. */
export const EXPORTS_AT_ONCE = 2;

/** Thrown into an export whose browser went away. */
class DownloadCancelled extends Error {}

/** Builds the routes; `runner` is woken when a file is in. */
export function createPortabilityRoutes(
  deps: PortabilityDeps,
  runner: Pick<ImportRunner, 'wake'>,
): PortabilityRoutes {
  let exporting = 0;
  return async (req, res, pathname) => {
    const url = new URL(req.url ?? pathname, 'http://parley');
    const upload = new RegExp(`^${IMPORTS_PREFIX}([\\w-]+)/upload$`).exec(pathname);
    if (upload !== null) {
      if (req.method !== 'PUT' && req.method !== 'POST') {
        refuse(res, 405, 'INVALID_INPUT', 'Send the file with PUT.');
        return true;
      }
      await receiveUpload(req, res, upload[1] ?? '', url.searchParams.get('key') ?? '');
      return true;
    }
    const download = new RegExp(`^${EXPORTS_PREFIX}([\\w-]+)$`).exec(pathname);
    if (download !== null && req.method === 'GET') {
      await sendExport(res, download[1] ?? '', url.searchParams.get('token') ?? '');
      return true;
    }
    return false;
  };

  async function receiveUpload(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    key: string,
  ): Promise<void> {
    // A refused upload is not read to its end: the connection goes with the answer.
    const refuseUpload = (status: number, code: string, message: string) => {
      res.setHeader('connection', 'close');
      refuse(res, status, code, message);
      res.once('finish', () => req.destroy());
    };
    const job = await takeUploadKey(deps.db, id, key, deps.now());
    if (job === undefined) {
      refuseUpload(
        403,
        'TOKEN_INVALID',
        'This upload link is not valid, was used, or is over an hour old: start the import again.',
      );
      return;
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > IMPORT_UPLOAD_MAX_BYTES) {
      await finishImportJob(deps.db, id, { report: null, error: tooLarge() }, deps.now());
      refuseUpload(413, 'UPLOAD_TOO_LARGE', tooLarge());
      return;
    }
    const path = importFilePath(deps.dataDir, id);
    mkdirSync(join(deps.dataDir, 'imports'), { recursive: true, mode: 0o700 });
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(
          size > IMPORT_UPLOAD_MAX_BYTES ? new ParleyError('UPLOAD_TOO_LARGE', tooLarge()) : null,
          chunk,
        );
      },
    });
    try {
      await pipeline(req, limit, createWriteStream(path, { mode: 0o600 }));
      if (size === 0) throw new ParleyError('INVALID_INPUT', 'The file is empty.');
    } catch (error) {
      await rm(path, { force: true });
      const coded = error instanceof ParleyError ? error : undefined;
      const full = (error as { code?: unknown }).code === 'ENOSPC';
      const message =
        coded?.message ??
        (full
          ? 'The server’s disk is full: the file was not kept.'
          : 'The upload was cut off: start the import again.');
      await finishImportJob(deps.db, id, { report: null, error: message }, deps.now());
      if (!res.headersSent) {
        const code = coded?.code ?? (full ? 'STORAGE_FULL' : 'INVALID_INPUT');
        refuseUpload(code === 'UPLOAD_TOO_LARGE' ? 413 : full ? 507 : 400, code, message);
      }
      return;
    }
    await queueImportJob(deps.db, id, (await stat(path)).size);
    runner.wake();
    sendJson(res, 202, { id, status: 'QUEUED' }, NO_STORE);
  }

  async function sendExport(res: ServerResponse, siteId: string, token: string): Promise<void> {
    const claims = await deps.tokens.verifyFor('exportDownload', token);
    const user =
      typeof claims?.['sub'] === 'string' ? await findUserById(deps.db, claims['sub']) : undefined;
    // The admin who asked, still an admin, still signed in as then (the epoch), for this site.
    if (
      user === undefined ||
      user.role !== 'ADMIN' ||
      claims?.['site'] !== siteId ||
      claims['ep'] !== user.sessionEpoch
    ) {
      refuse(
        res,
        403,
        'TOKEN_INVALID',
        'This download link is not valid, or has expired: ask for another.',
      );
      return;
    }
    const site = await findSiteById(deps.db, siteId);
    if (site === undefined) {
      refuse(res, 404, 'NOT_FOUND', 'There is no such site.');
      return;
    }
    // Each download holds a connection (a pooled one, on PostgreSQL) while the browser reads it.
    if (exporting >= EXPORTS_AT_ONCE) {
      res.setHeader('retry-after', '30');
      refuse(res, 429, 'RATE_LIMITED', 'Other exports are downloading: try again in a moment.');
      return;
    }
    exporting++;
    const snapshot = openSnapshot(deps);
    const day = deps.now().toISOString().slice(0, 10);
    const slug =
      site.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'site';
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="parley-${slug}-${day}.json"`,
      'cache-control': 'no-store',
    });
    // A browser that goes away (a cancelled download) ends the export at its next piece, and
    // with it the snapshot's transaction: nothing waits for a 'drain' that never comes.
    const write = async (piece: string) => {
      if (res.destroyed) throw new DownloadCancelled();
      if (res.write(piece)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
      if (res.destroyed) throw new DownloadCancelled();
    };
    try {
      await exportSite(snapshot.db, siteId, write);
      res.end();
    } catch (error) {
      if (!(error instanceof DownloadCancelled)) {
        deps.logger.error({ err: error, site: siteId }, 'An export download failed');
      }
      // The status is out: cutting the connection is how the browser learns it is incomplete.
      res.destroy();
    } finally {
      exporting--;
      await snapshot.close();
    }
  }
}

function tooLarge(): string {
  return `The file is larger than ${IMPORT_UPLOAD_MAX_BYTES / 1024 ** 3} GiB: import it with \`parley import\` on the server.`;
}

/**
 * A connection to read an export through: on SQLite, one of its own, read-only (its transaction
 * is a snapshot that does not hold the server's one connection); on PostgreSQL, the pool.
 */
function openSnapshot(deps: PortabilityDeps): { db: Db; close(): Promise<void> } {
  const file = join(deps.dataDir, SQLITE_FILE_NAME);
  if (!(deps.db.getExecutor().adapter instanceof SqliteAdapter) || !existsSync(file)) {
    return { db: deps.db, close: () => Promise.resolve() };
  }
  const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, close: () => db.destroy() };
}
