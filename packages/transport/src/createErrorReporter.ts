import type * as SentryBrowser from '@sentry/browser';
import type { Breadcrumb, BrowserOptions, ErrorEvent, Event, Scope } from '@sentry/browser';

/** The parts of `@sentry/browser` the reporter uses: what {@link ErrorReporterOptions.loadSentry} resolves to. */
export type SentryLike = Pick<
  typeof SentryBrowser,
  | 'BrowserClient'
  | 'Scope'
  | 'makeFetchTransport'
  | 'defaultStackParser'
  | 'dedupeIntegration'
  | 'eventFiltersIntegration'
  | 'httpContextIntegration'
  | 'linkedErrorsIntegration'
>;

/** Options of {@link createErrorReporter}; every figure is already resolved by the caller from `DEFAULTS`. */
export interface ErrorReporterOptions {
  /** Sentry DSN; without it the SDK is never loaded and nothing is sent. @default undefined */
  dsn?: string;
  /** Most breadcrumbs kept; the oldest go first. */
  maxBreadcrumbs: number;
  /** Longest message, exception value and breadcrumb message, in characters (0: no limit). */
  maxValueLength: number;
  /** Interval of the flush of client reports and buffered data, in ms (0: no timer). */
  flushIntervalMs: number;
  /** Largest serialized event, in UTF-8 bytes; bigger ones are trimmed, or dropped if they cannot be. */
  maxSerializedBytes: number;
  /** Sentry environment name. @default undefined */
  environment?: string;
  /** Sentry release name. @default undefined */
  release?: string;
  /** Development mode: without a DSN, `report` logs to the console. @default false */
  development?: boolean;
  /** Loads the SDK; called at most once, on the first report, and only with a DSN. @default () => import('@sentry/browser') */
  loadSentry?: () => Promise<SentryLike>;
  /** Where development logs go. @default globalThis.console */
  console?: Pick<Console, 'error'>;
  /** Sentry transport factory; tests pass one that records envelopes in memory. @default makeFetchTransport */
  transport?: BrowserOptions['transport'];
}

/** Sends error reports to Sentry (when a DSN is set) without touching the host page's global Sentry. */
export interface ErrorReporter {
  /** Reports an error with optional context (sent as `extra`). Never throws, never rejects. */
  report(error: unknown, context?: Record<string, unknown>): void;
  /** Records a breadcrumb; the next reports carry the newest `maxBreadcrumbs` of them. */
  addBreadcrumb(breadcrumb: {
    category?: string;
    message: string;
    data?: Record<string, unknown>;
  }): void;
  /** Waits until every report made so far has been handed to the network (SDK load included). */
  flush(): Promise<void>;
  /** Flushes, stops the flush timer and closes the Sentry client; later reports are ignored. */
  dispose(): Promise<void>;
}

/**
 * How long `flush()` and `dispose()` wait for requests in flight, in ms. Internal, not an option:
 * it only bounds how long a caller's `dispose()` can hang on a stalled request.
 */
const FLUSH_TIMEOUT_MS = 2_000;

/** Reports kept while the SDK loads; later ones are dropped (the first error is usually the cause). */
const PENDING_REPORTS_MAX = 30;

/** String lengths (characters) tried in turn by the last stage of {@link trimEvent}. */
const TRIM_STRING_LENGTHS = [1_024, 256, 64] as const;

/** Marks a string cut short: one character, so a cut value stays within its limit. */
const ELLIPSIS = '…';

interface PendingReport {
  error: unknown;
  context: Record<string, unknown> | undefined;
  /** The breadcrumbs as they were when the report was made. */
  breadcrumbs: Breadcrumb[];
}

/** `Client#_flushOutcomes` is protected in the typings; see the note in `createErrorReporter`. */
interface OutcomeFlusher {
  _flushOutcomes?: () => void;
}

