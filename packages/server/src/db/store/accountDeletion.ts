/**
 * Deleting an account once its grace period has passed (a user asks with
 * `requestAccountDeletion` and can cancel for `ACCOUNT_DELETION_GRACE_SECONDS`).
 *
 * What happens to the comments — decided here, as Coral and Disqus users would expect:
 * - every comment the user wrote is erased: its text and revisions are gone and it is marked
 *   deleted, so it leaves every queue and every thread — except as an empty tombstone where
 *   others replied to it (see `readerVisible` in commentQueries.ts);
 * - replies other people wrote to it stay where they are: the row is kept (emptied) so their
 *   parent link still holds, and parents' reply counts drop by the visible replies removed;
 * - the user's votes (reactions) are removed (counts and Best ranks follow); their reports stay, as moderation
 *   evidence about other people's comments, attributed to the emptied account.
 *
 * The user row itself is kept but emptied of personal data (username, email, password, avatar,
 * SSO link, preferences, ignore lists, history, one-time tokens, idempotency records) and its
 * session epoch bumped, so no token of it works again; the email is free for a new sign-up.
 * Everything for one user happens in one transaction.
 */
import { inTransaction, isoTime, parseJson } from '../inTransaction';
import { uniqueKey } from './users';
import { recordAudit } from './auditLog';
import { moveVoteCounts } from './reactions';
import { deleteImagesOfUser } from './commentImages';
import { adjustStoryCounts, reportedCountChange } from './storyCounts';
import type { Db } from '../inTransaction';
import { VISIBLE_COMMENT_STATUSES } from '../schema';
import type { HeldReason } from '../schema';
import { withdrawSpamLessons } from './spamModel';
import { forgetAkismetChecks } from './akismetChecks';
import { forgetWebhookDeliveries } from './webhooks';

/** What deleting one account removed. */
/** The domain of an erased account's address (`deleted-…@deleted.invalid`): it reaches nobody. */
export const DELETED_EMAIL_DOMAIN = 'deleted.invalid';

/** Whether an address is an erased account's (`…@deleted.invalid`). */
export function isErasedAddress(email: string): boolean {
  return uniqueKey(email).endsWith(`@${DELETED_EMAIL_DOMAIN}`);
}

export interface DeletedAccount {
  userId: string;
  /** Comments erased. */
  comments: number;
  /** Reactions removed. */
  reactions: number;
  /** The avatar the account had (`/uploads/…`), for the caller to delete the file. */
  avatarUrl: string | null;
  /** The comment images the account uploaded, forgotten: the caller deletes their files. */
  imageNames: string[];
}

/** Users whose deletion was asked at or before `cutoff` and that are not deleted yet. */
export async function findAccountsDueForDeletion(db: Db, cutoff: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('deletion_requested_at', 'is not', null)
    .where('deletion_requested_at', '<=', isoTime(cutoff))
    .where('deleted_at', 'is', null)
    .orderBy('deletion_requested_at')
    .execute();
  return rows.map((row) => row.id);
}

/** Name an emptied account shows under (unique, since user ids are). */
export function deletedUsername(userId: string): string {
  return `deleted-${userId.replaceAll('-', '').slice(0, 12)}`;
}

/**
 * Empties one account (see the file comment) whose deletion was asked at or before `dueBy`. Does
 * nothing, returning undefined, when the user is gone, already deleted, or cancelled the request
 * meanwhile — the job can race a cancel.
 */
