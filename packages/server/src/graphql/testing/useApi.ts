import { createTokenService } from '../../auth/tokens';
import { answerChallenges } from '../../auth/testing/answerChallenges';
import { createTestDatabase } from '../../db/testDatabases';
import { testBox } from '../../db/testFixtures';
import type { DialectName } from '../../db/createDatabase';
import type { TestDatabase } from '../../db/testDatabases';
import type { MailMessage, Mailer } from '../../email/createMailer';
import { createPubSub } from '../../pubsub/createPubSub';
import type { ParleyPubSub } from '../../pubsub/createPubSub';
import { createMemoryRateLimitStore } from '../../rateLimit/createMemoryRateLimitStore';
import { createRateLimiter, type RateLimiter } from '../../rateLimit/createRateLimiter';
import { createYogaApp } from '../../runtime/createYogaApp';
import type { ParleyYoga } from '../../runtime/createYogaApp';
import { createOriginPolicy } from '../../runtime/plugins/originPolicy';
import { createMemoryLogger } from '../../runtime/testing/createTestYoga';
import { createContextFactory } from '../context';
import type { ServerDeps } from '../context';
import { createParleySchema } from '../createParleySchema';

/** Operations whose input carries a proof of work (auth/botCheck.ts). */
const BOT_CHECKED = /\b(signUp|startGuestSession)\s*\(/;

/** The test site's origin: the install fixture permits it. */
export const SITE_ORIGIN = 'https://site.example';
/** The server's public URL in tests. */
export const PUBLIC_URL = 'http://127.0.0.1:3000';
/** Password of every fixture account. */
export const PASSWORD = 'correct horse battery';

/** A GraphQL answer. */
export interface GraphQLAnswer<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** The API of one test file on one dialect, fresh for every test. */
export interface Api {
  /** The database (fresh per test). */
  readonly db: TestDatabase['db'];
  /** The server's dependencies (rate limiter, pub/sub… fresh per test). */
  readonly deps: ServerDeps;
  /** The in-process app. */
  readonly yoga: ParleyYoga;
  /** Every email sent during the test. */
  readonly mail: MailMessage[];
  /**
   * Runs one operation, as the signed-in holder of `token` when given, from the address `ip` when
   * given (as a socket's peer; else the request has no address, as in-process).
   */
  request<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
    ip?: string,
  ): Promise<GraphQLAnswer<T>>;
  /** As {@link request}, without answering a sign-up's or a guest session's challenge. */
  rawRequest<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
    ip?: string,
  ): Promise<GraphQLAnswer<T>>;
  /** Runs one operation and returns its data, failing the test on any error. */
  ok<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
    ip?: string,
  ): Promise<T>;
  /** Installs the fixture organization; returns the admin's token and the site's id. */
  install(): Promise<{ adminToken: string; adminId: string; siteId: string }>;
  /** Signs up `username` (email `<username>@example.com`); returns the token and user id. */
  /**
   * Signs up `username` (`<username>@example.com`) as a reader does: signUp, then confirmSignUp
   * with the emailed code. The account's email is confirmed.
   */
  signUp(username: string): Promise<{ token: string; userId: string }>;
  /** The latest sign-up code mailed to `email`, taken out of {@link mail}. */
  signUpCode(email: string): Promise<string>;
  /**
   * Makes a user a reader of long standing: email confirmed, account a month old (their reports
   * then count fully toward the automatic hold, see moderation/reportWeight.ts).
   */
  establish(userId: string): Promise<void>;
  /** Moves the clock the resolvers see. */
  setNow(date: Date): void;
}

/**
 * Wires Jest hooks for an API suite on `dialect`: one database per file (created before all,
 * emptied before each test, dropped after all) and fresh server dependencies per test.
 */
