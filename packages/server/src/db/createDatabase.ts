import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { migrateToLatest } from './migrations';
import type { Database } from './schema';
import { SQLITE_BUSY_TIMEOUT_MS, SQLITE_STATEMENT_CACHE, POSTGRES_POOL_MAX } from '../defaults';
// The figures live in defaults.ts with the others; re-exported here for this module's users.
export { SQLITE_BUSY_TIMEOUT_MS, POSTGRES_POOL_MAX } from '../defaults';

/** File name of the embedded database inside the data folder. */
export const SQLITE_FILE_NAME = 'parley.sqlite';
/** `url` value that opens a private in-memory SQLite database (tests). */
export const MEMORY_URL = ':memory:';

/** Which database engine a handle talks to. */
export type DialectName = 'sqlite' | 'postgres';

/** Options of {@link createDatabase}. */
export interface CreateDatabaseOptions {
  /**
   * `postgres://…` or `postgresql://…` for PostgreSQL; `:memory:` for a throw-away SQLite
   * database; anything else (or nothing) for SQLite in `dataDir`.
   * @default undefined (SQLite in `dataDir`)
   */
  url?: string;
  /** Data folder; the SQLite file is `<dataDir>/parley.sqlite`. Created when missing. */
  dataDir: string;
  /**
   * Run migrations before returning.
   * @default true
   */
  migrate?: boolean;
}

/** An open, migrated database. */
export interface ParleyDatabase {
  /** The query builder; also what every store function takes. */
  db: Kysely<Database>;
  /** The engine behind `db`. */
  dialect: DialectName;
  /** Closes the pool or the file. */
  close(): Promise<void>;
  /** PostgreSQL: the pool's clients now (the metric); undefined on SQLite. */
  poolStats?(): Record<'total' | 'idle' | 'waiting', number>;
}

/** True when `url` selects PostgreSQL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens Parley's database — PostgreSQL when `url` is a postgres URL, otherwise the embedded SQLite
 * file — and migrates it to the latest schema. Throws (naming the migration) when migrating fails.
 */
export async function createDatabase(options: CreateDatabaseOptions): Promise<ParleyDatabase> {
  const { url, dataDir, migrate = true } = options;
  const dialect: DialectName = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  const pool = isPostgresUrl(url) ? openPool(url) : undefined;
  const db = pool
    ? new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
    : openSqlite(url, dataDir);
  if (migrate) {
    try {
      await migrateToLatest(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return {
    db,
    dialect,
    close: () => db.destroy(),
    ...(pool && {
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    }),
  };
}

function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_MAX });
  // An idle client that loses its server emits 'error' on the pool; unhandled, it kills the process.
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  return pool;
}

function openSqlite(url: string | undefined, dataDir: string): Kysely<Database> {
  let file = MEMORY_URL;
  if (url !== MEMORY_URL) {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, SQLITE_FILE_NAME);
  }
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers go on while one writer writes; foreign keys are off by default in SQLite;
  // busy_timeout makes a second process wait for the write lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  // FULL: each commit syncs the WAL before it returns, so what the server acknowledged survives
  // a killed process and a power cut (NORMAL survives only the first). better-sqlite3 builds with
  // SQLITE_DEFAULT_WAL_SYNCHRONOUS=1: a database reopened in WAL mode ran NORMAL before this.
  // The cost measured here: 0.3–0.4 ms per commit against 0.03 (one post, one commit).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // A bounded analysis whenever the planner's statistics are refreshed (plannerStatistics.ts).
  sqlite.pragma('analysis_limit = 1000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite) }),
  });
}

/**
 * Kysely prepares every query it runs; on SQLite that is a compilation each time (measured by
 * bench:scale's write section: 6 % of a posting server's CPU). Statements are kept by their SQL
 * text instead, at most SQLITE_STATEMENT_CACHE of them. Reusing one is safe: better-sqlite3 runs
 * each to completion synchronously (nothing here iterates a statement across an await), and
 * SQLite recompiles a statement by itself after a schema change.
 */
function reusingStatements(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({
    max: SQLITE_STATEMENT_CACHE,
  });
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
  return sqlite;
}
