import { describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, HttpMetrics } from '../../../facades/http/http-metrics.js';

/** The same observations through prom-client's own Counter and Histogram: the exposition must be identical. */
function viaPromClient(observations: [string, string, number, number][]): Registry {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    requests.inc({ method, route, status: String(status) });
    duration.observe({ method, route }, seconds);
  }
  return registry;
}

function viaHttpMetrics(observations: [string, string, number, number][]): Registry {
  const registry = new Registry();
  const metrics = new HttpMetrics();
  metrics.register(registry);
  for (const [method, route, status, seconds] of observations) metrics.record(method, route, status, seconds);
  return registry;
}

describe('HttpMetrics', () => {
  it("renders exactly what prom-client's Counter and Histogram render for the same responses", async () => {
    // Bucket bounds themselves (le is inclusive), values between and beyond them, several series and statuses.
    const seconds = [0, 0.001, 0.005, 0.0051, 0.01, 0.2, 0.25, 0.9, 1, 2.5, 4.99, 5, 5.01, 60];
    const observations: [string, string, number, number][] = [];
    seconds.forEach((s, i) => {
      observations.push(['GET', '/api/v1/projects', 200, s]);
      observations.push(['GET', '/api/v1/projects', i % 3 ? 200 : 429, s / 2]);
      observations.push(['POST', '/graphql', i % 2 ? 200 : 400, s * 3]);
    });
    observations.push(['GET', 'unmatched', 404, 0.002]);

    const ours = viaHttpMetrics(observations);
    const theirs = viaPromClient(observations);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    // Registries merged across processes read the JSON form; exemplars (unused) aside, it is the same too.
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((m) => ({
        ...m,
        values: m.values.map(
          ({ labels, value, metricName }: { labels: object; value: number; metricName?: string }) => ({
            labels,
            value,
            metricName,
          }),
        ),
      }));
    expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
  });

  it('starts empty and resets with the registry', async () => {
    const registry = viaHttpMetrics([['GET', '/healthz', 200, 0.001]]);
    expect(await registry.metrics()).toContain('http_requests_total{method="GET",route="/healthz",status="200"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).toBe(await viaPromClient([]).metrics());
  });
});
