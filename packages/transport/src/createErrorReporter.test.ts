import { createTransport } from '@sentry/browser';
import type { BrowserOptions, Event, StackFrame } from '@sentry/browser';
import { createErrorReporter, trimEvent } from './createErrorReporter';
import type { ErrorReporter, ErrorReporterOptions, SentryLike } from './createErrorReporter';
import { DEFAULTS } from './defaults';

const DSN = 'https://public@o0.ingest.sentry.io/1';
const { maxBreadcrumbs, maxValueLength, flushIntervalMs, maxSerializedBytes } =
  DEFAULTS.errorReports;

interface SentItem {
  type: string;
  payload: Record<string, unknown>;
  /** UTF-8 bytes of the item's payload as it went over the wire. */
  bytes: number;
}

/** Splits a serialized Sentry envelope (newline-delimited JSON: header, then item header + payload pairs). */
function parseEnvelope(body: string | Uint8Array): SentItem[] {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const [, ...lines] = text.split('\n');
  const items: SentItem[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const header = JSON.parse(lines[i] ?? '{}') as { type: string };
    const payload = lines[i + 1] ?? '';
    items.push({
      type: header.type,
      payload: JSON.parse(payload) as Record<string, unknown>,
      bytes: utf8(payload),
    });
  }
  return items;
}

function utf8(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

const reporters: ErrorReporter[] = [];
let fakeTimers = false;

function useFakeTimers(): void {
  jest.useFakeTimers();
  fakeTimers = true;
}

/** A reporter on the real @sentry/browser whose transport records what would be sent. */
function setup(overrides: Partial<ErrorReporterOptions> = {}) {
  const sent: SentItem[] = [];
  const transport: BrowserOptions['transport'] = (transportOptions) =>
    createTransport(transportOptions, (request) => {
      sent.push(...parseEnvelope(request.body));
      return Promise.resolve({ statusCode: 200 });
    });
  const loadSentry = jest.fn((): Promise<SentryLike> => import('@sentry/browser'));
  const reporter = createErrorReporter({
    ...DEFAULTS.errorReports,
    dsn: DSN,
    environment: 'test',
    release: 'parley@1.2.3',
    loadSentry,
    transport,
    ...overrides,
  });
  reporters.push(reporter);
  const events = () => sent.filter((item) => item.type === 'event');
  const clientReports = () => sent.filter((item) => item.type === 'client_report');
  /** The `index`th event sent, as it went over the wire. */
  const eventAt = (index: number) => nth(events(), index).payload as SentEvent;
  return { reporter, sent, events, eventAt, clientReports, loadSentry };
}

/** The item at `index`; fails the test, saying how many there were, when it is missing. */
function nth<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`expected an item at ${index}, got ${list.length}`);
  return value;
}

type SentEvent = Event & Record<string, unknown>;
const eventOf = (item: SentItem) => item.payload as SentEvent;
const exceptionValue = (event: SentEvent) => event.exception?.values?.[0]?.value;
const crumbMessages = (event: SentEvent) => (event.breadcrumbs ?? []).map((crumb) => crumb.message);

afterEach(async () => {
  const disposing = reporters.splice(0).map((reporter) => reporter.dispose());
  if (fakeTimers) await jest.advanceTimersByTimeAsync(100);
  await Promise.all(disposing);
  jest.useRealTimers();
  fakeTimers = false;
});

