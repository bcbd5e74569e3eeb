import { createTokenService } from '../../auth/tokens';
import { createTestDatabase } from '../../db/testDatabases';
import type { DialectName } from '../../db/createDatabase';
import type { TestDatabase } from '../../db/testDatabases';
import type { MailMessage, Mailer } from '../../email/createMailer';
import { createPubSub } from '../../pubsub/createPubSub';
import type { ParleyPubSub } from '../../pubsub/createPubSub';
import { createMemoryRateLimitStore } from '../../rateLimit/createMemoryRateLimitStore';
import { createRateLimiter } from '../../rateLimit/createRateLimiter';
import { createYogaApp } from '../../runtime/createYogaApp';
import type { ParleyYoga } from '../../runtime/createYogaApp';
import { createOriginPolicy } from '../../runtime/plugins/originPolicy';
import { createMemoryLogger } from '../../runtime/testing/createTestYoga';
import { createContextFactory } from '../context';
import type { ServerDeps } from '../context';
import { createParleySchema } from '../createParleySchema';

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
  /** Runs one operation, as the signed-in holder of `token` when given. */
  request<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<GraphQLAnswer<T>>;
  /** Runs one operation and returns its data, failing the test on any error. */
  ok<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<T>;
  /** Installs the fixture organization; returns the admin's token and the site's id. */
  install(): Promise<{ adminToken: string; adminId: string; siteId: string }>;
  /** Signs up `username` (email `<username>@example.com`); returns the token and user id. */
  signUp(username: string): Promise<{ token: string; userId: string }>;
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
  const mail: MailMessage[] = [];

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
    const { logger } = createMemoryLogger();
    pubsub = createPubSub();
    const mailer: Mailer = {
      async send(message) {
        mail.push(message);
        return { via: 'outbox', messageId: String(mail.length), file: '', links: [] } as never;
      },
      close() {},
      smtpFromEnvironment: false,
    };
    deps = {
      db: database.db,
      tokens: createTokenService({ secret: new Uint8Array(32).fill(7), issuer: PUBLIC_URL }),
      pubsub,
      rateLimiter: createRateLimiter({ store: createMemoryRateLimitStore() }),
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
    async request(query, variables = {}, token) {
      const response = await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLAnswer<any>;
    },
    async ok(query, variables, token) {
      const answer = await api.request(query, variables, token);
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
      const data = await api.ok(
        `mutation ($input: SignUpInput!) { signUp(input: $input) { token user { id } } }`,
        { input: { email: `${username}@example.com`, username, password: PASSWORD } },
      );
      return { token: data.signUp.token, userId: data.signUp.user.id };
    },
    setNow(date) {
      now = date;
    },
  };
  return api;
}
