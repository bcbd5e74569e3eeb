/**
 * Upgrades keep the data: for every schema an install can be at with a migration still to apply,
 * a database is migrated to it, filled with rows written as the code of that version would have
 * (only the columns and tables it had), and migrated to the latest schema; every row must then be
 * there with its values unchanged, the columns added since must hold what the migrations give old
 * rows, and the current stores must read the old rows as they read their own. The versions come
 * from MIGRATIONS, so a migration appended later is upgraded into here at once.
 */
import { createHash } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { ssoKeyPurpose } from '../auth/secretBox';
import { totpPurpose } from '../auth/twoFactor';
import type { Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '../defaults';
import type { DialectName } from './createDatabase';
import { MIGRATIONS, migrateToLatest, migrationProvider } from './migrations';
import { TABLES } from './schema';
import type { CommentStatus, Database, HeldReason } from './schema';
import { createTestDatabase, testDialects } from './testDatabases';
import type { TestDatabase } from './testDatabases';
import { countRows, testBox } from './testFixtures';
import { providerSecretPurpose } from './store/signInProviders';
import { webhookSecretPurpose } from './store/webhooks';
import { findAccountsDueForDeletion } from './store/accountDeletion';
import { listUsableSsoKeysBySite } from './store/accountQueries';
import {
  listComments,
  listReplies,
  moderationCounts,
  moderationQueue,
} from './store/commentQueries';
import { findCommentsByIds, listDecisions, listRevisions } from './store/comments';
import { getOrganization } from './store/organization';
import { bestRank, listReports, reactedCommentIds, reportRecord } from './store/reactions';
import { isSessionRevoked } from './store/sessionRevocation';
import { findSiteByOrigin, listActiveSsoKeys } from './store/sites';
import { listAuditLog } from './store/auditLog';
import { listSessions } from './store/sessions';
import { sealStoredSecrets } from './store/storedSecrets';
import { REPORTED_COUNTER, isInReportedQueue } from './store/storyCounts';
import { spendRecoveryCode, twoFactorState } from './store/twoFactor';
import { countStoryComments, findStoryByUrl } from './store/stories';
import { consumeToken, getIdempotencyKey } from './store/tokens';
import { listIgnoredIds, listUserHistory, listUsers } from './store/userModeration';
import {
  createUser,
  findUserByEmail,
  findUserById,
  findUserByRepliesFeedKey,
  findUserByUsername,
  isUsernameFree,
  upsertSsoUser,
} from './store/users';

// The rows are written as the code of their version wrote them, which the current table types
// do not describe.
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

const NAMES = Object.keys(MIGRATIONS);
/** Every version with something left to apply: the schema after each migration but the last. */
const EARLIER_VERSIONS = NAMES.slice(0, -1);

function position(migration: string): number {
  const index = NAMES.indexOf(migration);
  if (index === -1) throw new Error(`No migration ${migration}`);
  return index;
}

/** Whether a database at `version` has run `migration`. */
function has(version: string, migration: string): boolean {
  return position(migration) <= position(version);
}

/**
 * A column a later migration added: a row written once it exists holds `value`; a row written
 * before it holds, after the upgrade, `fill` (the column's default, or what the migration
 * computes).
 */
class Added {
  constructor(
    readonly migration: string,
    readonly value: unknown,
    readonly fill: unknown,
  ) {}
}

function added(migration: string, value: unknown, fill: unknown): Added {
  return new Added(migration, value, fill);
}

/** A row only a database at `migration` or later can hold (a moderator invitation, say). */
class Later {
  constructor(
    readonly migration: string,
    readonly row: Row,
  ) {}
}

interface TableFixture {
  /** The migration that creates the table. */
  since: string;
  /** The primary key: the order rows are compared in. */
  key: string[];
  /** Rows in an order foreign keys accept (a parent comment before its reply). */
  rows: (Row | Later)[];
  /**
   * A table its migration fills from the others (counters): its rows as a database at `version`
   * holds them once upgraded, and as written at its own migration and later. Replaces `rows`.
   */
  derived?: (version: string, upgraded: boolean) => Row[];
}

const NOW = '2026-06-01T00:00:00.000Z';
const FAR = '2999-01-01T00:00:00.000Z';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Sealed once for the run: the stored text must read back byte for byte.
const SEALED_SMTP_PASSWORD = testBox.seal('smtp-password', 'settings.smtpPassword');
const SEALED_CURRENT_KEY = testBox.seal('current-secret', ssoKeyPurpose('key-2-current'));
const SEALED_REVOKED_KEY = testBox.seal('leaked-secret', ssoKeyPurpose('key-0-revoked'));
const SEALED_TOTP_SECRET = testBox.seal('JBSWY3DPEHPK3PXP', totpPurpose('u-b-admin'));
const SEALED_CLIENT_SECRET = testBox.seal('client-secret', providerSecretPurpose('sip-1'));
const SEALED_WEBHOOK_SECRET = testBox.seal('whsec_c2VjcmV0', webhookSecretPurpose('wh-1'));

const STORED_SETTINGS = {
  premod: 'LINKS',
  reportThreshold: 5,
  bannedWords: ['scam'],
  guidelines: 'Be kind.',
  smtpHost: 'smtp.planet.example',
  smtpPassword: SEALED_SMTP_PASSWORD,
};

/**
 * One install's data, every table and column of the latest schema. Ids are chosen so that id
 * order and age differ where a migration must go by age (0009_username_skeleton: `u-a-sso` sorts
 * before `u-b-admin` but is younger).
 */
const FIXTURE: Record<keyof Database, TableFixture> = {
  organization: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'org-1',
        singleton: 1,
        name: 'Daily Planet',
        contact_email: 'Editors@Planet.example',
        url: 'https://planet.example',
        locale: 'fr',
        settings: JSON.stringify(STORED_SETTINGS),
        created_at: '2025-12-01T09:00:00.000Z',
        spam_model_stamp: added('0029_spam_filter', 'stamp-1', ''),
        webhook_events: added('0030_webhooks', 'comment.created', ''),
      },
    ],
  },
  sites: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'site-news',
        name: 'Daily Planet News',
        url: 'https://news.example',
        allowed_origins: '["https://news.example","https://www.news.example"]',
        created_at: '2025-12-01T09:00:00.000Z',
        sso_token_max_lifetime_seconds: added('0007_session_revocation', 600, null),
      },
    ],
  },
  sso_keys: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'key-0-revoked',
        site_id: 'site-news',
        secret: SEALED_REVOKED_KEY,
        created_at: '2025-12-01T09:00:00.000Z',
        expires_at: null,
        revoked: 1,
      },
      {
        // Rotated, its overlap still running; stored in clear, as before secrets were sealed.
        id: 'key-1-rotated',
        site_id: 'site-news',
        secret: 'secret-from-before-sealing',
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: FAR,
        revoked: 0,
      },
      {
        id: 'key-2-current',
        site_id: 'site-news',
        secret: SEALED_CURRENT_KEY,
        created_at: '2026-03-01T00:00:00.000Z',
        expires_at: null,
        revoked: 0,
      },
    ],
  },
  stories: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'story-a',
        site_id: 'site-news',
        url: 'https://news.example/2026/rain',
        external_id: 'ext-rain',
        title: 'Rain all week',
        status: 'OPEN',
        premod: 'LINKS',
        live_updates: 0,
        created_at: '2026-04-01T08:00:00.000Z',
        closed_at: null,
        pinned_comment_id: added('0022_votes_and_pins', 'c-1-top', null),
      },
      {
        id: 'story-b',
        site_id: 'site-news',
        url: 'https://news.example/2026/snow',
        external_id: null,
        title: 'Snow',
        status: 'CLOSED',
        premod: null,
        live_updates: null,
        created_at: '2026-03-01T08:00:00.000Z',
        closed_at: '2026-03-08T08:00:00.000Z',
        pinned_comment_id: added('0022_votes_and_pins', null, null),
      },
    ],
  },
  users: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'u-b-admin',
        username: 'Admin',
        username_key: 'admin',
        email: 'admin@planet.example',
        email_key: 'admin@planet.example',
        email_verified: 1,
        password_hash: 'scrypt$admin',
        role: 'ADMIN',
        banned: 0,
        suspended_until: null,
        premod: 0,
        avatar_url: null,
        notification_prefs: '{"onReply":true,"onFeatured":true,"onModeration":true}',
        deletion_requested_at: null,
        sso_site_id: null,
        sso_id: null,
        created_at: '2025-12-01T09:00:00.000Z',
        session_epoch: added('0002_session_epoch', 2, 0),
        badges: added('0003_badges', '[]', '[]'),
        deleted_at: added('0005_deleted_accounts', null, null),
        username_skeleton: added('0009_username_skeleton', 'adrnin', 'adrnin'),
        // Two-factor sign-in on, with its sealed secret (store/twoFactor.ts).
        totp_secret: added('0012_two_factor_and_sessions', SEALED_TOTP_SECRET, null),
        totp_enabled_at: added('0012_two_factor_and_sessions', '2026-05-02T00:00:00.000Z', null),
        totp_last_step: added('0012_two_factor_and_sessions', 59_000_000, null),
        replies_feed_key: added('0020_replies_feed', 'feed-key-of-admin', null),
        guest: added('0028_guests', 0, 0),
        guest_email_key: added('0028_guests', null, null),
        ip_address: added('0028_guests', null, null),
        locale: added('0032_user_locale', 'de', null),
        locale_chosen: added('0032_user_locale', 0, 0),
      },
      {
        // Signs in by email typed in any case.
        id: 'u-lois',
        username: 'LoisLane',
        username_key: 'loislane',
        email: 'Lois.Lane@Planet.Example',
        email_key: 'lois.lane@planet.example',
        email_verified: 1,
        password_hash: 'scrypt$lois',
        role: 'COMMENTER',
        banned: 0,
        suspended_until: null,
        premod: 0,
        avatar_url: '/uploads/lois.webp',
        notification_prefs: '{"onReply":false}',
        deletion_requested_at: null,
        sso_site_id: null,
        sso_id: null,
        created_at: '2026-01-10T00:00:00.000Z',
        session_epoch: added('0002_session_epoch', 5, 0),
        badges: added('0003_badges', '[]', '[]'),
        deleted_at: added('0005_deleted_accounts', null, null),
        username_skeleton: added('0009_username_skeleton', 'loislane', 'loislane'),
        totp_secret: added('0012_two_factor_and_sessions', null, null),
        totp_enabled_at: added('0012_two_factor_and_sessions', null, null),
        totp_last_step: added('0012_two_factor_and_sessions', null, null),
        replies_feed_key: added('0020_replies_feed', null, null),
        guest: added('0028_guests', 0, 0),
        guest_email_key: added('0028_guests', null, null),
        ip_address: added('0028_guests', null, null),
        locale: added('0032_user_locale', null, null),
        locale_chosen: added('0032_user_locale', 0, 0),
      },
      {
        // An SSO reader whose host name, in Cyrillic, looks like the older `Admin`: it keeps its
        // name without a skeleton, as 0009_username_skeleton promises.
        id: 'u-a-sso',
        username: '\u0430dmin',
        username_key: '\u0430dmin',
        email: 'reader42@host.example',
        email_key: 'reader42@host.example',
        email_verified: 1,
        password_hash: null,
        role: 'COMMENTER',
        banned: 0,
        suspended_until: null,
        premod: 0,
        avatar_url: null,
        notification_prefs: '{}',
        deletion_requested_at: null,
        sso_site_id: 'site-news',
        sso_id: 'host-42',
        created_at: '2026-02-01T00:00:00.000Z',
        session_epoch: added('0002_session_epoch', 1, 0),
        badges: added('0003_badges', '["Subscriber"]', '[]'),
        deleted_at: added('0005_deleted_accounts', null, null),
        username_skeleton: added('0009_username_skeleton', null, null),
        totp_secret: added('0012_two_factor_and_sessions', null, null),
        totp_enabled_at: added('0012_two_factor_and_sessions', null, null),
        totp_last_step: added('0012_two_factor_and_sessions', null, null),
        replies_feed_key: added('0020_replies_feed', null, null),
        guest: added('0028_guests', 0, 0),
        guest_email_key: added('0028_guests', null, null),
        ip_address: added('0028_guests', null, null),
        locale: added('0032_user_locale', null, null),
        locale_chosen: added('0032_user_locale', 0, 0),
      },
      {
        // Suspended, premoderated, and waiting out the grace period of her deletion request.
        id: 'u-zoe',
        username: 'Zo\u00eb',
        username_key: 'zo\u00eb',
        email: 'zoe@example.org',
        email_key: 'zoe@example.org',
        email_verified: 0,
        password_hash: 'scrypt$zoe',
        role: 'COMMENTER',
        banned: 0,
        suspended_until: '2026-06-30T00:00:00.000Z',
        premod: 1,
        avatar_url: null,
        notification_prefs: '{}',
        deletion_requested_at: '2026-05-01T00:00:00.000Z',
        sso_site_id: null,
        sso_id: null,
        created_at: '2026-02-15T00:00:00.000Z',
        session_epoch: added('0002_session_epoch', 0, 0),
        badges: added('0003_badges', '[]', '[]'),
        deleted_at: added('0005_deleted_accounts', null, null),
        username_skeleton: added('0009_username_skeleton', 'zoe\u0308', 'zoe\u0308'),
        totp_secret: added('0012_two_factor_and_sessions', null, null),
        totp_enabled_at: added('0012_two_factor_and_sessions', null, null),
        totp_last_step: added('0012_two_factor_and_sessions', null, null),
        replies_feed_key: added('0020_replies_feed', null, null),
        guest: added('0028_guests', 0, 0),
        guest_email_key: added('0028_guests', null, null),
        ip_address: added('0028_guests', null, null),
        locale: added('0032_user_locale', null, null),
        locale_chosen: added('0032_user_locale', 0, 0),
      },
      new Later('0005_deleted_accounts', {
        // An emptied account (store/accountDeletion.ts): no skeleton, its name frees nothing.
        id: 'u-gone',
        username: 'deleted-ugone',
        username_key: 'deleted-ugone',
        email: 'deleted-ugone@deleted.invalid',
        email_key: 'deleted-ugone@deleted.invalid',
        email_verified: 0,
        password_hash: null,
        role: 'COMMENTER',
        banned: 0,
        suspended_until: null,
        premod: 0,
        avatar_url: null,
        notification_prefs: '{"onReply":false,"onFeatured":false,"onModeration":false}',
        deletion_requested_at: '2026-05-01T00:00:00.000Z',
        sso_site_id: null,
        sso_id: null,
        created_at: '2026-01-05T00:00:00.000Z',
        session_epoch: 1,
        badges: '[]',
        deleted_at: '2026-05-20T00:00:00.000Z',
        username_skeleton: added('0009_username_skeleton', null, null),
        totp_secret: added('0012_two_factor_and_sessions', null, null),
        totp_enabled_at: added('0012_two_factor_and_sessions', null, null),
        totp_last_step: added('0012_two_factor_and_sessions', null, null),
        replies_feed_key: added('0020_replies_feed', null, null),
        guest: added('0028_guests', 0, 0),
        guest_email_key: added('0028_guests', null, null),
        ip_address: added('0028_guests', null, null),
        locale: added('0032_user_locale', null, null),
        locale_chosen: added('0032_user_locale', 0, 0),
      }),
      new Later('0028_guests', {
        // A guest (store/guests.ts): keys that reserve nothing, an address they confirmed.
        id: 'u-guest',
        username: 'Sam Guest',
        username_key: 'guest:u-guest',
        username_skeleton: null,
        email: 'sam@guest.example',
        email_key: 'guest:u-guest',
        email_verified: 1,
        password_hash: null,
        role: 'COMMENTER',
        banned: 0,
        suspended_until: null,
        premod: 0,
        avatar_url: null,
        notification_prefs: '{}',
        deletion_requested_at: null,
        sso_site_id: null,
        sso_id: null,
        created_at: '2026-05-21T00:00:00.000Z',
        session_epoch: 0,
        badges: '[]',
        deleted_at: null,
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        replies_feed_key: null,
        guest: 1,
        guest_email_key: 'sam@guest.example',
        ip_address: '203.0.113.7',
        locale: added('0032_user_locale', null, null),
        locale_chosen: added('0032_user_locale', 0, 0),
      }),
    ],
  },
  ignored_users: {
    since: '0001_initial',
    key: ['user_id', 'ignored_id'],
    rows: [{ user_id: 'u-lois', ignored_id: 'u-zoe', created_at: '2026-03-02T00:00:00.000Z' }],
  },
  comments: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        // Reported, then approved: the moderator saw the report.
        id: 'c-1-top',
        story_id: 'story-a',
        author_id: 'u-lois',
        parent_id: null,
        body_source: '**Hello**',
        body_html: '<p><strong>Hello</strong></p>',
        status: 'APPROVED',
        held_because: null,
        tags: '["FEATURED"]',
        reaction_count: 1,
        reply_count: 1,
        report_count: 1,
        client_mutation_id: 'cm-1',
        created_at: '2026-04-01T10:00:00.000Z',
        edited_at: '2026-04-01T10:00:20.000Z',
        deleted_at: null,
        // Reviewed by the moderator's decision after the report (0011 fills it in for old rows).
        reviewed_report_count: added('0004_reviewed_reports', 1, 1),
        published_at: added(
          '0016_published_at',
          '2026-04-01T10:00:00.000Z',
          '2026-04-01T10:00:00.000Z',
        ),
        // Which site: 0018 fills it from the story.
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', null, null),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        // 0022 ranks what was liked: 1 up, none down.
        best_rank: added('0022_votes_and_pins', bestRank(1, 0), bestRank(1, 0)),
      },
      {
        id: 'c-2-reply',
        story_id: 'story-a',
        author_id: 'u-a-sso',
        parent_id: 'c-1-top',
        body_source: 'Cheap *sunglasses*?',
        body_html: '<p>Cheap <em>sunglasses</em>?</p>',
        status: 'NONE',
        held_because: '["SUSPECT_WORD"]',
        tags: '[]',
        reaction_count: 1,
        reply_count: 0,
        report_count: 0,
        client_mutation_id: null,
        created_at: '2026-04-01T10:05:00.000Z',
        edited_at: null,
        deleted_at: null,
        reviewed_report_count: added('0004_reviewed_reports', 0, 0),
        published_at: added(
          '0016_published_at',
          '2026-04-01T10:05:00.000Z',
          '2026-04-01T10:05:00.000Z',
        ),
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', 'u-lois', 'u-lois'),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        // 0022 ranks what was liked: 1 up, none down.
        best_rank: added('0022_votes_and_pins', bestRank(1, 0), bestRank(1, 0)),
      },
      {
        id: 'c-3-held',
        story_id: 'story-a',
        author_id: 'u-zoe',
        parent_id: null,
        body_source: 'See https://spam.example',
        body_html: '<p>See <a href="https://spam.example">https://spam.example</a></p>',
        status: 'PREMOD',
        held_because: '["LINK","PREMOD_USER"]',
        tags: '[]',
        reaction_count: 0,
        reply_count: 0,
        report_count: 0,
        client_mutation_id: 'cm-3',
        created_at: '2026-04-01T10:20:00.000Z',
        edited_at: null,
        deleted_at: null,
        reviewed_report_count: added('0004_reviewed_reports', 0, 0),
        published_at: added('0016_published_at', null, null),
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', null, null),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        best_rank: added('0022_votes_and_pins', 0, 0),
      },
      {
        // Approved, then reported: nobody has seen that report.
        id: 'c-4-approved',
        story_id: 'story-a',
        author_id: 'u-lois',
        parent_id: null,
        body_source: 'Second thoughts',
        body_html: '<p>Second thoughts</p>',
        status: 'APPROVED',
        held_because: null,
        tags: '[]',
        reaction_count: 0,
        reply_count: 0,
        report_count: 1,
        client_mutation_id: null,
        created_at: '2026-04-01T11:00:00.000Z',
        edited_at: null,
        deleted_at: null,
        reviewed_report_count: added('0004_reviewed_reports', 0, 0),
        published_at: added(
          '0016_published_at',
          '2026-04-01T11:00:00.000Z',
          '2026-04-01T11:00:00.000Z',
        ),
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', null, null),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        best_rank: added('0022_votes_and_pins', 0, 0),
      },
      {
        id: 'c-5-rejected',
        story_id: 'story-a',
        author_id: 'u-zoe',
        parent_id: null,
        body_source: 'You are all idiots',
        body_html: '<p>You are all idiots</p>',
        status: 'REJECTED',
        held_because: null,
        tags: '[]',
        reaction_count: 0,
        reply_count: 0,
        report_count: 1,
        client_mutation_id: null,
        created_at: '2026-04-01T11:30:00.000Z',
        edited_at: null,
        deleted_at: null,
        // Reviewed by the moderator's decision after the report (0011 fills it in for old rows).
        reviewed_report_count: added('0004_reviewed_reports', 1, 1),
        published_at: added('0016_published_at', null, null),
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', null, null),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        best_rank: added('0022_votes_and_pins', 0, 0),
      },
      new Later('0005_deleted_accounts', {
        id: 'c-6-erased',
        story_id: 'story-a',
        author_id: 'u-gone',
        parent_id: null,
        body_source: '',
        body_html: '',
        status: 'NONE',
        held_because: null,
        tags: '[]',
        reaction_count: 0,
        reply_count: 0,
        report_count: 0,
        client_mutation_id: null,
        created_at: '2026-04-01T09:30:00.000Z',
        edited_at: null,
        deleted_at: '2026-05-20T00:00:00.000Z',
        reviewed_report_count: 0,
        published_at: added('0016_published_at', null, null),
        site_id: added('0018_recent_comments', 'site-news', 'site-news'),
        parent_author_id: added('0020_replies_feed', null, null),
        spam_score: added('0029_spam_filter', null, null),
        body_fingerprint: added('0029_spam_filter', null, null),
        downvote_count: added('0022_votes_and_pins', 0, 0),
        best_rank: added('0022_votes_and_pins', 0, 0),
      }),
    ],
  },
  comment_revisions: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'rev-1',
        comment_id: 'c-1-top',
        body_source: 'Helo',
        body_html: '<p>Helo</p>',
        created_at: '2026-04-01T10:00:00.000Z',
      },
      {
        id: 'rev-2',
        comment_id: 'c-1-top',
        body_source: '**Hello**',
        body_html: '<p><strong>Hello</strong></p>',
        created_at: '2026-04-01T10:00:20.000Z',
      },
      {
        id: 'rev-3',
        comment_id: 'c-2-reply',
        body_source: 'Cheap *sunglasses*?',
        body_html: '<p>Cheap <em>sunglasses</em>?</p>',
        created_at: '2026-04-01T10:05:00.000Z',
      },
    ],
  },
  reactions: {
    since: '0001_initial',
    key: ['comment_id', 'user_id'],
    rows: [
      {
        comment_id: 'c-1-top',
        user_id: 'u-b-admin',
        created_at: '2026-04-01T10:40:00.000Z',
        // Every reaction before 0022 is a Like: an up vote.
        value: added('0022_votes_and_pins', 1, 1),
      },
      {
        comment_id: 'c-2-reply',
        user_id: 'u-lois',
        created_at: '2026-04-01T10:06:00.000Z',
        value: added('0022_votes_and_pins', 1, 1),
      },
    ],
  },
  reports: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'r-1',
        comment_id: 'c-1-top',
        user_id: 'u-a-sso',
        reason: 'SPAM',
        details: 'An ad for sunglasses',
        created_at: '2026-04-01T10:10:00.000Z',
        weight: added('0008_report_weight', 50, 100),
      },
      {
        id: 'r-2',
        comment_id: 'c-4-approved',
        user_id: 'u-a-sso',
        reason: 'OFFENSIVE',
        details: null,
        created_at: '2026-04-01T12:00:00.000Z',
        weight: added('0008_report_weight', 25, 100),
      },
      {
        id: 'r-3',
        comment_id: 'c-5-rejected',
        user_id: 'u-a-sso',
        reason: 'ABUSIVE',
        details: null,
        created_at: '2026-04-01T11:40:00.000Z',
        weight: added('0008_report_weight', 200, 100),
      },
    ],
  },
  moderation_decisions: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'd-1',
        comment_id: 'c-1-top',
        moderator_id: 'u-b-admin',
        status: 'APPROVED',
        reason: added('0029_spam_filter', null, null),
        created_at: '2026-04-01T10:30:00.000Z',
      },
      {
        id: 'd-2',
        comment_id: 'c-4-approved',
        moderator_id: 'u-b-admin',
        status: 'APPROVED',
        reason: added('0029_spam_filter', null, null),
        created_at: '2026-04-01T11:10:00.000Z',
      },
      {
        id: 'd-3',
        comment_id: 'c-5-rejected',
        moderator_id: 'u-b-admin',
        status: 'REJECTED',
        reason: added('0029_spam_filter', null, null),
        created_at: '2026-04-01T11:45:00.000Z',
      },
      {
        id: 'd-4',
        comment_id: 'c-3-held',
        moderator_id: null,
        status: 'PREMOD',
        reason: added('0029_spam_filter', null, null),
        created_at: '2026-04-01T10:20:00.000Z',
      },
    ],
  },
  user_history: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'h-1',
        user_id: 'u-zoe',
        actor_id: 'u-b-admin',
        action: 'PREMOD',
        message: 'Links only after review',
        created_at: '2026-03-01T00:00:00.000Z',
      },
    ],
  },
  idempotency_keys: {
    since: '0001_initial',
    key: ['scope', 'key'],
    rows: [
      {
        scope: 'user:u-lois',
        key: 'idem-1',
        operation: 'createComment',
        response: '{"commentId":"c-1-top"}',
        created_at: '2026-04-01T10:00:00.000Z',
      },
    ],
  },
  tokens: {
    since: '0001_initial',
    key: ['id'],
    rows: [
      {
        id: 'tok-1',
        purpose: 'RESET_PASSWORD',
        user_id: 'u-lois',
        token_hash: sha256('reset-token-of-lois'),
        expires_at: FAR,
        used_at: null,
        created_at: '2026-05-01T00:00:00.000Z',
        created_by: added('0006_token_creator', null, null),
      },
      {
        id: 'tok-2',
        purpose: 'CONFIRM_EMAIL',
        user_id: 'u-zoe',
        token_hash: sha256('confirm-token-of-zoe'),
        expires_at: '2026-02-16T00:00:00.000Z',
        used_at: '2026-02-15T12:00:00.000Z',
        created_at: '2026-02-15T00:00:00.000Z',
        created_by: added('0006_token_creator', null, null),
      },
      new Later('0006_token_creator', {
        id: 'tok-3',
        purpose: 'MODERATOR_INVITE',
        user_id: 'u-lois',
        token_hash: sha256('invitation-of-lois'),
        expires_at: FAR,
        used_at: null,
        created_at: '2026-05-02T00:00:00.000Z',
        created_by: 'u-b-admin',
      }),
    ],
  },
  revoked_sessions: {
    since: '0007_session_revocation',
    key: ['token_id'],
    rows: [{ token_id: 'jti-signed-out', expires_at: FAR }],
  },
  sso_token_uses: {
    since: '0007_session_revocation',
    key: ['token_hash'],
    rows: [
      {
        token_hash: sha256('host-token-1'),
        idempotency_key: 'sso-idem-1',
        used_at: '2026-05-01T00:00:00.000Z',
        expires_at: FAR,
      },
    ],
  },
  pending_sign_ups: {
    since: '0010_pending_sign_ups',
    key: ['email_key'],
    rows: [
      {
        email_key: 'new@example.org',
        email: 'New@Example.org',
        username: 'newcomer',
        password_hash: 'scrypt$new',
        code_hash: sha256('new@example.org:123456'),
        attempts: 1,
        expires_at: FAR,
        created_at: '2026-05-01T00:00:00.000Z',
        locale: added('0032_user_locale', 'es', null),
      },
    ],
  },
  recovery_codes: {
    since: '0012_two_factor_and_sessions',
    key: ['user_id', 'code_hash'],
    rows: [
      {
        user_id: 'u-b-admin',
        code_hash: sha256('abcdefghjk'),
        used_at: null,
        created_at: '2026-05-02T00:00:00.000Z',
      },
      {
        user_id: 'u-b-admin',
        code_hash: sha256('mnpqrstuvw'),
        used_at: '2026-05-03T00:00:00.000Z',
        created_at: '2026-05-02T00:00:00.000Z',
      },
    ],
  },
  audit_log: {
    since: '0013_audit_log',
    key: ['id'],
    rows: [
      {
        id: 'audit-1',
        created_at: '2026-05-04T00:00:00.000Z',
        actor_id: 'u-b-admin',
        actor_name: 'Admin',
        action: 'USER_BAN',
        target_type: 'user',
        target_id: 'u-zoe',
        target_label: 'Zo\u00eb',
        changes: '[{"field":"banned","before":false,"after":true}]',
        ip: '203.0.113.9',
      },
    ],
  },
  mail_queue: {
    since: '0021_mail_queue',
    key: ['id'],
    rows: [
      {
        id: 'mail-1',
        message: testBox.seal(
          JSON.stringify({ to: 'lois@planet.example', subject: 'Hello', text: 'Hello' }),
          'mail_queue.message:mail-1',
        ),
        attempts: 2,
        next_attempt_at: NOW,
        claimed_until: null,
        last_error: 'connect ECONNREFUSED 127.0.0.1:25',
        created_at: NOW,
      },
    ],
  },
  api_tokens: {
    since: '0019_api_tokens',
    key: ['id'],
    rows: [
      {
        id: 'tok-1',
        name: 'Backups',
        scope: 'READ',
        token_hash: sha256('parley_pat_backups'),
        created_by: 'u-b-admin',
        creator_epoch: 2,
        created_at: NOW,
        last_used_at: NOW,
        revoked_at: null,
      },
    ],
  },
  comment_images: {
    since: '0023_comment_images',
    key: ['name'],
    rows: [
      {
        name: '0123456789abcdef-640x480.webp',
        user_id: 'u-lois',
        story_id: 'story-a',
        comment_id: 'c-1-top',
        width: 640,
        height: 480,
        bytes: 31_337,
        created_at: NOW,
      },
    ],
  },
  import_sources: {
    since: '0025_import_sources',
    key: ['site_id', 'format', 'kind', 'source_id'],
    rows: [
      {
        site_id: 'site-news',
        format: 'disqus',
        kind: 'comment',
        source_id: '299619020',
        parley_id: 'c-1-top',
        created_at: NOW,
      },
    ],
  },
  sign_in_providers: {
    since: '0026_sign_in_providers',
    key: ['id'],
    rows: [
      {
        id: 'sip-1',
        kind: 'OIDC',
        name: 'Company SSO',
        issuer_url: 'https://id.example.com/realms/staff',
        client_id: 'parley',
        client_secret: SEALED_CLIENT_SECRET,
        created_at: NOW,
      },
    ],
  },
  sign_in_provider_sites: {
    since: '0026_sign_in_providers',
    key: ['provider_id', 'site_id'],
    rows: [{ provider_id: 'sip-1', site_id: 'site-news' }],
  },
  user_identities: {
    since: '0026_sign_in_providers',
    key: ['id'],
    rows: [
      {
        id: 'uid-1',
        user_id: 'u-b-admin',
        provider_id: 'sip-1',
        subject: 'admin-at-idp',
        email: null,
        created_at: NOW,
      },
    ],
  },
  sign_in_flows: {
    since: '0026_sign_in_providers',
    key: ['key_hash'],
    rows: [
      {
        key_hash: sha256('state'),
        stage: 'started',
        provider_id: 'sip-1',
        site_id: 'site-news',
        code_verifier: 'verifier',
        nonce: 'nonce',
        connect_user_id: null,
        user_id: null,
        popup: '{"locale":"en","theme":"light"}',
        result: null,
        expires_at: '2026-05-05T00:00:00.000Z',
      },
    ],
  },
  import_jobs: {
    since: '0027_import_jobs',
    key: ['id'],
    rows: [
      {
        id: 'job-1',
        site_id: 'site-news',
        format: 'disqus',
        dry_run: 0,
        rewrite_origins: '{"https://old.news.example":"https://news.example"}',
        status: 'done',
        upload_key_hash: null,
        file_bytes: 2048,
        read_bytes: 2048,
        attempts: 1,
        report: '{"format":"disqus"}',
        error: null,
        created_by: 'u-b-admin',
        created_at: NOW,
        started_at: NOW,
        finished_at: NOW,
      },
    ],
  },
  ip_bans: {
    since: '0028_guests',
    key: ['id'],
    rows: [
      {
        id: 'ipban-1',
        range: '203.0.113.0/24',
        reason: 'Spam from a guest',
        expires_at: FAR,
        created_by: 'u-b-admin',
        created_at: NOW,
        lifted_at: null,
      },
    ],
  },
  spam_models: {
    since: '0029_spam_filter',
    key: ['organization_id'],
    rows: [
      {
        organization_id: 'org-1',
        model: '{"categories":{},"docCount":{},"totalDocuments":0}',
        stamp: 'stamp-1',
        updated_at: NOW,
      },
    ],
  },
  akismet_checks: {
    since: '0029_spam_filter',
    key: ['comment_id'],
    rows: [
      {
        comment_id: 'c-5-rejected',
        verdict: 'spam',
        user_ip: '203.0.113.9',
        user_agent: 'Mozilla/5.0',
        created_at: NOW,
      },
    ],
  },
  spam_lessons: {
    since: '0029_spam_filter',
    key: ['comment_id'],
    rows: [
      {
        comment_id: 'c-5-rejected',
        label: 'spam',
        tokens: 'cheap pills',
        applied_label: 'spam',
        applied_tokens: 'cheap pills',
        pending: 0,
        updated_at: NOW,
      },
    ],
  },
  webhooks: {
    since: '0030_webhooks',
    key: ['id'],
    rows: [
      {
        id: 'wh-1',
        url: 'https://hooks.planet.example/parley',
        description: 'Newsroom bot',
        events: 'comment.created',
        secret: SEALED_WEBHOOK_SECRET,
        enabled: 1,
        format: 'STANDARD',
        site_id: 'site-news',
        created_at: NOW,
        updated_at: NOW,
      },
    ],
  },
  webhook_deliveries: {
    since: '0030_webhooks',
    key: ['id'],
    rows: [
      {
        id: 'whd-1',
        webhook_id: 'wh-1',
        event: 'comment.created',
        event_id: 'evt_1',
        comment_id: null,
        user_id: 'u-b-admin',
        payload: '{"id":"evt_1","type":"comment.created"}',
        state: 'DELIVERED',
        attempts: 1,
        next_attempt_at: null,
        claimed_until: null,
        response_status: 200,
        duration_ms: 12,
        response_excerpt: 'ok',
        error: null,
        created_at: NOW,
        finished_at: NOW,
      },
    ],
  },
  moderation_alerts: {
    since: '0031_moderation_alerts',
    key: ['user_id', 'site_id'],
    rows: [
      {
        user_id: 'u-b-admin',
        site_id: 'site-news',
        frequency: 'HOURLY',
        last_digest_at: NOW,
        updated_at: NOW,
      },
    ],
  },
  moderation_links: {
    since: '0031_moderation_alerts',
    key: ['token_hash'],
    rows: [
      {
        token_hash: sha256('approve-token'),
        user_id: 'u-b-admin',
        comment_id: 'c-5-rejected',
        action: 'APPROVE',
        epoch: 0,
        expires_at: FAR,
        used_at: null,
        created_at: NOW,
      },
    ],
  },
  job_leases: {
    since: '0015_job_leases',
    key: ['name'],
    rows: [{ name: 'housekeeping', holder: 'process-a', expires_at: '2026-05-05T00:00:00.000Z' }],
  },
  story_comment_counts: {
    since: '0014_big_stories',
    key: ['story_id', 'status'],
    rows: [],
    // The comments not erased, per story and status, as 0014_big_stories counts them; and
    // from 0017_reported_counts those in the Reported queue, by the stores' own condition.
    derived: (version, upgraded) => {
      const counts = new Map<string, Row>();
      const count = (storyId: unknown, status: string) => {
        const key = `${String(storyId)} ${status}`;
        const row = counts.get(key) ?? { story_id: storyId, status, count: 0 };
        row['count'] = Number(row['count']) + 1;
        counts.set(key, row);
      };
      const reportedToo = upgraded || has(version, '0017_reported_counts');
      for (const comment of rowsOf('comments', version, true)) {
        if (comment['deleted_at'] !== null) continue;
        count(comment['story_id'], String(comment['status']));
        const inQueue = isInReportedQueue({
          status: comment['status'] as CommentStatus,
          reportCount: Number(comment['report_count']),
          reviewedReportCount: Number(comment['reviewed_report_count']),
          heldBecause: JSON.parse(String(comment['held_because'] ?? 'null')) as HeldReason[] | null,
          deletedAt: null,
        });
        if (reportedToo && inQueue) count(comment['story_id'], REPORTED_COUNTER);
      }
      return [...counts.values()];
    },
  },
  sessions: {
    since: '0012_two_factor_and_sessions',
    key: ['id'],
    rows: [
      {
        id: 'jti-admin-laptop',
        user_id: 'u-b-admin',
        epoch: 2,
        second_factor: 1,
        device: 'Firefox on Linux',
        created_at: '2026-05-02T00:00:00.000Z',
        last_used_at: '2026-05-30T00:00:00.000Z',
        expires_at: FAR,
      },
    ],
  },
};

