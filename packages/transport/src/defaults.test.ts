import { DEFAULTS } from './defaults';

describe('DEFAULTS', () => {
  it('carries the figures of the design card', () => {
    expect(DEFAULTS).toEqual({
      requestTimeoutMs: 15000,
      retryDelaysMs: [1000, 3000],
      queryCache: { max: 100, ttlMs: 900000 },
      socket: { timeoutMs: 30000, backoff: { minMs: 100, maxMs: 10000, factor: 2 } },
      errorReports: {
        maxBreadcrumbs: 100,
        maxValueLength: 250,
        flushIntervalMs: 60000,
        maxSerializedBytes: 102400,
      },
      storage: { maxBytes: 4980736, namespace: 'parley' },
    });
  });

  it('is frozen all the way down', () => {
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.retryDelaysMs)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.socket.backoff)).toBe(true);
    expect(() => {
      (DEFAULTS.queryCache as { max: number }).max = 1;
    }).toThrow(TypeError);
  });
});
