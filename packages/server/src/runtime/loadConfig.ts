import { DATA_DIR, DEFAULT_REDIS_PREFIX, EXAMPLE_PORT, HOST, PORT } from '../defaults';
import { MAX_TRUSTED_PROXIES } from './clientIp';

/** Log levels pino understands; `silent` turns logging off (the default under Jest). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What `LOG_FORMAT` may say. */
export const LOG_FORMATS = ['json', 'pretty'] as const;

/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Log level when `LOG_LEVEL` is not set. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/** URL schemes that select PostgreSQL (both spellings are accepted by `pg`). */
const POSTGRES_PROTOCOLS = ['postgres:', 'postgresql:'];
/** URL schemes ioredis accepts (`rediss:` is Redis over TLS). */
const REDIS_PROTOCOLS = ['redis:', 'rediss:'];
/** URL schemes nodemailer accepts for an SMTP transport. */
const SMTP_PROTOCOLS = ['smtp:', 'smtps:'];
/** Largest TCP port. */
const MAX_PORT = 65_535;

/** The server's configuration, read once from the environment by {@link loadConfig}. */
export interface Config {
  /** `PORT`: HTTP port of the API and the bundles. @default 3000 */
  port: number;
  /** `HOST`: interface the servers bind to. @default '127.0.0.1' */
  host: string;
  /** `EXAMPLE_PORT`: port of the example host page (a second origin). @default 8080 */
  examplePort: number;
  /** `PUBLIC_URL`: the address people reach the server at, without a trailing slash. @default `http://HOST:PORT` */
  publicUrl: string;
  /** `PARLEY_DATA_DIR`: SQLite file, uploads, secrets, the dev outbox. @default './.parley-data' */
  dataDir: string;
  /** `DATABASE_URL`: a postgres:// URL selects PostgreSQL; unset means the embedded database. */
  databaseUrl: string | undefined;
  /** `REDIS_URL`: shared pub/sub for several processes; unset means in-process pub/sub. */
  redisUrl: string | undefined;
  /**
   * `REDIS_PREFIX`: prefix of every Redis key and channel (pub/sub, read cache, rate limits), so
   * several installs can share one Redis. @default 'parley:'
   */
  redisPrefix: string;
  /** `SMTP_URL`: outgoing mail, over the console's SMTP settings; unset means those, else the outbox. */
  smtpUrl: string | undefined;
  /** `AKISMET_API_KEY`: Akismet's verdict joins the local spam score (moderation/akismet.ts); unset: off. */
  akismetApiKey: string | undefined;
  /** `AKISMET_URL`: where Akismet is (a stand-in in tests). @default 'https://rest.akismet.com' */
  akismetUrl: string | undefined;
  /**
   * `PARLEY_SECRET`: signs session tokens and seals the secrets stored in the database; unset
   * means one generated into the data folder (outside production only).
   */
  secret: string | undefined;
  /** `PARLEY_SECRET_PREVIOUS`: the value before a rotation; what it sealed is sealed again. */
  previousSecret: string | undefined;
  /** `LOG_LEVEL`: pino level. @default 'info' ('silent' when NODE_ENV is 'test') */
  logLevel: LogLevel;
  /**
   * `LOG_FORMAT` (`json` or `pretty`): JSON lines for a log collector, or coloured lines for
   * people. @default `pretty` when standard output is a terminal, else `json`
   */
  logFormat: LogFormat | undefined;
  /** `NODE_ENV === 'production'`: hides field suggestions and other development aids. */
  production: boolean;
  /**
   * `TRUST_PROXY`: how many proxies (load balancer, TLS terminator) stand in front of the server;
   * per-IP rate limits then read the caller from `X-Forwarded-For`. @default 0
   */
  trustedProxies: number;
  /** `METRICS_TOKEN`: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /**
   * `GRAPHQL_ALLOW_ARBITRARY` (`true`/`false`): whether GraphQL requests may carry their own query
   * text and introspect, besides the clients' trusted documents. @default true outside production
   */
  allowArbitraryDocuments: boolean;
  /**
   * `PARLEY_MIGRATE` (`true`/`false`): whether the server applies pending migrations as it starts.
   * `false` for a deployment that runs `parley migrate` itself (several instances, one migration);
   * it then refuses to start while migrations are pending. @default true
   */
  migrate: boolean;
}

