import { UNIQUE_INDEXES } from './migrations';
import type { UniqueIndexName } from './migrations';

// pg: SQLSTATE 23505 unique_violation, with the index name in `constraint`.
const PG_UNIQUE_VIOLATION = '23505';
// better-sqlite3: extended result codes; primary keys report their own code.
const SQLITE_UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
// SQLite names the columns, not the index, and only in the message; this is the one fixed format
// (`UNIQUE constraint failed: users.email_key`) of sqlite3's own C source, parsed after the code
// has been checked — never used to decide *whether* the error is a violation.
const SQLITE_COLUMNS = /constraint failed: (.+)$/;

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/**
 * True when `error` is a unique violation of `target`, on PostgreSQL or SQLite. `target` is an
 * index name from `UNIQUE_INDEXES` (`users_email_key_unique`) or a `table.column` (`users.email_key`),
 * so callers map a failed insert to a code such as `EMAIL_TAKEN` without reading error text.
 * Without `target`, any unique violation matches.
 */
export function isUniqueViolation(
  error: unknown,
  target?: UniqueIndexName | `${string}.${string}`,
): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as DriverError;
  const index = target !== undefined && target in UNIQUE_INDEXES ? target : undefined;
  const columns =
    index === undefined
      ? target === undefined
        ? undefined
        : [target]
      : UNIQUE_INDEXES[index as UniqueIndexName].columns.map(
          (c) => `${UNIQUE_INDEXES[index as UniqueIndexName].table}.${c}`,
        );

  if (code === PG_UNIQUE_VIOLATION) {
    if (target === undefined) return true;
    if (index !== undefined) return constraint === index;
    // A `table.column` target: find the index covering exactly that column.
    const [table, column] = target.split('.');
    return Object.entries(UNIQUE_INDEXES).some(
      ([name, def]) =>
        name === constraint &&
        def.table === table &&
        def.columns.length === 1 &&
        def.columns[0] === column,
    );
  }
  if (typeof code === 'string' && SQLITE_UNIQUE_CODES.has(code)) {
    if (columns === undefined) return true;
    const failed = typeof message === 'string' ? SQLITE_COLUMNS.exec(message)?.[1] : undefined;
    if (failed === undefined) return false;
    const got = failed.split(',').map((c) => c.trim());
    return got.length === columns.length && columns.every((c) => got.includes(c));
  }
  return false;
}
