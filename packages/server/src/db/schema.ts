/**
 * Table types of Parley's database, shared by SQLite and PostgreSQL.
 *
 * Storage conventions (the same on both dialects, so one query code serves both):
 * - **IDs** are text, `crypto.randomUUID()` generated in the server: no sequences to keep in step
 *   across dialects, and an id is known before the insert (useful inside transactions).
 * - **Timestamps** are ISO-8601 text in UTC with milliseconds (`Date#toISOString()`, always 24
 *   characters). Fixed width makes text order equal time order, so they sort and compare in SQL;
 *   neither driver converts them (pg would otherwise turn `timestamptz` into `Date` and SQLite has
 *   no date type), so a row reads the same everywhere and goes straight into GraphQL's DateTime.
 * - **Booleans** are integers 0/1: SQLite has no boolean type and `pg` would return `true`/`false`
 *   for a PostgreSQL boolean, so one integer column keeps results identical. Stores map to boolean.
 * - **JSON** (settings, origins, tags, …) is text parsed by the stores: portable, and never queried
 *   inside the database except `tags` (see `listComments`).
 */
import type { ColumnType, Generated } from 'kysely';
import type { PremodMode } from '../moderation/evaluateComment';

/** Roles, least to most powerful. */
export const USER_ROLES = ['COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'] as const;
/** A user's role. */
export type UserRole = (typeof USER_ROLES)[number];

/** Comment statuses. NONE = published without a moderator's look. */
export const COMMENT_STATUSES = [
  'NONE',
  'APPROVED',
  'REJECTED',
  'PREMOD',
  'SYSTEM_WITHHELD',
] as const;
/** A comment's status. */
export type CommentStatus = (typeof COMMENT_STATUSES)[number];
/** Statuses that readers see; only these count in a parent's `reply_count`. */
export const VISIBLE_COMMENT_STATUSES: readonly CommentStatus[] = ['NONE', 'APPROVED'];

/** Whether readers see a comment with `status`. */
export function isVisibleStatus(status: CommentStatus): boolean {
  return VISIBLE_COMMENT_STATUSES.includes(status);
}

/** A comment's tags (`comments.tags` is a JSON array of these). */
export type CommentTag = 'FEATURED' | 'STAFF' | 'PINNED';

/** Why a comment is held or flagged; `comments.held_because` is a JSON array of these. */
export type HeldReason =
  | 'BANNED_WORD'
  | 'SUSPECT_WORD'
  | 'LINK'
  | 'NEW_COMMENTER'
  | 'PREMOD_USER'
  | 'PREMOD_ALL'
  | 'GUEST'
  | 'SPAM'
  | 'REPORTS';

/** Story statuses. */
export const STORY_STATUSES = ['OPEN', 'CLOSED'] as const;
/** A story's status. */
export type StoryStatus = (typeof STORY_STATUSES)[number];

/** Report reasons. */
export const REPORT_REASONS = ['OFFENSIVE', 'ABUSIVE', 'SPAM', 'OTHER'] as const;
/** Why a comment was reported. */
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Purposes of single-use emailed tokens. */
export const TOKEN_PURPOSES = [
  'CONFIRM_EMAIL',
  'RESET_PASSWORD',
  'DELETE_ACCOUNT',
  'UNSUBSCRIBE',
  'DOWNLOAD',
  'MODERATOR_INVITE',
] as const;
/** What a single-use token is for. */
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** 0 or 1: a boolean stored portably. */
export type IntBool = 0 | 1;

/** The one organization of an install. */
export interface OrganizationTable {
  id: string;
  /** Always 1, with a UNIQUE index: a second concurrent install fails instead of adding a row. */
  singleton: number;
  name: string;
  contact_email: string;
  url: string;
  locale: string;
  /** JSON object; merged over `DEFAULT_SETTINGS` when read. */
  settings: string;
  created_at: string;
  /** Its spam model's stamp (`spam_models.stamp`), new at every fold of lessons; '' before (0029). */
  spam_model_stamp: Generated<string>;
  /** The events some enabled webhook takes, space-separated (store/webhooks.ts); '' for none (0030). */
  webhook_events: Generated<string>;
}

