/** Stories: created on first use, listed and configured by moderators, counted. */
import { sql } from 'kysely';
import type { Selectable, Updateable } from 'kysely';
import { ParleyError } from '../../ParleyError';
import { escapeLike, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import { storyStatusCounts } from './storyCounts';
import { VISIBLE_COMMENT_STATUSES } from '../schema';
import type { StoriesTable, StoryStatus } from '../schema';
import type { PremodMode } from '../../moderation/evaluateComment';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';

/** A story as the resolvers see it. */
export interface Story {
  id: string;
  siteId: string;
  url: string;
  externalId: string | null;
  title: string;
  status: StoryStatus;
  /** Pre-moderation override; null follows the organization. */
  premod: PremodMode | null;
  /** Live-updates override; null follows the organization. */
  liveUpdates: boolean | null;
  createdAt: string;
  closedAt: string | null;
  /** The comment staff pinned above the thread; null for none. */
  pinnedCommentId: string | null;
}

/** Maps a `stories` row to a {@link Story}. */
export function toStory(row: Selectable<StoriesTable>): Story {
  return {
    id: row.id,
    siteId: row.site_id,
    url: row.url,
    externalId: row.external_id,
    title: row.title,
    status: row.status,
    premod: row.premod,
    liveUpdates: row.live_updates === null ? null : row.live_updates === 1,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    pinnedCommentId: row.pinned_comment_id,
  };
}

/** What the embed knows about a story on first use. */
export interface StoryInput {
  siteId: string;
  /** Canonical URL; unique across the install. */
  url: string;
  title: string;
  externalId?: string | null;
}

/**
 * The story at `url`, created if missing. Race-safe: concurrent first readers all insert with
 * ON CONFLICT DO NOTHING on the unique URL and then read the one row that won.
 */
export async function findOrCreateStory(
  db: Db,
  input: StoryInput,
): Promise<{ story: Story; created: boolean }> {
  const existing = await findStoryByUrl(db, input.url);
  if (existing !== undefined) {
    // A story first met without a title (an older loader, a count request) takes the first one a
    // reader's page gives; a title already set is never changed by readers.
    if (existing.title === '' && input.title !== '') {
      const named = await db
        .updateTable('stories')
        .set({ title: input.title })
        .where('id', '=', existing.id)
        .where('title', '=', '')
        .returningAll()
        .executeTakeFirst();
      if (named) return { story: toStory(named), created: false };
    }
    return { story: existing, created: false };
  }
  const inserted = await db
    .insertInto('stories')
    .values({
      id: newId(),
      site_id: input.siteId,
      url: input.url,
      external_id: input.externalId ?? null,
      title: input.title,
      status: 'OPEN',
      created_at: isoTime(),
    })
    .onConflict((oc) => oc.column('url').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted !== undefined) return { story: toStory(inserted), created: true };
  const winner = await findStoryByUrl(db, input.url);
  if (winner === undefined) throw new Error(`Story ${input.url} vanished after a conflict`);
  return { story: winner, created: false };
}

/** The story with `id`, if any. */
export async function findStoryById(db: Db, id: string): Promise<Story | undefined> {
  const row = await db.selectFrom('stories').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toStory(row);
}

/** The stories with `ids` that exist, by id (one query). */
export async function findStoriesByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, Story>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('stories').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, toStory(row)]));
}

/** The story at exactly `url`, if any. */
export async function findStoryByUrl(db: Db, url: string): Promise<Story | undefined> {
  const row = await db.selectFrom('stories').selectAll().where('url', '=', url).executeTakeFirst();
  return row && toStory(row);
}

/** The stories at `urls` that exist, by URL (one query; none is created). */
export async function findStoriesByUrls(
  db: Db,
  urls: readonly string[],
): Promise<Map<string, Story>> {
  if (urls.length === 0) return new Map();
  const rows = await db.selectFrom('stories').selectAll().where('url', 'in', urls).execute();
  return new Map(rows.map((row) => [row.url, toStory(row)]));
}

/** Filters of {@link listStories}. */
export interface StoryFilter {
  /** Part of the title or URL, case-insensitive. */
  query?: string | null;
  status?: StoryStatus | null;
  siteId?: string | null;
}

/** Stories, newest first, with Relay paging. */
export function listStories(
  db: Db,
  filter: StoryFilter,
  page: PageArgs,
): Promise<Connection<Story>> {
  let q = db.selectFrom('stories').selectAll();
  if (filter.query !== undefined && filter.query !== null && filter.query !== '') {
    const pattern = `%${escapeLike(filter.query.toLowerCase())}%`;
    q = q.where(
      sql<boolean>`(lower(title) like ${pattern} escape '\\' or lower(url) like ${pattern} escape '\\')`,
    );
  }
  if (filter.status !== undefined && filter.status !== null)
    q = q.where('status', '=', filter.status);
  if (filter.siteId !== undefined && filter.siteId !== null)
    q = q.where('site_id', '=', filter.siteId);
  return paginate(
    q,
    [
      { column: 'created_at', field: 'created_at', direction: 'desc' },
      { column: 'id', field: 'id', direction: 'desc' },
    ],
    page,
    toStory,
  );
}

/** What moderators change on a story. */
export interface StoryPatch {
  title?: string;
  status?: StoryStatus;
  /** Null returns to the organization setting. */
  premod?: PremodMode | null;
  /** Null returns to the organization setting. */
  liveUpdates?: boolean | null;
}

/** Updates a story; closing stamps `closed_at`, reopening clears it. `NOT_FOUND` if missing. */
export async function updateStory(db: Db, id: string, patch: StoryPatch): Promise<Story> {
  const values: Updateable<StoriesTable> = {};
  if (patch.title !== undefined) values.title = patch.title;
  if (patch.status !== undefined) {
    values.status = patch.status;
    values.closed_at = patch.status === 'CLOSED' ? isoTime() : null;
  }
  if (patch.premod !== undefined) values.premod = patch.premod;
  if (patch.liveUpdates !== undefined) {
    values.live_updates = patch.liveUpdates === null ? null : patch.liveUpdates ? 1 : 0;
  }
  const query =
    Object.keys(values).length === 0
      ? db.selectFrom('stories').selectAll().where('id', '=', id)
      : db.updateTable('stories').set(values).where('id', '=', id).returningAll();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw new ParleyError('NOT_FOUND', `No story ${id}.`);
  return toStory(row);
}

/**
 * Visible comments (replies included) per story, for `commentCount` and count.js; stories with
 * none are 0. One grouped query for any number of stories (batch it behind a loader).
 */
export async function countStoryComments(
  db: Db,
  storyIds: readonly string[],
): Promise<Map<string, number>> {
  // Read from the counters (storyCounts.ts): a few rows per story, whatever its size.
  const byStatus = await storyStatusCounts(db, storyIds);
  return new Map(
    storyIds.map((id) => {
      const counts = byStatus.get(id) ?? {};
      return [id, VISIBLE_COMMENT_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0)];
    }),
  );
}
