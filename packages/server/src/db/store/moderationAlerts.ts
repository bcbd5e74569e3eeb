/**
 * Moderators' email alerts (moderation/moderationAlerts.ts sends them): a row per moderator and
 * site they chose to hear about, and the one-time Approve / Reject links the emails carry.
 *
 * A digest is claimed by moving its row's `last_digest_at` from the value read to now, one
 * conditional update: with several instances looking, one of them makes each digest.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { isoTime } from '../inTransaction';
import type { Db } from '../inTransaction';
import type {
  ModerationAlertFrequency,
  ModerationAlertsTable,
  ModerationLinksTable,
} from '../schema';
import { toComment } from './comments';
import type { Comment } from './comments';
import { QUEUE_SQL } from './commentQueries';
import { waitingQueue } from './storyCounts';
import { toUser } from './users';
import type { User } from './users';

/** A moderator's alerts for one site. */
export interface ModerationAlertRow {
  userId: string;
  siteId: string;
  frequency: ModerationAlertFrequency | 'OFF';
  lastDigestAt: string | null;
}

const toAlert = (row: Selectable<ModerationAlertsTable>): ModerationAlertRow => ({
  userId: row.user_id,
  siteId: row.site_id,
  frequency: row.frequency,
  lastDigestAt: row.last_digest_at,
});

/** How long a digest's period is, by frequency. */
export const DIGEST_PERIOD_MS: Readonly<Record<'HOURLY' | 'DAILY', number>> = Object.freeze({
  HOURLY: 3_600_000,
  DAILY: 86_400_000,
});

/** The viewer's alerts, a row per site they hear about. */
export async function alertsOf(db: Db, userId: string): Promise<ModerationAlertRow[]> {
  const rows = await db
    .selectFrom('moderation_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .execute();
  return rows.map(toAlert);
}

/**
 * Sets how often `userId` hears about `siteId` (OFF: not at all). A digest chosen now covers what
 * comes from now on, not what came before it was chosen.
 */
export async function setAlert(
  db: Db,
  input: { userId: string; siteId: string; frequency: ModerationAlertFrequency | 'OFF' },
  now: Date,
): Promise<ModerationAlertRow> {
  const { userId, siteId, frequency } = input;
  if (frequency === 'OFF') {
    await db
      .deleteFrom('moderation_alerts')
      .where('user_id', '=', userId)
      .where('site_id', '=', siteId)
      .execute();
    return { userId, siteId, frequency, lastDigestAt: null };
  }
  const at = isoTime(now);
  await db
    .insertInto('moderation_alerts')
    .values({ user_id: userId, site_id: siteId, frequency, last_digest_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['user_id', 'site_id']).doUpdateSet({
        frequency,
        updated_at: at,
        // A digest chosen again keeps its period; one newly chosen starts from now.
        last_digest_at: sql<string>`case when moderation_alerts.frequency = ${frequency} then moderation_alerts.last_digest_at else ${at} end`,
      }),
    )
    .execute();
  const row = await db
    .selectFrom('moderation_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return toAlert(row);
}

/** Ends every alert of `userId` (an email's unsubscribe link). */
export async function clearAlerts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('moderation_alerts').where('user_id', '=', userId).execute();
}

/**
 * The staff alerted of `siteId` at `frequency`, who may moderate now: a moderator or an admin,
 * neither banned nor suspended, their email confirmed.
 */
export async function alertedModerators(
  db: Db,
  siteId: string,
  frequency: ModerationAlertFrequency,
  now: Date,
): Promise<{ user: User; alert: ModerationAlertRow }[]> {
  const rows = await db
    .selectFrom('moderation_alerts')
    .innerJoin('users', 'users.id', 'moderation_alerts.user_id')
    .selectAll('users')
    .select([
      'moderation_alerts.site_id as alert_site_id',
      'moderation_alerts.frequency as alert_frequency',
      'moderation_alerts.last_digest_at as alert_last_digest_at',
    ])
    .where('moderation_alerts.site_id', '=', siteId)
    .where('moderation_alerts.frequency', '=', frequency)
    .where('users.role', 'in', ['MODERATOR', 'ADMIN'])
    .where('users.banned', '=', 0)
    .where('users.email_verified', '=', 1)
    .where('users.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('users.suspended_until', 'is', null),
        eb('users.suspended_until', '<=', isoTime(now)),
      ]),
    )
    .execute();
  return rows.map((row) => ({
    user: toUser(row),
    alert: {
      userId: row.id,
      siteId: row.alert_site_id,
      frequency: row.alert_frequency,
      lastDigestAt: row.alert_last_digest_at,
    },
  }));
}

/** The digests due at `now`: HOURLY and DAILY rows whose period has passed since the last. */
export async function dueDigests(db: Db, now: Date): Promise<ModerationAlertRow[]> {
  const rows = await db
    .selectFrom('moderation_alerts')
    .selectAll()
    .where((eb) =>
      eb.or(
        (['HOURLY', 'DAILY'] as const).map((frequency) =>
          eb.and([
            eb('frequency', '=', frequency),
            eb(
              'last_digest_at',
              '<=',
              isoTime(new Date(now.getTime() - DIGEST_PERIOD_MS[frequency])),
            ),
          ]),
        ),
      ),
    )
    .orderBy('last_digest_at')
    .execute();
  return rows.map(toAlert);
}