/** A webhook endpoint (0030; webhooks/createWebhookDispatcher.ts). */
export interface WebhooksTable {
  id: string;
  url: string;
  description: Generated<string>;
  /** The events it takes (`comment.created` …), space-separated. */
  events: string;
  /** The signing secret (`whsec_…`), sealed (purpose `webhooks.secret:<id>`); '' once given up. */
  secret: string;
  enabled: Generated<number>;
  /** What it is sent: the event as signed JSON, or a Slack-compatible message. */
  format: Generated<WebhookFormat>;
  /** Only this site's events (user events go to every endpoint); null for every site. */
  site_id: string | null;
  created_at: string;
  updated_at: string;
}

/** How often a moderator is emailed about a site's queues (store/moderationAlerts.ts). */
export type ModerationAlertFrequency = 'EACH' | 'HOURLY' | 'DAILY';

/** A moderator's alerts for one site (0031); no row: none. */
export interface ModerationAlertsTable {
  user_id: string;
  site_id: string;
  frequency: ModerationAlertFrequency;
  /** HOURLY, DAILY: when their last digest was made (sent or, with nothing in it, skipped). */
  last_digest_at: string | null;
  updated_at: string;
}

/** A moderation email's one-time Approve or Reject link (0031), kept as its SHA-256. */
export interface ModerationLinksTable {
  token_hash: string;
  /** The moderator it acts as. */
  user_id: string;
  comment_id: string;
  action: 'APPROVE' | 'REJECT';
  /** Their session epoch when it was made: signing out everywhere ends their links too. */
  epoch: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** What a webhook endpoint is sent (db/store/webhooks.ts). */
export type WebhookFormat = 'STANDARD' | 'SLACK';

/** Where a webhook delivery is: waiting (and retried), delivered, or given up. */
export type WebhookDeliveryState = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event for one endpoint: its body as sent, its attempts' outcome (the console's log). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  /** The event's id (`webhook-id`): the same for every endpoint, attempt and redelivery. */
  event_id: string;
  /** The comment it tells of: its deliveries go when its text does (deletion, erasure). */
  comment_id: string | null;
  /** The person it tells of (a comment's author, a banned user): gone with their account. */
  user_id: string | null;
  /** The JSON body, exactly as every attempt sends it. */
  payload: string;
  state: WebhookDeliveryState;
  attempts: Generated<number>;
  /** PENDING: not tried again before this time. */
  next_attempt_at: string | null;
  /** A process is sending it until this time; null when nobody is. */
  claimed_until: string | null;
  /** The last attempt's HTTP status; null when it got no answer. */
  response_status: number | null;
  duration_ms: number | null;
  /** The start of the last answer's body (read at most 64 KB). */
  response_excerpt: string | null;
  /** Why the last attempt failed. */
  error: string | null;
  created_at: string;
  /** Delivered or given up at. */
  finished_at: string | null;
}

/** An organization's spam model: classificator's naive Bayes state as JSON (store/spamModel.ts). */
export interface SpamModelsTable {
  organization_id: string;
  model: string;
  /** A new id at every change: what processes compare their decoded copy by. */
  stamp: string;
  updated_at: string;
}

/** What Akismet said of a comment (moderation/akismet.ts), to report a different decision back. */
export interface AkismetChecksTable {
  comment_id: string;
  verdict: 'ham' | 'spam' | 'discard';
  user_ip: string;
  user_agent: string;
  created_at: string;
}

/**
 * What a decided comment teaches the spam model (store/spamModel.ts): the lesson wanted (`label`,
 * `tokens`) and the one the model holds (`applied_*`); `pending` until they are the same.
 */
export interface SpamLessonsTable {
  comment_id: string;
  label: SpamLabel | null;
  /** The model's tokens, space-separated. */
  tokens: Generated<string>;
  applied_label: SpamLabel | null;
  applied_tokens: Generated<string>;
  pending: Generated<number>;
  updated_at: string;
}

