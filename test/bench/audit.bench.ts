import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import type pg from 'pg';
import type { Queue } from 'bullmq';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import type { AuditJobData } from '../../src/audits/audit-job.js';
import { benchDatabaseUrl } from './bench-database.js';
import { openAuditBenchContext } from './audit-bench-context.js';
import { SiteProcess } from './audit-site-client.js';
import { runCrawlee, runFloor } from './audit-crawlee-client.js';
import type { CrawleeJob } from './audit-crawlee-crawl.js';
import { runWorkerAudit, type WorkerAuditOptions, type WorkerAuditResult } from './audit-worker-run.js';
import { measureExtraction } from './audit-extraction.js';
import {
  formatReport,
  reportJson,
  type AuditBenchResult,
  type AuditBenchSettings,
  type ThroughputRow,
} from './audit-bench-report.js';

/**
 * Audit throughput and worker memory.
 * 1. A generated 5,000-page site crawled, alternately, by our full pipeline (a real audit worker: crawl +
 *    analyze + persist to PostgreSQL) and by crawlee's CheerioCrawler doing link discovery only.
 *    Target: ours / crawlee >= 5 in pages per second.
 * 2. The worker's peak RSS over a 20,000-page audit. Target: < 300 MB.
 * 3. Custom extraction: the same site audited with no extractors and with 20, interleaved (audit-extraction.ts).
 *    Target: CPU per page with / without <= 1.20.
 * Environment knobs are read in readSettings(); diagnostics (CPU profile, node flags, compiled worker) too.
 */

const HOST = 'bench.test';
const CRAWLEE_VERSION = (createRequire(import.meta.url)('@crawlee/cheerio/package.json') as { version: string })
  .version;

const log = (line: string) => process.stderr.write(`[bench:audit] ${line}\n`);

const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};

