import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer } from '../src/createParleyServer';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import type { ParleyServer } from '../src/createParleyServer';
import { OUTBOX_DIR } from '../src/email/createMailer';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';

// Once, an unprivileged local user read the admin's password-reset link from the outbox
// and the SSO secrets from the database. Replayed here: a real server on SQLite writes its data
// folder, then every path in it is checked, and (as root, as CI runs) `nobody` tries to read them.

const SITE = 'https://site.example';
/** uid/gid of `nobody` on Debian. */
const NOBODY = 65_534;

async function walk(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? walk(join(path, entry.name)) : [join(path, entry.name)],
    ),
  );
  return [path, ...nested.flat()];
}

/** Runs `command` as `nobody`; its exit status and error output. */
function asNobody(command: string, args: string[]) {
  const result = spawnSync(command, args, { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

async function graphql(url: string, query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: unknown[] };
  expect(body.errors).toBeUndefined();
}

describe('the data folder', () => {
  let parent: string;
  let server: ParleyServer | undefined;

  beforeEach(async () => {
    // A parent every user may traverse, as /srv or a home folder often is: only the data
    // folder's own modes stand between another user and its files.
    parent = await mkdtemp(join(tmpdir(), 'parley-data-'));
    await chmod(parent, 0o755);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(parent, { recursive: true, force: true });
  });

  async function start(dataDir: string) {
    const { logger, logs } = createMemoryLogger();
    const config = loadConfig({ PORT: '0', PARLEY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    server = await createParleyServer({ config, logger });
    return { url: `http://127.0.0.1:${await server.listen()}`, logs };
  }

  it('is created owner-only, and nothing in it is readable by another local user', async () => {
    const dataDir = join(parent, 'data');
    const { url } = await start(dataDir);
    await installOverHttp(url, { site: SITE, password: 'correct horse' });
    await graphql(
      url,
      `
        mutation ($input: RequestPasswordResetInput!) {
          requestPasswordReset(input: $input) {
            ok
          }
        }
      `,
      { input: { email: 'admin@example.com' } },
    );
    // The reset email is sent after the answer (timing must not tell who has an account).
    let outbox: string[] = [];
    for (let i = 0; i < 50 && outbox.length === 0; i += 1) {
      outbox = await readdir(join(dataDir, OUTBOX_DIR)).catch(() => []);
      if (outbox.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(outbox).toHaveLength(1);

    const paths = await walk(dataDir);
    // The database, its WAL, the secret, the uploads folder and the reset email at least.
    expect(paths.length).toBeGreaterThanOrEqual(6);
    const open = [];
    for (const path of paths) {
      const { mode } = await stat(path);
      if ((mode & 0o077) !== 0) open.push(`${path} ${(mode & 0o777).toString(8)}`);
    }
    expect(open).toEqual([]);

    if (process.getuid?.() === 0) {
      const resetEmail = join(dataDir, OUTBOX_DIR, outbox[0] as string);
      expect(asNobody('cat', [resetEmail]).stderr).toContain('Permission denied');
      expect(asNobody('cat', [join(dataDir, 'parley.sqlite')]).stderr).toContain(
        'Permission denied',
      );
      expect(asNobody('ls', [dataDir]).status).not.toBe(0);
    }
  });

  it('tightens an existing folder that others could read, with a warning', async () => {
    const dataDir = join(parent, 'data');
    await mkdir(join(dataDir, OUTBOX_DIR), { recursive: true, mode: 0o755 });
    await chmod(dataDir, 0o755);
    const oldMail = join(dataDir, OUTBOX_DIR, 'old.json');
    await writeFile(oldMail, '{}', { mode: 0o644 });
    await chmod(oldMail, 0o644);

    const { logs } = await start(dataDir);

    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dataDir, OUTBOX_DIR))).mode & 0o777).toBe(0o700);
    expect((await stat(oldMail)).mode & 0o777).toBe(0o600);
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining('was readable by other users') }),
    );
  });
});