/** A site that embeds Parley. */
export interface SitesTable {
  id: string;
  name: string;
  url: string;
  /** JSON array of origins (`https://example.com`) allowed to embed the stream. */
  allowed_origins: string;
  created_at: string;
  /** Longest `exp - iat` accepted on this site's SSO tokens; null for the default. */
  sso_token_max_lifetime_seconds: number | null;
}

/** HS256 signing keys of a site's SSO. Active: not revoked and (no expiry or expiry in the future). */
export interface SsoKeysTable {
  id: string;
  site_id: string;
  /**
   * Sealed with the server's key (auth/secretBox.ts): HS256 verification needs the secret itself,
   * so it cannot be hashed, but a copy of the database alone must not give it away.
   */
  secret: string;
  created_at: string;
  /** Null while current; rotation sets it to now + overlap. */
  expires_at: string | null;
  revoked: Generated<IntBool>;
}

/** One article. */
export interface StoriesTable {
  id: string;
  site_id: string;
  url: string;
  external_id: string | null;
  title: string;
  status: StoryStatus;
  /** Null = follow the organization setting. */
  premod: PremodMode | null;
  /** Null = follow the organization setting; else 0/1. */
  live_updates: IntBool | null;
  created_at: string;
  closed_at: string | null;
  /**
   * The comment staff pinned above the thread (0022_votes_and_pins), which also carries the
   * PINNED tag; null for none. No foreign key: the comment loader checks it still exists.
   */
  pinned_comment_id: Generated<string | null>;
}

/** A person: commenter, staff, moderator or admin. */
export interface UsersTable {
  id: string;
  username: string;
  /** `username` lower-cased, UNIQUE: usernames are unique case-insensitively. */
  username_key: string;
  /**
   * The name's look-alike skeleton (validation/lookalikes.ts), UNIQUE: `аdmin` in Cyrillic cannot
   * be taken beside `admin`. Null for deleted accounts and for names that predate the rule.
   */
  username_skeleton: string | null;
  email: string;
  /** `email` lower-cased, UNIQUE. */
  email_key: string;
  email_verified: Generated<IntBool>;
  /** Null for SSO users (they never sign in with a password). */
  password_hash: string | null;
  role: UserRole;
  banned: Generated<IntBool>;
  suspended_until: string | null;
  premod: Generated<IntBool>;
  avatar_url: string | null;
  /** JSON object of notification preferences. */
  notification_prefs: string;
  deletion_requested_at: string | null;
  sso_site_id: string | null;
  sso_id: string | null;
  created_at: string;
  /** Bumped on a password change; tokens of an older epoch are refused. */
  session_epoch: Generated<number>;
  /** JSON array of badges the host gave the user through SSO. */
  badges: Generated<string>;
  /** When the deletion job emptied this account (see store/accountDeletion.ts); null otherwise. */
  deleted_at: string | null;
  /**
   * The TOTP secret (base32), sealed (auth/secretBox.ts, purpose `users.totp_secret:<id>`): set
   * by an enrolment, in use once `totp_enabled_at` is set too. Null without two-factor sign-in.
   */
  totp_secret: string | null;
  /** When the enrolment was confirmed with a first code; null while pending or off. */
  totp_enabled_at: string | null;
  /** The 30-second step of the last code accepted: a code is good once, and never an older one. */
  totp_last_step: number | null;
  /** The key in the URL of the user's private feed of replies (0020); null until they make one. */
  replies_feed_key: string | null;
  /** 1 for a guest (0028_guests; see store/guests.ts), who has no password and no profile. */
  guest: Generated<IntBool>;
  /** A guest's address, key form (`uniqueKey`), when they gave one; null otherwise. */
  guest_email_key: Generated<string | null>;
  /** Where a guest last posted from (moderators ban its range); null for members. */
  ip_address: Generated<string | null>;
  /** The language of their emails (a catalog's locale); null: the site's (0032). */
  locale: Generated<string | null>;
  /** 1 once they chose `locale` themselves (updateLocale): sign-ins no longer change it (0032). */
  locale_chosen: Generated<IntBool>;
}

