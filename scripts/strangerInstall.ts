// `npm run test:package` (and a step of .ci/run): Parley installed as a stranger installs it. The
// server package's `npm pack` tarball (the compiled server with the widget and the console
// inside; `npm run build` first) goes into an empty folder with `npm install --omit=dev`; then
// `parley install` and `parley start` run from there on a fresh data folder, in production (which
// must refuse to start without PARLEY_SECRET and run only trusted documents), and the running
// server must answer /healthz, /embed.js, /admin and an anonymous GraphQL read. Prints the
// tarball's size, the start time and the idle RSS. Exits non-zero on any failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { freePort, startParley } from '@parley/server/testing';

const ROOT = new URL('..', import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), 'parley-stranger-'));
const dataDir = join(folder, 'data');
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

let server: ChildProcessWithoutNullStreams | undefined;
try {
  const [tarball] = JSON.parse(
    execFileSync(
      'npm',
      ['pack', '-w', 'packages/server', '--pack-destination', folder, '--json', '--silent'],
      { cwd: ROOT, encoding: 'utf8' },
    ),
  );
  const tarballPath = join(folder, tarball.filename);
  console.log(
    `tarball: ${tarball.filename}, ${(statSync(tarballPath).size / 1024).toFixed(0)} KB ` +
      `(${(tarball.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked, ${tarball.entryCount} files)`,
  );
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'site', private: true }));
  execFileSync(
    'npm',
    ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tarballPath],
    { cwd: folder, stdio: 'inherit' },
  );
  const parley = join(folder, 'node_modules/.bin/parley');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // As the Dockerfile runs it: production, with its own PARLEY_SECRET.
  const bare = {
    PATH: process.env.PATH ?? '',
    PARLEY_DATA_DIR: dataDir,
    PORT: String(port),
    NODE_ENV: 'production',
  };
  const refused = spawnSync(parley, ['start'], { cwd: folder, env: bare, encoding: 'utf8' });
  check(
    refused.status === 1 && refused.stderr.includes('PARLEY_SECRET is required'),
    `without PARLEY_SECRET, production refuses to start (exit ${refused.status}: ` +
      `${refused.stderr.trim().split('\n')[0]})`,
  );
  const env = { ...bare, PARLEY_SECRET: randomBytes(32).toString('base64url') };

  console.log(execFileSync(parley, ['--version'], { cwd: folder, env, encoding: 'utf8' }).trim());
  execFileSync(parley, ['migrate'], { cwd: folder, env, stdio: 'inherit' });
  execFileSync(
    parley,
    [
      'install',
      '--org-name',
      'Stranger News',
      '--site-url',
      'https://stranger.example',
      '--admin-email',
      'admin@stranger.example',
    ],
    { cwd: folder, env, stdio: 'inherit' },
  );

  const started = performance.now();
  const running = await startParley(
    'parley start',
    port,
    { ...env, LOG_LEVEL: 'warn' },
    { bin: parley, cwd: folder },
  );
  server = running.child;
  console.log(`started in ${(performance.now() - started).toFixed(0)} ms`);

  const healthz = await fetch(`${url}/healthz`);
  check(healthz.status === 200, `/healthz answers 200 (${healthz.status})`);
  const embed = await fetch(`${url}/embed.js`);
  check(
    embed.status === 200 && (embed.headers.get('content-type') ?? '').startsWith('text/javascript'),
    `/embed.js is the loader (${embed.status} ${embed.headers.get('content-type')})`,
  );
  const admin = await fetch(`${url}/admin`);
  check(
    admin.status === 200 && (await admin.text()).includes('parley-console'),
    `/admin is the console (${admin.status})`,
  );
  // In production the server runs only its clients' documents, sent by id.
  const arbitrary = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ settings { installed } }' }),
  });
  check(
    arbitrary.status === 400 && (await arbitrary.text()).includes('DOCUMENT_NOT_TRUSTED'),
    `a query of its own is refused in production (${arbitrary.status})`,
  );
  const documents = JSON.parse(
    readFileSync(
      join(folder, 'node_modules/@parley/server/dist/contract/persisted-documents.json'),
      'utf8',
    ),
  ) as Record<string, string>;
  const documentId = Object.keys(documents).find((id) =>
    documents[id]!.startsWith('query ConsoleInstalled '),
  );
  const read = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ extensions: { persistedQuery: { version: 1, documentId } } }),
  });
  const answer = (await read.json()) as { data?: { settings?: { installed?: boolean } } };
  check(
    answer?.data?.settings?.installed === true,
    `an anonymous read sees the install (${JSON.stringify(answer)})`,
  );

  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rss = Number(
    /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${running.child.pid}/status`, 'utf8'))?.[1],
  );
  console.log(`idle RSS: ${(rss / 1024).toFixed(0)} MB`);

  running.child.kill('SIGTERM');
  const code = await running.exited;
  check(code === 0, `SIGTERM stops it with exit code 0 (${code})`);
  server = undefined;
} catch (error) {
  failures.push(String(error));
  console.error(error);
} finally {
  server?.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`The stranger's install failed: ${failures.length} problem(s).`);
  process.exit(1);
}
console.log("The stranger's install works.");