/** Environment variables as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** Thrown for an environment variable that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  /** The variable at fault, e.g. `PORT`. */
  readonly variable: string;

  constructor(variable: string, expected: string, received: string) {
    super(`Invalid ${variable}: expected ${expected}, received ${JSON.stringify(received)}.`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/**
 * Reads and validates the configuration. Nothing is read at import time, so
 * tests pass their own `env`. Empty strings count as unset, which is what a blank line in an
 * `.env` file means.
 */
export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const port = parsePort('PORT', read('PORT'), PORT);
  const host = read('HOST') ?? HOST;
  const publicUrl = parseUrl('PUBLIC_URL', read('PUBLIC_URL'), ['http:', 'https:']);
  return {
    port,
    host,
    examplePort: parsePort('EXAMPLE_PORT', read('EXAMPLE_PORT'), EXAMPLE_PORT),
    // A trailing slash would double up when routes are appended (`${publicUrl}/graphql`).
    publicUrl: (publicUrl ?? `http://${formatHost(host)}:${port}`).replace(/\/+$/, ''),
    dataDir: read('PARLEY_DATA_DIR') ?? DATA_DIR,
    databaseUrl: parseUrl('DATABASE_URL', read('DATABASE_URL'), POSTGRES_PROTOCOLS),
    redisUrl: parseUrl('REDIS_URL', read('REDIS_URL'), REDIS_PROTOCOLS),
    redisPrefix: parseRedisPrefix(read('REDIS_PREFIX')),
    smtpUrl: parseUrl('SMTP_URL', read('SMTP_URL'), SMTP_PROTOCOLS),
    akismetApiKey: read('AKISMET_API_KEY'),
    akismetUrl: parseUrl('AKISMET_URL', read('AKISMET_URL'), ['http:', 'https:']),
    secret: read('PARLEY_SECRET'),
    previousSecret: read('PARLEY_SECRET_PREVIOUS'),
    logLevel: parseLogLevel(read('LOG_LEVEL'), read('NODE_ENV')),
    logFormat: parseLogFormat(read('LOG_FORMAT')),
    production: read('NODE_ENV') === 'production',
    trustedProxies: parseCount('TRUST_PROXY', read('TRUST_PROXY'), MAX_TRUSTED_PROXIES),
    metricsToken: read('METRICS_TOKEN'),
    allowArbitraryDocuments:
      parseBoolean('GRAPHQL_ALLOW_ARBITRARY', read('GRAPHQL_ALLOW_ARBITRARY')) ??
      read('NODE_ENV') !== 'production',
    migrate: parseBoolean('PARLEY_MIGRATE', read('PARLEY_MIGRATE')) ?? true,
  };
}

function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ConfigError(name, '`true` or `false`', value);
}

function parseCount(name: string, value: string | undefined, max: number): number {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new ConfigError(name, `a number of proxy hops from 0 to ${max}`, value);
  }
  return Number(value);
}

function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  // Port 0 is legitimate: the OS picks a free port (tests, several local instances).
  if (!/^\d+$/.test(value) || port > MAX_PORT) {
    throw new ConfigError(name, `a port number from 0 to ${MAX_PORT}`, value);
  }
  return port;
}

function parseUrl(
  name: string,
  value: string | undefined,
  protocols: readonly string[],
): string | undefined {
  if (value === undefined) return undefined;
  const expected = `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, expected, redact(value));
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, expected, redact(value));
  return value;
}

function parseLogLevel(value: string | undefined, nodeEnv: string | undefined): LogLevel {
  // Jest sets NODE_ENV=test: keep test output clean unless a developer asks for logs.
  if (value === undefined) return nodeEnv === 'test' ? 'silent' : DEFAULT_LOG_LEVEL;
  return oneOf('LOG_LEVEL', value, LOG_LEVELS);
}

/** `value`, lower-cased, when it is one of `choices`; else the variable's ConfigError. */
function oneOf<T extends string>(name: string, value: string, choices: readonly T[]): T {
  const choice = value.toLowerCase();
  if (!(choices as readonly string[]).includes(choice)) {
    throw new ConfigError(name, `one of ${choices.join(', ')}`, value);
  }
  return choice as T;
}

/** Longest `REDIS_PREFIX`: it starts every key. */
const REDIS_PREFIX_MAX_LENGTH = 64;

function parseRedisPrefix(value: string | undefined): string {
  if (value === undefined) return DEFAULT_REDIS_PREFIX;
  // Printable, no spaces: it is part of every key and channel name, and shows in redis-cli.
  if (value.length > REDIS_PREFIX_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      'REDIS_PREFIX',
      `up to ${REDIS_PREFIX_MAX_LENGTH} printable characters without spaces, such as "parley:"`,
      value,
    );
  }
  return value;
}

function parseLogFormat(value: string | undefined): LogFormat | undefined {
  return value === undefined ? undefined : oneOf('LOG_FORMAT', value, LOG_FORMATS);
}

/** IPv6 literals need brackets inside a URL. */
function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Connection URLs carry passwords: never echo one into an error message or a log. */
function redact(value: string): string {
  return value.replace(/\/\/[^@/]*@/, '//***@');
}
