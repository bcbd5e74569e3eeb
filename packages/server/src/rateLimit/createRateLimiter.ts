import { RATE_LIMITS } from '../defaults';
import { ParleyError } from '../ParleyError';

/**
 * Fixed-window rate limits: each action × key gets a counter per window of `windowSeconds`, and
 * the attempt that takes it past `limit` is refused until the window ends.
 *
 * Fixed windows, not sliding ones: one counter per key and one round trip per attempt, and the
 * retry time is exact. The cost is a burst of up to 2 × limit across a window boundary, which is
 * harmless for the limits we set (sign-in stays far below what guessing a password needs).
 * Refused attempts still count, so hammering during a block does not shorten it.
 */

/** An action that is rate-limited (a key of `RATE_LIMITS`). */
export type RateLimitedAction = keyof typeof RATE_LIMITS;

/** One limit: attempts allowed per window. */
export interface RateLimit {
  /** Attempts allowed per window. */
  limit: number;
  /** Window length, in seconds. */
  windowSeconds: number;
}

/** Where counters live. Shared stores (Redis) make several server instances share limits. */
export interface RateLimitStore {
  /**
   * Adds one to the counter `key`, creating it to expire `ttlMs` after `nowMs`, and returns the
   * new count. A counter that has expired counts from zero again.
   */
  increment(key: string, ttlMs: number, nowMs: number): Promise<number>;
  /** The counter `key` as it stands (0 when absent or expired), without adding to it. */
  get(key: string, nowMs: number): Promise<number>;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Counter store: `createMemoryRateLimitStore()` or `createRedisRateLimitStore()`. */
  store: RateLimitStore;
  /** Limits per action. @default RATE_LIMITS */
  limits?: Readonly<Record<RateLimitedAction, RateLimit>>;
  /** Told of each refusal (the metric). */
  onRefused?(action: RateLimitedAction): void;
}

/** Counts attempts and refuses the ones over the limit. */
export interface RateLimiter {
  /**
   * Records one attempt at `action` by `key` (a user id, an IP, an account email); throws
   * ParleyError `RATE_LIMITED` with `retryAfterSeconds` when it is over the limit.
   * @default now Date.now()
   */
  consume(action: RateLimitedAction, key: string, now?: number): Promise<void>;
  /**
   * Records one event (a failed sign-in, a used challenge) without ever refusing; returns how
   * many `key` has in the current window, this one included.
   */
  record(action: RateLimitedAction, key: string, now?: number): Promise<number>;
  /** How many events `key` has in the current window of `action`, without adding one. */
  count(action: RateLimitedAction, key: string, now?: number): Promise<number>;
}

/** Readable names for the error message. */
const ACTION_NAMES: Record<RateLimitedAction, string> = {
  signIn: 'sign-in attempts',
  moderationAlert: 'moderation alert emails',
  signInFailures: 'failed sign-ins',
  signInDevice: 'sign-in attempts from this device',
  signInChallengeUse: 'uses of this challenge',
  providerSignIn: 'sign-ins with a provider',
  providerLinkEmail: 'connection emails',
  passwordConfirm: 'password confirmations',
  signUp: 'sign-ups',
  signUpPerEmail: 'sign-ups with this address',
  signUpConfirm: 'sign-up codes',
  post: 'comments',
  guestSession: 'guest sessions from this network',
  guestPostPerIp: 'guest comments from this network',
  report: 'reports',
  postPerIp: 'comments from this network',
  reportPerIp: 'reports from this network',
  storyCreate: 'new stories from this network',
  edit: 'edits',
  delete: 'deleted comments',
  repliesFeed: 'new replies-feed links',
  react: 'reactions',
  reactPerIp: 'reactions from this network',
  emailConfirmation: 'confirmation emails',
  usernameChange: 'username changes',
  avatarUpload: 'avatar uploads',
  avatarUploadPerIp: 'avatar uploads from this network',
  imageUpload: 'image uploads',
  imageUploadPerIp: 'image uploads from this network',
  twoFactorAttempts: 'two-factor codes',
  twoFactorTicketUse: 'uses of this sign-in ticket',
};

/** Creates a rate limiter over a counter store. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, limits = RATE_LIMITS, onRefused } = options;
  const windowOf = (action: RateLimitedAction, now: number) => {
    const windowMs = limits[action].windowSeconds * 1000;
    const window = Math.floor(now / windowMs);
    return { window, windowEndMs: (window + 1) * windowMs };
  };
  const limiter: RateLimiter = {
    async record(action, key, now = Date.now()) {
      const { window, windowEndMs } = windowOf(action, now);
      // The window number is part of the key, so a new window starts from a fresh counter even if
      // the store's expiry lags; the TTL only reclaims space.
      return store.increment(`${action}:${window}:${key}`, windowEndMs - now, now);
    },
    async count(action, key, now = Date.now()) {
      return store.get(`${action}:${windowOf(action, now).window}:${key}`, now);
    },
    async consume(action, key, now = Date.now()) {
      const count = await limiter.record(action, key, now);
      if (count <= limits[action].limit) return;
      onRefused?.(action);
      const { windowEndMs } = windowOf(action, now);
      const retryAfterSeconds = Math.max(1, Math.ceil((windowEndMs - now) / 1000));
      throw new ParleyError(
        'RATE_LIMITED',
        `Too many ${ACTION_NAMES[action]}; try again in ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      );
    },
  };
  return limiter;
}
