import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { SQLITE_FILE_NAME } from '../src/db/createDatabase';
import { createTestDatabase } from '../src/db/testDatabases';
import { signHostToken } from '../src/graphql/testing/signHostToken';
import { runParley } from '../src/cli/runParley';
import { loadConfig } from '../src/runtime/loadConfig';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { graphqlAt } from '../src/runtime/testing/postingClients';

// The SSO keys and the SMTP password are stored sealed: a copy of the data folder without
// PARLEY_SECRET holds neither. Changing PARLEY_SECRET is refused at start until the previous
// value is given (then everything is sealed again under the new one), or the lost secrets are
// given up with `parley forget-secrets`.

const SITE = 'https://site.example';
const SECRET_A = 'first operator secret, long enough';
const SECRET_B = 'second operator secret, long enough';
const SMTP_PASSWORD = 'smtp-password-7f3a91';

/** A GraphQL request, as the holder of `token` when given. */
const graphql = (url: string, query: string, variables = {}, token?: string) =>
  graphqlAt(url, query, variables, token ? { authorization: `Bearer ${token}` } : {});

/** Every byte of every file in the data folder, as one string. */
async function everything(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      parts.push((await readFile(join(entry.parentPath, entry.name))).toString('latin1'));
  }
  return parts.join('\n');
}

