/**
 * What `parley import` reads: a file in one of the formats, gzipped or not (Disqus mails its
 * exports as `.xml.gz`, Remark42 backs up to `.gz`), and the report it prints.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { readDisqus } from './formats/disqus';
import { readRemark42 } from './formats/remark42';
import { readWordPress } from './formats/wordpress';
import type { ImportReport, ReportEntry, SourceItem } from './importSite';

/** The formats `parley import` reads, by the name given on its command line. */
export const IMPORT_FORMATS = {
  disqus: readDisqus,
  wordpress: readWordPress,
  remark42: readRemark42,
} satisfies Record<string, (input: AsyncIterable<string | Buffer>) => AsyncIterable<SourceItem>>;

export type ImportFormat = keyof typeof IMPORT_FORMATS;

/** True when `name` is a format {@link IMPORT_FORMATS} reads. */
export function isImportFormat(name: string): name is ImportFormat {
  return Object.hasOwn(IMPORT_FORMATS, name);
}

/** The bytes of `path`, unzipped when they start as gzip does (whatever the file is called). */
export async function openImportFile(path: string): Promise<AsyncIterable<Buffer>> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(2);
  try {
    await handle.read(head, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const stream = createReadStream(path);
  return head[0] === 0x1f && head[1] === 0x8b ? stream.pipe(createGunzip()) : stream;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The report as `parley import` prints it. */
export function formatReport(report: ImportReport): string {
  const entry = ({ what, id, line, reason }: ReportEntry) =>
    `    ${what} ${id || '(no id)'}${line === null ? '' : ` (line ${line})`}: ${reason}`;
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