async function importSentryBrowser(): Promise<SentryLike> {
  // Destructured, not the whole namespace, so Rollup can tree-shake the lazy chunk down to these
  // exports (the namespace would keep Replay, Feedback and tracing).
  const {
    BrowserClient,
    Scope,
    makeFetchTransport,
    defaultStackParser,
    dedupeIntegration,
    eventFiltersIntegration,
    httpContextIntegration,
    linkedErrorsIntegration,
  } = await import('@sentry/browser');
  return {
    BrowserClient,
    Scope,
    makeFetchTransport,
    defaultStackParser,
    dedupeIntegration,
    eventFiltersIntegration,
    httpContextIntegration,
    linkedErrorsIntegration,
  };
}

/**
 * Creates the error reporter. Without a DSN it never loads Sentry. With one, Sentry is imported on
 * the first report (a separate chunk), and reports made meanwhile are queued and sent once it is ready.
 */
export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const {
    dsn,
    maxBreadcrumbs,
    maxValueLength,
    flushIntervalMs,
    maxSerializedBytes,
    environment,
    release,
    development = false,
    loadSentry = importSentryBrowser,
    transport,
  } = options;
  const logger = options.console ?? globalThis.console;

  let disposed = false;
  let failed = false;
  let loading: Promise<void> | undefined;
  let client: InstanceType<SentryLike['BrowserClient']> | undefined;
  let scope: Scope | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** Breadcrumbs recorded before the SDK is ready, newest last. */
  const earlyBreadcrumbs: Breadcrumb[] = [];
  const pending: PendingReport[] = [];

  // Sentry v11 has no option for the client-report interval: `sendClientReports` (default true)
  // only switches them on, and BrowserClient sends them (`_flushOutcomes`) only when the document
  // becomes hidden; `client.flush()` does not send them. The internal `_flushInterval` option
  // exists but drives only the log and metric buffers. So the timer calls the protected
  // `_flushOutcomes` itself (guarded, so an SDK without it just skips this step).
  function flushOutcomes(c: NonNullable<typeof client>): void {
    const flusher = c as unknown as OutcomeFlusher;
    if (typeof flusher._flushOutcomes === 'function') flusher._flushOutcomes();
  }

  function capture(target: Scope, error: unknown, context: Record<string, unknown> | undefined) {
    target.captureException(error, context ? { captureContext: { extra: context } } : undefined);
  }

  function beforeSend(event: ErrorEvent): ErrorEvent | null {
    cutValues(event, maxValueLength);
    // The isolation scope (global) can add breadcrumbs of its own; the cap holds for the event.
    if (event.breadcrumbs && event.breadcrumbs.length > maxBreadcrumbs) {
      event.breadcrumbs = maxBreadcrumbs > 0 ? event.breadcrumbs.slice(-maxBreadcrumbs) : [];
    }
    // Sentry adds `sdk` after beforeSend (when it builds the envelope): keep room for it.
    const sdk = client?.getSdkMetadata()?.sdk;
    const reserve = sdk ? utf8Length(`,"sdk":${JSON.stringify(sdk)}`) : 0;
    return trimEvent(event, maxSerializedBytes - reserve);
  }

  async function load(): Promise<void> {
    try {
      start(await loadSentry());
    } catch (error) {
      // A chunk that failed to load (offline, deploy in between) is not retried: the session goes
      // on without reports rather than re-importing on every error.
      failed = true;
      client = undefined;
      pending.length = 0;
      earlyBreadcrumbs.length = 0;
      if (development) logger.error('[parley] could not load the error reporter', error);
    }
  }

  function start(sentry: SentryLike): void {
    // A client and a scope of our own, not `Sentry.init`: the host page may run its own Sentry, and
    // neither should see the other's events. Integrations that patch globals (GlobalHandlers,
    // BrowserApiErrors, Breadcrumbs, FunctionToString) are left out for the same reason.
    const c = new sentry.BrowserClient({
      dsn,
      environment,
      release,
      maxBreadcrumbs,
      // Sentry applies this to exception values and the request URL only; beforeSend cuts the rest.
      maxValueLength: maxValueLength > 0 ? maxValueLength : undefined,
      transport: transport ?? sentry.makeFetchTransport,
      stackParser: sentry.defaultStackParser,
      integrations: [
        sentry.eventFiltersIntegration(),
        sentry.linkedErrorsIntegration(),
        sentry.dedupeIntegration(),
        sentry.httpContextIntegration(),
      ],
      beforeSend,
    });
    const s = new sentry.Scope();
    s.setClient(c);
    c.init();
    client = c;
    for (const report of pending.splice(0)) {
      const reportScope = new sentry.Scope();
      reportScope.setClient(c);
      for (const crumb of report.breadcrumbs) reportScope.addBreadcrumb(crumb, maxBreadcrumbs);
      capture(reportScope, report.error, report.context);
    }
    for (const crumb of earlyBreadcrumbs.splice(0)) s.addBreadcrumb(crumb, maxBreadcrumbs);
    scope = s;
    if (flushIntervalMs > 0 && !disposed) {
      timer = setInterval(() => {
        flushOutcomes(c);
        Promise.resolve(c.flush()).catch(ignore);
      }, flushIntervalMs);
    }
  }

  function report(error: unknown, context?: Record<string, unknown>): void {
    try {
      if (disposed || failed) return;
      if (!dsn) {
        if (development) {
          if (context === undefined) logger.error('[parley]', error);
          else logger.error('[parley]', error, context);
        }
        return;
      }
      if (scope) {
        capture(scope, error, context);
        return;
      }
      if (pending.length < PENDING_REPORTS_MAX) {
        pending.push({ error, context, breadcrumbs: earlyBreadcrumbs.slice() });
      }
      loading ??= load().catch(ignore);
    } catch {
      // Reporting an error must never raise another one.
    }
  }

  function addBreadcrumb(breadcrumb: {
    category?: string;
    message: string;
    data?: Record<string, unknown>;
  }): void {
    try {
      if (disposed || failed || !dsn || maxBreadcrumbs <= 0) return;
      const crumb: Breadcrumb = {
        ...breadcrumb,
        message: cut(breadcrumb.message, maxValueLength),
        // Set now, so a breadcrumb replayed after the SDK loads keeps the time it happened.
        timestamp: Date.now() / 1000,
      };
      if (scope) {
        scope.addBreadcrumb(crumb, maxBreadcrumbs);
        return;
      }
      earlyBreadcrumbs.push(crumb);
      if (earlyBreadcrumbs.length > maxBreadcrumbs) earlyBreadcrumbs.shift();
    } catch {
      // Same as report: never throws.
    }
  }

  async function flush(): Promise<void> {
    try {
      if (loading) await loading;
      if (!client) return;
      flushOutcomes(client);
      await client.flush(FLUSH_TIMEOUT_MS);
    } catch {
      // Nothing to do: a failed send is already counted by Sentry as a dropped event.
    }
  }

  async function dispose(): Promise<void> {
    if (disposed) return;
    disposed = true;
    // load() starts no timer once disposed, so this is the only place it needs clearing.
    clearInterval(timer);
    timer = undefined;
    try {
      if (loading) await loading;
      if (!client) return;
      flushOutcomes(client);
      // close() flushes, then removes the listeners BrowserClient put on the document.
      await client.close(FLUSH_TIMEOUT_MS);
    } catch {
      // dispose() must not reject either.
    } finally {
      client = undefined;
      scope = undefined;
    }
  }

  return { report, addBreadcrumb, flush, dispose };
}

