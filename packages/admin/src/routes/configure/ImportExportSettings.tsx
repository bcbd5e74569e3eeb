import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import type { Translate } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { Field } from '../../Field';
import { formatWhen } from '../../formatWhen';
import { useI18n, useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

const ImportJobFields = graphql(`
  fragment ImportJobFields on ImportJob {
    id format dryRun status fileBytes readBytes error createdAt finishedAt
    site { id name }
    report {
      storiesCreated storiesMatched usersCreated usersMatched commentsImported commentsAlready
      skippedCount notesCount seconds
      skipped(first: 100) { what id line reason }
    }
  }
`);

/** An import job as this section shows it. */
export type ConsoleImportJob = ResultOf<typeof ImportJobFields>;

/** The latest imports, and the sites to import into or export. */
export const IMPORT_JOBS_QUERY = graphql(
  `query ConsoleImportJobs { importJobs(first: 10) { ...ImportJobFields } sites { id name url } }`,
  [ImportJobFields],
);

export const CREATE_IMPORT_JOB_MUTATION = graphql(
  `
    mutation ConsoleCreateImportJob($input: CreateImportJobInput!) {
      createImportJob(input: $input) { uploadUrl importJob { ...ImportJobFields } }
    }
  `,
  [ImportJobFields],
);

export const CREATE_EXPORT_DOWNLOAD_MUTATION = graphql(`
  mutation ConsoleCreateExportDownload($input: CreateExportDownloadInput!) {
    createExportDownload(input: $input) { url }
  }
`);

/** The formats, as the select says them (catalog keys). */
export const FORMATS = {
  disqus: 'console.integrations.import.format.disqus',
  wordpress: 'console.integrations.import.format.wordpress',
  remark42: 'console.integrations.import.format.remark42',
  parley: 'console.integrations.import.format.parley',
} as const satisfies Record<string, ConsoleMessageKey>;

/** The largest file the server takes (portability/importJobs.ts). */
const UPLOAD_MAX_BYTES = 1024 ** 3;

/** How often the list is read again while an import waits or runs, in ms. */
export const IMPORT_POLL_MS = 1000;

const STATUS_TEXT: Record<ConsoleImportJob['status'], ConsoleMessageKey> = {
  UPLOADING: 'console.integrations.import.status.UPLOADING',
  QUEUED: 'console.integrations.import.status.QUEUED',
  RUNNING: 'console.integrations.import.status.RUNNING',
  DONE: 'console.integrations.import.status.DONE',
  FAILED: 'console.integrations.import.status.FAILED',
};

/** A number with one decimal, in the console's language ("2.5"). */
const oneDecimal = (locale: string, n: number) =>
  n.toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function size(t: Translate<ConsoleMessageKey>, locale: string, bytes: number): string {
  if (bytes < 1024 ** 2) {
    return t('console.integrations.import.sizeKb', {
      size: Math.max(1, Math.round(bytes / 1024)),
    });
  }
  return t('console.integrations.import.sizeMb', { size: oneDecimal(locale, bytes / 1024 ** 2) });
}

/** Sends `file` to `url` with PUT, telling the share sent; resolves the HTTP status (0: none). */
function put(
  win: Window,
  url: string,
  file: File,
  onProgress: (share: number) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    // XMLHttpRequest, not fetch: only it tells how much of the body has gone.
    const request = new (win as Window & typeof globalThis).XMLHttpRequest();
    request.open('PUT', url);
    request.upload.onprogress = (event: ProgressEvent) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    request.onerror = () => resolve({ status: 0, body: '' });
    request.send(file);
  });
}

/** The message of a refused upload's answer (the server's JSON), else a generic one. */
function uploadError(t: Translate<ConsoleMessageKey>, status: number, body: string): string {
  if (status === 0) return t('console.integrations.import.uploadCutOff');
  try {
    const code = (JSON.parse(body) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]
      ?.extensions?.code;
    if (code === 'UPLOAD_TOO_LARGE') return t('console.integrations.import.tooLarge');
    if (code === 'TOKEN_INVALID') return t('console.integrations.import.uploadExpired');
  } catch {
    // not JSON: said below
  }
  return t('console.integrations.import.uploadRefused', { status: String(status) });
}

/**
 * Configure › Import and export: upload a Disqus, WordPress, Remark42 or Parley file into a site
 * (a dry run first, if wanted); the import runs on the server, its progress and report shown
 * here as it goes, and it goes on if this page is closed. Below, each site's export to download.
 */
