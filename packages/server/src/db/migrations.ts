/**
 * Migrations as code: compiled into the server, so nothing is read from disk at run time and a
 * bundled server cannot miss a file. Built only with Kysely's schema builder and portable types
 * (`text`, `integer`), so one list serves SQLite and PostgreSQL. Append new migrations; never edit
 * one that has shipped.
 */
import { Migrator, sql } from 'kysely';
import { usernameSkeleton } from '../validation/lookalikes';
import type { Kysely, Migration, MigrationProvider, SqlBool } from 'kysely';
import { PENDING_SQL, REPORTABLE_SQL } from './schema';
import { bestRank } from './store/reactions';

/** The UNIQUE indexes 0001_initial creates (it must keep creating exactly these). */
const INITIAL_UNIQUE_INDEXES = {
  organization_singleton_unique: { table: 'organization', columns: ['singleton'] },
  stories_url_unique: { table: 'stories', columns: ['url'] },
  users_username_key_unique: { table: 'users', columns: ['username_key'] },
  users_email_key_unique: { table: 'users', columns: ['email_key'] },
  users_sso_unique: { table: 'users', columns: ['sso_site_id', 'sso_id'] },
  comments_client_mutation_unique: {
    table: 'comments',
    columns: ['author_id', 'client_mutation_id'],
  },
  reports_comment_user_unique: { table: 'reports', columns: ['comment_id', 'user_id'] },
  tokens_token_hash_unique: { table: 'tokens', columns: ['token_hash'] },
} as const;

/**
 * Every UNIQUE index by name, with its table and columns: those of 0001_initial and those added
 * later. `isUniqueViolation` uses it to recognise a violation on both drivers: PostgreSQL names
 * the index, SQLite names `table.column`s.
 */
export const UNIQUE_INDEXES = {
  ...INITIAL_UNIQUE_INDEXES,
  users_username_skeleton_unique: { table: 'users', columns: ['username_skeleton'] },
  api_tokens_token_hash_unique: { table: 'api_tokens', columns: ['token_hash'] },
  users_replies_feed_key_unique: { table: 'users', columns: ['replies_feed_key'] },
  user_identities_subject_unique: {
    table: 'user_identities',
    columns: ['provider_id', 'subject'],
  },
} as const;

/** Name of a UNIQUE index. */
export type UniqueIndexName = keyof typeof UNIQUE_INDEXES;