function readSettings(): AuditBenchSettings {
  return {
    pages: Math.max(1, intFromEnv('BENCH_AUDIT_PAGES', 5_000)),
    /** 0 skips the throughput comparison. */
    rounds: intFromEnv('BENCH_AUDIT_ROUNDS', 3),
    /** Unmeasured runs of each side before round 1 (shown in the table as round 0, left out of the ratio). */
    warmupRounds: intFromEnv('BENCH_AUDIT_WARMUP_ROUNDS', 1),
    /** 0 skips the extraction arm (part 3); its site has BENCH_AUDIT_EXTRACTION_PAGES pages (default: pages). */
    extractionRounds: intFromEnv('BENCH_AUDIT_EXTRACTION_ROUNDS', 3),
    extractionPages: intFromEnv('BENCH_AUDIT_EXTRACTION_PAGES', 0) || null,
    /** 0 skips the memory run. */
    rssPages: intFromEnv('BENCH_AUDIT_RSS_PAGES', 20_000),
    seed: intFromEnv('BENCH_AUDIT_SEED', 20_261_121),
    crawleeConcurrency: Math.max(1, intFromEnv('BENCH_AUDIT_CRAWLEE_CONCURRENCY', DEFAULT_CRAWL_OPTIONS.concurrency)),
    crawleeDefaults: process.env.BENCH_AUDIT_CRAWLEE_DEFAULTS !== '0',
    /** 0 (default): no maxRequestsPerCrawl, the site bounds the crawl; see CrawleeJob.maxRequests. */
    crawleeMaxRequests: intFromEnv('BENCH_AUDIT_CRAWLEE_MAX_REQUESTS', 0) || null,
    timeoutMs: intFromEnv('BENCH_AUDIT_TIMEOUT_SEC', 1_800) * 1000,
    /**
     * BENCH_AUDIT_SITEMAP=1 serves robots.txt with a sitemap.xml listing every page (our crawler seeds from it;
     * crawlee does not read it). Off by default: the site is then found by links only.
     */
    sitemap: process.env.BENCH_AUDIT_SITEMAP === '1',
    // The compiled worker, as production runs it: by default the bench compiles the sources into dist/ first.
    // BENCH_AUDIT_WORKER_DIST=<dir>: an existing build, not rebuilt; =tsx: the TypeScript sources under tsx
    // (more memory: the compiler is loaded too).
    workerDist: process.env.BENCH_AUDIT_WORKER_DIST === 'tsx' ? null : process.env.BENCH_AUDIT_WORKER_DIST || 'dist',
    // BENCH_AUDIT_CPU_PROF=<dir>: a V8 CPU profile per worker (it inflates RSS); BENCH_AUDIT_WORKER_NODE_ARGS:
    // extra node flags ("--trace-gc --max-old-space-size=128"); BENCH_AUDIT_WORKER_LOG=<file>: worker output.
    workerNodeArgs: [
      ...(process.env.BENCH_AUDIT_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_AUDIT_CPU_PROF}`] : []),
      ...(process.env.BENCH_AUDIT_WORKER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    ],
    workerLog: process.env.BENCH_AUDIT_WORKER_LOG || null,
    crawleeVersion: CRAWLEE_VERSION,
    /** BENCH_AUDIT_WARM=0 leaves out the side that measures a worker's second audit (see oursWarm). */
    warmSide: process.env.BENCH_AUDIT_WARM !== '0',
  };
}

interface BenchContext {
  settings: AuditBenchSettings;
  pool: pg.Pool;
  queue: Queue<AuditJobData>;
  /** Everything runWorkerAudit needs but the project and the page budget. */
  worker: Omit<WorkerAuditOptions, 'projectId' | 'maxPages'>;
  createProject(url: string): Promise<string>;
  warnings: string[];
  cleanups: (() => Promise<unknown>)[];
}

interface Side {
  name: ThroughputRow['side'];
  run(round: number): Promise<ThroughputRow>;
}

/** Part 1: the same site, our worker and crawlee alternating, each run in a fresh process. */
async function measureThroughput(
  ctx: BenchContext,
): Promise<{ rows: ThroughputRow[]; workerRuns: WorkerAuditResult[] }> {
  const { settings } = ctx;
  const site = await SiteProcess.start({ pages: settings.pages, seed: settings.seed, sitemap: settings.sitemap });
  ctx.cleanups.push(() => site.close());
  const ourUrl = `http://${HOST}:${site.port}/`;
  const crawleeUrl = `http://127.0.0.1:${site.port}/`;
  const projectId = await ctx.createProject(ourUrl);
  log(`site: ${settings.pages} pages on 127.0.0.1:${site.port} (ours via ${ourUrl}, crawlee via ${crawleeUrl})`);
  // Warm-up runs fetch every page through both crawlers anyway; without them the site is warmed on its own.
  if (settings.warmupRounds === 0) await site.warmUp([HOST, '127.0.0.1']);

  const workerRuns: WorkerAuditResult[] = [];
  /**
   * Our worker: a fresh process per run ('ours'), or ('ours-warm') one that audited the site once before, unmeasured,
   * as a long-running worker's later audits run: the JIT's compile work of the first audit is then behind it.
   */
  const oursSide = (name: 'ours' | 'ours-warm'): Side => ({
    name,
    run: async (round) => {
      await site.stats(true);
      const r = await runWorkerAudit({
        ...ctx.worker,
        projectId,
        maxPages: settings.pages,
        warmAudits: name === 'ours-warm' ? 1 : 0,
        // The site's counts cover the measured audit only.
        beforeMeasured: () => site.stats(true),
      });
      const served = await site.stats(true);
      if (name === 'ours') workerRuns.push(r);
      if (r.status !== 'COMPLETED' || r.rows.pages !== r.pagesCrawled) {
        throw new Error(
          `our audit ended ${r.status} with ${r.pagesCrawled} pages crawled, ${r.rows.pages} ` +
            `persisted: ${r.error ?? ''}`,
        );
      }
      if (r.pagesCrawled !== settings.pages || served.distinctPages !== settings.pages) {
        ctx.warnings.push(
          `round ${round}: our audit crawled ${r.pagesCrawled} of the site's ${settings.pages} pages ` +
            `(${served.distinctPages} distinct served)`,
        );
      }
      return {
        round,
        side: name,
        label:
          name === 'ours'
            ? `ours: worker crawl+analyze+persist (${DEFAULT_CRAWL_OPTIONS.concurrency})`
            : `ours: the same worker's second audit`,
        pages: r.pagesCrawled,
        seconds: r.elapsedMs / 1000,
        pagesPerSec: r.pagesCrawled / (r.elapsedMs / 1000),
        cpuSec: r.cpuMs / 1000,
        peakRssMb: r.rss.hwmKb / 1024,
        servedPages: served.pages,
        servedOther: served.head + served.images + served.other,
        serverCpuSec: served.cpuMs / 1000,
      };
    },
  });
  const ours = oursSide('ours');
  /** A side run in a fresh child (crawlee, the floor): one row from its result and the site's counts. */
  const childSide = (
    name: 'crawlee' | 'crawlee-defaults' | 'floor',
    run: () => Promise<{ pages: number; failed: number; elapsedMs: number; cpuMs: number; maxRssKb: number }>,
    label: () => string,
  ): Side => ({
    name,
    run: async (round) => {
      await site.stats(true);
      const r = await run();
      const served = await site.stats(true);
      if (r.failed || served.distinctPages !== settings.pages)
        ctx.warnings.push(
          `round ${round}: ${name} crawled ${r.pages} pages (${r.failed} failed), ` +
            `${served.distinctPages} distinct served of ${settings.pages}`,
        );
      return {
        round,
        side: name,
        label: label(),
        pages: r.pages,
        seconds: r.elapsedMs / 1000,
        pagesPerSec: r.pages / (r.elapsedMs / 1000),
        cpuSec: r.cpuMs / 1000,
        peakRssMb: r.maxRssKb / 1024,
        servedPages: served.pages,
        servedOther: served.head + served.images + served.other,
        serverCpuSec: served.cpuMs / 1000,
      };
    },
  });
  const crawlee = (name: 'crawlee' | 'crawlee-defaults', concurrency: CrawleeJob['concurrency'], label: string) => {
    let ended = '';
    const side = childSide(
      name,
      async () => {
        const r = await runCrawlee(
          { startUrl: crawleeUrl, maxRequests: settings.crawleeMaxRequests, concurrency },
          settings.timeoutMs,
        );
        ended = concurrency === 'default' ? `, ended at ${r.finalDesiredConcurrency}` : '';
        return { ...r, pages: r.requestsFinished, failed: r.requestsFailed };
      },
      () => `${label}${ended}`,
    );
    return side;
  };
  // The floor: fetch and tokenize every page with our libraries (undici, htmlparser2) at the worker's
  // concurrency, nothing else (audit-floor-crawl.ts): what the work costs before checks and storage.
  const floor = childSide(
    'floor',
    () => runFloor({ startUrl: crawleeUrl, concurrency: DEFAULT_CRAWL_OPTIONS.concurrency }, settings.timeoutMs),
    () => `floor: undici + htmlparser2 tokenizer, links only (${DEFAULT_CRAWL_OPTIONS.concurrency})`,
  );
  const sides = [
    ours,
    ...(settings.warmSide ? [oursSide('ours-warm')] : []),
    floor,
    crawlee(
      'crawlee',
      settings.crawleeConcurrency,
      `crawlee CheerioCrawler links only (pinned ${settings.crawleeConcurrency})`,
    ),
  ];
  if (settings.crawleeDefaults)
    sides.push(
      crawlee(
        'crawlee-defaults',
        'default',
        'crawlee CheerioCrawler links only (default autoscaling: from 10, max 200)',
      ),
    );

  const rows: ThroughputRow[] = [];
  // Warm-up runs first (round 0): the first audits of a fresh database and the first crawls of a fresh site
  // process run slower, and always on the side that goes first.
  const schedule = [
    ...Array.from({ length: settings.warmupRounds }, () => 0),
    ...Array.from({ length: settings.rounds }, (_, i) => i + 1),
  ];
  for (const [index, round] of schedule.entries()) {
    const name = round === 0 ? 'warm-up' : `round ${round}/${settings.rounds}`;
    // Alternate who goes first, so that neither side always runs on a cooler (or warmer) machine.
    for (const side of index % 2 === settings.warmupRounds % 2 ? sides : [...sides].reverse()) {
      log(`${name}: ${side.name}`);
      const row = await side.run(round);
      rows.push(row);
      log(
        `${name}: ${side.name} ${row.pages} pages in ${row.seconds.toFixed(1)}s ` +
          `= ${row.pagesPerSec.toFixed(1)} pages/s`,
      );
    }
  }
  await site.close();
  return { rows, workerRuns };
}

/** Part 2: one large audit by a real worker, its memory sampled from /proc. */
async function measureMemory(ctx: BenchContext): Promise<WorkerAuditResult> {
  const { settings } = ctx;
  const site = await SiteProcess.start({
    pages: settings.rssPages,
    seed: settings.seed + 1,
    sitemap: settings.sitemap,
  });
  ctx.cleanups.push(() => site.close());
  const projectId = await ctx.createProject(`http://${HOST}:${site.port}/`);
  log(`memory: ${settings.rssPages}-page site on 127.0.0.1:${site.port}, one audit by a real worker`);
  const r = await runWorkerAudit({ ...ctx.worker, projectId, maxPages: settings.rssPages });
  const served = await site.stats(true);
  await site.close();
  if (r.status !== 'COMPLETED')
    throw new Error(`the ${settings.rssPages}-page audit ended ${r.status}: ${r.error ?? ''}`);
  if (r.pagesCrawled !== settings.rssPages || served.distinctPages !== settings.rssPages) {
    ctx.warnings.push(
      `memory run: our audit crawled ${r.pagesCrawled} of the site's ${settings.rssPages} pages ` +
        `(${served.distinctPages} distinct served)`,
    );
  }
  return r;
}

export async function runAuditBench(): Promise<{ ok: boolean }> {
  const settings = readSettings();
  const shared = await openAuditBenchContext({
    name: 'audit',
    databaseUrl: benchDatabaseUrl(),
    host: HOST,
    // BENCH_AUDIT_WORKER_DIST names an existing build (not rebuilt); unset: the sources compiled into dist/ first.
    workerDist: settings.workerDist,
    compile: !process.env.BENCH_AUDIT_WORKER_DIST,
    execArgv: settings.workerNodeArgs,
    logFile: settings.workerLog ?? undefined,
    timeoutMs: settings.timeoutMs,
    log,
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const ctx: BenchContext = {
      settings,
      pool: shared.pool,
      queue: shared.queue,
      worker: shared.worker,
      createProject: shared.createProject,
      warnings: [],
      cleanups,
    };

    const loadBefore = loadavg()[0];
    const throughput = settings.rounds > 0 ? await measureThroughput(ctx) : null;
    const extraction =
      settings.extractionRounds > 0
        ? await measureExtraction({
            pool: ctx.pool,
            worker: ctx.worker,
            createProject: ctx.createProject,
            host: HOST,
            pages: settings.extractionPages ?? settings.pages,
            rounds: settings.extractionRounds,
            seed: settings.seed + 2,
            warnings: ctx.warnings,
            defer: (cleanup) => void cleanups.push(cleanup),
            log,
          })
        : null;
    const memory = settings.rssPages > 0 ? await measureMemory(ctx) : null;
    const result: AuditBenchResult = {
      settings,
      nodeEnv: ctx.worker.env.NODE_ENV,
      throughput,
      memory,
      extraction,
      warnings: ctx.warnings,
      loadAverage: { before: loadBefore, after: loadavg()[0] },
    };
    process.stdout.write(`${formatReport(result)}\n${JSON.stringify(reportJson(result))}\n`);
    // Complete crawls are "ok"; the targets are reported, not enforced.
    return { ok: ctx.warnings.length === 0 };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
    await shared.close();
  }
}
