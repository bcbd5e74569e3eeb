/**
 * Queries behind the account pages: a user's own comments, the SSO keys of every site at once,
 * outstanding emailed tokens and the comments a data download contains.
 */
import { UnreadableSecretError, ssoKeyPurpose } from '../../auth/secretBox';
import type { SecretBox } from '../../auth/secretBox';
import { isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';
import { COMMENT_STATUSES, VISIBLE_COMMENT_STATUSES } from '../schema';
import type { CommentStatus, TokenPurpose } from '../schema';
import { toComment } from './comments';
import type { Comment } from './comments';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';

/** Which of a user's comments to list. */
export interface UserCommentsFilter {
  authorId: string;
  /**
   * Held and rejected comments too: for the author themself and moderators. Readers see only
   * what a thread would show them.
   * @default false
   */
  includeHidden?: boolean;
  /**
   * Deleted ones too (by their author, or with the account), their text erased: for moderators,
   * who see when each went.
   * @default false
   */
  includeDeleted?: boolean;
  /** Only this status (one a caller without `includeHidden` may see, or none come back). @default all */
  status?: CommentStatus | null;
}

/**
 * A user's comments on every story, newest first, one page. Served by the
 * `(author_id, created_at)` index, so a deep page costs what the first one does.
 */
export function listUserComments(
  db: Db,
  filter: UserCommentsFilter,
  page: PageArgs,
): Promise<Connection<Comment>> {
  const allowed: readonly CommentStatus[] =
    filter.includeHidden === true ? COMMENT_STATUSES : VISIBLE_COMMENT_STATUSES;
  const status = filter.status;
  const statuses = status ? allowed.filter((s) => s === status) : allowed;
  // A reader asking for a hidden status gets nothing (and SQL has no empty `in ()`).
  if (statuses.length === 0) {
    return Promise.resolve({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  }
  let q = db
    .selectFrom('comments')
    .selectAll()
    .where('author_id', '=', filter.authorId)
    .where('status', 'in', statuses);
  if (filter.includeDeleted !== true) q = q.where('deleted_at', 'is', null);
  return paginate(
    q,
    [
      { column: 'comments.created_at', field: 'created_at', direction: 'desc' },
      { column: 'comments.id', field: 'id', direction: 'desc' },
    ],
    page,
    toComment,
  );
}

/** One SSO key that verifies tokens at the time asked for, its secret opened. */
export interface UsableSsoKey {
  siteId: string;
  secret: string;
  /** Null while current; the end of the overlap after a rotation. */
  expiresAt: string | null;
}

/**
 * Every site's keys that verify tokens at `now` (not revoked, not past their overlap), grouped by
 * site, newest key first, in one query: an SSO token does not say which site signed it, and an
 * install has a handful of sites, so the caller tries each site's keys in turn.
 */
export async function listUsableSsoKeysBySite(
  db: Db,
  box: SecretBox,
  now: string = isoTime(),
  onUnreadable: (siteId: string) => void = () => {},
): Promise<Map<string, UsableSsoKey[]>> {
  const rows = await db
    .selectFrom('sso_keys')
    .select(['id', 'site_id', 'secret', 'expires_at'])
    .where('revoked', '=', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('site_id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const bySite = new Map<string, UsableSsoKey[]>();
  for (const row of rows) {
    const keys = bySite.get(row.site_id) ?? [];
    let secret: string;
    try {
      secret = box.open(row.secret, ssoKeyPurpose(row.id));
    } catch (error) {
      // Sealed under a PARLEY_SECRET this process does not have (an instance not yet restarted
      // in a rotation): that key is skipped, the others still verify.
      if (!(error instanceof UnreadableSecretError)) throw error;
      onUnreadable(row.site_id);
      continue;
    }
    keys.push({ siteId: row.site_id, secret, expiresAt: row.expires_at });
    bySite.set(row.site_id, keys);
  }
  return bySite;
}

/**
 * Marks a user's unused tokens of `purpose` as used, so only the newest emailed link works: a
 * confirmation link sent to a previous address must not verify the current one, and an old reset
 * link lying in an inbox must not outlive a reset. Returns how many were withdrawn.
 */
export async function withdrawTokens(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  now: string = isoTime(),
): Promise<number> {
  const result = await db
    .updateTable('tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A comment as a data download lists it. */
export interface ExportedComment {
  id: string;
  storyUrl: string;
  /** The Markdown the user wrote. */
  body: string;
  status: CommentStatus;
  createdAt: string;
  editedAt: string | null;
}

/**
 * Everything a user wrote, oldest first, with the story's URL — what the data download (reached
 * from the `DOWNLOAD` email link) contains. Deleted comments are left out: they are gone.
 */
export async function exportUserComments(db: Db, userId: string): Promise<ExportedComment[]> {
  const rows = await db
    .selectFrom('comments')
    .innerJoin('stories', 'stories.id', 'comments.story_id')
    .select([
      'comments.id',
      'stories.url',
      'comments.body_source',
      'comments.status',
      'comments.created_at',
      'comments.edited_at',
    ])
    .where('comments.author_id', '=', userId)
    .where('comments.deleted_at', 'is', null)
    .orderBy('comments.created_at')
    .orderBy('comments.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    storyUrl: row.url,
    body: row.body_source,
    status: row.status,
    createdAt: row.created_at,
    editedAt: row.edited_at,
  }));
}
