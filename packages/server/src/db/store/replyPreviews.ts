import { sql } from 'kysely';
import type { Db } from '../inTransaction';
import { readerVisible } from './commentQueries';
import { toComment } from './comments';
import type { Comment } from './comments';
import { encodeCursor, pageSize } from './paginate';
import type { Connection } from './paginate';

/**
 * The first page of replies (oldest first, as `listReplies`) of many comments in one query: a
 * thread's first page shows each comment with its first replies, and one query per comment made
 * that page cost ~20 round trips. `row_number()` over each parent (SQLite ≥ 3.25, PostgreSQL)
 * keeps `first + 1` replies per parent — the extra one says whether more exist. Cursors are the
 * ones `listReplies` makes, so "more replies" continues from here.
 */
export async function firstRepliesOf(
  db: Db,
  parentIds: readonly string[],
  first: number | null | undefined,
): Promise<Map<string, Connection<Comment>>> {
  const size = pageSize(first);
  const pages = new Map<string, Connection<Comment>>();
  for (const id of parentIds)
    pages.set(id, { edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  if (parentIds.length === 0) return pages;
  const ranked = db
    .selectFrom('comments')
    .selectAll()
    .select(
      sql<number>`row_number() over (partition by parent_id order by created_at, id)`.as('rn'),
    )
    .where('parent_id', 'in', parentIds)
    .where(readerVisible);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .selectAll()
    .where('rn', '<=', size + 1)
    .orderBy('parent_id')
    .orderBy('rn')
    .execute();
  for (const row of rows) {
    const page = pages.get(row.parent_id ?? '');
    if (!page) continue;
    if (page.edges.length === size) {
      page.pageInfo.hasNextPage = true;
      continue;
    }
    const cursor = encodeCursor([row.created_at, row.id]);
    page.edges.push({ cursor, node: toComment(row) });
    page.pageInfo.endCursor = cursor;
  }
  return pages;
}