function ignore(): void {}

/** Cuts `value` to at most `max` characters (the last one an ellipsis), never inside a surrogate pair. */
function cut(value: string, max: number): string {
  if (max <= 0 || value.length <= max) return value;
  let end = max - ELLIPSIS.length;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return value.slice(0, Math.max(end, 0)) + ELLIPSIS;
}

/** Cuts the strings Sentry's `maxValueLength` leaves alone (messages, breadcrumbs) and its own `...` cut. */
function cutValues(event: Event, max: number): void {
  if (max <= 0) return;
  if (typeof event.message === 'string') event.message = cut(event.message, max);
  if (event.logentry?.message) event.logentry.message = cut(event.logentry.message, max);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = cut(exception.value, max);
  }
  for (const crumb of event.breadcrumbs ?? []) {
    if (crumb.message) crumb.message = cut(crumb.message, max);
  }
}

/**
 * UTF-8 bytes of `text`. (Storage has an allocation-free counter for values of megabytes; events
 * here are at most ~100 KB, and importing it would make a shared chunk of its own.)
 */
function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Replaces, in place, every string longer than `max` characters inside `value`. */
function cutStrings(value: unknown, max: number): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === 'string') value[index] = cut(item, max);
      else cutStrings(item, max);
    });
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(record)) {
      if (typeof item === 'string') record[key] = cut(item, max);
      else cutStrings(item, max);
    }
  }
}