/** An address range refused guest sessions, guest posts and sign-ups until `expires_at`. */
export interface IpBansTable {
  id: string;
  /** CIDR (`203.0.113.0/24`, `2001:db8::/48`), normalized; a single address is a /32 or /128. */
  range: string;
  reason: string;
  expires_at: string;
  created_by: string | null;
  created_at: string;
  /** When a moderator lifted it early; null otherwise. */
  lifted_at: string | null;
}

/** A user hides another user's comments. */
export interface IgnoredUsersTable {
  user_id: string;
  ignored_id: string;
  created_at: string;
}

/** A comment or a reply. */
export interface CommentsTable {
  id: string;
  story_id: string;
  author_id: string;
  parent_id: string | null;
  body_source: string;
  body_html: string;
  status: CommentStatus;
  /** JSON array of {@link HeldReason}s when held or flagged. */
  held_because: string | null;
  /** JSON array of {@link CommentTag}s. */
  tags: string;
  /** Likes, which are up votes. */
  reaction_count: Generated<number>;
  /** Down votes (0022_votes_and_pins). */
  downvote_count: Generated<number>;
  /**
   * The Best sort's key: the Wilson lower bound of the up-vote share, × 10⁹ and rounded
   * (reactions.ts `bestRank`), kept with the counts. Whole numbers, so a keyset cursor compares
   * exactly on both engines.
   */
  best_rank: Generated<number>;
  /** Direct replies with a visible status (see `VISIBLE_COMMENT_STATUSES`). */
  reply_count: Generated<number>;
  report_count: Generated<number>;
  client_mutation_id: string | null;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  /** Reports a moderator has reviewed (set at each decision); more put it back in REPORTED. */
  reviewed_report_count: Generated<number>;
  /**
   * When it was published: posted visible, or approved after a hold (0016_published_at); null
   * while it never was. What `commentsSince` goes by.
   */
  published_at: string | null;
  /**
   * Its story's site (0018_recent_comments; stories never change site): a site's latest
   * comments read down `(site_id, published_at, id)`. Every insert must give it (null only in
   * a row written before 0018 that its fill found no story for: none).
   */
  site_id: ColumnType<string | null, string, never>;
  /**
   * Its parent's author (0020_replies_feed; null for a top-level comment): a reader's replies
   * feed reads down `(parent_author_id, published_at, id)`. Every insert must give it.
   */
  parent_author_id: ColumnType<string | null, string | null, never>;
  /** The local spam score it got when posted or last edited; null when none was taken (0029). */
  spam_score: ColumnType<number | null, number | null | undefined, number | null>;
  /** A hash of its text's words, for "the same text on other stories"; null when short (0029). */
  body_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
}

/** What a moderator's decision teaches the spam model about a comment. */
export type SpamLabel = 'spam' | 'ham';

/** Every body a comment has had, the first one included. */
export interface CommentRevisionsTable {
  id: string;
  comment_id: string;
  body_source: string;
  body_html: string;
  created_at: string;
}

/** An image uploaded into a comment (uploads/commentImages.ts). */
export interface CommentImagesTable {
  /** The file's name under `uploads/images/`: `<16 hex>-<width>x<height>.webp`. */
  name: string;
  /** Who uploaded it. */
  user_id: string;
  story_id: string;
  /** The comment of its uploader that uses it; null until one does. */
  comment_id: string | null;
  width: number;
  height: number;
  bytes: number;
  created_at: string;
}

/** One vote (a reaction is an up vote) per user per comment. */
export interface ReactionsTable {
  comment_id: string;
  user_id: string;
  created_at: string;
  /** 1 up (a Like), -1 down (0022_votes_and_pins). */
  value: Generated<1 | -1>;
}

/** One report per user per comment. */
export interface ReportsTable {
  id: string;
  comment_id: string;
  user_id: string;
  reason: ReportReason;
  details: string | null;
  created_at: string;
  /** How much it counts toward the automatic hold, in hundredths (moderation/reportWeight.ts). */
  weight: Generated<number>;
}

