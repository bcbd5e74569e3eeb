/**
 * Fresh databases for test suites, on every dialect available: SQLite always, PostgreSQL when
 * `DATABASE_URL` is set. Each call to {@link createTestDatabase} on PostgreSQL creates its own
 * database (`parley_test_<time>_<random>`) next to the one `DATABASE_URL` names, so test files run
 * in parallel Jest workers without seeing each other's rows, and `close()` drops it.
 *
 * ```ts
 * describe.each(testDialects())('%s', (dialect) => {
 *   const t = useTestDatabase(dialect); // beforeAll/afterAll/beforeEach wired up
 *   it('…', async () => { await createUser(t.db, …); });
 * });
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, MEMORY_URL, SQLITE_FILE_NAME } from './createDatabase';
import type { DialectName, ParleyDatabase } from './createDatabase';
import { TABLES } from './schema';

/** Prefix of every database the helpers create; anything else is never dropped. */
export const TEST_DATABASE_PREFIX = 'parley_test_';
// A test database older than this is a leftover of a killed run and is swept on the next one.
const STALE_AFTER_MS = 60 * 60 * 1000;

/** A database for one test file. */
export interface TestDatabase extends ParleyDatabase {
  /** What to pass as `url` to `createDatabase` (or `DATABASE_URL`) to reach the same data. */
  url: string;
  /** Data folder (a temp folder, removed by `close`). */
  dataDir: string;
  /** Deletes every row of every table (between tests); the schema stays. */
  reset(): Promise<void>;
}

/** Options of {@link createTestDatabase}. */
export interface TestDatabaseOptions {
  /**
   * SQLite only: a file in a temp folder instead of memory — for suites that open the database
   * from a second connection or process (a server under test).
   * @default false
   */
  sqliteFile?: boolean;
}

/** The PostgreSQL server to create test databases on; an empty `DATABASE_URL` counts as unset. */
function adminDatabaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}

/**
 * The dialects to test: `sqlite`, plus `postgres` when `DATABASE_URL` is set (jest.setup.ts
 * defaults it to the local server; `DATABASE_URL= npx jest …` runs SQLite only).
 */
export function testDialects(): DialectName[] {
  return adminDatabaseUrl() === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
}

/** Creates a fresh, migrated database on `dialect`. Call `close()` when done: it drops it. */
export async function createTestDatabase(
  dialect: DialectName,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const url = options.sqliteFile === true ? join(dataDir, SQLITE_FILE_NAME) : MEMORY_URL;
    const opened = await createDatabase({ url, dataDir });
    return withReset({
      ...opened,
      url,
      dataDir,
      close: async () => {
        await opened.close();
        removeDir();
      },
    });
  }

  const adminUrl = adminDatabaseUrl();
  if (adminUrl === undefined) throw new Error('createTestDatabase(postgres) needs DATABASE_URL');
  const name = `${TEST_DATABASE_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, async (admin) => {
    await sweepStale(admin);
    // Byte-order collation, as SQLite's BINARY: id tie-breaks then sort the same on both engines
    // and on any CI image, whatever its default locale.
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 LC_COLLATE 'C'`);
  });
  const url = databaseUrl(adminUrl, name);
  let opened: ParleyDatabase;
  try {
    opened = await createDatabase({ url, dataDir });
  } catch (error) {
    await withAdmin(adminUrl, (admin) => dropDatabase(admin, name));
    throw error;
  }
  return withReset({
    ...opened,
    url,
    dataDir,
    close: async () => {
      await opened.close();
      await withAdmin(adminUrl, (admin) => dropDatabase(admin, name));
      removeDir();
    },
  });
}

/**
 * Jest wiring: a database for the enclosing `describe`, created in `beforeAll`, emptied before
 * each test, dropped in `afterAll`. Read `.db` etc. inside tests, not at collection time.
 */
export function useTestDatabase(dialect: DialectName, options?: TestDatabaseOptions): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase(dialect, options);
  });
  beforeEach(async () => {
    await current?.reset();
  });
  afterAll(async () => {
    await current?.close();
  });
  const get = (): TestDatabase => {
    if (current === undefined) throw new Error('useTestDatabase: read it inside a test or hook');
    return current;
  };
  return new Proxy({} as TestDatabase, { get: (_, key) => Reflect.get(get(), key) });
}

function withReset(base: Omit<TestDatabase, 'reset'>): TestDatabase {
  return {
    ...base,
    reset: async () => {
      // Children first, so foreign keys never block a delete.
      for (const table of [...TABLES].reverse()) {
        await sql`delete from ${sql.table(table)}`.execute(base.db);
      }
    },
  };
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// SQLSTATE object_in_use: a backend is still connected to the database.
const PG_OBJECT_IN_USE = '55006';
const DROP_ATTEMPTS = 20;
const DROP_RETRY_MS = 50;

async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  // pg's pool.end() resolves before its backends have exited; give them a moment instead of
  // killing them (which makes the closed pool log errors), then force (PostgreSQL 13+) what a
  // failed test may have left open.
  for (let attempt = 0; attempt < DROP_ATTEMPTS; attempt += 1) {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== PG_OBJECT_IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, DROP_RETRY_MS));
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function sweepStale(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1',
    [`${TEST_DATABASE_PREFIX}%`],
  );
  const cutoff = Date.now() - STALE_AFTER_MS;
  for (const { datname } of rows) {
    if (!datname.startsWith(TEST_DATABASE_PREFIX)) continue;
    const created = Number(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0]);
    if (Number.isFinite(created) && created < cutoff) await dropDatabase(admin, datname);
  }
}