// Kysely's generic migrations take Kysely<any>: the schema is being built, so no table types yet.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function initial(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('organization')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('singleton', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('allowed_origins', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('stories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('premod', 'text')
    .addColumn('live_updates', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended_until', 'text')
    .addColumn('premod', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar_url', 'text')
    .addColumn('notification_prefs', 'text', (c) => c.notNull())
    .addColumn('deletion_requested_at', 'text')
    .addColumn('sso_site_id', 'text', (c) => c.references('sites.id').onDelete('set null'))
    .addColumn('sso_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ignored_users')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ignored_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ignored_users_pkey', ['user_id', 'ignored_id'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('story_id', 'text', (c) => c.notNull().references('stories.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('parent_id', 'text', (c) => c.references('comments.id'))
    .addColumn('body_source', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('held_because', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('reaction_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_mutation_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('deleted_at', 'text')
    .execute();

  const commentChild = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('comment_id', 'text', (c) =>
        c.notNull().references('comments.id').onDelete('cascade'),
      );

  await commentChild('comment_revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('body_source', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await commentChild('reactions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pkey', ['comment_id', 'user_id'])
    .execute();

  await commentChild('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await commentChild('moderation_decisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('moderator_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  for (const [name, { table, columns }] of Object.entries(INITIAL_UNIQUE_INDEXES)) {
    await db.schema
      .createIndex(name)
      .unique()
      .on(table)
      .columns([...columns])
      .execute();
  }

  // The hot queries: a story's thread, replies, a user's comments, moderation queues, a site's stories.
  const indexes: [string, string, string[]][] = [
    ['comments_story_status_created', 'comments', ['story_id', 'status', 'created_at']],
    ['comments_parent_created', 'comments', ['parent_id', 'created_at']],
    ['comments_author_created', 'comments', ['author_id', 'created_at']],
    ['comments_status_created', 'comments', ['status', 'created_at']],
    ['comments_reported', 'comments', ['report_count', 'status', 'created_at']],
    ['stories_site_created', 'stories', ['site_id', 'created_at']],
    ['sso_keys_site', 'sso_keys', ['site_id']],
    ['comment_revisions_comment', 'comment_revisions', ['comment_id', 'created_at']],
    ['reactions_user', 'reactions', ['user_id']],
    ['reports_comment', 'reports', ['comment_id', 'created_at']],
    ['moderation_decisions_comment', 'moderation_decisions', ['comment_id', 'created_at']],
    ['user_history_user', 'user_history', ['user_id', 'created_at']],
    ['users_created', 'users', ['created_at']],
    ['tokens_user', 'tokens', ['user_id']],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

/** The migrations, by name; names sort in the order they run. */
/**
 * Session epochs: every token carries its user's epoch, and a password change bumps it, so a
 * reset ends every other session (tokens are stateless JWTs otherwise).
 */
async function sessionEpoch(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_epoch', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

/** Badges a host gives its users through SSO (`"Subscriber"`), shown next to their name. */
async function badges(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('badges', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
}

/**
 * Reports a moderator has seen: a decision sets it to the report count, and only reports beyond
 * it put a published comment (approved ones too) back in the REPORTED queue.
 */
async function reviewedReports(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('reviewed_report_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

/**
 * Deleted accounts: the user row stays (comment rows keep their author id, so threads keep their
 * shape) but is emptied of personal data; this marks it, so the deletion job runs once per user.
 */
async function deletedAccounts(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
}

/**
 * Who created an emailed token: a moderator invitation is made by an admin and grants the role
 * only when its addressee opens it, so the invitation must remember its admin (for the decision
 * history, and to void it if that admin has lost the role meanwhile).
 */
async function tokenCreator(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tokens').addColumn('created_by', 'text').execute();
}

/**
 * Sessions a sign-out ended, and host SSO tokens already exchanged: both are remembered until the
 * token would have expired anyway, then pruned. And how long a site lets its SSO tokens live.
 */
async function sessionRevocation(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('revoked_sessions')
    .addColumn('token_id', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_sessions_expires_at')
    .on('revoked_sessions')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('sso_token_uses')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('idempotency_key', 'text')
    .addColumn('used_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sso_token_uses_expires_at')
    .on('sso_token_uses')
    .column('expires_at')
    .execute();
  await db.schema
    .alterTable('sites')
    .addColumn('sso_token_max_lifetime_seconds', 'integer')
    .execute();
}

/**
 * Reports weigh by the reporter's standing: each report keeps the weight it was
 * filed with, in hundredths of a report. Reports filed before count fully, as they did.
 */
async function reportWeight(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('reports')
    .addColumn('weight', 'integer', (col) => col.notNull().defaultTo(100))
    .execute();
}

/**
 * Usernames that look alike cannot both be taken: each user's UTS #39 skeleton
 * (validation/lookalikes.ts) is unique. Existing accounts get theirs, oldest first; an account
 * whose name already looks like an older one keeps it (its skeleton stays null, which the unique
 * index allows), so no reader loses a name they have.
 */
async function usernameSkeletons(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();
  const users: { id: string; username: string }[] = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const { id, username } of users) {
    const skeleton = usernameSkeleton(username);
    if (taken.has(skeleton)) continue;
    taken.add(skeleton);
    await db
      .updateTable('users')
      .set({ username_skeleton: skeleton })
      .where('id', '=', id)
      .execute();
  }
  await db.schema
    .createIndex('users_username_skeleton_unique')
    .unique()
    .on('users')
    .column('username_skeleton')
    .execute();
}

/**
 * Sign-ups wait for the emailed code (sign-up told who had an account). One row
 * per address at most; the account is created, its email confirmed, when the code comes back.
 */
async function pendingSignUps(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('pending_sign_ups')
    .addColumn('email_key', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('username', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('pending_sign_ups_expires_at')
    .on('pending_sign_ups')
    .column('expires_at')
    .execute();
}

/**
 * 0004_reviewed_reports added `reviewed_report_count` at 0 for every comment, so a reported
 * comment a moderator had approved before it came back to the REPORTED queue (which then read
 * `report_count > reviewed_report_count`), and its reporters' dismissed reports stopped counting
 * against them. Each comment a moderator decided on gets the reports filed up to that decision
 * (its latest), never fewer than it has; found by the upgrade test (db/upgrades.test.ts).
 */
async function reviewedReportsBackfill(db: AnyDb): Promise<void> {
  const reviewed = sql<number>`(
    select count(*) from reports
    where reports.comment_id = comments.id
      and reports.created_at <= (
        select max(moderation_decisions.created_at) from moderation_decisions
        where moderation_decisions.comment_id = comments.id
          and moderation_decisions.moderator_id is not null
      )
  )`;
  await db
    .updateTable('comments')
    .set({
      reviewed_report_count: sql`case when ${reviewed} > report_count then report_count else ${reviewed} end`,
    })
    // Only rows 0004 left at 0: a later decision set the count itself.
    .where('reviewed_report_count', '=', 0)
    .where(sql<boolean>`${reviewed} > 0`)
    .execute();
}

/**
 * Two-factor sign-in for staff (a TOTP secret and its recovery codes) and the list of signed-in
 * sessions their owners see and end.
 */
async function twoFactorAndSessions(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('epoch', 'integer', (col) => col.notNull())
    .addColumn('second_factor', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('device', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

/** The audit log of staff actions (db/store/auditLog.ts). No foreign key: entries outlive people. */
async function auditLog(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text', (col) => col.notNull())
    .addColumn('changes', 'text', (col) => col.notNull())
    .addColumn('ip', 'text')
    .execute();
  await db.schema
    .createIndex('audit_log_created_at')
    .on('audit_log')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.createIndex('audit_log_actor_id').on('audit_log').column('actor_id').execute();
  await db.schema.createIndex('audit_log_target_id').on('audit_log').column('target_id').execute();
}

/**
 * Big stories (a story of 100,000 comments answers as one of 100): counters of each story's
 * comments by status (db/store/storyCounts.ts), filled from the comments; an index that lists a
 * story's top-level comments in order without sorting them; partial indexes of the comments the
 * Pending and Reported queues can hold, in order, so listing and counting them reads only those;
 * the one-status queues' index extended to the id, their last sort key.
 */
async function bigStories(db: AnyDb): Promise<void> {
  // Kysely runs SQLite's migrations outside a transaction (no transactional DDL in its adapter);
  // this one backfills and swaps an index, so a crash half-way must leave nothing behind.
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => bigStories(trx));
    return;
  }
  await db.schema
    .createTable('story_comment_counts')
    .addColumn('story_id', 'text', (col) =>
      col.notNull().references('stories.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('story_comment_counts_pk', ['story_id', 'status'])
    .execute();
  await sql`
    insert into story_comment_counts (story_id, status, count)
    select story_id, status, count(*) from comments
    where deleted_at is null
    group by story_id, status
  `.execute(db);
  await db.schema
    .createIndex('comments_story_parent_created')
    .on('comments')
    .columns(['story_id', 'parent_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('comments_reportable')
    .on('comments')
    .columns(['story_id', 'created_at', 'id'])
    .where(sql<SqlBool>`${sql.raw(REPORTABLE_SQL)}`)
    .execute();
  // The Pending queue holds two statuses, which an index on the status cannot give in time order.
  await db.schema
    .createIndex('comments_pending')
    .on('comments')
    .columns(['story_id', 'created_at', 'id'])
    .where(sql<SqlBool>`${sql.raw(PENDING_SQL)}`)
    .execute();
  // The one-status queues, in order to the last key (the id breaks ties), so nothing is sorted.
  await db.schema.dropIndex('comments_story_status_created').execute();
  await db.schema
    .createIndex('comments_story_status_created_id')
    .on('comments')
    .columns(['story_id', 'status', 'created_at', 'id'])
    .execute();
}

/** Several instances: the lease of who runs a periodic job (db/store/jobLeases.ts). */
async function jobLeases(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('holder', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
}

/**
 * When each comment was published (became visible to readers: posted so, or approved later), for
 * the catch-up of a reader whose live connection dropped (`commentsSince`): an approval while they
 * were away is news to them, though the comment is old. Filled from `created_at` for the comments
 * published now; the held and rejected ones get theirs if they are ever approved.
 */
async function publishedAt(db: AnyDb): Promise<void> {
  await db.schema.alterTable('comments').addColumn('published_at', 'text').execute();
  await sql`
    update comments set published_at = created_at
    where status in ('NONE', 'APPROVED') and deleted_at is null
  `.execute(db);
  await db.schema
    .createIndex('comments_story_published')
    .on('comments')
    .columns(['story_id', 'published_at', 'id'])
    .execute();
}

/**
 * 0017: each story's count of comments in the Reported queue, kept as a counter next to the
 * statuses' (storyCounts.ts `REPORTED`), filled from the comments. The condition is the queue's
 * as of this version, written out (a later change to the queue is a migration of its own).
 */
async function reportedCounts(db: AnyDb): Promise<void> {
  await sql`
    insert into story_comment_counts (story_id, status, count)
    select story_id, 'REPORTED', count(*) from comments
    where deleted_at is null
      and ((status in ('NONE', 'APPROVED') and report_count > reviewed_report_count)
        or (status = 'NONE' and held_because like '%"SUSPECT_WORD"%'))
    group by story_id
    on conflict (story_id, status) do update set count = excluded.count
  `.execute(db);
}

/**
 * 0018: each comment's site (its story's, which never changes), so that a site's latest comments
 * (recent.js) are read down one index of that site's alone, newest first: walking every site's
 * comments by date to find a quiet site's few took ~100 ms at 200,000 comments (a review's
 * measurement on SQLite), sorting all of a busy site's as many. Filled from the stories; on
 * PostgreSQL the fill rewrites every comment row, and the index build holds writes meanwhile:
 * run it (`parley migrate`) when the comments can wait.
 */
async function recentComments(db: AnyDb): Promise<void> {
  await db.schema.alterTable('comments').addColumn('site_id', 'text').execute();
  await sql`
    update comments set site_id = (select site_id from stories where stories.id = comments.story_id)
  `.execute(db);
  await db.schema
    .createIndex('comments_site_published')
    .on('comments')
    .columns(['site_id', 'published_at', 'id'])
    .execute();
}

/**
 * 0019: API tokens (db/store/apiTokens.ts): named, scoped, by SHA-256 of the secret, revocable,
 * with their last use. A token goes with the admin who made it (account erasure deletes it) and
 * with the session epoch they had then (signing out everywhere, a password change end it).
 */
async function apiTokens(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('creator_epoch', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  const { table, columns } = UNIQUE_INDEXES.api_tokens_token_hash_unique;
  await db.schema
    .createIndex('api_tokens_token_hash_unique')
    .unique()
    .on(table)
    .columns([...columns])
    .execute();
}

/**
 * 0020: the key of each user's private Atom feed of replies to them (feeds/atomFeeds.ts), made
 * when they ask for the link, null until then; and each reply's parent's author, so that the feed
 * reads down one index, newest first: through the parents, a reader with 20,000 replies cost a
 * sort of them all on every poll (44 ms on SQLite, a review measured; a spilled sort on
 * PostgreSQL). On PostgreSQL the fill rewrites every reply row: run it at a quiet hour.
 */
async function repliesFeed(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('replies_feed_key', 'text').execute();
  await db.schema.alterTable('comments').addColumn('parent_author_id', 'text').execute();
  await sql`
    update comments set parent_author_id =
      (select parent.author_id from comments parent where parent.id = comments.parent_id)
    where parent_id is not null
  `.execute(db);
  await db.schema
    .createIndex('comments_parent_author_published')
    .on('comments')
    .columns(['parent_author_id', 'published_at', 'id'])
    .execute();
  const { table, columns } = UNIQUE_INDEXES.users_replies_feed_key_unique;
  await db.schema
    .createIndex('users_replies_feed_key_unique')
    .unique()
    .on(table)
    .columns([...columns])
    .execute();
}

/** 0021: emails waiting to be sent, sealed, retried until their server takes them. */
async function mailQueue(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_queue_next_attempt')
    .on('mail_queue')
    .columns(['next_attempt_at'])
    .execute();
}

/**
 * 0022: down votes and pins. A reaction becomes a vote (`value` 1 up, -1 down; every earlier one
 * is a Like, an up vote); a comment keeps its down votes and its Best rank beside its likes
 * (reactions.ts `bestRank`), filled here for the comments that have likes: one update per
 * distinct like count, which a thread has few of. (Were `bestRank` ever to change, the ranks
 * stored would be stale whatever this migration did: such a change brings its own migration that
 * ranks every comment again.) A story keeps the comment staff pinned.
 */
async function votesAndPins(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('reactions')
    .addColumn('value', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('downvote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('best_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('stories').addColumn('pinned_comment_id', 'text').execute();
  const counts = await sql<{ n: number }>`
    select distinct reaction_count as n from comments where reaction_count > 0
  `.execute(db);
  for (const { n } of counts.rows) {
    await sql`
      update comments set best_rank = ${bestRank(Number(n), 0)} where reaction_count = ${n}
    `.execute(db);
  }
}

/**
 * 0023: images in comments (uploads/commentImages.ts): one row per uploaded file, its uploader
 * and story, and the comment that uses it once one does (null until then: an upload never posted
 * is swept after a week). Erasing the account or deleting the comment deletes the files.
 */
async function commentImages(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('comment_images')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('story_id', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comment_images_user_created')
    .on('comment_images')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('comment_images_comment')
    .on('comment_images')
    .columns(['comment_id'])
    .execute();
}

/**
 * 0024: a site's comments in id order (portability/exportSite.ts pages down it): without it each
 * page of an export sorted all of the site's comments again.
 */
async function exportIndex(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('comments_site_id')
    .on('comments')
    .columns(['site_id', 'id'])
    .execute();
}

/**
 * 0025: where imported rows came from (portability/importSite.ts). A row per story, user and
 * comment an import created or matched, keyed by the source's own id: running the same import
 * again finds its rows instead of making them twice, and an interrupted one resumes.
 */
async function importSources(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('import_sources')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('parley_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_sources_pk', ['site_id', 'format', 'kind', 'source_id'])
    .execute();
}

/**
 * 0026: sign-in through GitHub, Google and OpenID Connect issuers (auth/providers/). The providers
 * an admin configured (the client secret sealed), the sites each is switched on for, the accounts
 * people connected (one Parley user per provider account), and the flows under way: a started
 * flow is keyed by its `state`, a finished one by the code the popup redeems; both by hash.
 */
async function signInProviders(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sign_in_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('issuer_url', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sign_in_provider_sites')
    .addColumn('provider_id', 'text', (c) =>
      c.notNull().references('sign_in_providers.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sign_in_provider_sites_pk', ['provider_id', 'site_id'])
    .execute();
  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) =>
      c.notNull().references('sign_in_providers.id').onDelete('cascade'),
    )
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const { table, columns } = UNIQUE_INDEXES.user_identities_subject_unique;
  await db.schema
    .createIndex('user_identities_subject_unique')
    .unique()
    .on(table)
    .columns([...columns])
    .execute();
  await db.schema
    .createIndex('user_identities_user_id')
    .on('user_identities')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('sign_in_flows')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) =>
      c.notNull().references('sign_in_providers.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('connect_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('popup', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

/**
 * 0027: imports started from the console (portability/importJobs.ts): the uploaded file waits in
 * the data folder, a server process takes the job under a lease and runs it, writing its progress
 * as it goes, then its report. A job whose process stopped is taken again once its lease ran out
 * (an import is idempotent: it resumes).
 */
async function importJobs(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    .addColumn('rewrite_origins', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('upload_key_hash', 'text')
    .addColumn('file_bytes', 'integer')
    .addColumn('read_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'text')
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('import_jobs_status')
    .on('import_jobs')
    .columns(['status', 'created_at'])
    .execute();
}

/**
 * 0028: guests (issue 17). A guest is a `users` row with `guest = 1`: its `username` is the name
 * they typed (not unique: two guests may both be "Sam"), its `username_key` is `guest:<id>` and
 * its `username_skeleton` null, so it reserves no registered name; its `email` is the address
 * they gave (or a `.invalid` placeholder) with `email_key` `guest:<id>`, so no sign-in, sign-up
 * or reset ever finds it; `guest_email_key` is that address's key, by which a member who
 * confirmed the same address claims the guest's comments. `ip_address` is where the guest last
 * posted from (moderators ban its range). `ip_bans`: address ranges refused guest sessions, guest
 * posts and sign-ups until a time.
 */
async function guests(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('guest', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('guest_email_key', 'text').execute();
  await db.schema.alterTable('users').addColumn('ip_address', 'text').execute();
  await db.schema
    .createIndex('users_guest_email_key')
    .on('users')
    .column('guest_email_key')
    .execute();
  await db.schema
    .createIndex('users_guest_created')
    .on('users')
    .columns(['guest', 'created_at'])
    .execute();
  await db.schema
    .createTable('ip_bans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('range', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('lifted_at', 'text')
    .execute();
  await db.schema.createIndex('ip_bans_expires').on('ip_bans').column('expires_at').execute();
}

/**
 * 0029: the local spam filter (issue 19). `comments.spam_score` is the score the comment got when
 * it was posted or last edited (null when none was taken: staff, or the filter off);
 * `body_fingerprint` a hash of its text's tokens (null for a short text), by which the same text
 * posted on other stories is found, through its index. `spam_lessons` holds what each decided
 * comment should teach (`label`, `tokens`) beside what the model holds of it (`applied_*`), so a
 * lesson taken back unlearns exactly what was learned; `pending` rows are folded into
 * `spam_models` (the organization's naive Bayes model, classificator's JSON) by
 * store/spamModel.ts, which stamps `organization.spam_model_stamp` — read with the settings on
 * every request, so a process knows when its decoded copy is stale without a query of its own.
 * `moderation_decisions.reason` is why a moderator rejected (`SPAM`, …; null otherwise).
 * `akismet_checks`: what Akismet said of a comment (with `AKISMET_API_KEY`) and the address and
 * browser it was checked with, to report a moderator's different decision back to it; erased with
 * the comment's text and after `ipRetentionDays`.
 */
async function spamFilter(db: AnyDb): Promise<void> {
  await db.schema.alterTable('comments').addColumn('spam_score', 'real').execute();
  await db.schema.alterTable('comments').addColumn('body_fingerprint', 'text').execute();
  await db.schema
    .createIndex('comments_body_fingerprint')
    .on('comments')
    .columns(['body_fingerprint', 'created_at'])
    .where(sql<SqlBool>`body_fingerprint is not null`)
    .execute();
  await db.schema
    .alterTable('organization')
    .addColumn('spam_model_stamp', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('spam_models')
    .addColumn('organization_id', 'text', (c) =>
      c.primaryKey().references('organization.id').onDelete('cascade'),
    )
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('spam_lessons')
    .addColumn('comment_id', 'text', (c) => c.primaryKey().references('comments.id'))
    .addColumn('label', 'text')
    .addColumn('tokens', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('applied_label', 'text')
    .addColumn('applied_tokens', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('spam_lessons_pending')
    .on('spam_lessons')
    .column('pending')
    .where(sql<SqlBool>`pending = 1`)
    .execute();
  await db.schema.alterTable('moderation_decisions').addColumn('reason', 'text').execute();
  await db.schema
    .createTable('akismet_checks')
    .addColumn('comment_id', 'text', (c) => c.primaryKey().references('comments.id'))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('user_ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('akismet_checks_created')
    .on('akismet_checks')
    .column('created_at')
    .execute();
}

/**
 * 0030: webhooks (webhooks/createWebhookDispatcher.ts). An endpoint's signing secret is sealed;
 * its format is STANDARD (signed JSON) or SLACK (an incoming-webhook message), for every site or
 * one (`site_id`);
 * each event becomes one delivery row per endpoint that takes it, retried until delivered or a
 * day old, and kept as the console's log for WEBHOOK_RETRY.keepDays. `organization.webhook_events`
 * is the events some enabled endpoint takes, read with the settings, so an event nobody takes
 * costs no query.
 */
async function webhooks(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('STANDARD'))
    .addColumn('site_id', 'text', (c) => c.references('sites.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql<SqlBool>`state = 'PENDING'`)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at', 'id'])
    .execute();
  // A deleted comment's or an erased account's deliveries go with its text.
  await db.schema
    .createIndex('webhook_deliveries_comment')
    .on('webhook_deliveries')
    .column('comment_id')
    .where(sql<SqlBool>`comment_id is not null`)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_user')
    .on('webhook_deliveries')
    .column('user_id')
    .where(sql<SqlBool>`user_id is not null`)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_created')
    .on('webhook_deliveries')
    .column('created_at')
    .execute();
  await db.schema
    .alterTable('organization')
    .addColumn('webhook_events', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

/**
 * 0031: moderators' email alerts (moderation/moderationAlerts.ts). A row per moderator and site
 * they are alerted about (none: not alerted), with when their last digest went; and the one-time
 * Approve / Reject links those emails carry, kept as their SHA-256.
 */
async function moderationAlerts(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('moderation_alerts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('last_digest_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('moderation_alerts_pk', ['user_id', 'site_id'])
    .execute();
  await db.schema
    .createIndex('moderation_alerts_site')
    .on('moderation_alerts')
    .columns(['site_id', 'frequency'])
    .execute();
  await db.schema
    .createTable('moderation_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) =>
      c.notNull().references('comments.id').onDelete('cascade'),
    )
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('moderation_links_expires')
    .on('moderation_links')
    .column('expires_at')
    .execute();
}

/**
 * 0032: the language of each user's emails (email/templates.ts), from their sign-in popup or
 * console, and of a pending sign-up (its code's email, then the account's); null (everyone until
 * then) writes in the site's language.
 */
async function userLocale(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
  // 1 once they chose it (the console's switch): a sign-in elsewhere no longer changes it.
  await db.schema
    .alterTable('users')
    .addColumn('locale_chosen', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('pending_sign_ups').addColumn('locale', 'text').execute();
}

export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_initial': { up: initial },
  '0002_session_epoch': { up: sessionEpoch },
  '0003_badges': { up: badges },
  '0004_reviewed_reports': { up: reviewedReports },
  '0005_deleted_accounts': { up: deletedAccounts },
  '0006_token_creator': { up: tokenCreator },
  '0007_session_revocation': { up: sessionRevocation },
  '0008_report_weight': { up: reportWeight },
  '0009_username_skeleton': { up: usernameSkeletons },
  '0010_pending_sign_ups': { up: pendingSignUps },
  '0011_reviewed_reports_backfill': { up: reviewedReportsBackfill },
  '0012_two_factor_and_sessions': { up: twoFactorAndSessions },
  '0013_audit_log': { up: auditLog },
  '0014_big_stories': { up: bigStories },
  '0015_job_leases': { up: jobLeases },
  '0016_published_at': { up: publishedAt },
  '0017_reported_counts': { up: reportedCounts },
  '0018_recent_comments': { up: recentComments },
  '0019_api_tokens': { up: apiTokens },
  '0020_replies_feed': { up: repliesFeed },
  '0021_mail_queue': { up: mailQueue },
  '0022_votes_and_pins': { up: votesAndPins },
  '0023_comment_images': { up: commentImages },
  '0024_export_index': { up: exportIndex },
  '0025_import_sources': { up: importSources },
  '0026_sign_in_providers': { up: signInProviders },
  '0027_import_jobs': { up: importJobs },
  '0028_guests': { up: guests },
  '0029_spam_filter': { up: spamFilter },
  '0030_webhooks': { up: webhooks },
  '0031_moderation_alerts': { up: moderationAlerts },
  '0032_user_locale': { up: userLocale },
});

/** A `MigrationProvider` over {@link MIGRATIONS}: no file system. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

/**
 * Brings the database to the latest migration. Kysely runs each migration in a transaction and
 * takes a lock, so concurrent server starts are safe. Throws, naming the failing migration.
 */
export async function migrateToLatest(db: AnyDb): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? '(before running)';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations not applied yet, in the order they would run. */
export async function pendingMigrations(db: AnyDb): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const migrations = await migrator.getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Names of the tables present: used by tests to check a fresh database. */
export async function listTables(db: AnyDb): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}