/** The moderation history of a comment. Null moderator = the system (e.g. report threshold). */
export interface ModerationDecisionsTable {
  id: string;
  comment_id: string;
  moderator_id: string | null;
  status: CommentStatus;
  created_at: string;
  /** Why a moderator rejected it (`RejectionReason`: SPAM, …); null otherwise (0029). */
  reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Bans, suspensions, premod and role changes of a user. */
export interface UserHistoryTable {
  id: string;
  user_id: string;
  actor_id: string | null;
  action: string;
  message: string | null;
  created_at: string;
}

/** Responses remembered per (scope, key) so a retried mutation is answered, not re-run. */
export interface IdempotencyKeysTable {
  /** `user:<id>` or `ip:<address>`. */
  scope: string;
  key: string;
  operation: string;
  /** JSON of the first response. */
  response: string;
  created_at: string;
}

/** Single-use emailed tokens; only a SHA-256 of the token is stored. */
export interface TokensTable {
  id: string;
  purpose: TokenPurpose;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** Who made the token, when someone else than its user did (the admin behind an invitation). */
  created_by: string | null;
}

/** Session tokens ended before their expiry (sign-out), by `jti`; pruned once expired. */
export interface RevokedSessionsTable {
  token_id: string;
  expires_at: string;
}

/** A staff member's one-time recovery codes (auth/twoFactor.ts), by SHA-256. */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  /** When it was used (it is then spent); null while it is still good. */
  used_at: string | null;
  created_at: string;
}

/**
 * A session signed in (db/store/sessions.ts), listed to its owner as a signed-in device. The token
 * stays stateless: this row is what the owner sees and can end; ending one also records its token
 * id in `revoked_sessions`, which is what refuses the token.
 */
export interface SessionsTable {
  /** The token's `jti`. */
  id: string;
  user_id: string;
  /** The user's session epoch when signed: a row of an older epoch is a session already ended. */
  epoch: number;
  /** Whether the sign-in passed the second factor. */
  second_factor: IntBool;
  /** "Firefox on Linux"; empty when the request carried no user agent. */
  device: string;
  created_at: string;
  /** Updated at most every few minutes (SESSION_TOUCH_MS), not on every request. */
  last_used_at: string;
  expires_at: string;
}

/**
 * What the Pending queue holds; word for word the condition of its partial index
 * (0014_big_stories), so that the planners use that index. Columns are unqualified, as in the
 * index: a query joining another table with a `status` (stories) must not use it as is.
 */
export const PENDING_SQL = `status in ('PREMOD', 'SYSTEM_WITHHELD')`;

/** The statuses of the Pending queue (PENDING_SQL's list): held, readers do not see it yet. */
export const HELD_COMMENT_STATUSES: readonly CommentStatus[] = ['PREMOD', 'SYSTEM_WITHHELD'];

/**
 * What the Reported queue can hold: comments with unreviewed reports, or flagged with a suspect
 * word. The condition of the partial index 0014_big_stories builds, and a term of the queue's
 * condition (store/commentQueries.ts), so that the planners use that index.
 */
export const REPORTABLE_SQL = `(report_count > reviewed_report_count or held_because like '%"SUSPECT_WORD"%')`;

/** Comments not erased, per story and status (db/store/storyCounts.ts). */
export interface StoryCommentCountsTable {
  story_id: string;
  /** A status, or `REPORTED`: the comments in the Reported queue (storyCounts.ts). */
  status: CommentStatus | 'REPORTED';
  count: number;
}

/** A staff action that changed policy or people (db/store/auditLog.ts). */
export interface AuditLogTable {
  id: string;
  created_at: string;
  /** Null for the `parley` command and the system. */
  actor_id: string | null;
  /** The actor's username when written (kept if the account goes). */
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string;
  /** JSON array of { field, before, after }; secrets redacted. */
  changes: string;
  ip: string | null;
}

/**
 * Who runs a periodic job for now (db/store/jobLeases.ts): with several server processes on one
 * database, one of them sweeps; another takes over when the lease runs out unrenewed.
 */
export interface JobLeasesTable {
  name: string;
  /** The process holding it (an id made at its start). */
  holder: string;
  expires_at: string;
}

/** Host SSO tokens already exchanged, by SHA-256; pruned once the token has expired. */
export interface SsoTokenUsesTable {
  token_hash: string;
  /** The exchange's `Idempotency-Key`: a retry of that same exchange is not a replay. */
  idempotency_key: string | null;
  used_at: string;
  expires_at: string;
}