/**
 * Claims a due digest: moves its `last_digest_at` from what was read to `until` (the end of the
 * period it covers); false when another process did first (or the moderator changed the row).
 */
export async function claimDigest(
  db: Db,
  alert: ModerationAlertRow,
  until: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('moderation_alerts')
    .set({ last_digest_at: isoTime(until) })
    .where('user_id', '=', alert.userId)
    .where('site_id', '=', alert.siteId)
    .where('frequency', '=', alert.frequency as ModerationAlertFrequency)
    .where('last_digest_at', '=', alert.lastDigestAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A comment a digest lists, and which queue it waits in. */
export interface DigestItem {
  comment: Comment;
  queue: 'PENDING' | 'REPORTED';
}

/**
 * What entered `siteId`'s queues in (`since`, `until`] and still waits there, newest first:
 * comments posted or edited in the period (held, or in Reported for a suspect word), and
 * comments reported in it. At most `limit`; `total` counts them all.
 */
export async function digestItems(
  db: Db,
  siteId: string,
  since: string,
  until: string,
  limit: number,
): Promise<{ items: DigestItem[]; total: number }> {
  const within = (column: 'comments.created_at' | 'comments.edited_at' | 'reports.created_at') =>
    sql<boolean>`(${sql.ref(column)} > ${since} and ${sql.ref(column)} <= ${until})`;
  const rows = await db
    .selectFrom('comments')
    .selectAll('comments')
    .where('comments.story_id', 'in', (eb) =>
      eb.selectFrom('stories').select('stories.id').where('stories.site_id', '=', siteId),
    )
    .where('comments.deleted_at', 'is', null)
    // In a queue now, by the queues' own conditions (commentQueries.ts).
    .where((eb) => eb.or([QUEUE_SQL.PENDING, QUEUE_SQL.REPORTED]))
    .where((eb) =>
      eb.or([
        within('comments.created_at'),
        within('comments.edited_at'),
        eb.exists(
          eb
            .selectFrom('reports')
            .select('reports.comment_id')
            .whereRef('reports.comment_id', '=', 'comments.id')
            .where(within('reports.created_at')),
        ),
      ]),
    )
    .execute();
  const byId = new Map<string, DigestItem>();
  for (const row of rows) {
    const comment = toComment(row);
    const queue = waitingQueue(comment);
    if (queue !== null) byId.set(comment.id, { comment, queue });
  }
  const items = [...byId.values()].sort((a, b) =>
    b.comment.createdAt.localeCompare(a.comment.createdAt),
  );
  return { items: items.slice(0, limit), total: items.length };
}

/** The SHA-256 a link's token is kept as. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Makes a one-time link for `moderator` to take `action` on `commentId`; resolves its token. */
export async function createModerationLink(
  db: Db,
  input: {
    moderator: Pick<User, 'id' | 'sessionEpoch'>;
    commentId: string;
    action: ModerationLinksTable['action'];
    ttlMs: number;
  },
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('moderation_links')
    .values({
      token_hash: hashOf(token),
      user_id: input.moderator.id,
      comment_id: input.commentId,
      action: input.action,
      epoch: input.moderator.sessionEpoch,
      expires_at: isoTime(new Date(now.getTime() + input.ttlMs)),
      used_at: null,
      created_at: isoTime(now),
    })
    .execute();
  return token;
}

/** A link as stored. */
export interface StoredModerationLink {
  tokenHash: string;
  userId: string;
  commentId: string;
  action: ModerationLinksTable['action'];
  epoch: number;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

/** The link `token` opens, or undefined. */
export async function findModerationLink(
  db: Db,
  token: string,
): Promise<StoredModerationLink | undefined> {
  const row = await db
    .selectFrom('moderation_links')
    .selectAll()
    .where('token_hash', '=', hashOf(token))
    .executeTakeFirst();
  return (
    row && {
      tokenHash: row.token_hash,
      userId: row.user_id,
      commentId: row.comment_id,
      action: row.action,
      epoch: row.epoch,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      createdAt: row.created_at,
    }
  );
}

/**
 * Spends a link and every other unused link of its comment (its pair, other moderators'), in one
 * statement that acts only while the link itself is unused: of two links of one comment used at
 * once (Approve in one tab, Reject in another), one decides. False when it was used already.
 */
export async function spendModerationLink(
  db: Db,
  link: Pick<StoredModerationLink, 'tokenHash' | 'commentId'>,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('moderation_links')
    .set({ used_at: isoTime(now) })
    .where('comment_id', '=', link.commentId)
    .where('used_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('moderation_links as own')
          .select('own.token_hash')
          .where('own.token_hash', '=', link.tokenHash)
          .where('own.used_at', 'is', null),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether `userId`'s role changed after `since` (a moderator's links made before then end). */
export async function roleChangedSince(db: Db, userId: string, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_history')
    .select('id')
    .where('user_id', '=', userId)
    .where('action', '=', 'ROLE')
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes the links past their time (hourly housekeeping); resolves how many went. */
export async function pruneModerationLinks(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('moderation_links')
    .where('expires_at', '<', isoTime(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
