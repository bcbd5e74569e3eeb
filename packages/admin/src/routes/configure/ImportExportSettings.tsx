import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { Field } from '../../Field';

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

/** The formats, as the select says them. */
export const FORMATS = {
  disqus: 'Disqus (XML export)',
  wordpress: 'WordPress (WXR export, comments only)',
  remark42: 'Remark42 (backup)',
  parley: 'Parley (another Parley’s export)',
} as const;

/** The largest file the server takes (portability/importJobs.ts). */
const UPLOAD_MAX_BYTES = 1024 ** 3;

/** How often the list is read again while an import waits or runs, in ms. */
export const IMPORT_POLL_MS = 1000;

const STATUS_TEXT: Record<ConsoleImportJob['status'], string> = {
  UPLOADING: 'Uploading',
  QUEUED: 'Waiting to start',
  RUNNING: 'Importing',
  DONE: 'Done',
  FAILED: 'Failed',
};

const count = (n: number) => n.toLocaleString('en-US');

function size(bytes: number): string {
  if (bytes < 1024 ** 2) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
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
function uploadError(status: number, body: string): string {
  if (status === 0) return 'The upload was cut off. Check the connection, then try again.';
  try {
    const code = (JSON.parse(body) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]
      ?.extensions?.code;
    if (code === 'UPLOAD_TOO_LARGE') {
      return 'The file is larger than 1 GiB: import it with `parley import` on the server.';
    }
    if (code === 'TOKEN_INVALID') return 'The upload link expired: start the import again.';
  } catch {
    // not JSON: said below
  }
  return `The upload was refused (${status}). Try again.`;
}

/**
 * Configure › Import and export: upload a Disqus, WordPress, Remark42 or Parley file into a site
 * (a dry run first, if wanted); the import runs on the server, its progress and report shown
 * here as it goes, and it goes on if this page is closed. Below, each site's export to download.
 */
export function ImportExportSettings() {
  const { window: win } = useConsoleEnv();
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
        ? 'Choose the file to import.'
        : file.size > UPLOAD_MAX_BYTES
          ? 'The file is larger than 1 GiB: import it with `parley import` on the server.'
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
        setOriginError('Enter the old address, such as https://old.example.');
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
          ? 'A dry run is not available on the embedded database (SQLite): it would hold the whole site while it runs. Run `parley import --dry-run` on the server, or import for real (running it again later adds nothing new).'
          : err
            ? errorText(err.code)
            : 'Not started.',
      );
      return;
    }
    setUploading(0);
    const sent = await put(win, made.data.createImportJob.uploadUrl, file, setUploading);
    setUploading(null);
    if (sent.status !== 202) setError(uploadError(sent.status, sent.body));
    setFile(null);
    // A new file input: the one that held this file shows it no more.
    setFileInput((n) => n + 1);
    reload({ requestPolicy: 'network-only' });
  }

  async function onExport() {
    setError(null);
    const made = await createExport({ input: { siteId: chosenExport } });
    if (made.error || !made.data) {
      setError(made.error ? errorText(toTransportError(made.error).code) : 'No link.');
      return;
    }
    win.location.assign(made.data.createExportDownload.url);
  }

  return (
    <div className="import-export">
      <p>
        Bring comments over from Disqus, WordPress, Remark42 or another Parley. Threads, replies,
        authors, dates, likes and moderation states come along; authors become accounts they can
        claim with “Forgot your password?”. Running the same file again adds nothing new, and an
        import that stopped resumes. A dry run reads the whole file and says what would happen,
        writing nothing.
      </p>
      {error !== null && <p role="alert">{error}</p>}
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">Loading…</p>
      ) : (
        <>
          <form onSubmit={(event) => void onImport(event)} noValidate aria-label="Import comments">
            <Select
              id="import-site"
              label="Into site"
              value={chosenSite}
              options={sites.map((site) => [site.id, site.name])}
              onChange={setSiteId}
            />
            <Select
              id="import-format"
              label="Format"
              value={format}
              options={Object.entries(FORMATS)}
              onChange={(value) => setFormat(value as keyof typeof FORMATS)}
            />
            <Field
              key={fileInput}
              id="import-file"
              label="File"
              type="file"
              hint="As the other system exported it; gzipped is fine. At most 1 GiB."
              error={fileError}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <Field
              id="import-old-origin"
              label="Old address (optional)"
              hint="If the threads were on another domain, such as https://old.example: they are imported as the same paths on this site."
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
              Dry run (write nothing)
            </label>
            <div className="action-row">
              <button type="submit" disabled={uploading !== null}>
                {dryRun ? 'Upload and check' : 'Upload and import'}
              </button>
            </div>
            {uploading !== null && (
              <p role="status">
                Uploading… <progress max={1} value={uploading} aria-label="Upload" />
              </p>
            )}
          </form>
          <h2>Imports</h2>
          {jobs.length === 0 ? (
            <p>No imports yet.</p>
          ) : (
            jobs.map((job) => <ImportJobCard key={job.id} job={job} />)
          )}
          <h2>Export</h2>
          <p>
            A site’s stories, comments (Markdown and HTML), authors (never their passwords),
            reactions and moderation decisions, as one JSON file (packages/server/EXPORT.md) that
            another Parley imports.
          </p>
          <Select
            id="export-site"
            label="Site"
            value={chosenExport}
            options={sites.map((site) => [site.id, site.name])}
            onChange={setExportSite}
          />
          <div className="action-row">
            <button type="button" disabled={exporting.fetching} onClick={() => void onExport()}>
              Download export
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

/** One import: what, where, how far, and its report. */
function ImportJobCard({ job }: { job: ConsoleImportJob }) {
  const { report } = job;
  const label = `${FORMATS[job.format as keyof typeof FORMATS] ?? job.format} into ${job.site?.name ?? 'a removed site'}${job.dryRun ? ' (dry run)' : ''}`;
  return (
    <section className="import-job" aria-label={label}>
      <h3>{label}</h3>
      <p>
        <strong>{STATUS_TEXT[job.status]}</strong>
        {job.fileBytes !== null && ` · ${size(job.fileBytes)}`}
        {' · '}
        {new Date(job.createdAt).toLocaleString(undefined, {
          dateStyle: 'medium',
          timeStyle: 'short',
        })}
      </p>
      {job.status === 'RUNNING' && job.fileBytes !== null && (
        <progress
          max={job.fileBytes}
          value={Math.min(job.readBytes, job.fileBytes)}
          aria-label={`Progress of ${label}`}
        />
      )}
      {job.error !== null && <p role="alert">{job.error}</p>}
      {report && (
        <>
          <p>
            {job.dryRun ? 'Would import' : 'Imported'} {count(report.commentsImported)} comments (
            {count(report.commentsAlready)} already here), {count(report.storiesCreated)} new
            stories, {count(report.usersCreated)} new accounts ({count(report.usersMatched)}{' '}
            matched); {count(report.skippedCount)} skipped
            {job.status === 'DONE' && `, in ${report.seconds.toFixed(1)} s`}.
          </p>
          {report.skippedCount > 0 && (
            <details>
              <summary>Skipped ({count(report.skippedCount)})</summary>
              <ul>
                {report.skipped.map((entry) => (
                  <li key={`${entry.what}-${entry.id}-${entry.line ?? ''}`}>
                    {entry.what} {entry.id || '(no id)'}
                    {entry.line !== null && ` (line ${entry.line})`}: {entry.reason}
                  </li>
                ))}
              </ul>
              {report.skippedCount > report.skipped.length && (
                <p>
                  …and {count(report.skippedCount - report.skipped.length)} more: `parley import`
                  lists every one.
                </p>
              )}
            </details>
          )}
        </>
      )}
    </section>
  );
}
