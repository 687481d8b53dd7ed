import type { Redis } from 'ioredis';

/**
 * Metrics that several processes produce (audit and rank workers, every API process) and one scrape must show
 * whole. Each process adds its increments to one Redis hash (HINCRBYFLOAT is atomic, so concurrent writers
 * never lose an update), buffered for at most FLUSH_MS; an API process reads the hash when /metrics is scraped.
 * Totals thus survive a worker's restart and do not depend on which API process is scraped; they reset only
 * with Redis itself, which Prometheus' counter-reset handling absorbs. A kill -9 loses at most the last second.
 */
export const SHARED_METRICS = {
  seo_pages_crawled_total: { type: 'counter', help: 'Pages fetched and stored by audit workers.', labels: [] },
  seo_serp_requests_total: { type: 'counter', help: 'HTTP calls made to the SERP provider.', labels: ['provider'] },
  seo_serp_errors_total: {
    type: 'counter',
    help: 'SERP provider calls that failed (network error, timeout or HTTP status >= 400).',
    labels: ['provider', 'reason'],
  },
  seo_llm_requests_total: {
    type: 'counter',
    help: 'Calls made to the LLM endpoint (fix suggestions).',
    labels: ['model'],
  },
  seo_llm_errors_total: {
    type: 'counter',
    help: 'LLM calls that failed (network error, timeout or HTTP status >= 400).',
    labels: ['model', 'reason'],
  },
  seo_job_duration_seconds: {
    type: 'histogram',
    help: 'Time a worker spent on a job, per queue and outcome.',
    labels: ['queue', 'outcome'],
  },
} as const;
export type SharedMetricName = keyof typeof SHARED_METRICS;

/** Upper bounds of the job duration histogram, in seconds (rank checks take seconds, audits minutes). */
export const JOB_DURATION_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

const FLUSH_MS = 1_000;
const SEP = '\u0001';

export const sharedMetricsKey = (prefix: string): string => `${prefix}:metrics`;

type Labels = Record<string, string>;

/** `name{a="x",b="y"}` with label values escaped as the text exposition format requires, in a fixed order. */
function seriesKey(name: string, labels: Labels): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k].replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return parts.length ? `${name}${SEP}${parts.join(',')}` : `${name}${SEP}`;
}

export class SharedMetrics {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  inc(name: Exclude<SharedMetricName, 'seo_job_duration_seconds'>, labels: Labels = {}, by = 1): void {
    this.add(seriesKey(name, labels), by);
  }

  observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
    const name = 'seo_job_duration_seconds';
    const labels = { queue, outcome };
    const le = JOB_DURATION_BUCKETS.find((b) => seconds <= b);
    // Per-bucket counts; the reader makes them cumulative.
    this.add(seriesKey(`${name}_bucket`, { ...labels, le: le === undefined ? '+Inf' : String(le) }), 1);
    this.add(seriesKey(`${name}_sum`, labels), seconds);
    this.add(seriesKey(`${name}_count`, labels), 1);
  }

  /** Writes the buffered increments; on failure (Redis away) they stay buffered for the next flush. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    const multi = this.redis.multi();
    for (const [field, value] of batch) multi.hincrbyfloat(sharedMetricsKey(this.prefix), field, value);
    try {
      const results = await multi.exec();
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) throw failed;
    } catch (err) {
      for (const [field, value] of batch) this.pending.set(field, (this.pending.get(field) ?? 0) + value);
      this.onError(err);
    }
  }

  private add(field: string, by: number): void {
    this.pending.set(field, (this.pending.get(field) ?? 0) + by);
    if (!this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }
}

/** A fetch that counts its calls and failures in the shared metrics (SERP providers, the LLM endpoint). */
export function meteredFetch(
  fetchImpl: typeof fetch,
  metrics: SharedMetrics,
  names: {
    requests: 'seo_serp_requests_total' | 'seo_llm_requests_total';
    errors: 'seo_serp_errors_total' | 'seo_llm_errors_total';
  },
  labels: Labels,
): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    metrics.inc(names.requests, labels);
    try {
      const response = await fetchImpl(input, init);
      if (response.status >= 400) metrics.inc(names.errors, { ...labels, reason: `http_${response.status}` });
      return response;
    } catch (err) {
      const reason =
        err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError') ? 'timeout' : 'network';
      metrics.inc(names.errors, { ...labels, reason });
      throw err;
    }
  }) as typeof fetch;
}

/** The shared metrics in the text exposition format, from the Redis hash (every process's increments). */
export async function readSharedMetrics(redis: Redis, prefix: string): Promise<string> {
  const hash = await redis.hgetall(sharedMetricsKey(prefix));
  const series = new Map<string, { labels: string; value: number }[]>();
  for (const [field, raw] of Object.entries(hash)) {
    const [name, labels] = field.split(SEP);
    const list = series.get(name) ?? [];
    list.push({ labels: labels ?? '', value: Number(raw) });
    series.set(name, list);
  }
  const fmt = (name: string, labels: string, value: number) => `${name}${labels ? `{${labels}}` : ''} ${value}`;
  const lines: string[] = [];
  for (const [name, meta] of Object.entries(SHARED_METRICS)) {
    lines.push(`# HELP ${name} ${meta.help}`, `# TYPE ${name} ${meta.type}`);
    if (meta.type === 'counter') {
      const list = series.get(name) ?? [];
      if (!list.length && meta.labels.length === 0) lines.push(fmt(name, '', 0));
      for (const s of list.sort((a, b) => a.labels.localeCompare(b.labels))) lines.push(fmt(name, s.labels, s.value));
      continue;
    }
    // Histogram: cumulative buckets per label set, then sum and count.
    const counts = series.get(`${name}_count`) ?? [];
    for (const c of counts.sort((a, b) => a.labels.localeCompare(b.labels))) {
      const perBucket = new Map(
        (series.get(`${name}_bucket`) ?? [])
          .filter((b) => b.labels.replace(/,?le="[^"]*"/, '').replace(/^,/, '') === c.labels)
          .map((b) => [/le="([^"]*)"/.exec(b.labels)![1], b.value]),
      );
      let cumulative = 0;
      for (const le of [...JOB_DURATION_BUCKETS.map(String), '+Inf']) {
        cumulative += perBucket.get(le) ?? 0;
        lines.push(fmt(`${name}_bucket`, `${c.labels},le="${le}"`, cumulative));
      }
      const sum = (series.get(`${name}_sum`) ?? []).find((s) => s.labels === c.labels)?.value ?? 0;
      lines.push(fmt(`${name}_sum`, c.labels, sum), fmt(`${name}_count`, c.labels, c.value));
    }
  }
  return `${lines.join('\n')}\n`;
}
