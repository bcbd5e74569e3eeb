/**
 * Import and export from the console: an import job is made here and its file sent to the URL
 * it answers (portability/importJobs.ts runs it); an export is downloaded from a one-minute link.
 * Admins only, in a session of their own (a mutation an API token may not call).
 */
import { createImportJob, findImportJob, listImportJobs } from '../../db/store/importJobs';
import type { StoredImportReport } from '../../db/store/importJobs';
import { findSiteById } from '../../db/store/sites';
import { ParleyError } from '../../ParleyError';
import { IMPORT_FORMAT_NAMES } from '../../portability/importFile';
import { EXPORTS_PREFIX, EXPORT_LINK_SECONDS, IMPORTS_PREFIX } from '../../portability/importJobs';
import { SqliteAdapter } from 'kysely';
import { inTransaction } from '../../db/inTransaction';
import { audit } from '../audit';
import { requireRole } from '../permissions';
import type { Resolvers } from './resolverTypes.generated';

/** Most jobs listed at once. */
const IMPORT_JOBS_MAX = 50;
/** Most report entries of each list answered at once. */
const REPORT_ENTRIES_MAX = 1000;

const STATUS = {
  uploading: 'UPLOADING',
  queued: 'QUEUED',
  running: 'RUNNING',
  done: 'DONE',
  failed: 'FAILED',
} as const;

async function requireSite(ctx: Parameters<typeof requireRole>[0], siteId: string) {
  const site = await findSiteById(ctx.db, siteId);
  if (site === undefined) {
    throw new ParleyError('NOT_FOUND', 'There is no such site.', { field: 'siteId' });
  }
  return site;
}

/** An origin (`https://host[:port]`) as typed; INVALID_INPUT for anything that is not a URL. */
function originOf(text: string): string {
  try {
    const url = new URL(text.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // said below
  }
  throw new ParleyError(
    'INVALID_INPUT',
    `An origin is an address such as https://old.example, not "${text}".`,
    { field: 'rewriteOrigins' },
  );
}

const entries = (
  list: readonly { what: string; id: string; line: number | null; reason: string }[],
  first: number | null | undefined,
) => list.slice(0, Math.max(0, Math.min(first ?? 100, REPORT_ENTRIES_MAX)));

export const portabilityResolvers = {
  Query: {
    importJobs: (_root, { siteId, first }, ctx) => {
      requireRole(ctx, 'ADMIN');
      return listImportJobs(ctx.db, {
        siteId,
        first: Math.max(1, Math.min(first ?? 10, IMPORT_JOBS_MAX)),
      });
    },
    importJob: async (_root, { id }, ctx) => {
      requireRole(ctx, 'ADMIN');
      return (await findImportJob(ctx.db, id)) ?? null;
    },
  },

  Mutation: {
    createImportJob: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      if (!(IMPORT_FORMAT_NAMES as readonly string[]).includes(input.format)) {
        throw new ParleyError(
          'INVALID_INPUT',
          `The format is one of ${IMPORT_FORMAT_NAMES.join(', ')}.`,
          { field: 'format' },
        );
      }
      await requireSite(ctx, input.siteId);
      // A dry run is one transaction, rolled back at the end: on SQLite it would hold the
      // server's one connection (every request) for the whole import.
      if (input.dryRun === true && ctx.db.getExecutor().adapter instanceof SqliteAdapter) {
        throw new ParleyError(
          'INVALID_INPUT',
          'A dry run on the embedded database would hold the whole site while it runs: run `parley import --dry-run` on the server instead, or import for real (running it again later adds nothing new).',
          { field: 'dryRun' },
        );
      }
      const rewriteOrigins: Record<string, string> = {};
      for (const { from, to } of input.rewriteOrigins ?? []) {
        rewriteOrigins[originOf(from)] = originOf(to);
      }
      const { job, uploadKey } = await inTransaction(ctx.db, async (trx) => {
        const made = await createImportJob(
          trx,
          {
            siteId: input.siteId,
            format: input.format,
            dryRun: input.dryRun === true,
            rewriteOrigins,
            createdBy: admin.id,
          },
          ctx.now(),
        );
        await audit(
          ctx,
          trx,
          'IMPORT_START',
          { type: 'site', id: input.siteId, label: input.format },
          [
            { field: 'format', before: null, after: input.format },
            { field: 'dryRun', before: null, after: input.dryRun === true },
          ],
        );
        return made;
      });
      const base = ctx.publicUrl.replace(/\/$/, '');
      return {
        importJob: job,
        uploadUrl: `${base}${IMPORTS_PREFIX}${job.id}/upload?key=${encodeURIComponent(uploadKey)}`,
      };
    },

    createExportDownload: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      const site = await requireSite(ctx, input.siteId);
      // Its every commenter's address goes with it: who took one is kept.
      await audit(ctx, ctx.db, 'EXPORT_DOWNLOAD', { type: 'site', id: site.id, label: site.name });
      const token = await ctx.tokens.signFor(
        'exportDownload',
        { sub: admin.id, ep: admin.sessionEpoch, site: input.siteId },
        EXPORT_LINK_SECONDS,
      );
      const base = ctx.publicUrl.replace(/\/$/, '');
      return {
        url: `${base}${EXPORTS_PREFIX}${input.siteId}?token=${encodeURIComponent(token)}`,
      };
    },
  },

  ImportJob: {
    site: async (job, _args, ctx) => (await findSiteById(ctx.db, job.siteId)) ?? null,
    status: (job) => STATUS[job.status],
  },

  ImportReport: {
    storiesCreated: (report) => report.stories.created,
    storiesMatched: (report) => report.stories.matched,
    usersCreated: (report) => report.users.created,
    usersMatched: (report) => report.users.matched,
    commentsImported: (report) => report.comments.imported,
    commentsAlready: (report) => report.comments.already,
    // A job keeps the first STORED_REPORT_ENTRIES of each list, and how long each was.
    skippedCount: (report) => (report as StoredImportReport).skippedTotal ?? report.skipped.length,
    notesCount: (report) => (report as StoredImportReport).notesTotal ?? report.notes.length,
    skipped: (report, { first }) => entries(report.skipped, first),
    notes: (report, { first }) => entries(report.notes, first),
  },
} satisfies Resolvers;
