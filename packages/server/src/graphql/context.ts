import { rateLimitNetwork } from '../db/store/ipBans';
import DataLoader from 'dataloader';
import type { OrganizationCache } from '../runtime/organizationCache';
import type { Mailer } from '../email/createMailer';
import type { Db } from '../db/inTransaction';
import { findCommentsByIds } from '../db/store/comments';
import type { Comment } from '../db/store/comments';
import type { Connection } from '../db/store/paginate';
import { firstRepliesOf } from '../db/store/replyPreviews';
import { getOrganization, getSettings } from '../db/store/organization';
import type { Organization, Settings } from '../db/store/organization';
import { votesOf } from '../db/store/reactions';
import type { VoteValue } from '../db/store/reactions';
import { findStoriesByIds } from '../db/store/stories';
import type { Story } from '../db/store/stories';
import { findUsersByIds } from '../db/store/users';
import type { User } from '../db/store/users';
import type { SecretBox } from '../auth/secretBox';
import type { SessionClaims, TokenService } from '../auth/tokens';
import { findSessionStanding, touchSession } from '../db/store/sessions';
import { ParleyError } from '../ParleyError';
import { isModerator } from './permissions';
import { apiTokenViewerOf, tokenHolds } from './apiTokenAccess';
import { isApiTokenSecret } from '../db/store/apiTokens';
import type { ApiToken } from '../db/store/apiTokens';
import type { ParleyPubSub } from '../pubsub/createPubSub';
import type { RateLimiter } from '../rateLimit/createRateLimiter';
import type { ReadCache } from '../readCache/createReadCache';
import type { ContextFactory, ContextInit } from '../runtime/createYogaApp';
import type { Logger } from '../runtime/createLogger';
import { DEFAULT_SETTINGS } from '../defaults';
import type { WebhookDispatcher } from '../webhooks/createWebhookDispatcher';
import type { AkismetClient } from '../moderation/akismet';

/** What every operation shares: created once per server. */
export interface ServerDeps {
  /** The database (SQLite or PostgreSQL). */
  db: Db;
  /** Session tokens. */
  tokens: TokenService;
  /** Seals the secrets stored in the database (SSO keys, the SMTP password). */
  box: SecretBox;
  /** Live updates (in process or Redis). */
  pubsub: ParleyPubSub;
  /** Sign-in, sign-up, posting and report limits. */
  rateLimiter: RateLimiter;
  /** Transactional email (SMTP or the outbox). */
  mailer: Mailer;
  /** Server log. */
  logger: Logger;
  /** Where the server is reached (links in emails, the embed snippet). */
  publicUrl: string;
  /** The data folder (uploads live in `<dataDir>/uploads`). */
  dataDir: string;
  /** The clock (tests move it). */
  now: () => Date;
  /** The shared read cache, which events invalidate; none in tests that do not need it. */
  readCache?: ReadCache;
  /**
   * The organization row kept between requests (runtime/organizationCache.ts); without one (tests
   * that write it directly), each request reads it.
   */
  organizationCache?: OrganizationCache;
  /** Akismet, when `AKISMET_API_KEY` is set (moderation/akismet.ts). */
  akismet?: AkismetClient;
  /**
   * Sends webhook deliveries (webhooks/createWebhookDispatcher.ts). Without one, deliveries are
   * queued and wait for a process that has one (tests make their own).
   */
  webhooks?: WebhookDispatcher;
}

/** Per-request batching: one query for all the authors (stories, …) a page of comments needs. */
export interface Loaders {
  user: DataLoader<string, User | undefined>;
  comment: DataLoader<string, Comment | undefined>;
  story: DataLoader<string, Story | undefined>;
  /** Whether the viewer reacted to a comment (false when signed out). */
  /** The viewer's vote on a comment: 1 up, -1 down, 0 none (anonymous readers: 0). */
  viewerVote: DataLoader<string, VoteValue>;
  /** First page of replies, keyed `"<first>:<parentId>"` (one query for a whole thread page). */
  firstReplies: DataLoader<string, Connection<Comment>>;
}