/** What an API token may do (db/store/apiTokens.ts). */
export type ApiTokenScope = 'READ' | 'MODERATE' | 'ADMIN';

/** Admins' API tokens for scripts and other servers; only a SHA-256 of the secret is stored. */
export interface ApiTokensTable {
  id: string;
  name: string;
  scope: ApiTokenScope;
  token_hash: string;
  /** The admin who made it; the token acts as them, within its scope. */
  created_by: string;
  /** Their session epoch then: once it moves on (signed out everywhere, a new password), it ends. */
  creator_epoch: number;
  created_at: string;
  /** Written at most every few minutes (API_TOKEN_TOUCH_MS), not on every request. */
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * Emails waiting to be sent (email/createMailQueue.ts): each until its server takes it, retried
 * with a growing delay, across restarts and by whichever process claims it.
 */
export interface MailQueueTable {
  id: string;
  /** The message as JSON, sealed (purpose `mail_queue.message:<id>`): it holds live links. */
  message: string;
  /** Deliveries tried. */
  attempts: number;
  /** Not tried again before this time. */
  next_attempt_at: string;
  /** A process is sending it until this time; null when nobody is. */
  claimed_until: string | null;
  /** Why the last attempt failed; null before any failed. */
  last_error: string | null;
  created_at: string;
}

/** Where an imported story, user or comment came from (0025_import_sources). */
export interface ImportSourcesTable {
  /** The site imported into. */
  site_id: string;
  /** The importer: `disqus`, `wordpress`, `remark42`. */
  format: string;
  kind: 'story' | 'user' | 'comment';
  /** The source's own id of it (an author's email or name when the source has no id). */
  source_id: string;
  /** The row it became or was matched with. */
  parley_id: string;
  created_at: string;
}

/** Which sign-in provider: GitHub (OAuth), Google or any OpenID Connect issuer. */
export type SignInProviderKind = 'GITHUB' | 'GOOGLE' | 'OIDC';

/** A sign-in provider an admin configured (0026_sign_in_providers). */
export interface SignInProvidersTable {
  id: string;
  kind: SignInProviderKind;
  /** What the sign-in button says: "Continue with <name>". */
  name: string;
  /** OIDC: the issuer (its discovery document is under it); '' for GitHub and Google. */
  issuer_url: string;
  client_id: string;
  /** Sealed (auth/secretBox.ts, `sign_in_providers.client_secret:<id>`); '' once forgotten. */
  client_secret: string;
  created_at: string;
}

/** The sites a provider is switched on for. */
export interface SignInProviderSitesTable {
  provider_id: string;
  site_id: string;
}

/** A provider's account connected to a Parley user. */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  provider_id: string;
  /** The provider's id of the account (`sub`, GitHub's numeric id). */
  subject: string;
  /** The address the provider gave when connected, for the profile's list; null for none. */
  email: string | null;
  created_at: string;
}

/**
 * A provider sign-in under way (auth/providers/signInFlows.ts). `started`: keyed by the hash of
 * its `state`, waiting for the provider's answer; `finished`: keyed by the hash of the code the
 * popup redeems, with what happened in `result`.
 */
export interface SignInFlowsTable {
  key_hash: string;
  stage: 'started' | 'finished' | 'emailed';
  provider_id: string;
  site_id: string;
  /** PKCE: the verifier whose challenge went to the provider. */
  code_verifier: string;
  nonce: string;
  /** Set when a signed-in user connects this provider to their account. */
  connect_user_id: string | null;
  /** The account a finished flow is about (its result's user): erasure drops its flows. */
  user_id: string | null;
  /** The popup's locale and theme (JSON), to come back to it as it was. */
  popup: string;
  /** JSON: what the finished flow hands the popup (signInFlows.ts `FlowResult`). */
  result: string | null;
  expires_at: string;
}

/**
 * Where an import started from the console stands: `uploading` (waiting for its file), `queued`,
 * `running` (a process holds its lease), `done` or `failed`.
 */
export type ImportJobStatus = 'uploading' | 'queued' | 'running' | 'done' | 'failed';