/**
 * The rows of `table` in a database populated at `version`, in fixture order: as written then, or
 * (`upgraded`) as the latest schema should hold them.
 */
function rowsOf(table: keyof Database, version: string, upgraded: boolean): Row[] {
  const { since, rows, derived } = FIXTURE[table];
  if (derived !== undefined) {
    return has(version, since) || upgraded ? derived(version, upgraded) : [];
  }
  if (!has(version, since)) return [];
  const present = rows.flatMap((row) => {
    if (!(row instanceof Later)) return [row];
    return has(version, row.migration) ? [row.row] : [];
  });
  return present.map((row) =>
    Object.fromEntries(
      Object.entries(row).flatMap(([column, value]) => {
        if (!(value instanceof Added)) return [[column, value]];
        if (has(version, value.migration)) return [[column, value.value]];
        return upgraded ? [[column, value.fill]] : [];
      }),
    ),
  );
}

/** Every table as a database populated at `version` should hold it once upgraded, in key order. */
function upgradedRows(version: string): Record<string, Row[]> {
  const all: Record<string, Row[]> = {};
  for (const table of TABLES) {
    const order = (row: Row) => FIXTURE[table].key.map((column) => String(row[column]));
    all[table] = rowsOf(table, version, true).sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      const differs = x.findIndex((part, i) => part !== y[i]);
      return differs === -1 ? 0 : x[differs]! < y[differs]! ? -1 : 1;
    });
  }
  return all;
}