/** The context every resolver receives. */
export interface ParleyContext extends ServerDeps {
  /** The signed-in user, or null. */
  viewer: User | null;
  /** The session token's claims when one was sent (what signOut ends), else null. */
  session: SessionClaims | null;
  /**
   * The API token the request was made with, else null: then `viewer` is its admin with the
   * role its scope gives, and `session` is null (apiTokenAccess.ts).
   */
  apiToken: ApiToken | null;
  /**
   * The viewer when they are staff and may act as staff; null otherwise. A staff member whose
   * sign-in skipped the second factor they have (or that the organization requires of staff) is
   * a reader here: see {@link ParleyContext.staffAccess} for why.
   */
  staff: User | null;
  /** Whether the viewer may act as staff, and if not, what is missing. */
  staffAccess: StaffAccess;
  /** The request's User-Agent (the signed-in devices list names the browser); undefined in process. */
  userAgent: string | undefined;
  /** Caller's IP (per-IP rate limits); undefined in process. */
  ip: string | undefined;
  /**
   * The request's `Idempotency-Key` (the transport's client mutation id): a mutation retried with
   * the same key is answered from what the first attempt did.
   */
  idempotencyKey: string | undefined;
  /** Per-request loaders. */
  loaders: Loaders;
  /**
   * An HTTP GET from anywhere but a page of this server: any page can make a browser send a GET
   * without asking (a link, an image), so it may read but never create anything — not even the
   * story a first visit would create. The stream's own GETs come from its frame, which is served
   * by this server: the browser marks them `Sec-Fetch-Site: same-origin`, a header no page can
   * set, so a reader's first visit still creates the story.
   */
  readOnly: boolean;
  /** The organization (undefined before install), read once per request. */
  organization(): Promise<Organization | undefined>;
  /** Settings (defaults before install), read once per request. */
  settings(): Promise<Settings>;
}

/**
 * Whether a viewer may act as staff: `GRANTED`; `NOT_STAFF`; `SECOND_FACTOR_NEEDED` (they have
 * two-factor sign-in, and this session was signed in without it: an emailed reset link, a session
 * from before enrolment); `ENROLMENT_NEEDED` (the organization requires it of staff, and they have
 * none yet).
 */
export type StaffAccess = 'GRANTED' | 'NOT_STAFF' | 'SECOND_FACTOR_NEEDED' | 'ENROLMENT_NEEDED';

/** Whether `user`, signed in with `claims`, may act as staff. */
async function staffAccessOf(
  user: User | null,
  claims: SessionClaims | null,
  settings: () => Promise<Settings>,
): Promise<StaffAccess> {
  if (user === null || claims === null || !isModerator(user)) return 'NOT_STAFF';
  // Signed in by their site (SSO): the site answers for their second factor. Not any account
  // without a password: one signed in with GitHub or an OIDC issuer is Parley's to ask (it sets a
  // password, then enrols).
  if (user.ssoSiteId !== null) return 'GRANTED';
  if (user.twoFactorEnabled) return claims.secondFactor ? 'GRANTED' : 'SECOND_FACTOR_NEEDED';
  return (await settings()).requireStaffTwoFactor ? 'ENROLMENT_NEEDED' : 'GRANTED';
}

/**
 * Whether the session of a long-lived operation (a subscription) may still act as staff now:
 * not ended since (sign-out, an epoch moved on), and granted staff access by the stored user and
 * settings of now, not of when it started.
 */
export async function staffSessionHolds(ctx: ParleyContext): Promise<boolean> {
  if (ctx.apiToken !== null) {
    return tokenHolds(ctx.db, { id: ctx.apiToken.id }, ctx.now(), () => getSettings(ctx.db));
  }
  if (ctx.session === null) return false;
  const standing = await sessionStanding(ctx.db, ctx.session);
  if (typeof standing === 'string') return false;
  const settings = async () => (await getOrganization(ctx.db))?.settings ?? DEFAULT_SETTINGS;
  return (await staffAccessOf(standing.user, ctx.session, settings)) === 'GRANTED';
}

/**
 * The user of a session whose token verified, and when it was last marked used; or why the
 * session no longer stands (its user gone, its epoch moved on, signed out), as a message.
 */
async function sessionStanding(
  db: Db,
  claims: SessionClaims,
): Promise<{ user: User; lastUsed: string | undefined } | string> {
  const standing = await findSessionStanding(db, claims.userId, claims.tokenId);
  if (standing === undefined) return 'The session token names no user.';
  const { user, revoked, lastUsed } = standing;
  if (claims.epoch !== user.sessionEpoch) {
    return 'This session was ended (the password changed, or its owner signed out everywhere); sign in again.';
  }
  if (revoked) return 'This session was signed out; sign in again.';
  return { user, lastUsed };
}

/**
 * The viewer class whose live results are the same for every member, for sharing one execution
 * of a subscription among them: anonymous readers. What the Comment type shows depends on the
 * viewer and on their staff powers alone (body, author, status, parent, viewerReacted,
 * bodySource), both null for every anonymous reader, who has no ignore list either. A signed-in
 * reader's subscription executes on its own.
 */
export function viewerClassOf(context: unknown): string | undefined {
  const { viewer, staff } = context as Pick<ParleyContext, 'viewer' | 'staff'>;
  return viewer === null && staff === null ? 'anonymous' : undefined;
}

