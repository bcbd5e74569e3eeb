import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { graphql, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTestConsoleEnv, renderInConsole, TEST_MODERATOR } from '../../testing/renderConsole';
import { ImportExportSettings } from './ImportExportSettings';
import type { ConsoleImportJob } from './ImportExportSettings';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const SITES = [{ id: 's-news', name: 'News', url: 'https://news.example' }];
const UPLOAD_URL = 'http://parley.test/api/imports/job-1/upload?key=k';

function jobOf(fields: Partial<ConsoleImportJob>) {
  return {
    __typename: 'ImportJob',
    id: 'job-1',
    format: 'disqus',
    dryRun: false,
    status: 'UPLOADING',
    fileBytes: null,
    readBytes: 0,
    error: null,
    createdAt: '2026-11-27T10:00:00.000Z',
    finishedAt: null,
    site: { __typename: 'Site', id: 's-news', name: 'News' },
    report: null,
    ...fields,
  };
}

const REPORT = {
  __typename: 'ImportReport',
  storiesCreated: 1,
  storiesMatched: 0,
  usersCreated: 6,
  usersMatched: 1,
  commentsImported: 9,
  commentsAlready: 0,
  skippedCount: 1,
  notesCount: 0,
  seconds: 0.4,
  skipped: [
    {
      __typename: 'ImportReportEntry',
      what: 'thread',
      id: '1003',
      line: 36,
      reason: 'deleted in Disqus',
    },
  ],
};

/** Renders the section; its window's location is a stand-in whose `assign` is recorded. */
async function renderSection() {
  const env = await createTestConsoleEnv({ token: 't' });
  const location = { origin: 'http://parley.test', assign: jest.fn() };
  const win = new Proxy(window, {
    get(target, key) {
      if (key === 'location') return location;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  renderInConsole(
    <ImportExportSettings />,
    { ...env, window: win },
    {
      viewer: { ...TEST_MODERATOR, role: 'ADMIN' },
    },
  );
  return { location };
}

test('uploads a file into a site, then follows the import to its report', async () => {
  // The server's job: running after the upload, then done.
  const states = [
    jobOf({ status: 'RUNNING', fileBytes: 2048, readBytes: 1024 }),
    jobOf({ status: 'DONE', fileBytes: 2048, readBytes: 2048, report: REPORT }),
  ];
  let uploaded = false;
  const inputs: unknown[] = [];
  let uploadedBody = '';
  server.use(
    graphql.query('ConsoleImportJobs', () =>
      HttpResponse.json({
        data: {
          importJobs: uploaded ? [states.length > 1 ? states.shift() : states[0]] : [],
          sites: SITES,
        },
      }),
    ),
    graphql.mutation('ConsoleCreateImportJob', ({ variables }) => {
      inputs.push(variables.input);
      return HttpResponse.json({
        data: { createImportJob: { uploadUrl: UPLOAD_URL, importJob: jobOf({}) } },
      });
    }),
    http.put(UPLOAD_URL, async ({ request }) => {
      uploadedBody = await request.text();
      uploaded = true;
      return HttpResponse.json({ id: 'job-1', status: 'QUEUED' }, { status: 202 });
    }),
  );
  await renderSection();
  expect(await screen.findByText('No imports yet.')).toBeTruthy();
  // No file: said beside the field, nothing sent.
  fireEvent.click(screen.getByRole('button', { name: 'Upload and import' }));
  expect(screen.getByLabelText('File').getAttribute('aria-invalid')).toBe('true');
  expect(inputs).toEqual([]);

  // Node's File: jsdom's own is sent by the test's XMLHttpRequest as "[object File]".
  const file = new NodeFile(['<disqus></disqus>'], 'export.xml', { type: 'text/xml' });
  fireEvent.change(screen.getByLabelText('File'), { target: { files: [file] } });
  fireEvent.change(screen.getByLabelText('Old address (optional)'), {
    target: { value: 'https://old.news.example/' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Upload and import' }));
  const card = await screen.findByRole('region', { name: 'Disqus (XML export) into News' });
  await waitFor(() => expect(within(card).getByText('Done')).toBeTruthy(), { timeout: 4000 });
  expect(
    // Each count in its own plural form: 1 new story, 6 new accounts.
    within(card).getByText(/Imported 9 comments \(0 already here\), 1 new story, 6 new accounts/),
  ).toBeTruthy();
  expect(within(card).getByText('thread 1003 (line 36): deleted in Disqus')).toBeTruthy();
  expect(inputs).toEqual([
    {
      siteId: 's-news',
      format: 'disqus',
      dryRun: false,
      rewriteOrigins: [{ from: 'https://old.news.example', to: 'https://news.example' }],
    },
  ]);
  expect(uploadedBody).toBe('<disqus></disqus>');
});

test('says why an upload was refused, and downloads an export from its link', async () => {
  server.use(
    graphql.query('ConsoleImportJobs', () =>
      HttpResponse.json({ data: { importJobs: [], sites: SITES } }),
    ),
    graphql.mutation('ConsoleCreateImportJob', () =>
      HttpResponse.json({
        data: { createImportJob: { uploadUrl: UPLOAD_URL, importJob: jobOf({}) } },
      }),
    ),
    http.put(UPLOAD_URL, () =>
      HttpResponse.json(
        { errors: [{ message: 'big', extensions: { code: 'UPLOAD_TOO_LARGE' } }] },
        { status: 413 },
      ),
    ),
    graphql.mutation('ConsoleCreateExportDownload', () =>
      HttpResponse.json({
        data: { createExportDownload: { url: 'http://parley.test/api/exports/s-news?token=t' } },
      }),
    ),
  );
  const { location } = await renderSection();
  await screen.findByText('No imports yet.');
  fireEvent.change(screen.getByLabelText('File'), {
    target: { files: [new NodeFile(['x'], 'big.xml')] },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Upload and import' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'The file is larger than 1 GiB: import it with `parley import` on the server.',
  );
  fireEvent.click(screen.getByRole('button', { name: 'Download export' }));
  await waitFor(() =>
    expect(location.assign).toHaveBeenCalledWith('http://parley.test/api/exports/s-news?token=t'),
  );
});
