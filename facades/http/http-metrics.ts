import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';

/** Upper bounds of the request duration histogram, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface DurationSeries {
  labels: { method: string; route: string };
  /** Per-bucket (not cumulative) counts; the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface RequestSeries {
  labels: { method: string; route: string; status: string };
  count: number;
  duration: DurationSeries;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, recorded on every response. prom-client validates,
 * copies and hashes the label set on each `inc`/`observe`, even through a cached child; here a response costs
 * three map lookups on strings whose hashes V8 has already cached (the method from the HTTP parser, the route
 * from its definition) and three additions. The exposition is built when /metrics is scraped, in prom-client's
 * format and series order (the two metrics are registered in its registry next to the default process metrics).
 */
export class HttpMetrics {
  /** Every series in the order it first appeared, as prom-client renders them. */
  private readonly requests: RequestSeries[] = [];
  private readonly durations: DurationSeries[] = [];
  /** method -> route -> status -> series: no label string is built per response. */
  private readonly index = new Map<string, Map<string, Map<number, RequestSeries>>>();

  constructor(private readonly buckets: readonly number[] = DURATION_BUCKETS) {}

  record(method: string, route: string, status: number, seconds: number): void {
    const statuses = this.byStatus(method, route);
    const series = statuses.get(status) ?? this.addSeries(statuses, method, route, status);
    series.count++;
    const duration = series.duration;
    duration.count++;
    duration.sum += seconds;
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]) i++;
    duration.buckets[i]++;
  }

  register(registry: Registry): void {
    registry.registerMetric(
      this.metric('http_requests_total', 'HTTP requests', 'counter', () => this.requestValues()) as never,
    );
    registry.registerMetric(
      this.metric('http_request_duration_seconds', 'HTTP request duration', 'histogram', () =>
        this.durationValues(),
      ) as never,
    );
  }

  private byStatus(method: string, route: string): Map<number, RequestSeries> {
    let routes = this.index.get(method);
    if (!routes) this.index.set(method, (routes = new Map()));
    let statuses = routes.get(route);
    if (!statuses) routes.set(route, (statuses = new Map()));
    return statuses;
  }

  private addSeries(
    statuses: Map<number, RequestSeries>,
    method: string,
    route: string,
    status: number,
  ): RequestSeries {
    // The duration series is per method and route: the statuses of one route share it.
    let duration = (statuses.values().next().value as RequestSeries | undefined)?.duration;
    if (!duration) {
      duration = { labels: { method, route }, buckets: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.durations.push(duration);
    }
    const series: RequestSeries = { labels: { method, route, status: String(status) }, count: 0, duration };
    statuses.set(status, series);
    this.requests.push(series);
    return series;
  }

  private requestValues(): MetricValue[] {
    return this.requests.map((s) => ({ labels: s.labels, value: s.count }));
  }

  private durationValues(): MetricValue[] {
    const name = 'http_request_duration_seconds';
    const values: MetricValue[] = [];
    for (const s of this.durations) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.buckets[i];
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${name}_count` });
    }
    return values;
  }

  /** The shape prom-client's registry reads from a metric when it renders or merges registries. */
  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) {
    const snapshot = () => ({ name, help, type, values: values(), aggregator: 'sum' as const });
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => snapshot(),
      reset: () => {
        this.requests.length = 0;
        this.durations.length = 0;
        this.index.clear();
      },
    };
  }
}

/**
 * Records every response in the metrics from Fastify's log controller, its documented extension point for the
 * request lifecycle: Fastify calls `requestCompleted` once per response, when it has finished or failed (the
 * moment an onResponse hook runs), because the app has a logger. An onResponse hook would cost its hook runner
 * on every request on top of that.
 */
export class MetricsLogController extends LogController {
  constructor(private readonly metrics: HttpMetrics) {
    super();
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    this.metrics.record(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    super.requestCompleted(error, request, reply, metadata);
  }
}
