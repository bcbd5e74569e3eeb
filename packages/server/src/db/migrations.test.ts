import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase } from './createDatabase';
import { listTables, migrateToLatest, MIGRATIONS } from './migrations';
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
      'comments_story_status_created',
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

  it('creates the data folder and parley.sqlite with WAL, foreign keys and a busy timeout', async () => {
    const { db, dialect, close } = await createDatabase({ dataDir });
    try {
      expect(dialect).toBe('sqlite');
      const pragma = async (name: string) =>
        Object.values(
          (await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(db)).rows[0]!,
        )[0];
      expect(await pragma('journal_mode')).toBe('wal');
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

  it('fails loudly, naming the migration, when a migration cannot run', async () => {
    const { db, close } = await createDatabase({ dataDir, migrate: false });
    // A table in the way makes 0001_initial fail.
    await sql`create table organization (x integer)`.execute(db);
    await expect(migrateToLatest(db)).rejects.toThrow(/migration 0001_initial failed/);
    await close();
  });
});