export function useApi(dialect: DialectName): Api {
  let database: TestDatabase;
  let deps: ServerDeps;
  let yoga: ParleyYoga;
  let pubsub: ParleyPubSub;
  let now: Date | undefined;
  let testStart = new Date();
  const mail: MailMessage[] = [];
  /**
   * The limits count per fixed minute (or hour) of the clock: with the limiter reading the real
   * clock, a window could turn in the middle of a test's twenty attempts and let the one over the
   * limit through (it did, in CI). Within a test the limiter's clock stands at the test's start,
   * or wherever {@link Api.setNow} puts the resolvers' clock.
   */
  const limiterNow = () => (now ?? testStart).getTime();
  const standingStill = (limiter: RateLimiter): RateLimiter => ({
    consume: (action, key, at = limiterNow()) => limiter.consume(action, key, at),
    record: (action, key, at = limiterNow()) => limiter.record(action, key, at),
    count: (action, key, at = limiterNow()) => limiter.count(action, key, at),
  });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.reset();
    mail.length = 0;
    now = undefined;
    testStart = new Date();
    const { logger } = createMemoryLogger();
    pubsub = createPubSub();
    const mailer: Mailer = {
      async send(message) {
        mail.push(message);
        return { via: 'outbox', messageId: String(mail.length), file: '', links: [] } as never;
      },
      close() {},
      drain: async () => 0,
      smtpFromEnvironment: false,
    };
    deps = {
      db: database.db,
      tokens: createTokenService({ secret: new Uint8Array(32).fill(7), issuer: PUBLIC_URL }),
      box: testBox,
      pubsub,
      rateLimiter: standingStill(createRateLimiter({ store: createMemoryRateLimitStore() })),
      mailer,
      logger,
      publicUrl: PUBLIC_URL,
      dataDir: database.dataDir,
      now: () => now ?? new Date(),
    };
    yoga = createYogaApp({
      schema: createParleySchema(),
      context: createContextFactory(deps),
      originPolicy: createOriginPolicy({
        getAllowedOrigins: async () => [SITE_ORIGIN],
        publicUrl: PUBLIC_URL,
        logger,
      }),
      logger,
    });
  });
  afterEach(async () => {
    await pubsub?.close();
  });

  const api: Api = {
    get db() {
      return database.db;
    },
    get deps() {
      return deps;
    },
    get yoga() {
      return yoga;
    },
    mail,
    // A sign-up's or a new guest's proof of work (auth/botCheck.ts) is answered as the popup
    // does, so that suites about what comes after need not; botCheck.test.ts sends them bare.
    async request(query, variables = {}, token, ip) {
      const input = variables['input'];
      if (
        BOT_CHECKED.test(query) &&
        input &&
        typeof input === 'object' &&
        !('challenge' in input)
      ) {
        return answerChallenges((answer) =>
          api.rawRequest(query, { ...variables, input: { ...input, ...answer } }, token, ip),
        );
      }
      return api.rawRequest(query, variables, token, ip);
    },
    async rawRequest(query, variables = {}, token, ip) {
      const response = await yoga.fetch(
        'http://test/graphql',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ query, variables }),
        },
        // What createYogaApp reads the caller's address from (runtime/clientIp.ts).
        ip === undefined ? {} : { req: { socket: { remoteAddress: ip }, headers: {} } },
      );
      return (await response.json()) as GraphQLAnswer<any>;
    },
    async ok(query, variables, token, ip) {
      const answer = await api.request(query, variables, token, ip);
      if (answer.errors?.length) {
        throw new Error(`GraphQL errors: ${JSON.stringify(answer.errors, null, 2)}`);
      }
      return answer.data as any;
    },
    async install() {
      const data = await api.ok(
        `mutation ($input: InstallInput!) {
          install(input: $input) { token user { id } }
        }`,
        {
          input: {
            organization: {
              name: 'Example News',
              contactEmail: 'team@example.com',
              url: SITE_ORIGIN,
            },
            site: { name: 'Example', url: SITE_ORIGIN, allowedOrigins: [SITE_ORIGIN] },
            admin: { email: 'admin@example.com', username: 'admin', password: PASSWORD },
          },
        },
      );
      const site = await database.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      return { adminToken: data.install.token, adminId: data.install.user.id, siteId: site.id };
    },
    async signUp(username) {
      const email = `${username}@example.com`;
      await api.ok(`mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`, {
        input: { email, username, password: PASSWORD },
      });
      const data = await api.ok(
        `mutation ($input: ConfirmSignUpInput!) { confirmSignUp(input: $input) { token user { id } } }`,
        { input: { email, code: await api.signUpCode(email) } },
      );
      return { token: data.confirmSignUp.token, userId: data.confirmSignUp.user.id };
    },
    async signUpCode(email) {
      // The mail is sent in the background: wait for it a moment.
      for (let i = 0; i < 100; i += 1) {
        const at = mail.map((m) => m.to).lastIndexOf(email);
        const code = mail[at]?.text.match(/^ {4}(\d{6})$/m)?.[1];
        if (code !== undefined) {
          // Read and put away, as from an inbox: tests then count only the mail that follows.
          mail.splice(at, 1);
          return code;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`No sign-up code was mailed to ${email}`);
    },
    async establish(userId) {
      await database.db
        .updateTable('users')
        .set({
          email_verified: 1,
          created_at: new Date(Date.now() - 30 * 86_400_000).toISOString(),
        })
        .where('id', '=', userId)
        .execute();
    },
    setNow(date) {
      now = date;
    },
  };
  return api;
}