/** Builds each operation's context: the viewer from the bearer token, fresh loaders. */
export function createContextFactory(deps: ServerDeps): ContextFactory {
  return async (init: ContextInit): Promise<ParleyContext> => {
    let organization: Promise<Organization | undefined> | undefined;
    const loadOrganization = () =>
      (organization ??= deps.organizationCache?.get() ?? getOrganization(deps.db));
    const settings = async () => (await loadOrganization())?.settings ?? { ...DEFAULT_SETTINGS };
    const byApiToken =
      init.token && isApiTokenSecret(init.token)
        ? await apiTokenViewerOf(deps.db, init.token, deps.now(), settings, init.request)
        : null;
    const signedIn = init.token && !byApiToken ? await viewerOf(deps, init.token) : null;
    const viewer = byApiToken?.user ?? signedIn?.user ?? null;
    // A token's admin proved their second factor when they made it; it has none of its own.
    const staffAccess: StaffAccess = byApiToken
      ? 'GRANTED'
      : await staffAccessOf(viewer, signedIn?.claims ?? null, settings);
    return {
      ...deps,
      viewer,
      session: signedIn?.claims ?? null,
      apiToken: byApiToken?.token ?? null,
      staff: staffAccess === 'GRANTED' ? viewer : null,
      staffAccess,
      userAgent: init.request?.headers.get('user-agent') ?? undefined,
      ip: init.ip,
      idempotencyKey: init.request?.headers.get('idempotency-key') ?? undefined,
      loaders: createLoaders(deps.db, viewer),
      // A script with an API token reads what exists: it never creates a story either.
      readOnly:
        byApiToken !== null ||
        (init.request?.method === 'GET' &&
          init.request.headers.get('sec-fetch-site') !== 'same-origin'),
      organization: loadOrganization,
      settings,
    };
  };
}

/**
 * The user a token names. A valid token for a user who no longer exists is invalid: the client
 * drops it and carries on signed out.
 */
async function viewerOf(
  deps: ServerDeps,
  token: string,
): Promise<{ user: User; claims: SessionClaims }> {
  const claims = await deps.tokens.verify(token);
  const standing = await sessionStanding(deps.db, claims);
  if (typeof standing === 'string') throw new ParleyError('TOKEN_INVALID', standing);
  const { user, lastUsed } = standing;
  if (lastUsed !== undefined) await touchSession(deps.db, claims.tokenId, lastUsed, deps.now());
  return { user, claims };
}

function createLoaders(db: Db, viewer: User | null): Loaders {
  const byId = <T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>) =>
    new DataLoader<string, T | undefined>(async (ids) => {
      const found = new Map((await load(ids)).map((row) => [row.id, row]));
      return ids.map((id) => found.get(id));
    });
  return {
    user: byId((ids) => findUsersByIds(db, ids)),
    comment: byId((ids) => findCommentsByIds(db, ids)),
    story: byId(async (ids) => [...(await findStoriesByIds(db, ids)).values()]),
    firstReplies: new DataLoader<string, Connection<Comment>>(async (keys) => {
      const byFirst = new Map<number, string[]>();
      for (const key of keys) {
        const [first, parentId] = splitReplyKey(key);
        byFirst.set(first, [...(byFirst.get(first) ?? []), parentId]);
      }
      const pages = new Map<string, Connection<Comment>>();
      for (const [first, parentIds] of byFirst) {
        for (const [parentId, page] of await firstRepliesOf(db, parentIds, first)) {
          pages.set(`${first}:${parentId}`, page);
        }
      }
      return keys.map((key) => pages.get(key) ?? new Error(`No replies page for ${key}`));
    }),
    viewerVote: new DataLoader<string, VoteValue>(async (ids) => {
      if (!viewer) return ids.map(() => 0);
      const votes = await votesOf(db, viewer.id, ids);
      return ids.map((id) => votes.get(id) ?? 0);
    }),
  };
}

/** `"<first>:<parentId>"` → [first, parentId]. */
function splitReplyKey(key: string): [number, string] {
  const colon = key.indexOf(':');
  return [Number(key.slice(0, colon)), key.slice(colon + 1)];
}

/**
 * The rate-limit key of the caller's address: an IPv6 caller counts by their /64, an IPv4 one
 * seen through IPv6 as IPv4 (store/ipBans.ts `rateLimitNetwork`). In process (tests) there is no
 * peer address: all such calls share one bucket, as one machine's would.
 */
export function ipKey(ctx: Pick<ParleyContext, 'ip'>): string {
  return `ip:${ctx.ip === undefined ? 'local' : rateLimitNetwork(ctx.ip)}`;
}
