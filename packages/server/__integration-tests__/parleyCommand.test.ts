import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../src/clientBuilds';
import { freePort } from '../src/runtime/testing/freePort';

// The compiled `parley` command (packages/server/dist/parley.js, from `npm run build`) run as an
// operator runs it: plain node, no transpiler, configured by the environment.
const PARLEY = join(REPOSITORY_ROOT, 'packages/server/dist/parley.js');

jest.setTimeout(30_000);

/** Runs `node parley.js …`; resolves its output once it has printed `until` (or exited). */
function run(args: string[], env: Record<string, string>, until?: RegExp) {
  const child = spawn(process.execPath, [PARLEY, ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const printed = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then(() => resolve());
  });
  return { child, exited, printed, output: () => ({ out, err }) };
}

describe('the compiled parley command', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-command-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is built', () => {
    expect(existsSync(PARLEY)).toBe(true);
  });

  it('starts the server alone, migrated, says where, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = run(
      ['start'],
      { PARLEY_DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'warn' },
      /Not installed yet/,
    );
    await server.printed;
    const { out } = server.output();
    const url = `http://127.0.0.1:${port}`;
    expect(out).toContain(`GraphQL (HTTP and WebSocket): ${url}/graphql`);
    expect(out).toContain(`Not installed yet: open ${url}/install.`);
    // The server alone: no example host site beside it.
    expect(out).not.toContain('Example host site');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await fetch(`${url}/embed.js`)).status).toBe(200);
    expect((await fetch(`${url}/admin`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('does not start on pending migrations when told not to migrate', async () => {
    const port = await freePort();
    const server = run(['start'], {
      PARLEY_DATA_DIR: dir,
      PORT: String(port),
      PARLEY_MIGRATE: 'false',
      LOG_LEVEL: 'warn',
    });
    expect(await server.exited).toBe(1);
    expect(server.output().err).toMatch(
      /pending migrations .* PARLEY_MIGRATE=false: run parley migrate first/,
    );
    // After `parley migrate`, it starts.
    const migrate = run(['migrate'], { PARLEY_DATA_DIR: dir });
    expect(await migrate.exited).toBe(0);
    expect(migrate.output().out).toMatch(/^Applied \d+:/);
    const again = run(
      ['start'],
      { PARLEY_DATA_DIR: dir, PORT: String(port), PARLEY_MIGRATE: 'false', LOG_LEVEL: 'warn' },
      /Parley is running/,
    );
    await again.printed;
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('exits 1, saying why, when its port is taken (not a process that serves nothing)', async () => {
    const port = await freePort();
    const first = run(
      ['start'],
      { PARLEY_DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'warn' },
      /running/,
    );
    await first.printed;
    const other = mkdtempSync(join(tmpdir(), 'parley-command-'));
    try {
      const second = run(['start'], {
        PARLEY_DATA_DIR: other,
        PORT: String(port),
        LOG_LEVEL: 'warn',
      });
      expect(await second.exited).toBe(1);
      expect(second.output().err).toContain('EADDRINUSE');
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('answers a bad command line with one line and exit code 2', async () => {
    const bad = run(['strat'], { PARLEY_DATA_DIR: dir });
    expect(await bad.exited).toBe(2);
    expect(bad.output().err.trim()).toBe(
      'parley: unknown command "strat" (parley --help lists them)',
    );
  });
});
