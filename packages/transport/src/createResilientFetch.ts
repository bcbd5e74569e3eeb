import { TransportError } from './TransportError';

/** Options of {@link createResilientFetch}. */
export interface ResilientFetchOptions {
  /** The real fetch. */
  fetch: typeof fetch;
  /** Headers added to every attempt (read fresh each time, e.g. the bearer token). */
  getHeaders?: () => Promise<Record<string, string>>;
  /** Per-attempt limit, in ms: no complete response by then aborts the attempt. */
  timeoutMs: number;
  /** Waits before each retry, in ms; empty for a single attempt. */
  retryDelaysMs: readonly number[];
  /** Aborts every attempt and wait in flight (the transport's dispose). */
  signal?: AbortSignal;
}

/** What ended one failed attempt: an error, or a response that does not count as success. */
type Failure = { error: TransportError; response?: Response };

/**
 * A fetch with a time limit per attempt and fixed retry delays. An attempt fails on a network
 * error, a timeout, an empty body or an HTTP status >= 400; it is tried again after
 * `retryDelaysMs[0]`, `retryDelaysMs[1]`, … and then the last failure is delivered. A response
 * that carries GraphQL errors with a 2xx status is a result and is returned as is.
 *
 * Retrying happens here rather than in `@urql/exchange-retry` because that exchange cannot
 * produce fixed delays (its delays grow linearly or are random), and because one AbortController
 * per attempt is the only way to time out a single attempt without tearing the operation down.
 */
export function createResilientFetch(options: ResilientFetchOptions): typeof fetch {
  const { fetch: realFetch, getHeaders, timeoutMs, retryDelaysMs, signal: lifetime } = options;

  return async function resilientFetch(input, init = {}) {
    const caller = init.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce(realFetch, input, init, getHeaders, timeoutMs, [
        caller,
        lifetime,
      ]);
      if (outcome instanceof Response) return outcome;
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) return deliver(outcome);
      await wait(delay, [caller, lifetime]);
    }
  };
}

async function attemptOnce(
  realFetch: typeof fetch,
  input: RequestInfo | URL,
  init: RequestInit,
  getHeaders: (() => Promise<Record<string, string>>) | undefined,
  timeoutMs: number,
  signals: (AbortSignal | undefined)[],
): Promise<Response | Failure> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const unlink = linkSignals(signals, controller);
  try {
    // Reading the token is part of the attempt: a token refresh that hangs must time out too.
    const headers = new Headers(init.headers);
    if (getHeaders) {
      const extra = await untilAborted(getHeaders(), controller.signal);
      // A header the operation set itself wins (a page acting with a token from an email link,
      // not the session's).
      for (const [name, value] of Object.entries(extra)) {
        if (!headers.has(name)) headers.set(name, value);
      }
    }
    const response = await realFetch(input, { ...init, headers, signal: controller.signal });
    // The whole body is read inside the time limit: a server that sends headers and then
    // stalls must not hang the widget past `timeoutMs`.
    const body = await response.text();
    const { status } = response;
    // (A Response with an empty body and a null-body status such as 204 cannot be rebuilt, so
    // emptiness is decided before any copy is made.)
    if (!body.trim()) {
      const what = status >= 400 ? `HTTP ${status}` : `Empty response (HTTP ${status})`;
      return { error: new TransportError('BAD_RESPONSE', what, { status }) };
    }
    const copy = new Response(body, {
      status,
      statusText: response.statusText,
      headers: response.headers,
    });
    if (status >= 400) {
      const error = new TransportError('BAD_RESPONSE', `HTTP ${status}`, { status });
      return { error, response: copy };
    }
    return copy;
  } catch (cause) {
    throwIfAborted(signals);
    if (timedOut) {
      return {
        error: new TransportError('REQUEST_TIMEOUT', `No response within ${timeoutMs} ms`, {
          cause,
        }),
      };
    }
    const message = cause instanceof Error ? cause.message : String(cause);
    return { error: new TransportError('NETWORK_ERROR', message, { cause }) };
  } finally {
    clearTimeout(timer);
    unlink();
  }
}

/**
 * After the last attempt: a failed response whose body may hold GraphQL errors (a 400 with
 * `errors[].extensions.code`, a 429 from the rate limiter) goes to urql, which reads those
 * errors; a failure with nothing to read is thrown as the coded error.
 */
function deliver(failure: Failure): Response {
  if (failure.response && mayHoldGraphQLErrors(failure.response)) return failure.response;
  throw failure.error;
}

function mayHoldGraphQLErrors(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return /json/i.test(type);
}

/** Resolves after `ms`, or rejects with an AbortError as soon as one of the signals aborts. */
function wait(ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const controller = new AbortController();
    let unlink = (): void => undefined;
    const timer = setTimeout(() => {
      unlink();
      resolve();
    }, ms);
    // Listen before linking: linking an already-aborted signal aborts synchronously.
    controller.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      unlink();
      reject(abortError());
    });
    unlink = linkSignals(signals, controller);
  });
}

/**
 * Makes `target` abort when any of `signals` does; returns the function that undoes it.
 * (AbortSignal.any would do this, but Safari only has it since 17.4.)
 */
function linkSignals(signals: (AbortSignal | undefined)[], target: AbortController): () => void {
  const abort = () => target.abort();
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((signal) => signal.aborted)) {
    target.abort();
    return () => undefined;
  }
  for (const signal of live) signal.addEventListener('abort', abort, { once: true });
  return () => {
    for (const signal of live) signal.removeEventListener('abort', abort);
  };
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function throwIfAborted(signals: (AbortSignal | undefined)[]): void {
  if (signals.some((s) => s?.aborted)) throw abortError();
}

function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}
