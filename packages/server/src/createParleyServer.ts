import { mkdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { loadServerSecrets } from './auth/secrets';
import { createTokenService } from './auth/tokens';
import { createDatabase } from './db/createDatabase';
import type { ParleyDatabase } from './db/createDatabase';
import { pendingMigrations } from './db/migrations';
import { createFeeds } from './feeds/atomFeeds';
import { createCommentsHtml } from './feeds/commentsHtml';
import { createProviderRoutes } from './auth/providers/providerRoutes';
import { createPortabilityRoutes, startImportRunner } from './portability/importJobs';
import type { ImportRunner } from './portability/importJobs';
import { getSettings } from './db/store/organization';
import { listSites } from './db/store/sites';
import { createMailer } from './email/createMailer';
import { createMailQueue } from './email/createMailQueue';
import { createWebhookDispatcher } from './webhooks/createWebhookDispatcher';
import { startModerationDigests } from './moderation/moderationAlerts';
import { smtpSettingsOf } from './email/smtpSettingsOf';
import { sealStoredSecrets, surveyStoredSecrets } from './db/store/storedSecrets';
import { createContextFactory, viewerClassOf } from './graphql/context';
import type { ServerDeps } from './graphql/context';
import { createAkismetClient } from './moderation/akismet';
import { createParleySchema } from './graphql/createParleySchema';
import { startAccountDeletionJob } from './jobs/startAccountDeletionJob';
import { createOrganizationCache } from './runtime/organizationCache';
import { createPubSub } from './pubsub/createPubSub';
import { createMemoryRateLimitStore } from './rateLimit/createMemoryRateLimitStore';
import { createRateLimiter } from './rateLimit/createRateLimiter';
import type { RateLimit, RateLimitedAction } from './rateLimit/createRateLimiter';
import {
  createRedisRateLimitStore,
  REDIS_RATE_LIMIT_CLIENT_OPTIONS,
} from './rateLimit/createRedisRateLimitStore';
import { createHttpServer } from './runtime/createHttpServer';
import type { AppRoute } from './runtime/serveStatic';
import type { HttpServer } from './runtime/createHttpServer';
import { createProcessLogger } from './runtime/createLogger';
import type { Logger } from './runtime/createLogger';
import { createMetrics } from './runtime/createMetrics';
import { sweepOrphanAvatars } from './uploads/storeAvatar';
import { DATA_DIR_MODE, secureDataDir } from './runtime/secureDataDir';
import type { Config } from './runtime/loadConfig';
import { trustedDocumentsFor } from './runtime/plugins/trustedDocuments';
import { STREAM_PAGE_PATH } from './runtime/streamPage';
import { STREAM_PAGE_FILES } from './clientBuilds';
import { apiTokenWorks } from './graphql/apiTokenAccess';
import {
  MAIL_DRAIN_MS,
  ORGANIZATION_CACHE_TTL_MS,
  SHUTDOWN_DEADLINE_MS,
  SHUTDOWN_FINAL_STEPS_MS,
  SLOW_STOP_MS,
  RATE_LIMITS,
  READ_CACHE,
  READY_MIN_FREE_DISK_BYTES,
  REDIS_READY_TIMEOUT_MS,
} from './defaults';
import {
  createMemoryReadStore,
  createReadCache,
  createRedisReadStore,
} from './readCache/createReadCache';

/** Options of {@link createParleyServer}. */
export interface ParleyServerOptions {
  /** Configuration (see `loadConfig`). */
  config: Config;
  /** URL prefix → folder of built files to serve (client bundles, the console). @default {} */
  staticRoutes?: Record<string, string | AppRoute>;
  /** Logger. @default pino at `config.logLevel` */
  logger?: Logger;
  /** How long to wait for Redis at start. @default REDIS_READY_TIMEOUT_MS */
  redisReadyTimeoutMs?: number;
  /** The clock operations read (tests move it). @default the system clock */
  now?: () => Date;
  /** Prefix of every Redis key and channel, over `config.redisPrefix` (`REDIS_PREFIX`). */
  redisPrefix?: string;
  /** Rate limits over RATE_LIMITS' (benchmarks raise them: never a setting). @default {} */
  rateLimits?: Partial<Record<RateLimitedAction, RateLimit>>;
}

/** A Parley server, built and ready to listen. */
export interface ParleyServer {
  /** The HTTP server (GraphQL, WebSocket, static files, health, metrics). */
  http: HttpServer;
  /** What every operation shares (database, tokens, pub/sub…); tests reach the data through it. */
  deps: ServerDeps;
  /** Which database this process uses. */
  dialect: ParleyDatabase['dialect'];
  /** The runner of imports started from the console (tests wake it and wait for it). */
  imports: ImportRunner;
  /** Listens on `config.port` (0: any free port) and `config.host`; resolves the port. */
  listen(): Promise<number>;
  /** Stops accepting, closes every connection, the database, Redis and SMTP. */
  close(): Promise<void>;
}

/**
 * Builds the whole server of one process from its configuration: SQLite in the data folder, or
 * PostgreSQL with `DATABASE_URL` (migrations run at start); in-process pub/sub and rate limits,
 * or Redis-backed ones with `REDIS_URL` so that several processes behind one address share live
 * updates and limits; SMTP, or the outbox folder.
 */
export async function createParleyServer(options: ParleyServerOptions): Promise<ParleyServer> {
  const { config } = options;
  const logger =
    options.logger ??
    (await createProcessLogger({ level: config.logLevel, format: config.logFormat }));
  // First of all, before the database or any secret is written into it.
  await secureDataDir({ dataDir: config.dataDir, logger });
  await mkdir(join(config.dataDir, 'uploads'), { recursive: true, mode: DATA_DIR_MODE });

  if (config.redisUrl) {
    await checkRedis(config.redisUrl, options.redisReadyTimeoutMs ?? REDIS_READY_TIMEOUT_MS);
  }
  // Before the database: a production start without PARLEY_SECRET fails here, before anything is
  // written into the database (the data folder has been made, and secureDataDir has run).
  const { tokenSecret, box } = await loadServerSecrets(config);
  // What start-up has opened, closed again (newest first) when it fails half-way: a process
  // that embeds the server lives on.
  const opened: (() => unknown)[] = [];
  try {
    const database = await createDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      migrate: config.migrate,
    });
    opened.push(() => database.close());
    // PARLEY_MIGRATE=false: the deployment migrates (`parley migrate`); code newer than the schema
    // would fail request by request, so it does not start at all.
    const pending = config.migrate ? [] : await pendingMigrations(database.db);
    if (pending.length > 0) {
      throw new Error(
        `The database has ${pending.length} pending migrations (${pending.join(', ')}) and ` +
          'PARLEY_MIGRATE=false: run parley migrate first.',
      );
    }
    // On SQLite this is the only process: what waits to be sealed is sealed now. On PostgreSQL
    // other instances may still read it with the old code or secret: `parley seal-secrets` does it
    // once they all run this one (storedSecrets.ts).
    const secrets = await (database.dialect === 'sqlite' ? sealStoredSecrets : surveyStoredSecrets)(
      database.db,
      box,
      { smtpFromEnvironment: config.smtpUrl !== undefined },
    );
    if (secrets.unreadable.length > 0) {
      throw new Error(
        `${secrets.unreadable.length} stored secret(s) were sealed with another PARLEY_SECRET: ` +
          `${secrets.unreadable.map((s) => s.what).join('; ')}. Set PARLEY_SECRET_PREVIOUS to the ` +
          'value they were sealed with, or, if it is lost, see parley forget-secrets --help.',
      );
    }
    if (secrets.pending > 0 && database.dialect === 'sqlite') {
      logger.info({ sealed: secrets.pending }, 'Stored secrets sealed under the current key');
    } else if (secrets.pending > 0) {
      logger.warn(
        { pending: secrets.pending },
        `${secrets.pending} stored secret(s) are in clear or sealed under PARLEY_SECRET_PREVIOUS: ` +
          'once every instance runs this version with this PARLEY_SECRET, run parley seal-secrets.',
      );
    }
    const redis = config.redisUrl
      ? new Redis(config.redisUrl, { lazyConnect: true, ...REDIS_RATE_LIMIT_CLIENT_OPTIONS })
      : undefined;
    // Without a listener ioredis reports every reconnect as an unhandled error event; the log is
    // where a Redis outage belongs (rate-limited mutations then fail at once with
    // SERVICE_UNAVAILABLE until it is back, and /healthz and /readyz say so).
    redis?.on('error', (error: Error) => logger.warn({ err: error }, 'Redis (rate limits) error'));
    // Connected before the server answers anything: the client queues nothing, so a rate-limited
    // post or a read-cache lookup sent meanwhile would fail (and the cache, distrusting Redis
    // after a failed read, would be read around for a second).
    // ioredis' connect() resolves on 'ready' (checkRedis above has said it can be reached).
    if (redis) opened.push(() => redis.disconnect());
    await redis?.connect();
    const metrics = createMetrics();
    const redisPrefix = options.redisPrefix ?? config.redisPrefix;
    const pubsub = createPubSub({
      redisUrl: config.redisUrl,
      prefix: redisPrefix,
      logger,
      onDelivered: (topic, lagSeconds) => metrics.pubsubLag.observe({ topic }, lagSeconds),
    });
    opened.push(() => pubsub.close());
    // Both pub/sub connections up before anyone can subscribe: a reader whose socket comes back to
    // a server just started (a rolling restart) subscribes at once, not on a connection still
    // connecting.
    await pubsub.ready();
    if (database.poolStats) metrics.watch({ pool: database.poolStats });
    // Every email through the queue: kept in the database until its server takes it.
    const mailer = createMailQueue({
      db: database.db,
      box,
      logger,
      // Every attempt counted, the queue's retries too (parley_emails_total).
      onResult: (result) => metrics.emails.inc({ result }),
      transport: createMailer({
        smtpUrl: config.smtpUrl,
        // Read per send, so what an admin saves in Configure › Email applies without a restart.
        loadSmtpSettings: async () => smtpSettingsOf(await getSettings(database.db), box),
        dataDir: config.dataDir,
        from: `Parley <no-reply@${new URL(config.publicUrl).hostname}>`,
        logger,
        production: config.production,
      }),
    });
    opened.push(() => mailer.close());
    // Webhook deliveries: queued in the database, sent by whichever process claims each.
    const webhooks = createWebhookDispatcher({
      db: database.db,
      box,
      logger,
      publicUrl: config.publicUrl,
      allowPrivateAddresses: async () =>
        (await getSettings(database.db)).webhooksAllowPrivateAddresses,
      onResult: (result) => metrics.webhookDeliveries.inc({ result }),
      ...(options.now ? { now: options.now } : {}),
    });
    opened.push(() => webhooks.close());
    // Anonymous reads, shared through Redis when there is one (with the fail-fast client: a Redis
    // outage reads around the cache instead of waiting on it).
    const readCache = createReadCache({
      store: redis
        ? createRedisReadStore({
            redis,
            prefix: `${redisPrefix}read:`,
            maxMemoBytes: READ_CACHE.maxBytes,
          })
        : createMemoryReadStore({ maxBytes: READ_CACHE.maxBytes }),
      logger,
      onLookup: (hit) => metrics.readCacheLookups.inc({ result: hit ? 'hit' : 'miss' }),
    });
    // A dropped connection (Redis restarted, or away): what other instances changed meanwhile may
    // not have been dropped from the shared cache, so it is emptied before it is read again.
    const lostRedis = () => readCache.lost();
    redis?.on('close', lostRedis);
    const organizationCache = createOrganizationCache({
      db: database.db,
      ttlMs: ORGANIZATION_CACHE_TTL_MS,
    });
    const deps: ServerDeps = {
      db: database.db,
      tokens: createTokenService({ secret: tokenSecret, issuer: config.publicUrl }),
      box,
      pubsub,
      rateLimiter: createRateLimiter({
        store: redis
          ? createRedisRateLimitStore({ redis, prefix: `${redisPrefix}rate:` })
          : createMemoryRateLimitStore(),
        limits: { ...RATE_LIMITS, ...options.rateLimits },
        onRefused: (action) => metrics.rateLimitRefusals.inc({ action }),
      }),
      mailer,
      logger,
      publicUrl: config.publicUrl,
      dataDir: config.dataDir,
      now: options.now ?? (() => new Date()),
      readCache,
      organizationCache,
      webhooks,
      ...(config.akismetApiKey === undefined
        ? {}
        : {
            akismet: createAkismetClient({
              apiKey: config.akismetApiKey,
              ...(config.akismetUrl === undefined ? {} : { url: config.akismetUrl }),
              blog: config.publicUrl,
            }),
          }),
    };

    // Imports started from the console (portability/importJobs.ts).
    const importRunner = startImportRunner(deps);
    opened.push(() => importRunner.close());
    // What /healthz asks, and /readyz with the disk besides: the services this process needs answer.
    const dependencyChecks: Record<string, () => Promise<void>> = {
      database: async () => void (await sql`select 1`.execute(database.db)),
      ...(redis === undefined ? {} : { redis: async () => void (await redis.ping()) }),
    };
    const http = createHttpServer({
      schema: createParleySchema(),
      context: createContextFactory(deps),
      viewerClass: viewerClassOf,
      getAllowedOrigins: async () =>
        (await listSites(database.db)).flatMap((s) => s.allowedOrigins),
      publicUrl: config.publicUrl,
      customStylesheets: async () => {
        const { customCssUrl } = await getSettings(database.db);
        return customCssUrl ? [customCssUrl] : [];
      },
      staticRoutes: { '/uploads/': join(config.dataDir, 'uploads'), ...options.staticRoutes },
      // Where the clients are served, the stream's page comes rendered (when its build exists).
      streamPage: options.staticRoutes?.[STREAM_PAGE_PATH] ? STREAM_PAGE_FILES : undefined,
      feeds: createFeeds({
        db: database.db,
        publicUrl: config.publicUrl,
        settings: () => getSettings(database.db),
      }),
      commentsHtml: createCommentsHtml({
        db: database.db,
        publicUrl: config.publicUrl,
        settings: () => getSettings(database.db),
        cache: readCache.store,
        cacheTtlMs: READ_CACHE.ttlMs,
      }),
      providerRoutes: createProviderRoutes(deps),
      portabilityRoutes: createPortabilityRoutes(deps, importRunner),
      logger,
      metrics,
      production: config.production,
      trustedDocuments: trustedDocumentsFor(
        config.production,
        config.allowArbitraryDocuments,
        (request) =>
          apiTokenWorks(database.db, request, deps.now(), () => getSettings(database.db)),
      ),
      readCache: {
        cache: readCache,
        ttlMs: READ_CACHE.ttlMs,
        sharedMaxAgeSeconds: READ_CACHE.sharedMaxAgeSeconds,
      },
      trustedProxies: config.trustedProxies,
      metricsToken: config.metricsToken,
      healthCheck: async () => {
        await Promise.all(Object.values(dependencyChecks).map((check) => check()));
      },
      // No check of migrations: a running server has applied them, or refused to start.
      readinessChecks: { ...dependencyChecks, disk: () => checkDataDirRoom(config.dataDir) },
    });

    // A site changed somewhere (this process or another, through Redis): its origins apply now.
    const sitesChanged = pubsub.subscribe('sitesChanged');
    void (async () => {
      for await (const _event of sitesChanged) http.originPolicy.invalidate();
    })();

    opened.push(() => sitesChanged.return?.());
    // The organization changed on another instance (or this one: dropping it twice is harmless).
    const organizationChanges = pubsub.subscribe('organizationChanged');
    void (async () => {
      for await (const _event of organizationChanges) organizationCache.invalidate();
    })();
    opened.push(() => organizationChanges.return?.());
    await sweepOrphanAvatars({ ...deps, logger });
    // Moderators' hourly and daily digests (each claimed in the database: sent once).
    const digests = startModerationDigests(deps);
    opened.push(() => digests.stop());
    const accountDeletion = startAccountDeletionJob({
      db: database.db,
      logger,
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      onRun: (result) => metrics.jobRuns.inc({ job: 'account_deletion', result }),
    });

    return {
      http,
      deps,
      dialect: database.dialect,
      imports: importRunner,
      listen: () => http.listen(config.port, config.host),
      async close() {
        const started = Date.now();
        const deadline = started + SHUTDOWN_DEADLINE_MS - SHUTDOWN_FINAL_STEPS_MS;
        // How long each step took, in ms: the log line says what a slow stop waited on.
        const steps: Record<string, number> = {};
        const step = async (name: string, work: () => Promise<unknown>) => {
          const from = Date.now();
          await work();
          steps[name] = Date.now() - from;
        };
        await step('jobs', async () => {
          importRunner.close();
          await accountDeletion.stop();
          await digests.stop();
          await sitesChanged.return?.();
          await organizationChanges.return?.();
        });
        await step('http', () => http.close());
        await step('pubsub', () => pubsub.close());
        // Emails the last requests started: sent, or left in the queue for the next start.
        await step('mail', () =>
          mailer.drain(Math.min(MAIL_DRAIN_MS, Math.max(0, deadline - Date.now()))),
        );
        mailer.close();
        // Deliveries in flight: recorded, or attempted again after the next start.
        webhooks.close();
        await step('webhooks', () =>
          webhooks.drain(Math.min(MAIL_DRAIN_MS, Math.max(0, deadline - Date.now()))),
        );
        redis?.off('close', lostRedis);
        redis?.disconnect();
        await step('database', () => database.close());
        const ms = Date.now() - started;
        // Slow: something held on (a request, a socket, an email); the steps say which.
        if (ms > SLOW_STOP_MS) logger.warn({ ms, steps }, `Stopped, slowly (${ms} ms)`);
        else logger.info({ ms, steps }, 'Stopped');
      },
    };
  } catch (error) {
    for (const close of opened.reverse()) await Promise.resolve(close()).catch(() => undefined);
    throw error;
  }
}