describe('createErrorReporter without a DSN', () => {
  it('never loads the SDK, sends nothing and logs nothing in production', async () => {
    const log = { error: jest.fn() };
    const { reporter, loadSentry, sent } = setup({ dsn: undefined, console: log });

    reporter.addBreadcrumb({ message: 'clicked reply' });
    reporter.report(new Error('boom'), { commentId: 'c1' });
    await reporter.flush();
    await reporter.dispose();

    expect(loadSentry).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs to console.error with the [parley] prefix in development, still without loading the SDK', () => {
    useFakeTimers();
    const log = { error: jest.fn() };
    const { reporter, loadSentry } = setup({ dsn: undefined, development: true, console: log });
    const error = new Error('boom');

    reporter.report(error, { commentId: 'c1' });
    reporter.report('plain');

    expect(log.error).toHaveBeenNthCalledWith(1, '[parley]', error, { commentId: 'c1' });
    expect(log.error).toHaveBeenNthCalledWith(2, '[parley]', 'plain');
    expect(loadSentry).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('createErrorReporter with a DSN', () => {
  it('loads @sentry/browser through the default dynamic import and sends the report', async () => {
    const { reporter, eventAt } = setup({ loadSentry: undefined });

    reporter.report(new Error('default loader'), { commentId: 'c1' });
    await reporter.flush();

    const event = eventAt(0);
    expect(exceptionValue(event)).toBe('default loader');
    expect(event.environment).toBe('test');
    expect(event.release).toBe('parley@1.2.3');
    expect(event.extra).toEqual({ commentId: 'c1' });
  });

  it('loads the SDK once, on the first report, and cuts values to maxValueLength (250) characters', async () => {
    const { reporter, eventAt, loadSentry } = setup();
    expect(loadSentry).not.toHaveBeenCalled();

    reporter.report(new Error('x'.repeat(1_000)));
    reporter.report('y'.repeat(1_000));
    await reporter.flush();

    expect(loadSentry).toHaveBeenCalledTimes(1);
    const error = eventAt(0);
    const message = eventAt(1);
    expect(exceptionValue(error)).toBe(`${'x'.repeat(maxValueLength - 1)}…`);
    expect(exceptionValue(error)).toHaveLength(maxValueLength);
    // Sentry's own maxValueLength skips plain messages; the reporter cuts them too.
    expect(message.message).toBe(`${'y'.repeat(maxValueLength - 1)}…`);
  });

  it('queues reports and breadcrumbs made while the SDK loads, and sends them once it is ready', async () => {
    let resolveLoad: (sentry: SentryLike) => void = () => undefined;
    const loadSentry = jest.fn(() => new Promise<SentryLike>((resolve) => (resolveLoad = resolve)));
    const { reporter, events, eventAt, sent } = setup({ loadSentry });

    reporter.addBreadcrumb({ category: 'ui', message: 'opened thread' });
    reporter.report(new Error('first'), { step: 1 });
    reporter.addBreadcrumb({ category: 'ui', message: 'clicked reply' });
    reporter.report(new Error('second'), { step: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([]);
    expect(loadSentry).toHaveBeenCalledTimes(1);

    resolveLoad(await import('@sentry/browser'));
    await reporter.flush();
    reporter.addBreadcrumb({ category: 'ui', message: 'posted' });
    reporter.report(new Error('third'));
    await reporter.flush();

    const first = eventAt(0);
    const second = eventAt(1);
    const third = eventAt(2);
    expect(events()).toHaveLength(3);
    expect(exceptionValue(first)).toBe('first');
    expect(first.extra).toEqual({ step: 1 });
    expect(crumbMessages(first)).toEqual(['opened thread']);
    expect(exceptionValue(second)).toBe('second');
    expect(crumbMessages(second)).toEqual(['opened thread', 'clicked reply']);
    expect(crumbMessages(third)).toEqual(['opened thread', 'clicked reply', 'posted']);
    expect(first.breadcrumbs?.[0]?.category).toBe('ui');
  });

  it('sends the newest 100 breadcrumbs after 150, each message cut to 250 characters', async () => {
    const { reporter, eventAt } = setup();
    reporter.report(new Error('load the SDK'));
    await reporter.flush();

    for (let i = 0; i < 150; i += 1) reporter.addBreadcrumb({ message: `crumb ${i}` });
    reporter.addBreadcrumb({ message: 'z'.repeat(1_000), data: { n: 1 } });
    reporter.report(new Error('with breadcrumbs'));
    await reporter.flush();

    const event = eventAt(1);
    const messages = crumbMessages(event);
    expect(messages).toHaveLength(maxBreadcrumbs);
    expect(messages[0]).toBe('crumb 51');
    expect(messages.at(-2)).toBe('crumb 149');
    expect(messages.at(-1)).toBe(`${'z'.repeat(maxValueLength - 1)}…`);
    expect(event.breadcrumbs?.at(-1)?.data).toEqual({ n: 1 });
  });

  it('honours a smaller maxBreadcrumbs for breadcrumbs recorded before the SDK loads', async () => {
    const { reporter, eventAt } = setup({ maxBreadcrumbs: 20 });

    for (let i = 0; i < 30; i += 1) reporter.addBreadcrumb({ message: `early ${i}` });
    reporter.report(new Error('queued'));
    for (let i = 0; i < 30; i += 1) reporter.addBreadcrumb({ message: `late ${i}` });
    await reporter.flush();
    reporter.report(new Error('after load'));
    for (let i = 0; i < 30; i += 1) reporter.addBreadcrumb({ message: `loaded ${i}` });
    reporter.report(new Error('later still'));
    await reporter.flush();

    const queued = eventAt(0);
    const afterLoad = eventAt(1);
    const later = eventAt(2);
    expect(crumbMessages(queued)).toEqual(Array.from({ length: 20 }, (_, i) => `early ${i + 10}`));
    expect(crumbMessages(afterLoad)).toEqual(
      Array.from({ length: 20 }, (_, i) => `late ${i + 10}`),
    );
    expect(crumbMessages(later)).toEqual(Array.from({ length: 20 }, (_, i) => `loaded ${i + 10}`));
  });

  it('trims an oversized report to maxSerializedBytes, dropping the oldest breadcrumbs first', async () => {
    const { reporter, events } = setup();
    reporter.report(new Error('load the SDK'));
    await reporter.flush();

    for (let i = 0; i < 100; i += 1) {
      reporter.addBreadcrumb({ message: `crumb ${i}`, data: { blob: 'q'.repeat(2_000) } });
    }
    reporter.report(new Error('many big breadcrumbs'), { commentId: 'c1' });
    reporter.report(new Error('one huge context'), { blob: 'z'.repeat(150_000) });
    await reporter.flush();

    const crumbs = nth(events(), 1);
    const context = nth(events(), 2);
    expect(crumbs.bytes).toBeLessThanOrEqual(maxSerializedBytes);
    expect(crumbs.bytes).toBeGreaterThan(maxSerializedBytes - 3_000);
    const kept = crumbMessages(eventOf(crumbs));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(100);
    expect(kept.at(-1)).toBe('crumb 99');
    expect(eventOf(crumbs).extra).toEqual({ commentId: 'c1' });

    expect(context.bytes).toBeLessThanOrEqual(maxSerializedBytes);
    expect(exceptionValue(eventOf(context))).toBe('one huge context');
    expect(eventOf(context).extra).toBeUndefined();
  });

  it('keeps room for the sdk block Sentry adds after beforeSend, so what is sent stays within the cap', async () => {
    const { reporter, events } = setup();
    const send = (message: string, pad: string) => reporter.report(new Error(message), { pad });

    send('load the SDK', '');
    await reporter.flush();
    // Measured after an await like the real one, so both have the same (async) stack.
    send('probe 1', '');
    await reporter.flush();
    const probeBytes = nth(events(), 1).bytes;
    // A pad that makes the sent event 40 bytes over the cap if nothing trimmed it; the stack frames
    // and timestamp can differ from the probe's by a few bytes only.
    send('probe 2', 'p'.repeat(maxSerializedBytes + 40 - probeBytes));
    await reporter.flush();

    const sent = nth(events(), 2);
    expect(sent.bytes).toBeLessThanOrEqual(maxSerializedBytes);
    expect(exceptionValue(eventOf(sent))).toBe('probe 2');
    expect(eventOf(sent).extra).toBeUndefined();
  });

  it('drops a report that cannot fit, and sends the client report on the flush interval', async () => {
    useFakeTimers();
    const { reporter, sent, clientReports } = setup({ maxSerializedBytes: 200 });

    reporter.report(new Error('never fits'));
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(flushIntervalMs - 1);
    expect(sent).toEqual([]);

    await jest.advanceTimersByTimeAsync(1);
    expect(sent.map((item) => item.type)).toEqual(['client_report']);
    expect(clientReports()[0]?.payload.discarded_events).toEqual([
      { reason: 'before_send', category: 'error', quantity: 1 },
    ]);
  });

  it('dispose() flushes, clears the running flush timer and ignores later reports', async () => {
    useFakeTimers();
    const { reporter, events, loadSentry } = setup();
    reporter.report(new Error('first'));
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(1);

    reporter.report(new Error('second'));
    const disposing = reporter.dispose();
    await jest.advanceTimersByTimeAsync(100);
    await disposing;

    expect(events().map((item) => exceptionValue(eventOf(item)))).toEqual(['first', 'second']);
    expect(jest.getTimerCount()).toBe(0);
    reporter.report(new Error('after dispose'));
    reporter.addBreadcrumb({ message: 'after dispose' });
    await reporter.flush();
    expect(events()).toHaveLength(2);
    expect(loadSentry).toHaveBeenCalledTimes(1);
  });

  it('dispose() while the SDK loads still sends the queued report, and starts no timer', async () => {
    useFakeTimers();
    const { reporter, events } = setup();

    reporter.report(new Error('queued'));
    const disposing = reporter.dispose();
    await jest.advanceTimersByTimeAsync(100);
    await disposing;

    expect(events().map((item) => exceptionValue(eventOf(item)))).toEqual(['queued']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('survives an SDK that fails to load: one development log, no retry, nothing thrown', async () => {
    const log = { error: jest.fn() };
    const loadSentry = jest.fn(() => Promise.reject(new Error('chunk load failed')));
    const { reporter } = setup({ loadSentry, development: true, console: log });

    expect(() => reporter.report(new Error('first'))).not.toThrow();
    await reporter.flush();
    reporter.report(new Error('second'));
    await reporter.flush();
    await reporter.dispose();

    expect(loadSentry).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith(
      '[parley] could not load the error reporter',
      expect.objectContaining({ message: 'chunk load failed' }),
    );
  });
});

describe('trimEvent', () => {
  const bytesOf = (event: unknown) => utf8(JSON.stringify(event));
  const frames = (count: number): StackFrame[] =>
    Array.from({ length: count }, (_, i) => ({
      filename: 'app.js',
      function: `fn${i}`,
      lineno: i,
    }));

  /** An event with `extra.pad` sized so the whole event serializes to `target` bytes. */
  function eventOfSize(target: number, base: Event = {}, padChar = 'a'): Event {
    const probe = bytesOf({ ...base, extra: { ...base.extra, pad: '' } });
    const padBytes = target - probe;
    const padCharBytes = utf8(padChar);
    const pad =
      padChar.repeat(Math.floor(padBytes / padCharBytes)) + 'a'.repeat(padBytes % padCharBytes);
    const event = { ...base, extra: { ...base.extra, pad } };
    expect(bytesOf(event)).toBe(target);
    return event;
  }

  const crumbs = Array.from({ length: 10 }, (_, i) => ({ message: `crumb ${i}`, timestamp: i }));
  const base: Event = {
    event_id: 'a'.repeat(32),
    exception: { values: [{ type: 'Error', value: 'boom', stacktrace: { frames: frames(3) } }] },
    breadcrumbs: crumbs,
  };

  it(`passes an event of exactly ${maxSerializedBytes} bytes through untouched`, () => {
    const event = eventOfSize(maxSerializedBytes, base);
    expect(trimEvent(event, maxSerializedBytes)).toBe(event);
  });

  it('does not count sdkProcessingMetadata, which Sentry never sends', () => {
    const event = {
      ...eventOfSize(maxSerializedBytes, base),
      sdkProcessingMetadata: { x: 'y'.repeat(5_000) },
    };
    expect(trimEvent(event, maxSerializedBytes)).toBe(event);
  });

  it(`trims an event of ${maxSerializedBytes + 1} bytes by its oldest breadcrumb, leaving the input as it was`, () => {
    const event = eventOfSize(maxSerializedBytes + 1, base);
    const before = structuredClone(event);

    const trimmed = trimEvent(event, maxSerializedBytes);

    expect(trimmed).not.toBeNull();
    expect(bytesOf(trimmed)).toBeLessThanOrEqual(maxSerializedBytes);
    expect(trimmed?.breadcrumbs?.map((crumb) => crumb.message)).toEqual(
      crumbs.slice(1).map((c) => c.message),
    );
    expect(trimmed?.extra).toEqual(event.extra);
    expect(event).toEqual(before);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const event = eventOfSize(maxSerializedBytes + 1, base, 'é');
    expect(JSON.stringify(event).length).toBeLessThan(maxSerializedBytes);
    expect(trimEvent(event, maxSerializedBytes)).not.toBe(event);
  });

  it('drops extra and contexts (but trace) once breadcrumbs are gone, before touching frames', () => {
    const event: Event = {
      ...base,
      exception: { values: [{ value: 'boom', stacktrace: { frames: frames(500) } }] },
      extra: { blob: 'z'.repeat(maxSerializedBytes) },
      contexts: {
        trace: { trace_id: 't'.repeat(32), span_id: 's'.repeat(16) },
        app: { big: 'a'.repeat(500) },
      },
    };

    const trimmed = trimEvent(event, maxSerializedBytes);

    expect(trimmed?.breadcrumbs).toBeUndefined();
    expect(trimmed?.extra).toBeUndefined();
    expect(trimmed?.contexts).toEqual({ trace: event.contexts?.trace });
    expect(trimmed?.exception?.values?.[0]?.stacktrace?.frames).toHaveLength(500);
  });

  it('then keeps only the innermost stack frames', () => {
    const event: Event = {
      exception: { values: [{ value: 'boom', stacktrace: { frames: frames(5_000) } }] },
    };
    expect(bytesOf(event)).toBeGreaterThan(maxSerializedBytes);

    const kept = trimEvent(event, maxSerializedBytes)?.exception?.values?.[0]?.stacktrace?.frames;

    expect(kept?.length).toBeGreaterThan(0);
    expect(kept?.length).toBeLessThan(5_000);
    expect(kept?.at(-1)?.function).toBe('fn4999');
    expect(kept?.[0]?.function).toBe(`fn${5_000 - (kept?.length ?? 0)}`);
  });

  it('then cuts long strings', () => {
    const event: Event = { message: 'm'.repeat(200_000), tags: { page: 'thread' } };

    const trimmed = trimEvent(event, maxSerializedBytes);

    expect(bytesOf(trimmed)).toBeLessThanOrEqual(maxSerializedBytes);
    expect(trimmed?.message).toBe(`${'m'.repeat(1_023)}…`);
    expect(trimmed?.tags).toEqual({ page: 'thread' });
  });

  it('returns null when the event cannot be trimmed below the cap', () => {
    const tags = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`t${i}`, 'v']));
    expect(trimEvent({ ...base, tags }, maxSerializedBytes)).toBeNull();
  });
});
