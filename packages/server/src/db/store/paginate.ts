/**
 * Relay cursor pagination for every list in the stores, by keyset ("seek") rather than OFFSET: a
 * page costs the same at any depth, and rows inserted meanwhile never shift a reader's next page
 * into duplicates or gaps. The cursor is opaque to clients: base64url of the JSON array of the
 * sort-key values of the last row, ending with its id, so ties in the sort key stay ordered.
 */
import { sql } from 'kysely';
import type { SelectQueryBuilder, SqlBool } from 'kysely';
import { ParleyError } from '../../ParleyError';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../defaults';
// The figures live in defaults.ts with the others; re-exported here for this module's users.
export { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../defaults';

/** A Relay connection. */
export interface Connection<T> {
  /** The page's rows with their cursors. */
  edges: { cursor: string; node: T }[];
  /** Whether more rows follow, and the cursor to continue after. */
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Paging arguments as GraphQL passes them. */
export interface PageArgs {
  /** How many rows; default {@link PAGE_SIZE_DEFAULT}, capped at {@link PAGE_SIZE_MAX}. */
  first?: number | null;
  /** The `endCursor` of the previous page. */
  after?: string | null;
}

/** One column of a keyset order. The last key must be unique (the id). */
export interface SortKey<Row> {
  /** Column reference in SQL, e.g. `comments.created_at`. */
  column: string;
  /** Property of the selected row holding that column's value. */
  field: keyof Row & string;
  /** Direction. */
  direction: 'asc' | 'desc';
}

type CursorValue = string | number;

/** Encodes sort-key values as an opaque cursor. */
export function encodeCursor(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** Decodes a cursor made for `length` keys; a forged or stale one is `INVALID_INPUT` on `after`. */
export function decodeCursor(cursor: string, length: number): CursorValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (
    !Array.isArray(values) ||
    values.length !== length ||
    !values.every((v) => typeof v === 'string' || typeof v === 'number')
  ) {
    throw new ParleyError('INVALID_INPUT', 'The cursor is not one this list produced.', {
      field: 'after',
    });
  }
  return values as CursorValue[];
}

/** Applies the default and the cap to `first`; a negative `first` is `INVALID_INPUT`. */
export function pageSize(first: number | null | undefined): number {
  const size = first ?? PAGE_SIZE_DEFAULT;
  if (!Number.isInteger(size) || size < 0) {
    throw new ParleyError('INVALID_INPUT', `first must be a whole number ≥ 0, got ${size}.`, {
      field: 'first',
    });
  }
  return Math.min(size, PAGE_SIZE_MAX);
}

/**
 * Runs `query` ordered by `keys`, starting after `args.after`, and returns one page as a Relay
 * connection of `map(row)`. `query` must not have its own ORDER BY or LIMIT.
 */
export async function paginate<DB, TB extends keyof DB, Row, Node = Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keys: readonly SortKey<Row>[],
  args: PageArgs,
  map: (row: Row) => Node = (row) => row as unknown as Node,
): Promise<Connection<Node>> {
  const size = pageSize(args.first);
  let q = query;
  if (args.after !== undefined && args.after !== null) {
    q = q.where(afterCondition(keys, decodeCursor(args.after, keys.length)));
  }
  for (const key of keys) q = q.orderBy(sql.ref(key.column), key.direction);
  // One extra row tells whether a next page exists without a COUNT.
  const rows = await q.limit(size + 1).execute();
  const page = rows.slice(0, size);
  const edges = page.map((row) => ({
    cursor: encodeCursor(keys.map((k) => row[k.field] as CursorValue)),
    node: map(row),
  }));
  return {
    edges,
    pageInfo: { hasNextPage: rows.length > size, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

// (k1 after v1) OR (k1 = v1 AND k2 after v2) OR … — the row-value comparison spelled out, because
// SQLite and PostgreSQL both support `(a, b) < (x, y)` only when every key has the same direction.
function afterCondition<Row>(keys: readonly SortKey<Row>[], values: CursorValue[]) {
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`${sql.ref(k.column)} = ${values[j]}`);
    const op = sql.raw(key.direction === 'desc' ? '<' : '>');
    return sql`(${sql.join([...equal, sql`${sql.ref(key.column)} ${op} ${values[i]}`], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}