/** Rejects, saying how much is left, when the data folder's disk is nearly full. */
async function checkDataDirRoom(dataDir: string): Promise<void> {
  const { bavail, bsize } = await statfs(dataDir);
  const free = bavail * bsize;
  if (free < READY_MIN_FREE_DISK_BYTES) {
    throw new Error(
      `the data folder's disk is full: ${Math.floor(free / 1024 / 1024)} MB free ` +
        `(STORAGE_FULL under ${READY_MIN_FREE_DISK_BYTES / 1024 / 1024} MB)`,
    );
  }
}

/** A connection URL without its password. */
function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * A server that cannot reach its Redis would start, then fail every live update and every
 * rate-limited mutation: refuse to start instead, naming the variable to fix. One probe client,
 * without retries, so a failed start leaves no reconnecting connection behind.
 */
async function checkRedis(url: string, timeoutMs: number): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  // The connection's own error (refused, unknown host, timed out) says what is wrong; the
  // rejection of connect() would only say "Connection is closed."
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const { host, port } = probe.options;
    throw new Error(
      `Redis at REDIS_URL (${redactUrl(url)}, ${host}:${port}) could not be reached (waited ` +
        `at most ${timeoutMs} ms): ${(cause ?? (error as Error)).message}. Start Redis, or unset ` +
        'REDIS_URL to run one process with in-process live updates.',
    );
  } finally {
    probe.disconnect();
  }
}
