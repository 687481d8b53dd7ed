import autocannon from 'autocannon';

/**
 * Child-process entry that fires the load. It runs apart from the servers under test so that
 * autocannon's own CPU never competes with them on one event loop.
 */

export interface LoadJob {
  id: number;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
}

export interface LoadResult {
  id: number;
  /** Completed responses and the wall time they took, measured here (not autocannon's rounded duration). */
  responses: number;
  elapsedMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Per-response latency in ms, so rounds can be merged into exact percentiles. */
  latencies: number[];
  error?: string;
}

function runJob(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve) => {
    const latencies: number[] = [];
    let non2xx = 0;
    const started = performance.now();
    const instance = autocannon(
      {
        url: job.url,
        method: job.method,
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        duration: job.durationSec,
        pipelining: 1,
      },
      (err, result) => {
        const elapsedMs = performance.now() - started;
        if (err) {
          resolve({
            id: job.id,
            responses: 0,
            elapsedMs,
            non2xx,
            errors: 0,
            timeouts: 0,
            latencies: [],
            error: String(err),
          });
          return;
        }
        resolve({
          id: job.id,
          responses: latencies.length,
          elapsedMs,
          non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          latencies,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (status < 200 || status >= 300) non2xx += 1;
    });
  });
}

process.on('message', (job: LoadJob) => {
  void runJob(job).then((result) => process.send?.(result));
});
process.on('disconnect', () => process.exit(0));