export function deleteAccount(
  db: Db,
  userId: string,
  now: Date = new Date(),
  dueBy: Date = now,
  /** Who erases it, when not the deletion job (an admin erasing a guest); the log names them. */
  actor: { id: string; username: string } | null = null,
): Promise<DeletedAccount | undefined> {
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'avatar_url', 'deletion_requested_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    // The claim comes first and is conditional: on PostgreSQL it takes the row lock and its WHERE
    // is checked again after a concurrent cancel commits, so a cancel either wins (nothing
    // matches) or waits for this deletion — never a deletion after a cancel.
    const claimed = await trx
      .updateTable('users')
      .set({ deleted_at: isoTime(now) })
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('deletion_requested_at', 'is not', null)
      .where('deletion_requested_at', '<=', isoTime(dueBy))
      .executeTakeFirst();
    if (!user || Number(claimed.numUpdatedRows) === 0) return undefined;

    // Erased first, and what was erased read back from the erasing statement: on PostgreSQL
    // that UPDATE waits for, and then sees, a status change committed meanwhile, so the counts
    // below are of exactly what it erased (a separate SELECT before could miss it).
    const erasedAt = isoTime(now);
    await trx
      .deleteFrom('comment_revisions')
      .where('comment_id', 'in', (eb) =>
        eb.selectFrom('comments').select('id').where('author_id', '=', userId),
      )
      .execute();
    // Returned as they were but for the erasure (the reason they were held is emptied next):
    // what decided whether each was in the Reported queue.
    const comments = await trx
      .updateTable('comments')
      .set({
        body_source: '',
        body_html: '',
        client_mutation_id: null,
        deleted_at: erasedAt,
      })
      .where('author_id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning([
        'id',
        'parent_id',
        'status',
        'story_id',
        'report_count',
        'reviewed_report_count',
        'held_because',
      ])
      .execute();
    // What their texts taught the spam filter, and what Akismet judged, go with them — after the
    // comments' rows are locked by the erasure above, the order every decision and edit takes.
    await withdrawSpamLessons(trx, { authorId: userId });
    await forgetAkismetChecks(trx, { authorId: userId });
    await forgetWebhookDeliveries(trx, { authorId: userId });
    await trx
      .updateTable('comments')
      .set({ held_because: null })
      .where('author_id', '=', userId)
      // The rows just erased: a post committed since this transaction's first statement is not.
      .where('deleted_at', '=', erasedAt)
      .where('held_because', 'is not', null)
      .execute();
    // Parents lose one visible reply for each of this user's visible replies (reply-count rule
    // in comments.ts). In id order: the same lock order as every other writer's.
    const lost = new Map<string, number>();
    for (const comment of comments) {
      if (comment.parent_id === null) continue;
      if (!(VISIBLE_COMMENT_STATUSES as readonly string[]).includes(comment.status)) continue;
      lost.set(comment.parent_id, (lost.get(comment.parent_id) ?? 0) + 1);
    }
    for (const [parentId, count] of [...lost].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await trx
        .updateTable('comments')
        .set((eb) => ({ reply_count: eb('reply_count', '-', count) }))
        .where('id', '=', parentId)
        .execute();
    }
    // The user's votes go first, each delete saying what it removed, so a vote they change
    // meanwhile is either gone with them or not yet there; then each comment's counters move
    // back, in id order (a report's counter waits behind its comment's row: counters last).
    const reactions = await trx
      .deleteFrom('reactions')
      .where('user_id', '=', userId)
      .returning(['comment_id', 'value'])
      .execute();
    reactions.sort((a, b) => (a.comment_id < b.comment_id ? -1 : 1));
    for (const { comment_id, value } of reactions) {
      await moveVoteCounts(trx, comment_id, value === 1 ? -1 : 0, value === -1 ? -1 : 0);
    }
    const imageNames = await deleteImagesOfUser(trx, userId);
    // The stories' counters lose the erased comments (storyCounts.ts), last, as everywhere.
    await adjustStoryCounts(
      trx,
      comments.flatMap((comment) => [
        { storyId: comment.story_id, status: comment.status, delta: -1 },
        ...reportedCountChange(
          comment.story_id,
          {
            status: comment.status,
            reportCount: comment.report_count,
            reviewedReportCount: comment.reviewed_report_count,
            heldBecause: parseJson<HeldReason[] | null>(comment.held_because, null),
            deletedAt: null,
          },
          undefined,
        ),
      ]),
    );

    await trx
      .deleteFrom('ignored_users')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('ignored_id', '=', userId)]))
      .execute();
    await trx.deleteFrom('tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('api_tokens').where('created_by', '=', userId).execute();
    await trx.deleteFrom('user_history').where('user_id', '=', userId).execute();
    await trx.deleteFrom('idempotency_keys').where('scope', '=', `user:${userId}`).execute();

    const name = deletedUsername(userId);
    const email = `${name}@${DELETED_EMAIL_DOMAIN}`;
    await trx
      .updateTable('users')
      .set((eb) => ({
        username: name,
        username_key: name,
        username_skeleton: null,
        email,
        email_key: email,
        email_verified: 0,
        password_hash: null,
        avatar_url: null,
        notification_prefs: JSON.stringify({
          onReply: false,
          onFeatured: false,
          onModeration: false,
        }),
        sso_site_id: null,
        sso_id: null,
        badges: '[]',
        premod: 0,
        suspended_until: null,
        deleted_at: isoTime(now),
        session_epoch: eb('session_epoch', '+', 1),
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        replies_feed_key: null,
        guest_email_key: null,
        ip_address: null,
        locale: null,
        locale_chosen: 0,
      }))
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    // Their provider accounts (and the addresses those gave): a later sign-in with one makes a
    // new account, never this erased one.
    await trx.deleteFrom('user_identities').where('user_id', '=', userId).execute();
    await trx
      .deleteFrom('sign_in_flows')
      .where((eb) => eb.or([eb('connect_user_id', '=', userId), eb('user_id', '=', userId)]))
      .execute();
    // An import's record of who they were in the source (their address, their name there): it
    // goes too, and a later import of the same file makes an account of its own for them.
    await trx
      .deleteFrom('import_sources')
      .where('kind', '=', 'user')
      .where('parley_id', '=', userId)
      .execute();
    // The log keeps that the account went, not who it was: its name goes with it, from the
    // entries written before too.
    await trx
      .updateTable('audit_log')
      .set({ target_label: name })
      .where('target_type', '=', 'user')
      .where('target_id', '=', userId)
      .execute();
    await trx
      .updateTable('audit_log')
      .set({ actor_name: name })
      .where('actor_id', '=', userId)
      .execute();
    await recordAudit(
      trx,
      {
        actor,
        ...(actor === null ? { actorName: 'system' as const } : {}),
        action: 'USER_ERASE',
        target: { type: 'user', id: userId, label: name },
        changes: [
          { field: 'deletionRequestedAt', before: null, after: user.deletion_requested_at },
          { field: 'comments', before: null, after: 'erased' },
        ],
      },
      now,
    );

    return {
      userId,
      comments: comments.length,
      reactions: reactions.length,
      avatarUrl: user.avatar_url,
      imageNames,
    };
  });
}