describe('secrets at rest', () => {
  let dataDir: string;
  let server: ParleyServer | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-sealed-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>) {
    const config = loadConfig({ PORT: '0', PARLEY_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
    server = await createParleyServer({ config });
    return `http://127.0.0.1:${await server.listen()}`;
  }
  async function stop() {
    await server?.close();
    server = undefined;
  }

  async function signsIn(url: string, secret: string): Promise<boolean> {
    const token = await signHostToken(secret, {
      id: 'h1',
      email: 'ada@host.example',
      username: 'ada',
    });
    const answer = await graphql(
      url,
      `mutation ($input: SsoSignInInput!) { signInWithSso(input: $input) { token } }`,
      { input: { token } },
    );
    return typeof answer.data?.signInWithSso?.token === 'string';
  }

  it('keeps SSO keys and the SMTP password sealed; a changed PARLEY_SECRET needs the previous one', async () => {
    let url = await start({ PARLEY_SECRET: SECRET_A });
    const admin = await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
    const sites = await graphql(url, `{ sites { id } }`, {}, admin);
    const rotated = await graphql(
      url,
      `mutation ($input: RotateSsoKeyInput!) { rotateSsoKey(input: $input) { site { ssoKeys { secret } } } }`,
      { input: { siteId: sites.data.sites[0].id, revokeOld: true } },
      admin,
    );
    const ssoSecret: string = rotated.data.rotateSsoKey.site.ssoKeys.find(
      (k: { secret: string | null }) => k.secret !== null,
    ).secret;
    const saved = await graphql(
      url,
      `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { smtpPasswordSet } } }`,
      { input: { smtpHost: 'smtp.example.com', smtpUser: 'mailer', smtpPassword: SMTP_PASSWORD } },
      admin,
    );
    expect(saved.data.updateSettings.settings.smtpPasswordSet).toBe(true);
    expect(await signsIn(url, ssoSecret)).toBe(true);
    await stop();

    // Neither secret anywhere in the data folder (database, WAL, outbox…).
    const stored = await everything(dataDir);
    expect(stored).toContain('sealed:v1:');
    expect(stored).not.toContain(ssoSecret);
    expect(stored).not.toContain(SMTP_PASSWORD);

    // Another PARLEY_SECRET alone: refused, saying what to do, changing nothing.
    await expect(start({ PARLEY_SECRET: SECRET_B })).rejects.toThrow(
      /2 stored secret\(s\) were sealed with another PARLEY_SECRET: SSO key .*; the SMTP password.*PARLEY_SECRET_PREVIOUS.*parley forget-secrets/,
    );
    server = undefined;
    expect(await everything(dataDir)).toBe(stored);

    // With the previous value: starts, seals everything under the new one, and SSO still works.
    url = await start({ PARLEY_SECRET: SECRET_B, PARLEY_SECRET_PREVIOUS: SECRET_A });
    expect(await signsIn(url, ssoSecret)).toBe(true);
    await stop();
    url = await start({ PARLEY_SECRET: SECRET_B });
    expect(await signsIn(url, ssoSecret)).toBe(true);
    await stop();
    await expect(start({ PARLEY_SECRET: SECRET_A })).rejects.toThrow(/another PARLEY_SECRET/);
    server = undefined;
  });

  it('seals secrets stored in clear by an earlier version as it starts', async () => {
    let url = await start({});
    const admin = await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
    expect(admin).toBeTruthy();
    await stop();
    // As an earlier version left it: the key in clear.
    const clear = 'an-ssO-secret-stored-in-clear-0123456789';
    const sqlite = new SqliteDatabase(join(dataDir, SQLITE_FILE_NAME));
    sqlite.prepare('update sso_keys set secret = ?').run(clear);
    sqlite.close();

    url = await start({});
    expect(await signsIn(url, clear)).toBe(true);
    await stop();
    expect(await everything(dataDir)).not.toContain(clear);
  });

  it('on PostgreSQL leaves resealing to parley seal-secrets, which other instances may be reading', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const env = { DATABASE_URL: database.url, PARLEY_SECRET: SECRET_A };
      let url = await start(env);
      await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
      await stop();
      // As an earlier version left it (and as an instance of it still reads it): in clear.
      const clear = 'an-ssO-secret-stored-in-clear-on-postgres';
      await database.db.updateTable('sso_keys').set({ secret: clear }).execute();
      const storedKey = async () =>
        (await database.db.selectFrom('sso_keys').select('secret').executeTakeFirstOrThrow())
          .secret;

      url = await start(env);
      expect(await signsIn(url, clear)).toBe(true);
      await stop();
      expect(await storedKey()).toBe(clear);

      const out: string[] = [];
      const code = await runParley(['seal-secrets'], {
        env: { PARLEY_DATA_DIR: dataDir, ...env },
        out: (text) => out.push(text),
        err: (text) => out.push(text),
        readStdin: async () => '',
        version: () => '0',
      });
      expect([code, out.join('\n')]).toEqual([0, 'Sealed 1 stored secret(s) under PARLEY_SECRET.']);
      expect(await storedKey()).toMatch(/^sealed:v1:/);
      url = await start(env);
      expect(await signsIn(url, clear)).toBe(true);
      await stop();
    } finally {
      await database.close();
    }
  });

  it('gives up what a lost PARLEY_SECRET sealed with parley forget-secrets, then starts', async () => {
    let url = await start({ PARLEY_SECRET: SECRET_A });
    await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
    await stop();
    await expect(start({ PARLEY_SECRET: SECRET_B })).rejects.toThrow(/another PARLEY_SECRET/);
    server = undefined;

    const parley = async (args: string[], env: Record<string, string>) => {
      const out: string[] = [];
      const code = await runParley(args, {
        env: { PARLEY_DATA_DIR: dataDir, ...env },
        out: (text) => out.push(text),
        err: (text) => out.push(text),
        readStdin: async () => '',
        version: () => '0',
      });
      return { code, out: out.join('\n') };
    };
    const stored = await everything(dataDir);
    // A shell without the server's environment: no key of its own is made, nothing is judged.
    expect(await parley(['forget-secrets', '--yes'], {})).toEqual({
      code: 1,
      out: expect.stringMatching(/^parley: Neither PARLEY_SECRET nor \S+secret\.key is there/),
    });
    // Nothing opens with this secret at all: the wrong one, most likely.
    expect(await parley(['forget-secrets', '--yes'], { PARLEY_SECRET: SECRET_B })).toEqual({
      code: 1,
      out: expect.stringMatching(/no stored secret opens with PARLEY_SECRET: is this the server's/),
    });
    // Told it is lost: first the list, changing nothing.
    const listed = await parley(['forget-secrets', '--force'], { PARLEY_SECRET: SECRET_B });
    expect(listed.code).toBe(1);
    expect(listed.out).toMatch(
      /^1 stored secret\(s\) open with no key of PARLEY_SECRET:\n {2}SSO key /,
    );
    expect(await everything(dataDir)).toBe(stored);
    const forgot = await parley(['forget-secrets', '--force', '--yes'], {
      PARLEY_SECRET: SECRET_B,
    });
    expect(forgot).toEqual({
      code: 0,
      out: expect.stringMatching(
        /^Forgot 1 stored secret\(s\):\n {2}SSO key \S+ of site \S+ \(revoked\)$/,
      ),
    });

    url = await start({ PARLEY_SECRET: SECRET_B });
    // The site has no usable key until an admin rotates one.
    const admin = await graphql(
      url,
      `mutation { signIn(input: { email: "admin@example.com", password: "correct horse battery" }) { token } }`,
    );
    const token = admin.data.signIn.token as string;
    const sites = await graphql(url, `{ sites { ssoKeys { id } } }`, {}, token);
    expect(sites.data.sites[0].ssoKeys).toEqual([]);
  });
});
