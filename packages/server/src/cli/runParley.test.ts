import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { verifyPassword } from '../auth/passwords';
import { SQLITE_FILE_NAME, createDatabase } from '../db/createDatabase';
import { MIGRATIONS } from '../db/migrations';
import { countRows } from '../db/testFixtures';
import { getOrganization } from '../db/store/organization';
import { replaceRecoveryCodes } from '../db/store/twoFactor';
import { consumeToken } from '../db/store/tokens';
import { createUser, findUserByEmail } from '../db/store/users';
import { FAILURE, USAGE_ERROR, runParley } from './runParley';

/** Runs `parley …` in process against `dataDir`; what it printed, and its exit code. */
const FIXTURES = join(__dirname, '..', 'portability', 'fixtures');

async function parley(
  dataDir: string,
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runParley(args, {
    env: { PARLEY_DATA_DIR: dataDir, PUBLIC_URL: 'https://comments.example', ...env },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    readStdin: async () => stdin,
    version: () => '1.2.3',
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('parley', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Opens the data folder's database (migrated) for a look. */
  async function look<T>(
    work: (db: Awaited<ReturnType<typeof createDatabase>>['db']) => Promise<T>,
  ): Promise<T> {
    const database = await createDatabase({ dataDir: dir });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }

  const INSTALL = [
    'install',
    '--org-name',
    'The Daily Example',
    '--site-url',
    'https://news.example/',
    '--admin-email',
    'Editor@News.example',
  ];

  it('says how it is used, and its version', async () => {
    const help = await parley(dir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: parley <command>/);
    for (const command of [
      'start',
      'migrate',
      'install',
      'reset-password',
      'reset-two-factor',
      'backup',
      'export',
    ]) {
      expect(help.out).toContain(`  ${command}`);
    }
    expect((await parley(dir, ['install', '--help'])).out).toMatch(/^Usage/);
    expect(await parley(dir, ['--version'])).toEqual({ code: 0, out: '1.2.3', err: '' });
    // Nothing at all: the usage, as an error.
    const bare = await parley(dir, []);
    expect(bare).toMatchObject({ code: USAGE_ERROR, out: '' });
    expect(bare.err).toMatch(/^Usage: parley <command>/);
  });

  it.each([
    [['launch'], 'parley: unknown command "launch" (parley --help lists them)'],
    [['migrate', '--force'], "parley: migrate: Unknown option '--force'"],
    [['backup'], 'parley: backup: expected 1 argument, got 0'],
    [
      ['reset-password', 'a@b.example', 'c@d.example'],
      'parley: reset-password: expected 1 argument, got 2',
    ],
    [['install', '--org-name', 'X'], 'parley: install: missing --site-url, --admin-email'],
  ])('refuses %j with one line and exit code 2', async (args, line) => {
    const { code, out, err } = await parley(dir, args);
    expect(code).toBe(USAGE_ERROR);
    expect(out).toBe('');
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toContain(line);
    expect(existsSync(join(dir, SQLITE_FILE_NAME))).toBe(false); // nothing touched
  });

  it('says which configuration is wrong, in one line', async () => {
    const { code, err } = await parley(dir, ['migrate'], '', { DATABASE_URL: 'mysql://x' });
    expect(code).toBe(FAILURE);
    expect(err).toMatch(/^parley: configuration: Invalid DATABASE_URL/);
  });

  it('lists pending migrations, applies them, and then has none', async () => {
    const all = Object.keys(MIGRATIONS);
    const dry = await parley(dir, ['migrate', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toBe(`${all.length} pending:\n${all.map((name) => `  ${name}`).join('\n')}`);
    // The dry run applied nothing.
    expect((await parley(dir, ['migrate', '--dry-run'])).out).toBe(dry.out);
    const applied = await parley(dir, ['migrate']);
    expect(applied.out).toBe(
      `Applied ${all.length}:\n${all.map((name) => `  ${name}`).join('\n')}`,
    );
    expect((await parley(dir, ['migrate'])).out).toBe(
      'No pending migrations: the database is up to date.',
    );
    expect((await parley(dir, ['migrate', '--dry-run'])).out).toBe('No pending migrations.');
  });

  it('installs without the wizard, once, with a generated or a piped password', async () => {
    await parley(dir, ['migrate']);
    const first = await parley(dir, INSTALL);
    expect(first.code).toBe(0);
    const password = /password \(shown once\): (\S+)/.exec(first.out)?.[1];
    expect(password).toBeDefined();
    expect(first.out).toContain('Sign in at https://comments.example/admin');
    await look(async (db) => {
      expect((await getOrganization(db))?.name).toBe('The Daily Example');
      const admin = await findUserByEmail(db, 'editor@news.example');
      expect(admin?.role).toBe('ADMIN');
      expect(await verifyPassword(password!, admin!.passwordHash!)).toBe(true);
    });
    const again = await parley(dir, INSTALL);
    expect(again).toMatchObject({ code: FAILURE, out: '' });
    expect(again.err).toBe('parley: ALREADY_INSTALLED: Parley is already installed.');
  });

  it('checks what it installs as the wizard does, and writes nothing on a bad field', async () => {
    await parley(dir, ['migrate']);
    const short = await parley(dir, [...INSTALL, '--admin-password-stdin'], 'short\n');
    expect(short.code).toBe(FAILURE);
    expect(short.err).toMatch(/^parley: INVALID_INPUT \(--admin-password-stdin\): /);
    const badUrl = await parley(dir, [
      'install',
      ...INSTALL.slice(1, 3),
      '--site-url',
      'ftp://x',
      '--admin-email',
      'a@b.example',
    ]);
    expect(badUrl.err).toMatch(
      /^parley: INVALID_INPUT \(--site-url\): Expected an http\(s\) URL\./,
    );
    await look(async (db) => expect(await getOrganization(db)).toBeUndefined());

    const piped = await parley(
      dir,
      [...INSTALL, '--admin-password-stdin'],
      'a long enough passphrase\n',
    );
    expect(piped.code).toBe(0);
    expect(piped.out).not.toContain('shown once');
    await look(async (db) => {
      const admin = await findUserByEmail(db, 'editor@news.example');
      expect(await verifyPassword('a long enough passphrase', admin!.passwordHash!)).toBe(true);
    });
  });

  it('refuses to install on a database with pending migrations', async () => {
    const { code, err } = await parley(dir, INSTALL);
    expect(code).toBe(FAILURE);
    expect(err).toMatch(/pending migrations: run parley migrate/);
  });

  it('gives a locked-out admin a one-time reset link, or sets a piped password', async () => {
    await parley(dir, ['migrate']);
    await parley(dir, INSTALL);
    const link = await parley(dir, ['reset-password', 'editor@news.example']);
    expect(link.code).toBe(0);
    const token = /^https:\/\/comments\.example\/account\/reset-password#token=(\S+)$/m.exec(
      link.out,
    )?.[1];
    expect(token).toBeDefined();
    await look(async (db) => {
      expect(await consumeToken(db, 'RESET_PASSWORD', token!)).toMatchObject({ ok: true });
    });

    const set = await parley(
      dir,
      ['reset-password', 'EDITOR@news.example', '--password-stdin'],
      'new passphrase here\n',
    );
    expect(set).toMatchObject({ code: 0, err: '' });
    await look(async (db) => {
      const admin = await findUserByEmail(db, 'editor@news.example');
      expect(await verifyPassword('new passphrase here', admin!.passwordHash!)).toBe(true);
    });
    const unknown = await parley(dir, ['reset-password', 'nobody@news.example']);
    expect(unknown).toMatchObject({ code: FAILURE, out: '' });
    expect(unknown.err).toBe('parley: no account has the email address nobody@news.example');
    // An account its site signs in (SSO) has no password to reset.
    await look((db) => createUser(db, { username: 'reader', email: 'reader@news.example' }));
    const sso = await parley(dir, ['reset-password', 'reader@news.example']);
    expect(sso).toMatchObject({ code: FAILURE, out: '' });
    expect(sso.err).toContain('signs in through their site (SSO)');
    const weak = await parley(
      dir,
      ['reset-password', 'editor@news.example', '--password-stdin'],
      'x',
    );
    expect(weak.err).toMatch(/^parley: INVALID_INPUT \(--password-stdin\)/);
  });

  it('turns off the two-factor sign-in of an admin who lost the app and the recovery codes', async () => {
    await parley(dir, ['migrate']);
    await parley(dir, INSTALL);
    const off = await parley(dir, ['reset-two-factor', 'editor@news.example']);
    expect(off).toMatchObject({ code: FAILURE, out: '' });
    expect(off.err).toMatch(/does not use two-factor sign-in$/);
    await look(async (db) => {
      const admin = await findUserByEmail(db, 'editor@news.example');
      await db
        .updateTable('users')
        .set({ totp_secret: 'sealed:v1:x', totp_enabled_at: '2026-11-01T00:00:00.000Z' })
        .where('id', '=', admin!.id)
        .execute();
      await replaceRecoveryCodes(db, admin!.id, new Date());
    });
    const reset = await parley(dir, ['reset-two-factor', 'EDITOR@news.example']);
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(/is off and their sessions are ended/);
    await look(async (db) => {
      const admin = await findUserByEmail(db, 'editor@news.example');
      expect(admin).toMatchObject({ twoFactorEnabled: false, sessionEpoch: 1 });
      expect(await db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
      const audited = await db.selectFrom('audit_log').select(['action', 'actor_name']).execute();
      expect(audited).toEqual([{ action: 'TWO_FACTOR_RESET', actor_name: 'parley' }]);
    });
  });

  it('backs up the SQLite database to a file that opens on its own', async () => {
    await parley(dir, ['migrate']);
    await parley(dir, INSTALL);
    const file = join(dir, 'backup.sqlite');
    const { code, out } = await parley(dir, ['backup', file]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Backed up .* to .*backup\.sqlite \(\d+ pages\)\.$/);
    const copy = new SqliteDatabase(file, { readonly: true });
    try {
      expect(copy.prepare('select name from organization').get()).toEqual({
        name: 'The Daily Example',
      });
    } finally {
      copy.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600); // it holds password hashes
    // Never over the live database.
    const live = await parley(dir, ['backup', join(dir, SQLITE_FILE_NAME)]);
    expect(live.code).toBe(FAILURE);
    expect(live.err).toContain('is the live database');
    // Into a folder that does not exist: an error, and no file.
    const missing = await parley(dir, ['backup', join(dir, 'no/such/folder/b.sqlite')]);
    expect(missing.code).toBe(FAILURE);
    expect(missing.err).toMatch(/^parley: no folder /);
  });

  it('sends a PostgreSQL install to pg_dump', async () => {
    const pg = await parley(dir, ['backup', join(dir, 'b.sqlite')], '', {
      DATABASE_URL: 'postgres://parley@127.0.0.1:1/parley',
    });
    expect(pg.code).toBe(FAILURE);
    expect(pg.err).toContain('on PostgreSQL use pg_dump');
  });

  it('imports a gzipped Disqus export into a site, then nothing more when run again', async () => {
    await parley(dir, ['migrate']);
    expect((await parley(dir, INSTALL)).code).toBe(0);
    const siteId = await look(async (db) => {
      const site = await db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      return site.id;
    });
    const file = join(dir, 'disqus.xml.gz');
    writeFileSync(file, gzipSync(readFileSync(join(FIXTURES, 'disqus.xml'))));
    const args = ['import', 'disqus', file, '--site', siteId];
    const rewrite = ['--rewrite-origin', 'https://old.news.example=https://news.example'];
    const dry = await parley(dir, [...args, ...rewrite, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Dry run of the disqus import');
    expect(dry.out).toContain('comments: 9 imported, 0 already imported');
    expect(await look((db) => countRows(db, 'comments'))).toBe(0);

    const first = await parley(dir, [...args, ...rewrite]);
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toContain(`Imported disqus into site ${siteId}.`);
    expect(first.out).toContain('stories:  2 created, 0 already here');
    expect(first.out).toContain('comments: 9 imported, 0 already imported');
    expect(first.out).toContain('comment 2006 (line 105): its date "yesterday" is not a date');
    expect(first.err).toContain('… 9 comments so far');
    const again = await parley(dir, [...args, ...rewrite]);
    expect(again.out).toContain('comments: 0 imported, 9 already imported');
    expect(await look((db) => countRows(db, 'comments'))).toBe(9);

    // Without the rewrite, the old origin is not the site's: every thread is skipped.
    const elsewhere = await parley(dir, args);
    expect(elsewhere.out).toContain(
      'https://old.news.example is not a permitted origin of the site',
    );
    expect(await parley(dir, ['import', 'disqus', file])).toMatchObject({
      code: USAGE_ERROR,
      err: 'parley: import: --site SITE_ID is required (Configure → Organization and sites shows the ids)',
    });
    expect(await parley(dir, ['import', 'livefyre', file, '--site', siteId])).toMatchObject({
      code: USAGE_ERROR,
      err: 'parley: import: unknown format "livefyre" (one of disqus, wordpress, remark42, parley)',
    });
    expect(
      await parley(dir, [...args, '--rewrite-origin', 'old.example=https://news.example']),
    ).toMatchObject({ code: USAGE_ERROR });
    expect(
      await parley(dir, ['import', 'disqus', join(dir, 'nope.xml'), '--site', siteId]),
    ).toMatchObject({
      code: FAILURE,
      err: expect.stringContaining('parley: INVALID_INPUT (file): Cannot read'),
    });
    const malformed = await parley(dir, [
      'import',
      'disqus',
      join(FIXTURES, 'disqus-malformed.xml'),
      '--site',
      siteId,
    ]);
    expect(malformed).toMatchObject({ code: FAILURE });
    expect(malformed.err).toMatch(
      /^parley: INVALID_INPUT \(file\): The file is not well-formed XML at line 11, column \d+: /,
    );
  });

  it('exports a site as one JSON document on standard output', async () => {
    await parley(dir, ['migrate']);
    expect((await parley(dir, INSTALL)).code).toBe(0);
    const siteId = await look(async (db) => {
      const site = await db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      return site.id;
    });
    const exported = await parley(dir, ['export', '--site', siteId]);
    expect(exported).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(exported.out)).toMatchObject({
      format: 'parley-export',
      version: 1,
      site: { id: siteId, url: 'https://news.example/' },
      stories: [],
      comments: [],
    });
    expect(await parley(dir, ['export'])).toMatchObject({
      code: USAGE_ERROR,
      err: 'parley: export: --site SITE_ID is required (Configure → Organization and sites shows the ids)',
    });
    expect(await parley(dir, ['export', '--site', 'nope'])).toMatchObject({
      code: FAILURE,
      err: 'parley: NOT_FOUND: There is no site nope.',
    });
  });
});