/** An import started from the console (0027_import_jobs; portability/importJobs.ts). */
export interface ImportJobsTable {
  id: string;
  site_id: string;
  format: string;
  dry_run: number;
  /** JSON object: old origin → new origin (`--rewrite-origin`). */
  rewrite_origins: Generated<string>;
  status: ImportJobStatus;
  /** SHA-256 of the one-time key the upload URL carries; null once the file is in. */
  upload_key_hash: string | null;
  /** The uploaded file's size; null until uploaded. */
  file_bytes: number | null;
  /** How far the running import has read the file (its last pass, for Parley's own format). */
  read_bytes: Generated<number>;
  /** How many times a process took the job: one that keeps stopping its process fails at 3. */
  attempts: Generated<number>;
  /** JSON of the ImportReport: so far while running, final once done (or as far as it got). */
  report: string | null;
  error: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The whole database, for `Kysely<Database>`. */
export interface Database {
  organization: OrganizationTable;
  sites: SitesTable;
  sso_keys: SsoKeysTable;
  stories: StoriesTable;
  users: UsersTable;
  ip_bans: IpBansTable;
  spam_models: SpamModelsTable;
  spam_lessons: SpamLessonsTable;
  akismet_checks: AkismetChecksTable;
  ignored_users: IgnoredUsersTable;
  comments: CommentsTable;
  comment_revisions: CommentRevisionsTable;
  reactions: ReactionsTable;
  comment_images: CommentImagesTable;
  reports: ReportsTable;
  moderation_decisions: ModerationDecisionsTable;
  user_history: UserHistoryTable;
  idempotency_keys: IdempotencyKeysTable;
  tokens: TokensTable;
  revoked_sessions: RevokedSessionsTable;
  sso_token_uses: SsoTokenUsesTable;
  pending_sign_ups: PendingSignUpsTable;
  recovery_codes: RecoveryCodesTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  story_comment_counts: StoryCommentCountsTable;
  job_leases: JobLeasesTable;
  api_tokens: ApiTokensTable;
  mail_queue: MailQueueTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  moderation_alerts: ModerationAlertsTable;
  moderation_links: ModerationLinksTable;
  import_sources: ImportSourcesTable;
  sign_in_providers: SignInProvidersTable;
  sign_in_provider_sites: SignInProviderSitesTable;
  user_identities: UserIdentitiesTable;
  sign_in_flows: SignInFlowsTable;
  import_jobs: ImportJobsTable;
}

/** A sign-up waiting for its emailed code (db/store/pendingSignUps.ts). */
export interface PendingSignUpsTable {
  /** The address lower-cased: one pending sign-up per address, the latest. */
  email_key: string;
  email: string;
  username: string;
  password_hash: string;
  /** SHA-256 of the code: a database copy gives nobody the code. */
  code_hash: string;
  /** Wrong codes tried; the sign-up is dropped at SIGN_UP_CODE.maxAttempts. */
  attempts: Generated<number>;
  expires_at: string;
  created_at: string;
  /** The sign-up popup's language (0032); null: the site's. */
  locale: Generated<string | null>;
}

/** Every table, parents before children (the order to create; reverse it to empty). */
export const TABLES: readonly (keyof Database)[] = [
  'organization',
  'sites',
  'sso_keys',
  'stories',
  'users',
  'ip_bans',
  'ignored_users',
  'comments',
  'comment_revisions',
  'reactions',
  'comment_images',
  'reports',
  'moderation_decisions',
  'user_history',
  'idempotency_keys',
  'tokens',
  'revoked_sessions',
  'sso_token_uses',
  'pending_sign_ups',
  'recovery_codes',
  'sessions',
  'audit_log',
  'story_comment_counts',
  'job_leases',
  'api_tokens',
  'mail_queue',
  'import_sources',
  'sign_in_providers',
  'sign_in_provider_sites',
  'user_identities',
  'sign_in_flows',
  'import_jobs',
  'spam_models',
  'spam_lessons',
  'akismet_checks',
  'webhooks',
  'webhook_deliveries',
  'moderation_alerts',
  'moderation_links',
];