/**
 * Keeps a serialized event within `maxSerializedBytes` (UTF-8 of its JSON, `sdkProcessingMetadata`
 * excluded since Sentry never sends it). An event within the cap is returned as is; a bigger one is
 * copied and trimmed, each stage only if still needed: breadcrumbs (oldest first), `extra` and
 * `contexts` (but `trace`), outer stack frames (the innermost are kept), long strings. Returns null
 * when even that is not enough. Pure: the input is never modified.
 */
export function trimEvent<E extends Event>(event: E, maxSerializedBytes: number): E | null {
  const { sdkProcessingMetadata, ...sendable } = event;
  const json = stringify(sendable);
  if (json === undefined) return null;
  let bytes = utf8Length(json);
  if (bytes <= maxSerializedBytes) return event;

  const trimmed = JSON.parse(json) as Event;
  const measure = () => utf8Length(JSON.stringify(trimmed));
  const done = (): E =>
    (sdkProcessingMetadata === undefined ? trimmed : { ...trimmed, sdkProcessingMetadata }) as E;

  // 1. Breadcrumbs, oldest first. Removing one shortens the JSON by its own length plus a comma.
  const crumbs = trimmed.breadcrumbs;
  if (crumbs) {
    while (bytes > maxSerializedBytes && crumbs.length > 0) {
      const oldest = crumbs.shift();
      bytes -= utf8Length(JSON.stringify(oldest)) + (crumbs.length > 0 ? 1 : 0);
    }
    if (crumbs.length === 0) {
      delete trimmed.breadcrumbs;
      bytes = measure();
    }
    if (bytes <= maxSerializedBytes) return done();
  }

  // 2. Extra data and contexts; the trace context stays so the event still links to its trace.
  delete trimmed.extra;
  const trace = trimmed.contexts?.trace;
  if (trace) trimmed.contexts = { trace };
  else delete trimmed.contexts;
  bytes = measure();
  if (bytes <= maxSerializedBytes) return done();

  // 3. Stack frames: Sentry lists them outermost first, so the innermost (where it threw) are last.
  const stacktraces = [...(trimmed.exception?.values ?? []), ...(trimmed.threads?.values ?? [])]
    .map((value) => value.stacktrace)
    .filter((stacktrace) => stacktrace?.frames !== undefined);
  let keep = Math.max(0, ...stacktraces.map((stacktrace) => stacktrace?.frames?.length ?? 0));
  while (keep > 1) {
    keep = Math.floor(keep / 2);
    for (const stacktrace of stacktraces) {
      if (stacktrace?.frames) stacktrace.frames = stacktrace.frames.slice(-keep);
    }
    bytes = measure();
    if (bytes <= maxSerializedBytes) return done();
  }

  // 4. Long strings, ever shorter.
  for (const max of TRIM_STRING_LENGTHS) {
    cutStrings(trimmed, max);
    bytes = measure();
    if (bytes <= maxSerializedBytes) return done();
  }
  return null;
}