export function ImportExportSettings() {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  const [{ data, error: loadError }, reload] = useQuery({
    query: IMPORT_JOBS_QUERY,
    requestPolicy: 'network-only',
  });
  const [, createJob] = useMutation(CREATE_IMPORT_JOB_MUTATION);
  const [exporting, createExport] = useMutation(CREATE_EXPORT_DOWNLOAD_MUTATION);
  const sites = data?.sites ?? [];
  const jobs = data?.importJobs ?? [];
  const [siteId, setSiteId] = useState('');
  const [format, setFormat] = useState<keyof typeof FORMATS>('disqus');
  const [file, setFile] = useState<File | null>(null);
  const [oldOrigin, setOldOrigin] = useState('');
  const [dryRun, setDryRun] = useState(false);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [originError, setOriginError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [fileInput, setFileInput] = useState(0);
  const [exportSite, setExportSite] = useState('');
  const chosenSite = siteId || sites[0]?.id || '';
  const chosenExport = exportSite || sites[0]?.id || '';

  // Read again while any import waits or runs: its progress bar moves.
  const active = jobs.some((job) => ['UPLOADING', 'QUEUED', 'RUNNING'].includes(job.status));
  useEffect(() => {
    if (!active) return undefined;
    const timer = win.setTimeout(() => reload({ requestPolicy: 'network-only' }), IMPORT_POLL_MS);
    return () => win.clearTimeout(timer);
  }, [active, data, reload, win]);

  async function onImport(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setFileError(
      file === null
        ? t('console.integrations.import.fileMissing')
        : file.size > UPLOAD_MAX_BYTES
          ? t('console.integrations.import.tooLarge')
          : undefined,
    );
    const site = sites.find((s) => s.id === chosenSite);
    let rewriteOrigins: { from: string; to: string }[] = [];
    setOriginError(undefined);
    if (oldOrigin.trim() !== '' && site) {
      try {
        // The old address's threads become the same paths at the site's own address.
        rewriteOrigins = [{ from: new URL(oldOrigin.trim()).origin, to: new URL(site.url).origin }];
      } catch {
        setOriginError(t('console.integrations.import.oldOriginInvalid'));
        return;
      }
    }
    if (file === null || file.size > UPLOAD_MAX_BYTES) {
      win.document.getElementById('import-file')?.focus();
      return;
    }
    const made = await createJob({
      input: { siteId: chosenSite, format, dryRun, rewriteOrigins },
    });
    if (made.error || !made.data) {
      const err = made.error && toTransportError(made.error);
      setError(
        err?.field === 'dryRun'
          ? t('console.integrations.import.dryRunUnavailable')
          : err
            ? errorText(err.code)
            : t('console.integrations.import.notStarted'),
      );
      return;
    }
    setUploading(0);
    const sent = await put(win, made.data.createImportJob.uploadUrl, file, setUploading);
    setUploading(null);
    if (sent.status !== 202) setError(uploadError(t, sent.status, sent.body));
    setFile(null);
    // A new file input: the one that held this file shows it no more.
    setFileInput((n) => n + 1);
    reload({ requestPolicy: 'network-only' });
  }

  async function onExport() {
    setError(null);
    const made = await createExport({ input: { siteId: chosenExport } });
    if (made.error || !made.data) {
      setError(
        made.error
          ? errorText(toTransportError(made.error).code)
          : t('console.integrations.import.noLink'),
      );
      return;
    }
    win.location.assign(made.data.createExportDownload.url);
  }

  return (
    <div className="import-export">
      <p>{t('console.integrations.import.intro')}</p>
      {error !== null && <p role="alert">{error}</p>}
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">{t('console.integrations.loading')}</p>
      ) : (
        <>
          <form
            onSubmit={(event) => void onImport(event)}
            noValidate
            aria-label={t('console.integrations.import.form')}
          >
            <Select
              id="import-site"
              label={t('console.integrations.import.site')}
              value={chosenSite}
              options={sites.map((site) => [site.id, site.name])}
              onChange={setSiteId}
            />
            <Select
              id="import-format"
              label={t('console.integrations.import.formatLabel')}
              value={format}
              options={Object.entries(FORMATS).map(([value, key]) => [value, t(key)])}
              onChange={(value) => setFormat(value as keyof typeof FORMATS)}
            />
            <Field
              key={fileInput}
              id="import-file"
              label={t('console.integrations.import.file')}
              type="file"
              hint={t('console.integrations.import.fileHint')}
              error={fileError}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <Field
              id="import-old-origin"
              label={t('console.integrations.import.oldOrigin')}
              hint={t('console.integrations.import.oldOriginHint')}
              value={oldOrigin}
              error={originError}
              onChange={(e) => setOldOrigin(e.target.value)}
            />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={dryRun}
                onChange={(e) => setDryRun(e.target.checked)}
              />{' '}
              {t('console.integrations.import.dryRun')}
            </label>
            <div className="action-row">
              <button type="submit" disabled={uploading !== null}>
                {dryRun
                  ? t('console.integrations.import.submitDryRun')
                  : t('console.integrations.import.submit')}
              </button>
            </div>
            {uploading !== null && (
              <p role="status">
                {t('console.integrations.import.uploading')}{' '}
                <progress
                  max={1}
                  value={uploading}
                  aria-label={t('console.integrations.import.uploadProgress')}
                />
              </p>
            )}
          </form>
          <h2>{t('console.integrations.import.title')}</h2>
          {jobs.length === 0 ? (
            <p>{t('console.integrations.import.empty')}</p>
          ) : (
            jobs.map((job) => <ImportJobCard key={job.id} job={job} />)
          )}
          <h2>{t('console.integrations.import.exportTitle')}</h2>
          <p>{t('console.integrations.import.exportText')}</p>
          <Select
            id="export-site"
            label={t('console.integrations.import.exportSite')}
            value={chosenExport}
            options={sites.map((site) => [site.id, site.name])}
            onChange={setExportSite}
          />
          <div className="action-row">
            <button type="button" disabled={exporting.fetching} onClick={() => void onExport()}>
              {t('console.integrations.import.download')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

/** A labelled select of `[value, text]` options. */
function Select(props: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange(value: string): void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The kinds of item an import reports on (the server's ReportedKind), which the console names. */
const REPORTED_KINDS = ['thread', 'comment', 'user', 'vote', 'decision'] as const;

/** Whether `what` is a kind the console has a word for (a newer server may send another). */
function isReportedKind(what: string): what is (typeof REPORTED_KINDS)[number] {
  return (REPORTED_KINDS as readonly string[]).includes(what);
}

/** One import: what, where, how far, and its report. */
function ImportJobCard({ job }: { job: ConsoleImportJob }) {
  const { locale, t } = useI18n();
  const { report } = job;
  const formatKey = (FORMATS as Partial<Record<string, ConsoleMessageKey>>)[job.format];
  const label = t(
    job.dryRun
      ? 'console.integrations.import.job.labelDryRun'
      : 'console.integrations.import.job.label',
    {
      format: formatKey ? t(formatKey) : job.format,
      site: job.site?.name ?? t('console.integrations.import.job.removedSite'),
    },
  );
  return (
    <section className="import-job" aria-label={label}>
      <h3>{label}</h3>
      <p>
        <strong>{t(STATUS_TEXT[job.status])}</strong>
        {job.fileBytes !== null && ` · ${size(t, locale, job.fileBytes)}`}
        {' · '}
        {formatWhen(job.createdAt)}
      </p>
      {job.status === 'RUNNING' && job.fileBytes !== null && (
        <progress
          max={job.fileBytes}
          value={Math.min(job.readBytes, job.fileBytes)}
          aria-label={t('console.integrations.import.job.progress', { label })}
        />
      )}
      {job.error !== null && <p role="alert">{job.error}</p>}
      {report && (
        <>
          <p>
            {t(
              job.status === 'DONE'
                ? job.dryRun
                  ? 'console.integrations.import.report.wouldImportIn'
                  : 'console.integrations.import.report.importedIn'
                : job.dryRun
                  ? 'console.integrations.import.report.wouldImport'
                  : 'console.integrations.import.report.imported',
              {
                // Each count with its noun, in the plural form its number takes.
                comments: t('console.integrations.import.report.comments', {
                  count: report.commentsImported,
                }),
                already: report.commentsAlready,
                stories: t('console.integrations.import.report.stories', {
                  count: report.storiesCreated,
                }),
                accounts: t('console.integrations.import.report.accounts', {
                  count: report.usersCreated,
                }),
                matched: report.usersMatched,
                skipped: report.skippedCount,
                seconds: oneDecimal(locale, report.seconds),
              },
            )}
          </p>
          {report.skippedCount > 0 && (
            <details>
              <summary>
                {t('console.integrations.import.skipped.summary', { count: report.skippedCount })}
              </summary>
              <ul>
                {report.skipped.map((entry) => (
                  <li key={`${entry.what}-${entry.id}-${entry.line ?? ''}`}>
                    {t(
                      entry.line !== null
                        ? 'console.integrations.import.skipped.entryLine'
                        : 'console.integrations.import.skipped.entry',
                      {
                        what: isReportedKind(entry.what)
                          ? t(`console.integrations.import.what.${entry.what}`)
                          : entry.what,
                        id: entry.id || t('console.integrations.import.skipped.noId'),
                        // A line number, not a quantity: no thousands separator.
                        line: String(entry.line),
                        reason: entry.reason,
                      },
                    )}
                  </li>
                ))}
              </ul>
              {report.skippedCount > report.skipped.length && (
                <p>
                  {t('console.integrations.import.skipped.more', {
                    count: report.skippedCount - report.skipped.length,
                  })}
                </p>
              )}
            </details>
          )}
        </>
      )}
    </section>
  );
}
