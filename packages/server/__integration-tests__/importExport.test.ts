import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { createImportJob, findImportJob, queueImportJob } from '../src/db/store/importJobs';
import { takeJobLease } from '../src/db/store/jobLeases';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { freePort } from '../src/runtime/testing/freePort';
import { importFilePath } from '../src/portability/importJobs';
import { importFile } from '../src/portability/importFile';
import { writeDisqusFile } from '../../../bench/support/disqusFile';
import { codeOf, graphqlAnswer } from '../src/runtime/testing/graphqlAs';

// Import and export from the console, over HTTP against a real server: a job made by GraphQL,
// its file PUT to the URL it answers, run in the background with its progress and report; a
// stopped process's job taken again and finished; the export downloaded from its link.

const SITE = 'https://news.example';
const PASSWORD = 'correct horse battery';
const FIXTURES = join(__dirname, '../src/portability/fixtures');

const JOB = `
  id status fileBytes readBytes error dryRun
  report { storiesCreated usersCreated commentsImported commentsAlready skippedCount
           skipped(first: 5) { what id line reason } }
`;

describe.each(testDialects())('import and export from the console on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer;
  let url: string;
  let admin: string;
  let siteId: string;

  const graphql = (query: string, variables: object = {}, token = admin) =>
    graphqlAnswer(url, query, variables, token);

  async function startImport(format: string, extra: object = {}) {
    const made = await graphql(
      `mutation ($input: CreateImportJobInput!) {
        createImportJob(input: $input) { uploadUrl importJob { id status } }
      }`,
      { input: { siteId, format, ...extra } },
    );
    expect(made.errors).toBeUndefined();
    return made.data.createImportJob as { uploadUrl: string; importJob: { id: string } };
  }

  async function upload(uploadUrl: string, fixture: string) {
    const { readFile } = await import('node:fs/promises');
    return fetch(uploadUrl, { method: 'PUT', body: await readFile(join(FIXTURES, fixture)) });
  }

  /** The job once it is done or failed (the runner is woken by the upload). */
  async function finished(id: string) {
    for (let tries = 0; tries < 200; tries++) {
      await server.imports.idle();
      const { data } = await graphql(`query ($id: ID!) { importJob(id: $id) { ${JOB} } }`, { id });
      if (data.importJob.status === 'DONE' || data.importJob.status === 'FAILED') {
        return data.importJob;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`import ${id} did not finish`);
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = await createParleyServer({
      config: loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    await server.listen();
    admin = await installOverHttp(url, { site: SITE, password: PASSWORD });
    siteId = (await graphql('{ sites { id } }')).data.sites[0].id;
  });
  afterAll(async () => {
    await server.close();
    await database.close();
  });

  it('imports an uploaded file in the background, with its report; the upload link works once', async () => {
    const { uploadUrl, importJob } = await startImport('remark42');
    const sent = await upload(uploadUrl, 'remark42.jsonl');
    expect(sent.status).toBe(202);
    const job = await finished(importJob.id);
    expect(job).toMatchObject({
      status: 'DONE',
      error: null,
      dryRun: false,
      report: { storiesCreated: 2, commentsImported: 4, commentsAlready: 0 },
    });
    expect(job.readBytes).toBe(job.fileBytes);
    // The file is gone once imported; its link was good once.
    expect(existsSync(importFilePath(database.dataDir, importJob.id))).toBe(false);
    expect((await upload(uploadUrl, 'remark42.jsonl')).status).toBe(403);
    // The same file again: nothing new (the import is idempotent).
    const again = await startImport('remark42');
    await upload(again.uploadUrl, 'remark42.jsonl');
    expect((await finished(again.importJob.id)).report).toMatchObject({
      commentsImported: 0,
      commentsAlready: 4,
    });
    const listed = await graphql(`{ importJobs(first: 5) { id format status } }`);
    expect(listed.data.importJobs.map((j: { id: string }) => j.id)).toEqual([
      again.importJob.id,
      importJob.id,
    ]);
  });

  it('says where a malformed file stops, and which format and origins it takes', async () => {
    const { uploadUrl, importJob } = await startImport('remark42');
    await upload(uploadUrl, 'remark42-malformed.jsonl');
    const job = await finished(importJob.id);
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatch(/^Line 3 is not JSON/);
    const unknown = await graphql(
      `mutation { createImportJob(input: { siteId: "${siteId}", format: "csv" }) { uploadUrl } }`,
    );
    expect(codeOf(unknown)).toBe('INVALID_INPUT');
    const badOrigin = await graphql(
      `mutation ($input: CreateImportJobInput!) { createImportJob(input: $input) { uploadUrl } }`,
      { input: { siteId, format: 'disqus', rewriteOrigins: [{ from: 'old', to: SITE }] } },
    );
    expect(codeOf(badOrigin)).toBe('INVALID_INPUT');
  });

  it('rewrites a moved site’s origin, and a dry run writes nothing', async () => {
    const rewrite = { rewriteOrigins: [{ from: 'https://old.news.example', to: SITE }] };
    if (dialect === 'sqlite') {
      // One transaction for the whole import would hold the server's one connection.
      const refused = await graphql(
        `mutation ($input: CreateImportJobInput!) { createImportJob(input: $input) { uploadUrl } }`,
        { input: { siteId, format: 'disqus', ...rewrite, dryRun: true } },
      );
      expect(refused.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'dryRun',
      });
      const real = await startImport('disqus', rewrite);
      await upload(real.uploadUrl, 'disqus.xml');
      expect((await finished(real.importJob.id)).report.commentsImported).toBe(9);
      return;
    }
    const dry = await startImport('disqus', { ...rewrite, dryRun: true });
    await upload(dry.uploadUrl, 'disqus.xml');
    const checked = await finished(dry.importJob.id);
    expect(checked).toMatchObject({
      status: 'DONE',
      dryRun: true,
      report: { commentsImported: 9 },
    });
    const { data } = await graphql(`query ($url: String!) { story(url: $url) { id } }`, {
      url: `${SITE}/hello/`,
    });
    // A story read by URL is made on first use: it has no comments, the dry run wrote none.
    const comments = await graphql(`query ($id: ID!) { story(id: $id) { commentCount } }`, {
      id: data.story.id,
    });
    expect(comments.data.story.commentCount).toBe(0);
    const real = await startImport('disqus', rewrite);
    await upload(real.uploadUrl, 'disqus.xml');
    expect((await finished(real.importJob.id)).report.commentsImported).toBe(9);
  });

  it('takes again the job of a process that stopped, once its lease ran out, and finishes it', async () => {
    const { job } = await createImportJob(
      server.deps.db,
      { siteId, format: 'wordpress', dryRun: false, rewriteOrigins: {}, createdBy: null as never },
      new Date(),
    );
    await mkdir(join(database.dataDir, 'imports'), { recursive: true });
    await copyFile(join(FIXTURES, 'wordpress.xml'), importFilePath(database.dataDir, job.id));
    await queueImportJob(server.deps.db, job.id, 1);
    await server.deps.db
      .updateTable('import_jobs')
      .set({ status: 'running' })
      .where('id', '=', job.id)
      .execute();
    // Another process holds it: left alone.
    const now = new Date();
    await takeJobLease(server.deps.db, {
      name: `import:${job.id}`,
      holder: 'a-live-process',
      now,
      ttlMs: 60_000,
    });
    server.imports.wake();
    await server.imports.idle();
    expect((await findImportJob(server.deps.db, job.id))?.status).toBe('running');
    // That process stopped: its lease runs out, and this one takes the job.
    await server.deps.db
      .updateTable('job_leases')
      .set({ expires_at: new Date(now.getTime() - 1000).toISOString() })
      .where('name', '=', `import:${job.id}`)
      .execute();
    server.imports.wake();
    const done = await finished(job.id);
    expect(done.status).toBe('DONE');
    expect(done.report.commentsImported).toBeGreaterThan(0);
  });

  it('fails an upload that never came, and one declared too large', async () => {
    const late = await startImport('remark42');
    await server.deps.db
      .updateTable('import_jobs')
      .set({ created_at: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString() })
      .where('id', '=', late.importJob.id)
      .execute();
    // Its link is over an hour old: refused; the sweep ends the job.
    expect((await upload(late.uploadUrl, 'remark42.jsonl')).status).toBe(403);
    server.imports.wake();
    await server.imports.idle();
    expect(await findImportJob(server.deps.db, late.importJob.id)).toMatchObject({
      status: 'failed',
      error: 'The file never came: start the import again.',
    });
    const big = await startImport('remark42');
    // Declared 2 GiB: refused from its headers, before a byte of the body is read.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(big.uploadUrl, {
        method: 'PUT',
        headers: { 'content-length': String(2 * 1024 ** 3) },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
    await expect(findImportJob(server.deps.db, big.importJob.id)).resolves.toMatchObject({
      status: 'failed',
    });
  });

  it('lets a cancelled download go, holding nothing', async () => {
    // An export of a few megabytes: more than the sockets' buffers, so a download stops
    // part-way when its reader goes.
    const file = join(database.dataDir, 'big.xml');
    await writeDisqusFile({ path: file, comments: 6000, threads: 20, authors: 50, origin: SITE });
    await importFile(server.deps.db, 'disqus', file, { siteId });
    const link = async () =>
      (
        await graphql(
          `mutation ($input: CreateExportDownloadInput!) { createExportDownload(input: $input) { url } }`,
          { input: { siteId } },
        )
      ).data.createExportDownload.url as string;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(await link());
      // The first piece, then the reader goes.
      const reader = response.body?.getReader();
      await reader?.read();
      await reader?.cancel();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Two at once are allowed: had the cancelled ones held on, this one would be refused.
    const after = await fetch(await link());
    expect(after.status).toBe(200);
    await after.json();
    expect((await graphql('{ sites { id } }')).data.sites).toHaveLength(1);
  });

  it('downloads the site’s export from a one-minute link, for its admin only', async () => {
    const made = await graphql(
      `mutation ($input: CreateExportDownloadInput!) { createExportDownload(input: $input) { url } }`,
      { input: { siteId } },
    );
    const link = made.data.createExportDownload.url as string;
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="parley-example-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const exported = (await response.json()) as { format: string; comments: unknown[] };
    expect(exported.format).toBe('parley-export');
    expect(exported.comments.length).toBeGreaterThanOrEqual(13);
    // For another site, or forged: refused.
    const elsewhere = link.replace(`/api/exports/${siteId}`, '/api/exports/another-site');
    expect((await fetch(elsewhere)).status).toBe(403);
    expect((await fetch(`${link}x`)).status).toBe(403);
    // Signed out everywhere: the link goes with the sessions.
    await graphql(`mutation { signOutEverywhere { ok } }`);
    expect((await fetch(link)).status).toBe(403);
    admin = await signInAgain();
  });

  async function signInAgain(): Promise<string> {
    const answer = await graphql(
      `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`,
      { input: { email: 'admin@example.com', password: PASSWORD } },
      '',
    );
    return answer.data.signIn.token;
  }
});
