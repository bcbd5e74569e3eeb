import { METRICS_PREFIX, createMetrics } from './createMetrics';

describe('createMetrics', () => {
  it("includes Node's default metrics, prefixed", async () => {
    const text = await createMetrics().registry.metrics();
    expect(text).toContain(`${METRICS_PREFIX}process_cpu_user_seconds_total`);
    expect(text).toContain(`${METRICS_PREFIX}nodejs_eventloop_lag_seconds`);
  });

  it('keeps registries apart, so two servers in one process do not clash', async () => {
    const a = createMetrics({ defaultMetrics: false });
    const b = createMetrics({ defaultMetrics: false });
    a.activeWebSockets.inc();
    expect((await a.activeWebSockets.get()).values[0]?.value).toBe(1);
    expect((await b.activeWebSockets.get()).values[0]?.value).toBe(0);
  });

  it('records request durations with method, route and status', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.httpRequestDuration.startTimer({ method: 'POST' })({ route: 'graphql', status: '200' });
    expect(await metrics.registry.metrics()).toMatch(
      /parley_http_request_duration_seconds_count\{method="POST",route="graphql",status="200"\} 1/,
    );
  });
});