/** Writes the rows a database at `version` held, parents first. */
async function populate(db: AnyDb, version: string): Promise<void> {
  for (const table of TABLES) {
    for (const row of rowsOf(table, version, false)) {
      await db.insertInto(table).values(row).execute();
    }
  }
}

/** The ids of a page of a list. */
function ids(connection: { edges: { node: { id: string } }[] }): string[] {
  return connection.edges.map((edge) => edge.node.id);
}

/** Every row of every table, in key order. */
async function readAll(db: AnyDb): Promise<Record<string, Row[]>> {
  const all: Record<string, Row[]> = {};
  for (const table of TABLES) {
    let query = db.selectFrom(table).selectAll();
    for (const column of FIXTURE[table].key) query = query.orderBy(column);
    all[table] = (await query.execute()) as Row[];
  }
  return all;
}

/**
 * A test database with no tables at all: testDatabases hands out migrated ones, so this takes one
 * (with its naming, sweeping and dropping) and removes what migrating made.
 */
async function emptyTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const t = await createTestDatabase(dialect);
  try {
    if (dialect === 'postgres') {
      await sql`drop schema public cascade`.execute(t.db);
      await sql`create schema public`.execute(t.db);
    } else {
      const { rows } = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
        t.db,
      );
      await sql`pragma foreign_keys = off`.execute(t.db);
      for (const { name } of rows) await sql`drop table ${sql.table(name)}`.execute(t.db);
      await sql`pragma foreign_keys = on`.execute(t.db);
    }
  } catch (error) {
    await t.close();
    throw error;
  }
  return t;
}

