import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from './createDatabase';
import { Migrator } from 'kysely';
import { listTables, migrateToLatest, migrationProvider, MIGRATIONS } from './migrations';
import { TABLES } from './schema';
import { useTestDatabase, testDialects } from './testDatabases';

describe.each(testDialects())('migrations on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('creates every table of the schema on a fresh database', async () => {
    const tables = await listTables(t.db);
    for (const table of TABLES) expect(tables).toContain(table);
  });

  it('creates the indexes of the hot queries', async () => {
    const names =
      dialect === 'postgres'
        ? (await sql<{ name: string }>`select indexname as name from pg_indexes`.execute(t.db)).rows
        : (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index'`.execute(t.db)
          ).rows;
    const all = names.map((r) => r.name);
    for (const index of [
      'comments_story_status_created_id',
      'comments_story_parent_created',
      'comments_pending',
      'comments_reportable',
      'comments_parent_created',
      'comments_author_created',
      'comments_status_created',
      'stories_site_created',
      'reports_comment',
      'users_email_key_unique',
    ]) {
      expect(all).toContain(index);
    }
  });

  it('is idempotent: a second run applies nothing and changes nothing', async () => {
    const before = await listTables(t.db);
    await expect(migrateToLatest(t.db)).resolves.toEqual([]);
    expect(await listTables(t.db)).toEqual(before);
    expect(Object.keys(MIGRATIONS).length).toBeGreaterThan(0);
  });
});

describe('createDatabase (SQLite file)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'parley-db-')), 'nested', 'data');
  });
  afterEach(() => rmSync(join(dataDir, '..', '..'), { recursive: true, force: true }));

  it('creates the data folder and parley.sqlite with WAL synced on each commit, foreign keys and a busy timeout', async () => {
    const { db, dialect, close } = await createDatabase({ dataDir });
    try {
      expect(dialect).toBe('sqlite');
      const pragma = async (name: string) =>
        Object.values(
          (await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(db)).rows[0]!,
        )[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2); // FULL
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await close();
    }
    // Reopening the same file migrates nothing and keeps the schema.
    const again = await createDatabase({ dataDir });
    expect(await listTables(again.db)).toEqual(expect.arrayContaining([...TABLES]));
    await again.close();
  });

  it('gives existing users their look-alike skeletons, letting a later look-alike keep its name', async () => {
    const { db, close } = await createDatabase({ dataDir, migrate: false });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0008_report_weight')).error).toBeUndefined();
      const user = (id: string, username: string, createdAt: string) => ({
        id,
        username,
        username_key: username.toLowerCase(),
        email: `${id}@example.com`,
        email_key: `${id}@example.com`,
        role: 'COMMENTER' as const,
        notification_prefs: '{}',
        created_at: createdAt,
      });
      await db
        .insertInto('users')
        .values([
          user('b', '\u0430dmin', '2026-02-01T00:00:00.000Z'), // Cyrillic а, the newer one
          user('a', 'admin', '2026-01-01T00:00:00.000Z'),
          user('c', 'zoe', '2026-03-01T00:00:00.000Z'),
        ])
        .execute();
      await migrateToLatest(db);
      const rows = await db
        .selectFrom('users')
        .select(['id', 'username_skeleton'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'a', username_skeleton: 'adrnin' },
        { id: 'b', username_skeleton: null },
        { id: 'c', username_skeleton: 'zoe' },
      ]);
    } finally {
      await close();
    }
  });

  it('fails loudly, naming the migration, when a migration cannot run', async () => {
    const { db, close } = await createDatabase({ dataDir, migrate: false });
    // A table in the way makes 0001_initial fail.
    await sql`create table organization (x integer)`.execute(db);
    await expect(migrateToLatest(db)).rejects.toThrow(/migration 0001_initial failed/);
    await close();
  });
});
