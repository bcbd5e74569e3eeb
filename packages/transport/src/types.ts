import type { Client } from '@urql/core';
import type { TransportError } from './TransportError';

/** Returns the bearer token to send, or null/empty when signed out. Read for every request and socket. */
export type GetToken = () => string | null | undefined | Promise<string | null | undefined>;

/** Query cache sizing. */
export interface QueryCacheOptions {
  /** Most cached query results; least recently used evicted first. @default 100 */
  max?: number;
  /** Time a cached result stays usable, in ms. @default 900000 */
  ttlMs?: number;
}

/** Reconnect backoff of the subscription socket: `min(maxMs, minMs × factor^attempt)` with jitter. */
export interface BackoffOptions {
  /** First wait, in ms. @default 100 */
  minMs?: number;
  /** Longest wait, in ms. @default 10000 */
  maxMs?: number;
  /** Growth per attempt. @default 2 */
  factor?: number;
}

/** Subscription socket (graphql-ws) options. */
export interface SocketOptions {
  /** Connection-ack and keep-alive pong time-out, in ms; the socket is dropped and reconnected after it. @default 30000 */
  timeoutMs?: number;
  /** Reconnect backoff. */
  backoff?: BackoffOptions;
}

/** Error-report (Sentry) options. Without `dsn` nothing is sent and the SDK is never loaded. */
export interface ErrorReportOptions {
  /** Sentry DSN; when absent `reportError` is a no-op in production and logs in development. @default undefined */
  dsn?: string;
  /** Most breadcrumbs kept. @default 100 */
  maxBreadcrumbs?: number;
  /** Longest string value in a report, in characters. @default 250 */
  maxValueLength?: number;
  /** Flush interval of queued reports and client reports, in ms. @default 60000 */
  flushIntervalMs?: number;
  /** Largest serialized report, in bytes; larger ones are trimmed, or dropped if they cannot be. @default 102400 */
  maxSerializedBytes?: number;
  /** Sentry environment name. @default undefined */
  environment?: string;
  /** Sentry release name. @default undefined */
  release?: string;
  /** Development mode: without a DSN, `reportError` logs to the console. @default false */
  development?: boolean;
}

/** Offline storage options. */
export interface StorageOptions {
  /** Quota in bytes (UTF-8 of key + JSON value); least-recently-written keys are evicted past it. @default 4980736 */
  maxBytes?: number;
  /** Database name / key prefix that separates Parley's data from the host's. @default 'parley' */
  namespace?: string;
}

/** Options of {@link createTransport}. Every field but `url` is optional and defaults to `DEFAULTS`. */
export interface TransportOptions {
  /** HTTP endpoint, e.g. `https://comments.example.com/graphql`. */
  url: string;
  /** graphql-ws endpoint. @default url with http→ws, https→wss */
  wsUrl?: string;
  /** Token source, read for every request and every socket connection. @default () => null */
  getToken?: GetToken;
  /** Per-attempt time limit of a request, in ms. @default 15000 */
  requestTimeoutMs?: number;
  /** Waits before each retry of a failed request, in ms; its length is the number of retries. @default [1000, 3000] */
  retryDelaysMs?: readonly number[];
  /** Query cache sizing. */
  queryCache?: QueryCacheOptions;
  /** Subscription socket. */
  socket?: SocketOptions;
  /** Error reports. */
  errorReports?: ErrorReportOptions;
  /** Offline storage. */
  storage?: StorageOptions;
  /** fetch implementation (Node, tests). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** WebSocket implementation (Node, tests). @default globalThis.WebSocket */
  WebSocket?: unknown;
  /**
   * Send each document's id ({@link documentId}) instead of its text, and queries as `GET` (within
   * the URL limit), so a server that accepts only its trusted documents answers, and anonymous
   * reads can be cached by URL. The server must know the documents: Parley's clients set this,
   * a client with documents of its own leaves it off. @default false
   */
  persisted?: boolean;
}

/** State of the live-update socket, as the widget shows it. */
export type SocketStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline';

/** Async key–value store with a byte quota (IndexedDB → localStorage → memory). */
export interface TransportStorage {
  /** Which backend was chosen after probing. */
  readonly backend: 'indexeddb' | 'localstorage' | 'memory';
  /** The stored value, or undefined. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores a JSON-serializable value; rejects with `STORAGE_QUOTA_EXCEEDED` if it alone exceeds the quota. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes a key (no error if absent). */
  remove(key: string): Promise<void>;
  /** Every stored key. */
  keys(): Promise<string[]>;
  /** Bytes used and the quota. */
  usage(): Promise<{ bytes: number; maxBytes: number }>;
}

/** Context attached to a report. */
export type ReportContext = Record<string, unknown>;

/** The network layer handed to the widget and the console. */
export interface Transport {
  /** urql client, ready for urql's Provider (React and Preact). */
  readonly client: Client;
  /** Offline storage (drafts, queued posts). */
  readonly storage: TransportStorage;
  /** Sends an error report (Sentry when a DSN is set). Never throws. */
  reportError(error: unknown, context?: ReportContext): void;
  /** Listens to socket status changes; returns the unsubscribe function. */
  onStatusChange(listener: (status: SocketStatus) => void): () => void;
  /** The socket status now. */
  readonly status: SocketStatus;
  /**
   * The server's time (ms since the epoch, by the clock its acknowledgement carried) when the
   * socket last received anything; undefined before the first. What a reader may have missed
   * while the socket was down was published after it: the stream asks for that on reconnect.
   */
  lastHeard(): number | undefined;
  /** Tells the transport the token changed (sign in / out): the socket reconnects with the new one. */
  tokenChanged(): void;
  /** Closes the socket, clears every timer and flushes reports. */
  dispose(): Promise<void>;
}

export type { TransportError };
