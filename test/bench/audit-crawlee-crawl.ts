/**
 * Child-process entry: crawlee's CheerioCrawler doing link discovery only (enqueueLinks, same hostname) on
 * the generated site, in memory. A fresh process per run, like a fresh worker per audit on our side.
 */

export interface CrawleeJob {
  startUrl: string;
  /**
   * maxRequestsPerCrawl, or null for none. crawlee 3.18 stalls when the limit is about the site's size
   * (enqueueLinks feeds the remaining budget in chunks with 1 s sleeps); see the bench's notes.
   */
  maxRequests: number | null;
  /**
   * A number pins the autoscaled pool (min = max); 'default' keeps CheerioCrawler's own (desired 10, 1..200 by load).
   */
  concurrency: number | 'default';
}

export interface CrawleeResult {
  requestsFinished: number;
  requestsFailed: number;
  /** Distinct URLs the request handler saw. */
  distinctUrls: number;
  /** crawler.run() only: imports and process start are excluded, as the worker's boot is on our side. */
  elapsedMs: number;
  cpuMs: number;
  /** Peak RSS of this process (getrusage maxrss), in KiB. */
  maxRssKb: number;
  finalDesiredConcurrency: number | null;
  error?: string;
}

async function crawl(job: CrawleeJob): Promise<CrawleeResult> {
  const { CheerioCrawler, Configuration, log, LogLevel } = await import('@crawlee/cheerio');
  log.setLevel(LogLevel.WARNING);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const seen = new Set<string>();
  const crawler = new CheerioCrawler(
    {
      ...(job.maxRequests === null ? {} : { maxRequestsPerCrawl: job.maxRequests }),
      ...(job.concurrency === 'default' ? {} : { minConcurrency: job.concurrency, maxConcurrency: job.concurrency }),
      async requestHandler({ request, enqueueLinks }) {
        seen.add(request.loadedUrl ?? request.url);
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    config,
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const stats = await crawler.run([job.startUrl]);
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    requestsFinished: stats.requestsFinished,
    requestsFailed: stats.requestsFailed,
    distinctUrls: seen.size,
    elapsedMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKb: process.resourceUsage().maxRSS,
    finalDesiredConcurrency: crawler.autoscaledPool?.desiredConcurrency ?? null,
  };
}

process.once('message', (job: CrawleeJob) => {
  crawl(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: unknown) =>
      process.send?.({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.exit(1)),
  );
});
process.on('disconnect', () => process.exit(0));
