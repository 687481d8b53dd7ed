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
 * one map lookup and three additions, and the exposition is built when /metrics is scraped, in prom-client's
 * format (the two metrics are registered in its registry next to the default process metrics).
 */
export class HttpMetrics {
  private readonly requests = new Map<string, RequestSeries>();
  private readonly durations = new Map<string, DurationSeries>();

  constructor(private readonly buckets: readonly number[] = DURATION_BUCKETS) {}

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requests.get(key);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, count: 0, duration: this.durationSeries(method, route) };
      this.requests.set(key, series);
    }
    series.count++;
    const duration = series.duration;
    duration.count++;
    duration.sum += seconds;
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]) i++;
    duration.buckets[i]++;
  }

  register(registry: Registry): void {
    registry.registerMetric(this.metric('http_requests_total', 'HTTP requests', 'counter', () => this.requestValues()) as never);
    registry.registerMetric(this.metric('http_request_duration_seconds', 'HTTP request duration', 'histogram', () => this.durationValues()) as never);
  }

  private durationSeries(method: string, route: string): DurationSeries {
    const key = `${method} ${route}`;
    let series = this.durations.get(key);
    if (!series) {
      series = { labels: { method, route }, buckets: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.durations.set(key, series);
    }
    return series;
  }

  private requestValues(): MetricValue[] {
    return [...this.requests.values()].map((s) => ({ labels: s.labels, value: s.count }));
  }

  private durationValues(): MetricValue[] {
    const name = 'http_request_duration_seconds';
    const values: MetricValue[] = [];
    for (const s of this.durations.values()) {
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
        this.requests.clear();
        this.durations.clear();
      },
    };
  }
}
