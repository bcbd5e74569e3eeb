/** Server defaults. Each figure is written here once. */
import { SIGN_UP_CODE_DIGITS } from '@parley/contract';

/** Prefix of every Redis key and channel (`REDIS_PREFIX`): several installs may share a Redis. */
export const DEFAULT_REDIS_PREFIX = 'parley:';

/** HTTP port of the API and the bundles. */
export const PORT = 3000;
/** Interface the servers bind to. */
export const HOST = '127.0.0.1';
/** Port of the example host page (a second origin). */
export const EXAMPLE_PORT = 8080;
/** Data folder: the SQLite file, uploads, secrets, the dev outbox. */
export const DATA_DIR = './.parley-data';

// The account rules' figures, shared with the clients (written once, in @parley/contract).
export {
  EMAIL_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '@parley/contract';

/** Organization settings on a new install (DESIGN.md "Defaults on a new install"). */
// Figures the clients use too (the profile's deletion notice, the avatar picker, page sizes, a
// report's details box), from @parley/contract.
export {
  ACCOUNT_DELETION_GRACE_SECONDS,
  AVATAR_TYPES,
  COMMENT_IMAGE_MAX_BYTES,
  COMMENT_IMAGE_MAX_WIDTH,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  REPORT_DETAILS_MAX_LENGTH,
} from '@parley/contract';

export const DEFAULT_SETTINGS = Object.freeze({
  /** Pre-moderation: OFF (post-moderation), ALL, LINKS or NEW_COMMENTERS. */
  premod: 'OFF' as 'OFF' | 'ALL' | 'LINKS' | 'NEW_COMMENTERS',
  /** With premod NEW_COMMENTERS: approved comments a commenter needs before publishing at once. */
  newCommenterApprovals: 3,
  /** Reports that withhold a published comment. */
  reportThreshold: 3,
  /** Seconds after posting during which the author may edit. */
  editWindowSeconds: 30,
  /** Longest comment body, in characters. */
  maxCommentLength: 5000,
  /** Whether anyone may sign up. */
  signUpOpen: true,
  /** Whether anonymous readers may read and subscribe. */
  anonymousReading: true,
  /** Live updates on. */
  liveUpdates: true,
  /** Words that reject a comment at once (case-insensitive, whole words). */
  bannedWords: [] as string[],
  /** Words that publish a comment but queue it as reported. */
  suspectWords: [] as string[],
  /** Community guidelines shown above the thread (Markdown). */
  guidelines: '' as string,
  /** Days after which a story closes to new comments; 0 never. */
  closeAfterDays: 0,
  /** Session (token) length in seconds: 30 days. */
  sessionSeconds: 2_592_000,
  /**
   * The widget's language for the whole site (a tag such as `fr`); empty: each thread follows
   * the language of its page (`<html lang>`). A thread's `locale` option comes before either.
   */
  locale: '' as string,
  /**
   * Text of the reaction button in the stream; empty: the stream's own words, in the reader's
   * language (Like / Liked).
   */
  reactionLabel: '' as string,
  /** Whether the stream shows a Featured tab. */
  featuredTab: true,
  /** Likes only (LIKE), or up and down votes with a score and the Best sort (UP_DOWN). */
  voting: 'LIKE' as 'LIKE' | 'UP_DOWN',
  /** Whether readers may put uploaded images in their comments. */
  commentImages: false,
  /**
   * Whether readers may comment as guests: a name, an optional address (for reply emails once
   * confirmed), no account (store/guests.ts).
   */
  guestComments: false,
  /** Whether guests' comments wait for a moderator (held with the reason GUEST). */
  guestPremod: true,
  /** Whether new comments get a local spam score (moderation/spam.ts), held at `spamThreshold`. */
  spamFilter: true,
  /** The spam score, in percent, at or above which a comment is held with the reason SPAM. */
  spamThreshold: 90,
  /** An https stylesheet the stream loads after its own; empty for none. */
  customCssUrl: '' as string,
  /** SMTP server host name; empty for none (then `SMTP_URL`, else the outbox). */
  smtpHost: '' as string,
  /** SMTP port: 587 is submission with STARTTLS; 465 is implicit TLS. */
  smtpPort: 587,
  /** Connect with TLS from the start (port 465); false upgrades with STARTTLS when offered. */
  smtpSecure: false,
  /** SMTP user name; empty to send without authentication. */
  smtpUser: '' as string,
  /** SMTP password. Write-only: the API tells only whether one is set. */
  smtpPassword: '' as string,
  /** Sender address of every email; empty for `no-reply@<public host>`. */
  smtpFrom: '' as string,
  /**
   * Whether moderators and admins must use two-factor sign-in: without it their sessions are
   * readers' until they set it up (TWO_FACTOR_ENROLMENT_REQUIRED).
   */
  requireStaffTwoFactor: false,
  /** Days the audit log keeps an entry (db/store/auditLog.ts): a year. */
  auditRetentionDays: 365,
  /**
   * Days a guest's IP address is kept after their last comment (store/guests.ts): long enough to
   * ban a network that is writing now, not to know forever where someone wrote from.
   */
  ipRetentionDays: 30,
  /**
   * Whether webhook endpoints may be at loopback, private or link-local addresses
   * (webhooks/postWebhook.ts): off, so a URL cannot make the server reach what only it can.
   */
  webhooksAllowPrivateAddresses: false,
});

/** Rate limits (DESIGN.md): attempts allowed per window. */
export const RATE_LIMITS = Object.freeze({
  /**
   * Sign-in: 10 attempts per 10 minutes per IP, a hard limit. Per account there is no block
   * (anyone could then lock anyone out): see signInFailures.
   */
  signIn: { limit: 10, windowSeconds: 600 },
  /**
   * Failed sign-ins per account, per hour: up to `limit` cost nothing more; past it every attempt
   * from a device the account never signed in on needs a proof-of-work challenge and waits a
   * growing delay (SIGN_IN_CHALLENGE). Never a block.
   */
  signInFailures: { limit: 5, windowSeconds: 3600 },
  /** Sign-in attempts from one remembered device: 10 per 10 minutes, hard (it is one device). */
  signInDevice: { limit: 10, windowSeconds: 600 },
  /**
   * Challenges are single-use: each id is recorded for as long as a challenge lives, and a
   * second use is refused. (`limit` is unused: records never refuse.)
   */
  signInChallengeUse: { limit: 1, windowSeconds: 600 },
  /** Provider sign-ins started (each stores a flow): 30 per 10 minutes per IP. */
  providerSignIn: { limit: 30, windowSeconds: 600 },
  /** Emails connecting a provider to an account, per IP: as email confirmations. */
  providerLinkEmail: { limit: 3, windowSeconds: 3600 },
  /**
   * A signed-in user confirming their password (password or email change): 10 per 10 minutes
   * per account. Only the account's own sessions count here, so strangers' sign-in failures
   * never stand in its way.
   */
  passwordConfirm: { limit: 10, windowSeconds: 600 },
  /** Sign-up: 20 per hour per IP. */
  signUp: { limit: 20, windowSeconds: 3600 },
  /** Sign-ups per address: 3 per hour (each sends a mail there; nobody's inbox is a target). */
  signUpPerEmail: { limit: 3, windowSeconds: 3600 },
  /** Sign-up codes tried per IP: 20 per 10 minutes. */
  signUpConfirm: { limit: 20, windowSeconds: 600 },
  /**
   * Moderation alert emails (one per comment, moderation/moderationAlerts.ts): 30 per hour per
   * moderator. A spam wave past that is not mailed comment by comment; the queues count it.
   */
  moderationAlert: { limit: 30, windowSeconds: 3600 },
  /** Posting: 10 per minute per user. */
  post: { limit: 10, windowSeconds: 60 },
  /** Guest sessions started (each a new guest): 10 per hour per IP. */
  guestSession: { limit: 10, windowSeconds: 3600 },
  /** Guests' posts per IP: 10 per 10 minutes, whichever guest of that address writes. */
  guestPostPerIp: { limit: 10, windowSeconds: 600 },
  /** Reports: 30 per hour per user. */
  report: { limit: 30, windowSeconds: 3600 },
  /**
   * Posting per IP: 60 per minute. Looser than per user because an office or a school shares one
   * address; it stops one machine posting through many accounts.
   */
  postPerIp: { limit: 60, windowSeconds: 60 },
  /** Reports per IP: 120 per hour (shared addresses, as above). */
  reportPerIp: { limit: 120, windowSeconds: 3600 },
  /**
   * New stories per IP: 300 per hour. A story is created by the first visit to an article, so a
   * site's launch legitimately creates many; a script inventing URLs is what this stops.
   */
  storyCreate: { limit: 300, windowSeconds: 3600 },
  /** Comment edits: 10 per minute per user (each is a revision sent to every live reader). */
  edit: { limit: 10, windowSeconds: 60 },
  /** New replies-feed links (each replaces the last): 10 per hour per user. */
  repliesFeed: { limit: 10, windowSeconds: 3600 },
  /** Deleting one's own comments: 20 per minute per user. */
  delete: { limit: 20, windowSeconds: 60 },
  /** Reactions (adding or taking one back): 60 per minute per user. */
  react: { limit: 60, windowSeconds: 60 },
  /** Reactions per IP: 300 per minute (shared addresses). */
  reactPerIp: { limit: 300, windowSeconds: 60 },
  /** Confirmation links sent again: 3 per hour per user (each is an email to the address). */
  emailConfirmation: { limit: 3, windowSeconds: 3600 },
  /** Username changes: 3 per day per user (a name is how others know someone). */
  usernameChange: { limit: 3, windowSeconds: 86_400 },
  /** Avatar uploads: 10 per hour per user (each is up to 2 MB of disk until replaced). */
  avatarUpload: { limit: 10, windowSeconds: 3600 },
  /** Avatar uploads per IP: 30 per hour (shared addresses). */
  avatarUploadPerIp: { limit: 30, windowSeconds: 3600 },
  /** Comment images: 30 per hour per user (each up to COMMENT_IMAGE_MAX_BYTES of work). */
  imageUpload: { limit: 30, windowSeconds: 3600 },
  /** Comment images per IP: 90 per hour (shared addresses). */
  imageUploadPerIp: { limit: 90, windowSeconds: 3600 },
  /**
   * Two-factor codes tried per account, right or wrong: 10 per 15 minutes, then none is tried
   * until the window moves on. Counted before each check, so parallel guesses count too. Only
   * someone who knows the password (or holds a session) gets this far, so a hard limit locks out
   * nobody else; 10 tries among a million codes every 15 minutes is decades of guessing.
   */
  twoFactorAttempts: { limit: 10, windowSeconds: 900 },
  /** A second-factor ticket is good once (`limit` unused, as for signInChallengeUse). */
  twoFactorTicketUse: { limit: 1, windowSeconds: 600 },
});

/** How long the ticket of a sign-in waiting for its two-factor code lasts, in seconds. */
export const SECOND_FACTOR_TICKET_SECONDS = 300;

/**
 * Sign-in challenges (11 wrong passwords from 2 addresses used to lock the owner
 * out for 10 minutes). Past RATE_LIMITS.signInFailures failures, a sign-in from an unknown
 * device must carry a solved challenge: SHA-256 of `<challenge>:<solution>` starting with `bits`
 * zero bits (a few seconds of a browser's work at most), valid only after a delay that doubles
 * with each failure.
 */
/** The proof of work of a sign-up or a new guest session (auth/botCheck.ts). */
export const DEFAULT_BOT_CHECK = Object.freeze({
  /** Zero bits asked: about 16,000 hashes, a fraction of a second in a browser. */
  bits: 14,
});

export const SIGN_IN_CHALLENGE = Object.freeze({
  /** Zero bits asked at the first challenged attempt (about 16,000 hashes). */
  baseBits: 14,
  /** Most bits ever asked (about 260,000 hashes: seconds in a browser). */
  maxBits: 18,
  /** Delay at the first challenged attempt, doubled per further failure… */
  baseDelayMs: 1000,
  /** …up to this. */
  maxDelayMs: 60_000,
  /** A challenge is valid this long after it was issued. */
  lifetimeSeconds: 600,
});
/**
 * The code that finishes a sign-up: sign-up answers the same for every address
 * and emails either this code or, to an address that has an account, a note saying so.
 */
export const SIGN_UP_CODE = Object.freeze({
  /** Digits in the code. */
  digits: SIGN_UP_CODE_DIGITS,
  /** The code works this long. */
  ttlSeconds: 1800,
  /** Wrong codes before the sign-up is dropped (a million codes, five tries). */
  maxAttempts: 5,
});

/** A remembered device (its token, kept by the sign-in popup and the console) lasts a year. */
export const DEVICE_TOKEN_SECONDS = 365 * 86_400;

/**
 * How much one report counts toward the automatic hold (the site's `reportThreshold`), by the
 * reporter's standing (three brand-new accounts could hide any comment). Weights are stored in
 * hundredths, fixed when the report is filed. See moderation/reportWeight.ts.
 */
export const REPORT_WEIGHTS = Object.freeze({
  /** An account whose email is not confirmed: its reports still reach moderators, hide nothing. */
  unconfirmed: 0,
  /** Confirmed, younger than a day. */
  firstDay: 0.25,
  /** Confirmed, younger than a week. */
  firstWeek: 0.5,
  /** Confirmed, a week or older. */
  established: 1,
  /** Each past report a moderator upheld (the comment rejected) adds this much, net of dismissals… */
  perUpheld: 0.25,
  /** …up to this factor. */
  maxRecordFactor: 2,
  /** More reports dismissed (the comment approved) than upheld: the weight is multiplied by this. */
  mostlyDismissedFactor: 0.5,
});
/**
 * Live "comment updated" events for one comment within this window are sent as one: the first at
 * once, then at most one more at the window's end (readers load the comment fresh, so the last
 * carries the final state). 150 edits in 367 ms were 150 pushes to every reader.
 */
export const LIVE_UPDATE_COALESCE_MS = 250;
/** Age after which an upload no user names is swept at start (an upload in flight is younger). */
export const ORPHAN_UPLOAD_GRACE_MS = 600_000;
/**
 * Age after which an uploaded comment image that no comment of its uploader uses is deleted: a
 * week, since a draft holding its link may wait that long in the reader's browser.
 */
export const UNUSED_IMAGE_GRACE_MS = 604_800_000;
/**
 * Most images one reader may have uploaded and not yet posted: beyond, an upload is refused
 * (RATE_LIMITED) until they post or delete some, so unused uploads cannot fill the disk.
 */
export const UNUSED_IMAGES_MAX = 20;
/** Largest avatar upload, in bytes (2 MB). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** Overlap during which a rotated SSO key still verifies, in seconds (7 days). */
export const SSO_KEY_ROTATION_OVERLAP_SECONDS = 604_800;
/**
 * Longest idempotency key (`Idempotency-Key`, `clientMutationId`). The transport sends UUIDs (36);
 * PostgreSQL cannot index a value over ~2.7 KB, so longer keys are refused on both databases.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
/** Longest story URL, in characters (what browsers and CDNs handle everywhere; indexed). */
export const STORY_URL_MAX_LENGTH = 2048;
/** How far ahead of our clock a host's SSO token may be dated (`iat`), in seconds. */
export const SSO_CLOCK_SKEW_SECONDS = 60;
/**
 * Longest life (`exp - iat`) of a host's SSO token, in seconds, unless the site allows more: a
 * token is a credential in a page's HTML, so a long-lived one copied from a cache or a log signs
 * its holder in for as long.
 */
export const SSO_TOKEN_MAX_LIFETIME_SECONDS = 86_400;
/** The most a site may allow its SSO tokens to live, in seconds (30 days). */
export const SSO_TOKEN_LIFETIME_CEILING_SECONDS = 2_592_000;
/** Longest host user id in an SSO token, in characters (indexed with the site). */
export const SSO_USER_ID_MAX_LENGTH = 255;
/**
 * WebSocket bounds (one anonymous socket held 3,000 subscriptions; 300 sockets took
 * ~180 MB). A reader's page opens one socket with two subscriptions per story; a console tab one
 * with a few. Sockets per address stay generous for offices and schools behind one address.
 */
export const WS_LIMITS = Object.freeze({
  /** Open sockets per client address. */
  socketsPerIp: 50,
  /** Operations running at once on one socket. */
  subscriptionsPerSocket: 20,
  /** Operations on one socket about the same story (`storyId`). */
  subscriptionsPerStory: 4,
  /** Largest message a client may send, in bytes (a subscribe message is a few KB). */
  maxMessageBytes: 64 * 1024,
  /** Time a socket has to send `connection_init` before it is closed, in ms. */
  connectionInitTimeoutMs: 3_000,
});
/** Largest request body, in bytes. */
export const REQUEST_BODY_MAX_BYTES = 3 * 1024 * 1024;
/**
 * At shutdown, how long the server waits for emails still being sent; the rest stay in the mail
 * queue for the next start (the whole shutdown should end within 10 s).
 */
export const MAIL_DRAIN_MS = 5_000;

/**
 * Longest a SIGTERM'd server takes to stop: requests in flight finish (up to 5 s), sockets are
 * closed with 1001, pending emails are sent or filed, then the process exits; past this it exits
 * anyway (code 1, saying so). Under Docker's default 10 s before its SIGKILL (counted from before
 * the signal arrives), so that the orchestrator never has to kill it; compose.yaml gives 15 s.
 */
export const SHUTDOWN_DEADLINE_MS = 9_000;

/** What the last steps of a shutdown (filing unsent mail, closing the database) keep for themselves. */
export const SHUTDOWN_FINAL_STEPS_MS = 1_000;

/** A stop slower than this is logged as a warning, with how long each step took. */
export const SLOW_STOP_MS = 2_000;
/** How long a rate-limit command waits for Redis before the request fails with SERVICE_UNAVAILABLE. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** How long `/healthz` and `/readyz` wait for each dependency before calling it down. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;
/** Free disk space under which `/readyz` reports the data folder full (100 MB). */
export const READY_MIN_FREE_DISK_BYTES = 100 * 1024 * 1024;
/** How long a starting server waits for Redis (`REDIS_URL`) to answer before refusing to start. */
export const REDIS_READY_TIMEOUT_MS = 5_000;
/** Notification switches of a user who has not set them: all on, as commenters expect. */
export const DEFAULT_NOTIFICATIONS = Object.freeze({
  onReply: true,
  onFeatured: true,
  onModeration: true,
});
/** How often the account-deletion job looks for accounts past their grace period (hourly). */
export const ACCOUNT_DELETION_SWEEP_MS = 3_600_000;

/** How long an email-confirmation link works, in seconds (3 days: mail can sit unread). */
export const CONFIRM_EMAIL_TOKEN_TTL_SECONDS = 259_200;
/** How long a password-reset link works, in seconds (1 hour: it is as good as the password). */
export const RESET_PASSWORD_TOKEN_TTL_SECONDS = 3_600;
/** How long a moderator invitation works, in seconds (7 days: the addressee may be away). */
export const MODERATOR_INVITE_TOKEN_TTL_SECONDS = 604_800;
/** How long a data-download link works, in seconds (24 hours). */
export const DOWNLOAD_TOKEN_TTL_SECONDS = 86_400;
/**
 * How long an unsubscribe link works, in seconds (30 days: notification emails are read late,
 * and the link must still work when someone finally tires of them).
 */
export const UNSUBSCRIBE_TOKEN_TTL_SECONDS = 2_592_000;

/** How long SQLite waits for another connection's write lock before failing, in ms. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * How often a server process asks for the hourly sweep's lease (db/store/jobLeases.ts): the
 * holder renews it, the others take it once it has run out (three of these unrenewed).
 */
export const JOB_LEASE_TICK_MS = 5 * 60_000;
/** SQLite statements kept prepared, by their SQL text (the server runs a few hundred kinds). */
export const SQLITE_STATEMENT_CACHE = 500;
/** Largest number of PostgreSQL connections one server process opens. */
export const POSTGRES_POOL_MAX = 10;

/** scrypt CPU/memory cost N (2^15): about 32 MiB and ~50 ms per hash on a small server. */
export const SCRYPT_COST = 2 ** 15;
/** scrypt block size r. */
export const SCRYPT_BLOCK_SIZE = 8;
/** scrypt parallelisation p. */
export const SCRYPT_PARALLELIZATION = 1;
/** Random salt length, in bytes. */
export const SCRYPT_SALT_BYTES = 16;
/** Derived key length, in bytes. */
export const SCRYPT_KEY_BYTES = 64;

/**
 * The shared read cache (anonymous reads, see readCache/). Events drop a result the moment what
 * it shows changes; the TTL only bounds what a change outside any event (a database edited by
 * hand) leaves behind. In memory it holds at most `maxBytes` of results (their JSON); a CDN in
 * front may keep a cacheable answer `sharedMaxAgeSeconds` (it hears no events: a rejected
 * comment can linger there that long, never in Parley's own cache).
 */
/**
 * Longest a process uses the organization row it read (its settings) without reading it again
 * (runtime/organizationCache.ts). A change made through the server applies at once on every
 * instance; this bounds one made by another command (`parley secrets`) or an announcement lost.
 */
export const ORGANIZATION_CACHE_TTL_MS = 5_000;

export const READ_CACHE = Object.freeze({
  ttlMs: 300_000,
  maxBytes: 32 * 1024 * 1024,
  sharedMaxAgeSeconds: 10,
});