async function migrateTo(db: AnyDb, version: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(version);
  if (error !== undefined) throw new Error(`Migrating to ${version} failed: ${String(error)}`);
}

describe.each(testDialects())('upgrades on %s', (dialect) => {
  describe.each(EARLIER_VERSIONS)('from %s', (version) => {
    let t: TestDatabase | undefined;
    const db = () => t!.db;
    const writtenAfter = (migration: string) => has(version, migration);

    beforeEach(async () => {
      t = await emptyTestDatabase(dialect);
      await migrateTo(db(), version);
      await populate(db(), version);
    });
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    // Guards the fixture itself: a column or table tagged with the wrong migration, or one a
    // later migration adds and nobody gave a value, would leave the upgrade of that data untried.
    it(`writes a value in every column of every table ${version} has`, async () => {
      const tables = await db().introspection.getTables();
      const columns = Object.fromEntries(
        tables.map((table) => [table.name, table.columns.map((c) => c.name).sort()]),
      );
      const written = Object.fromEntries(
        TABLES.filter((table) => has(version, FIXTURE[table].since)).map((table) => [
          table,
          [...new Set(rowsOf(table, version, false).flatMap((row) => Object.keys(row)))].sort(),
        ]),
      );
      expect(columns).toEqual(written);
    });

    // A column a future migration adds to an existing table shows here too: give the fixture's
    // rows their value for it, with `added`, saying what rows written before it should hold.
    it(`keeps every row when upgrading from ${version}, filling the columns added since`, async () => {
      await expect(migrateToLatest(db())).resolves.toEqual(NAMES.slice(position(version) + 1));
      expect(await readAll(db())).toEqual(upgradedRows(version));
    });

    it(`serves the rows of ${version} through the current stores once upgraded`, async () => {
      await migrateToLatest(db());

      expect(await getOrganization(db())).toEqual({
        id: 'org-1',
        name: 'Daily Planet',
        contactEmail: 'Editors@Planet.example',
        url: 'https://planet.example',
        locale: 'fr',
        settings: { ...DEFAULT_SETTINGS, ...STORED_SETTINGS },
        createdAt: '2025-12-01T09:00:00.000Z',
        spamModelStamp: has(version, '0029_spam_filter') ? 'stamp-1' : '',
        // What the fixture's endpoint takes, from 0030_webhooks on (its table is new there).
        webhookEvents: has(version, '0030_webhooks') ? ['comment.created'] : [],
      });

      expect(await findUserByEmail(db(), 'LOIS.LANE@planet.example')).toEqual({
        id: 'u-lois',
        username: 'LoisLane',
        email: 'Lois.Lane@Planet.Example',
        emailVerified: true,
        passwordHash: 'scrypt$lois',
        role: 'COMMENTER',
        banned: false,
        suspendedUntil: null,
        premod: false,
        avatarUrl: '/uploads/lois.webp',
        notificationPrefs: { onReply: false },
        deletionRequestedAt: null,
        ssoSiteId: null,
        ssoId: null,
        createdAt: '2026-01-10T00:00:00.000Z',
        sessionEpoch: writtenAfter('0002_session_epoch') ? 5 : 0,
        badges: [],
        twoFactorEnabled: false,
        repliesFeedKey: null,
        guest: false,
        ipAddress: null,
        locale: null,
        localeChosen: false,
      });
      expect((await findUserByUsername(db(), 'ADMIN'))?.id).toBe('u-b-admin');
      // The admin's replies feed, from its migration on, opens the same feed once upgraded.
      expect((await findUserByRepliesFeedKey(db(), 'feed-key-of-admin'))?.id).toBe(
        writtenAfter('0020_replies_feed') ? 'u-b-admin' : undefined,
      );

      // The look-alike rule holds for names taken before it: `adrnin` looks like `Admin`.
      expect(await isUsernameFree(db(), 'adrnin')).toBe(false);
      expect(await isUsernameFree(db(), 'paul')).toBe(true);
      await expect(
        createUser(db(), { username: 'adrnin', email: 'adrnin@example.org', passwordHash: 'x' }),
      ).rejects.toMatchObject({ code: 'USERNAME_TAKEN' });

      // The SSO reader signs in again as the same account, keeping a name from before the rule.
      const users = await countRows(db(), 'users');
      const reader = await upsertSsoUser(db(), {
        siteId: 'site-news',
        ssoId: 'host-42',
        email: 'reader42@host.example',
        username: '\u0430dmin',
        badges: ['Subscriber'],
      });
      expect(reader).toMatchObject({
        id: 'u-a-sso',
        username: '\u0430dmin',
        passwordHash: null,
        ssoSiteId: 'site-news',
        badges: ['Subscriber'],
      });
      expect(await countRows(db(), 'users')).toBe(users);
      expect(await findAccountsDueForDeletion(db(), new Date(NOW))).toEqual(['u-zoe']);
      expect(
        (await listUsers(db(), { status: 'PREMOD', now: NOW }, {})).edges.map((e) => e.node.id),
      ).toEqual(['u-zoe']);
      expect(await listIgnoredIds(db(), 'u-lois')).toEqual(['u-zoe']);
      expect((await listUserHistory(db(), 'u-zoe')).map((h) => [h.action, h.message])).toEqual([
        ['PREMOD', 'Links only after review'],
      ]);

      expect(await findSiteByOrigin(db(), 'https://WWW.news.example/')).toEqual({
        id: 'site-news',
        name: 'Daily Planet News',
        url: 'https://news.example',
        allowedOrigins: ['https://news.example', 'https://www.news.example'],
        createdAt: '2025-12-01T09:00:00.000Z',
        ssoTokenMaxLifetimeSeconds: writtenAfter('0007_session_revocation') ? 600 : null,
      });
      expect(
        (await listActiveSsoKeys(db(), 'site-news', NOW)).map((k) => [k.id, k.sealedSecret]),
      ).toEqual([
        ['key-2-current', SEALED_CURRENT_KEY],
        ['key-1-rotated', 'secret-from-before-sealing'],
      ]);
      // At start the server seals what it finds in clear; the keys verify as before, after too.
      const usable = new Map([
        [
          'site-news',
          [
            { siteId: 'site-news', secret: 'current-secret', expiresAt: null },
            { siteId: 'site-news', secret: 'secret-from-before-sealing', expiresAt: FAR },
          ],
        ],
      ]);
      expect(await listUsableSsoKeysBySite(db(), testBox, NOW)).toEqual(usable);
      expect(await sealStoredSecrets(db(), testBox)).toEqual({
        unreadable: [],
        pending: 1,
        readable:
          (writtenAfter('0012_two_factor_and_sessions') ? 5 : 4) +
          (writtenAfter('0026_sign_in_providers') ? 1 : 0) +
          (writtenAfter('0030_webhooks') ? 1 : 0),
      });
      expect(await listUsableSsoKeysBySite(db(), testBox, NOW)).toEqual(usable);

      expect(await findStoryByUrl(db(), 'https://news.example/2026/rain')).toEqual({
        id: 'story-a',
        siteId: 'site-news',
        url: 'https://news.example/2026/rain',
        externalId: 'ext-rain',
        title: 'Rain all week',
        status: 'OPEN',
        premod: 'LINKS',
        liveUpdates: false,
        createdAt: '2026-04-01T08:00:00.000Z',
        closedAt: null,
        // Written at 0022 or later, the story names its pinned comment; before, none was pinned.
        pinnedCommentId: has(version, '0022_votes_and_pins') ? 'c-1-top' : null,
      });
      expect(await countStoryComments(db(), ['story-a', 'story-b'])).toEqual(
        new Map([
          ['story-a', 3],
          ['story-b', 0],
        ]),
      );

      const comments = await findCommentsByIds(db(), ['c-2-reply', 'c-1-top']);
      expect(comments.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
        {
          id: 'c-1-top',
          storyId: 'story-a',
          authorId: 'u-lois',
          parentId: null,
          bodySource: '**Hello**',
          bodyHtml: '<p><strong>Hello</strong></p>',
          status: 'APPROVED',
          heldBecause: null,
          tags: ['FEATURED'],
          reactionCount: 1,
          downvoteCount: 0,
          replyCount: 1,
          reportCount: 1,
          reviewedReportCount: 1,
          spamScore: null,
          clientMutationId: 'cm-1',
          createdAt: '2026-04-01T10:00:00.000Z',
          editedAt: '2026-04-01T10:00:20.000Z',
          deletedAt: null,
        },
        {
          id: 'c-2-reply',
          storyId: 'story-a',
          authorId: 'u-a-sso',
          parentId: 'c-1-top',
          bodySource: 'Cheap *sunglasses*?',
          bodyHtml: '<p>Cheap <em>sunglasses</em>?</p>',
          status: 'NONE',
          heldBecause: ['SUSPECT_WORD'],
          tags: [],
          reactionCount: 1,
          downvoteCount: 0,
          replyCount: 0,
          reportCount: 0,
          reviewedReportCount: 0,
          spamScore: null,
          clientMutationId: null,
          createdAt: '2026-04-01T10:05:00.000Z',
          editedAt: null,
          deletedAt: null,
        },
      ]);
      expect(ids(await listComments(db(), { storyId: 'story-a', parentId: null }, {}))).toEqual([
        'c-4-approved',
        'c-1-top',
      ]);
      expect(ids(await listReplies(db(), 'c-1-top', {}))).toEqual(['c-2-reply']);
      expect(ids(await moderationQueue(db(), 'PENDING', { siteId: 'site-news' }, {}))).toEqual([
        'c-3-held',
      ]);
      expect((await listRevisions(db(), 'c-1-top')).map((r) => r.body_source)).toEqual([
        'Helo',
        '**Hello**',
      ]);
      expect((await listDecisions(db(), 'c-1-top')).map((d) => [d.moderator_id, d.status])).toEqual(
        [['u-b-admin', 'APPROVED']],
      );
      expect(await reactedCommentIds(db(), 'u-b-admin', ['c-1-top', 'c-2-reply'])).toEqual(
        new Set(['c-1-top']),
      );
      expect((await listReports(db(), 'c-1-top')).map((r) => [r.reason, r.weight])).toEqual([
        ['SPAM', writtenAfter('0008_report_weight') ? 50 : 100],
      ]);

      expect(await getIdempotencyKey(db(), 'user:u-lois', 'idem-1')).toEqual({
        operation: 'createComment',
        response: { commentId: 'c-1-top' },
        createdAt: '2026-04-01T10:00:00.000Z',
      });
      expect(await consumeToken(db(), 'RESET_PASSWORD', 'reset-token-of-lois', NOW)).toEqual({
        ok: true,
        userId: 'u-lois',
        createdBy: null,
      });
      expect(await consumeToken(db(), 'CONFIRM_EMAIL', 'confirm-token-of-zoe', NOW)).toEqual({
        ok: false,
        code: 'TOKEN_INVALID',
      });
      expect(await isSessionRevoked(db(), 'jti-signed-out')).toBe(
        writtenAfter('0007_session_revocation'),
      );
      // The admin's two-factor sign-in, its one unused recovery code and signed-in laptop.
      const admin = await findUserById(db(), 'u-b-admin');
      const enrolled = writtenAfter('0012_two_factor_and_sessions');
      expect(admin?.twoFactorEnabled).toBe(enrolled);
      expect(await twoFactorState(db(), 'u-b-admin')).toEqual({
        enabled: enrolled,
        recoveryCodesLeft: enrolled ? 1 : 0,
      });
      expect(await spendRecoveryCode(db(), 'u-b-admin', 'ABCDE-FGHJK', new Date(NOW))).toBe(
        enrolled,
      );
      expect(
        (await listSessions(db(), { id: 'u-b-admin', sessionEpoch: 2 }, new Date(NOW))).map(
          (session) => [session.id, session.device, session.secondFactor],
        ),
      ).toEqual(enrolled ? [['jti-admin-laptop', 'Firefox on Linux', true]] : []);
      const audited = await listAuditLog(db(), { targetId: 'u-zoe' }, {});
      expect(audited.edges.map((edge) => edge.node)).toEqual(
        writtenAfter('0013_audit_log')
          ? [
              {
                id: 'audit-1',
                createdAt: '2026-05-04T00:00:00.000Z',
                actorId: 'u-b-admin',
                actorName: 'Admin',
                action: 'USER_BAN',
                targetType: 'user',
                targetId: 'u-zoe',
                targetLabel: 'Zo\u00eb',
                changes: [{ field: 'banned', before: false, after: true }],
                ip: '203.0.113.9',
              },
            ]
          : [],
      );
    });

    // 0004_reviewed_reports made REPORTED mean "reports no moderator has reviewed"; before it, a
    // moderator's approval took a comment out of the queue for good. Reports older than the
    // approval were reviewed by it, and must stay so: in the queue, and in the reporter's record
    // that weighs their next reports (moderation/reportWeight.ts).
    it(`keeps a moderator's review of reports when upgrading from ${version}`, async () => {
      await migrateToLatest(db());
      // One comparison, so a failure shows every place the reviews went missing.
      expect({
        reported: ids(await moderationQueue(db(), 'REPORTED', {}, {})),
        counts: await moderationCounts(db(), {}),
        reporter: await reportRecord(db(), 'u-a-sso'),
      }).toEqual({
        // c-4 was reported after its approval; c-2 holds a suspect word.
        reported: ['c-4-approved', 'c-2-reply'],
        counts: { PENDING: 1, REPORTED: 2, UNMODERATED: 1, APPROVED: 2, REJECTED: 1 },
        // r-3's comment was rejected; r-1's approved after it; r-2's approved before it.
        reporter: { upheld: 1, dismissed: 1 },
      });
    });
  });
});
