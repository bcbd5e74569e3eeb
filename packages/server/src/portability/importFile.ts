/**
 * What `parley import` reads: a file in one of the formats, gzipped or not (Disqus mails its
 * exports as `.xml.gz`, Remark42 backs up to `.gz`), and the report it prints.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import type { ReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { readDisqus } from './formats/disqus';
import { readRemark42 } from './formats/remark42';
import { readWordPress } from './formats/wordpress';
import type { Db } from '../db/inTransaction';
import { ParleyError } from '../ParleyError';
import { importParley } from './importParley';
import type { ParleyImportOptions } from './importParley';
import type { ImportReport, ReportEntry } from './importShared';
import { importSite } from './importSite';
import type { SourceItem } from './importSite';

/** The formats `parley import` reads, by the name given on its command line. */
export const IMPORT_FORMATS = {
  disqus: readDisqus,
  wordpress: readWordPress,
  remark42: readRemark42,
} satisfies Record<string, (input: AsyncIterable<string | Buffer>) => AsyncIterable<SourceItem>>;

/** Every format `parley import` takes: the others', and Parley's own export (importParley.ts). */
export const IMPORT_FORMAT_NAMES = [...Object.keys(IMPORT_FORMATS), 'parley'] as const;

/** Options of {@link importFile}. */
export interface ImportFileOptions extends ParleyImportOptions {
  /**
   * Given the file's stream each time it is opened (Parley's own format reads it once per
   * array): its `bytesRead` says how far the import has come.
   */
  onOpen?(file: ReadStream): void;
}

/** Imports `path`, in `format`, into the site. */
export function importFile(
  db: Db,
  format: string,
  path: string,
  options: ImportFileOptions,
): Promise<ImportReport> {
  const open = () => openImportFile(path, options.onOpen);
  if (format === 'parley') return importParley(db, open, options);
  if (!Object.hasOwn(IMPORT_FORMATS, format)) {
    throw new ParleyError('INVALID_INPUT', `There is no import format ${format}.`, {
      field: 'format',
    });
  }
  const read = IMPORT_FORMATS[format as keyof typeof IMPORT_FORMATS];
  return importSite(db, read(open()), { ...options, format });
}

/**
 * The bytes of `path`, unzipped when they start as gzip does (whatever the file is called).
 * Throws (ENOENT, EACCES) at once when the file cannot be opened; a read error later ends the
 * stream with it.
 */
export function openImportFile(path: string, onOpen?: (file: ReadStream) => void): Readable {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(2);
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  const stream = createReadStream(path);
  onOpen?.(stream);
  if (head[0] !== 0x1f || head[1] !== 0x8b) return stream;
  const gunzip = createGunzip();
  pipeline(stream, gunzip, () => {});
  return gunzip;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The report as `parley import` prints it. */
export function formatReport(report: ImportReport): string {
  // Ids and reasons quote the file: its control characters are not the terminal's to obey.
  const clean = (text: string) =>
    text.replace(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f-\u009f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  const entry = ({ what, id, line, reason }: ReportEntry) =>
    `    ${what} ${clean(id) || '(no id)'}${line === null ? '' : ` (line ${line})`}: ${clean(reason)}`;
  const imported = report.comments.imported;
  const perSecond = report.seconds > 0 ? Math.round(imported / report.seconds) : imported;
  return [
    report.dryRun
      ? `Dry run of the ${report.format} import into site ${report.siteId}: nothing was written.`
      : `Imported ${report.format} into site ${report.siteId}.`,
    `  stories:  ${count(report.stories.created)} created, ${count(report.stories.matched)} already here`,
    `  users:    ${count(report.users.created)} created, ${count(report.users.matched)} matched (by email, or from an earlier import)`,
    `  comments: ${count(imported)} imported, ${count(report.comments.already)} already imported`,
    `  skipped:  ${count(report.skipped.length)}`,
    ...report.skipped.map(entry),
    `  notes:    ${count(report.notes.length)}`,
    ...report.notes.map(entry),
    `  ${count(imported)} comments in ${report.seconds.toFixed(1)} s (${count(perSecond)} comments/s)`,
  ].join('\n');
}
