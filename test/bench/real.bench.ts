import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import { benchDatabaseUrl } from './bench-database.js';
import { benchHostEnv, intFromEnv, openAuditBenchContext } from './audit-bench-context.js';
import { SiteProcess } from './audit-site-client.js';
import type { SiteStats } from './audit-site-server.js';
import { runCrawlee, runFloor } from './audit-crawlee-client.js';
import { runWorkerAudit, type WorkerAuditResult } from './audit-worker-run.js';
import { OTHER_HOST_LANES, OTHER_HOST_PER_ORIGIN } from '../../src/crawler/site-crawler.js';
import { externalHosts, OUTSIDE_MAX_MS, OUTSIDE_MIN_MS, outsideLatencyMs, startOutsideWeb } from './outside-web.js';
import { externalTail, formatExternalTail, type ExternalTail } from './external-tail.js';
import { auditBreakdown, probeImport, readProbe, type AuditBreakdown } from './worker-probe-report.js';
import {
  formatRealReport,
  realReportJson,
  type RealBenchResult,
  type RealBenchSettings,
  type RealRun,
} from './real-bench-report.js';

/**
 * `npm run bench -- real`: a real site, Debian's PostgreSQL 15 manual (1,169 hand-written HTML pages, 4 other
 * files, ~1,700 external links), served from memory by a child process on 127.0.0.1, audited by our full pipeline
 * beside crawlee's CheerioCrawler, in interleaved rounds after a warm-up.
 *
 * Ours: a real audit worker process (as `seo worker` runs it) doing the whole audit a user starts: robots.txt and
 * sitemap, the crawl with its page checks, resource and external link checks, site checks, lab vitals in Chromium
 * (when one is installed; BENCH_REAL_LAB=0 turns them off), and every result written to PostgreSQL. The worker
 * carries a probe (worker-probe.ts: undici, DNS and pg timings, CPU samples) from which the bench tells where the
 * time goes, phase by phase. Crawlee: CheerioCrawler fetching and parsing every page of the site (link discovery,
 * same hostname), in memory.
 *
 * Figures: wall time per side (ours: job added -> COMPLETED, readable; crawlee: crawler.run()), the end-to-end ratio,
 * ours to final (the external verdicts folded in: they wait for the outside web, which crawlee does not ask), the
 * crawl-phase ratio (the site server's window from the first page request to the answer to the last page served for
 * the first time, the same instrument for both sides; the lab meter's later loads of crawled pages do not count), CPU
 * ms per page (ours: the worker process and its ended children from /proc, Chromium included; crawlee:
 * process.cpuUsage of its process), and our fixed costs. Goals (issue 28): >= 3x end to end,
 * >= 5x less CPU per page. Reported, not enforced; the bench fails only when a side does not crawl the whole site.
 *
 * The outside world (outside-web.ts): the external hosts the manual links to are pinned to 127.0.0.2, where a server
 * answers each after a latency of its own (100-900 ms), over http and https; no DNS query or request leaves the
 * machine (a lookup that does is reported as a warning).
 *
 * Knobs: BENCH_REAL_ROOT (the manual's folder), BENCH_REAL_ROUNDS (3), BENCH_REAL_WARMUP_ROUNDS (1), BENCH_REAL_LAB
 * (1 when /usr/bin/chromium or CHROMIUM_PATH exists), BENCH_REAL_WORKER_DIST (dist, compiled first; tsx: the sources
 * under tsx; another folder: an existing build), BENCH_REAL_TIMEOUT_SEC (900), BENCH_REAL_KEEP_PROBES=1 (keeps the
 * probe files and prints their folder), BENCH_REAL_CPU_PROF=<folder> (V8 CPU profiles of our worker and its threads,
 * one file each per round: where the CPU per page goes).
 */

const HOST = 'pgdocs.test';
const DEFAULT_ROOT = '/usr/share/doc/postgresql-doc-15/html';
const CRAWLEE_VERSION = (createRequire(import.meta.url)('@crawlee/cheerio/package.json') as { version: string })
  .version;

const log = (line: string) => process.stderr.write(`[bench:real] ${line}\n`);

function readSettings(): RealBenchSettings {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const lab = process.env.BENCH_REAL_LAB ? process.env.BENCH_REAL_LAB !== '0' : existsSync(chromium);
  const dist = process.env.BENCH_REAL_WORKER_DIST;
  return {
    root: process.env.BENCH_REAL_ROOT || DEFAULT_ROOT,
    rounds: Math.max(1, intFromEnv('BENCH_REAL_ROUNDS', 3)),
    warmupRounds: intFromEnv('BENCH_REAL_WARMUP_ROUNDS', 1),
    chromiumPath: lab ? chromium : null,
    workerDist: dist === 'tsx' ? null : dist || 'dist',
    compile: !dist,
    timeoutMs: intFromEnv('BENCH_REAL_TIMEOUT_SEC', 900) * 1000,
    concurrency: DEFAULT_CRAWL_OPTIONS.concurrency,
    crawleeVersion: CRAWLEE_VERSION,
    outside: { hosts: 0, minMs: OUTSIDE_MIN_MS, maxMs: OUTSIDE_MAX_MS },
    cpuProfileDir: process.env.BENCH_REAL_CPU_PROF || null,
  };
}

const serverWindowSec = (s: SiteStats) =>
  s.firstPageAtMs !== null && s.lastPageAtMs !== null ? (s.lastPageAtMs - s.firstPageAtMs) / 1000 : NaN;

export async function runRealBench(): Promise<{ ok: boolean }> {
  const settings = readSettings();
  if (!existsSync(join(settings.root, 'index.html')))
    throw new Error(
      `bench real: no ${settings.root}/index.html (apt-get install postgresql-doc-15, or set BENCH_REAL_ROOT)`,
    );
  // The site's external links are answered on this machine: no DNS query or request leaves it.
  const outside = await startOutsideWeb(externalHosts(settings.root));
  settings.outside.hosts = outside.hosts.length;
  let ctx: Awaited<ReturnType<typeof openAuditBenchContext>>;
  try {
    ctx = await openAuditBenchContext({
      name: 'real',
      databaseUrl: benchDatabaseUrl(),
      host: HOST,
      workerDist: settings.workerDist,
      compile: settings.compile,
      workerEnv: {
        ...(settings.chromiumPath ? { CHROMIUM_PATH: settings.chromiumPath } : {}),
        // The bench context's own allow-list and pin, extended with the outside web's.
        ...outside.env(benchHostEnv(HOST)),
      },
      timeoutMs: settings.timeoutMs,
      log,
    });
  } catch (err) {
    await outside.close();
    throw err;
  }
  ctx.defer(() => outside.close());
  const probeDir = mkdtempSync(join(tmpdir(), 'bench-real-'));
  ctx.defer(async () => {
    if (process.env.BENCH_REAL_KEEP_PROBES === '1') log(`probe files kept in ${probeDir}`);
    else rmSync(probeDir, { recursive: true, force: true });
  });
  const warnings: string[] = outside.warning ? [outside.warning] : [];
  try {
    const site = await SiteProcess.serveDirectory(settings.root);
    ctx.defer(() => site.close());
    const siteOrigin = `http://${HOST}:${site.port}`;
    const probe = await probeImport(probeDir);
    log(`site: ${settings.root} on 127.0.0.1:${site.port} (ours via ${siteOrigin}/, crawlee via 127.0.0.1)`);

    const runs: RealRun[] = [];
    const workerRuns: { run: WorkerAuditResult; breakdown: AuditBreakdown; external: ExternalTail }[] = [];
    const ours = async (round: number): Promise<RealRun> => {
      const file = join(probeDir, `probe-${round}-${runs.length}.json`);
      // A fresh project each run: the project's one-day cache of external verdicts is empty, so every round checks
      // every external target (as a project's first audit of the day does).
      // Deleted once its run is read (its cached verdicts go with it): a project's URL is unique in its organization,
      // whose deletion at the end takes what a failed run left.
      const projectId = await ctx.createProject(`${siteOrigin}/`);
      await site.stats(true);
      outside.take();
      const r = await runWorkerAudit({
        ...ctx.worker,
        env: { ...ctx.worker.env, BENCH_PROBE_FILE: file },
        execArgv: [
          ...(ctx.worker.execArgv ?? []),
          '--import',
          probe,
          ...(settings.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfileDir}`] : []),
        ],
        projectId,
        maxPages: 10_000,
      });
      const served = await site.stats(true);
      await ctx.pool.query('DELETE FROM project WHERE id = $1', [projectId]);
      if (r.status !== 'COMPLETED') throw new Error(`our audit ended ${r.status}: ${r.error ?? ''}`);
      const completedAtMs = r.jobAddedAtMs + r.observedMs;
      const probeData = readProbe(file);
      const breakdown = auditBreakdown(probeData, siteOrigin, r.jobAddedAtMs, completedAtMs);
      const external = externalTail(probeData, breakdown, siteOrigin, {
        perOrigin: Math.max(OTHER_HOST_PER_ORIGIN, settings.concurrency),
        lanes: OTHER_HOST_LANES,
        latencyMs: outsideLatencyMs,
      });
      const answered = outside.take();
      for (const line of formatExternalTail(external)) log(line);
      log(
        `  readable (pages, scores, issues) after ${((r.readableMs ?? r.observedMs) / 1000).toFixed(1)} s, ` +
          `final (external verdicts folded in) after ${(r.observedMs / 1000).toFixed(1)} s (from the job added)`,
      );
      log(`  the outside web answered ${answered.requests} requests over ${answered.connections} connections`);
      if (external.targets === 0) warnings.push(`round ${round}, ours: no external link was checked`);
      warnings.push(...breakdown.warnings.map((w) => `round ${round}, ours: ${w}`));
      if (breakdown.lookups.count > 0)
        warnings.push(`round ${round}, ours: ${breakdown.lookups.count} DNS lookups left the pins (a name not pinned)`);
      workerRuns.push({ run: r, breakdown, external });
      return {
        round,
        side: 'ours',
        pages: r.pagesCrawled,
        distinctServed: served.distinctPages,
        seconds: breakdown.endToEndMs / 1000,
        finalSeconds: r.observedMs / 1000,
        crawlSeconds: serverWindowSec(served),
        cpuMs: r.cpuMs + r.childCpuMs,
        crawlCpuMs: breakdown.spans.find((s) => s.name.startsWith('pages'))?.cpuMs ?? NaN,
        bootMs: r.bootMs,
        peakRssMb: r.rss.hwmKb / 1024,
        served: served.pages + served.head + served.images + served.other + served.notFound,
        serverCpuMs: served.cpuMs,
      };
    };
    // crawlee and the floor (fetch and tokenize only, audit-floor-crawl.ts) do nothing but crawl, in a fresh child
    // each: all of their CPU is crawl-phase CPU.
    const child =
      (
        side: 'crawlee' | 'floor',
        run: () => Promise<{ pages: number; elapsedMs: number; cpuMs: number; maxRssKb: number }>,
      ) =>
      async (round: number): Promise<RealRun> => {
        await site.stats(true);
        const r = await run();
        const served = await site.stats(true);
        return {
          round,
          side,
          pages: r.pages,
          distinctServed: served.distinctPages,
          seconds: r.elapsedMs / 1000,
          crawlSeconds: serverWindowSec(served),
          cpuMs: r.cpuMs,
          crawlCpuMs: r.cpuMs,
          bootMs: null,
          peakRssMb: r.maxRssKb / 1024,
          served: served.pages + served.head + served.images + served.other + served.notFound,
          serverCpuMs: served.cpuMs,
        };
      };
    const startUrl = `http://127.0.0.1:${site.port}/`;
    const crawlee = child('crawlee', async () => {
      const r = await runCrawlee(
        { startUrl, maxRequests: null, concurrency: settings.concurrency },
        settings.timeoutMs,
      );
      return { ...r, pages: r.requestsFinished };
    });
    const floor = child('floor', () => runFloor({ startUrl, concurrency: settings.concurrency }, settings.timeoutMs));

    const loadBefore = loadavg();
    const schedule = [
      ...Array.from({ length: settings.warmupRounds }, () => 0),
      ...Array.from({ length: settings.rounds }, (_, i) => i + 1),
    ];
    for (const [index, round] of schedule.entries()) {
      const sides = index % 2 === 0 ? [ours, floor, crawlee] : [crawlee, floor, ours];
      for (const side of sides) {
        const row = await side(round);
        runs.push(row);
        log(
          `${round === 0 ? 'warm-up' : `round ${round}/${settings.rounds}`}: ${row.side} ${row.pages} pages in ` +
            `${row.seconds.toFixed(2)} s (crawl phase ${row.crawlSeconds.toFixed(2)} s), ` +
            `${(row.cpuMs / Math.max(1, row.pages)).toFixed(2)} CPU ms/page`,
        );
      }
    }
    const sizes = new Set(runs.map((r) => r.distinctServed));
    if (sizes.size !== 1)
      warnings.push(`the sides did not fetch the same pages: distinct pages served ${[...sizes].join(', ')}`);
    const result: RealBenchResult = {
      settings,
      runs,
      breakdowns: workerRuns.filter((_, i) => schedule[i] > 0).map((w) => w.breakdown),
      externals: workerRuns.filter((_, i) => schedule[i] > 0).map((w) => w.external),
      warnings,
      machine: {
        cpus: cpus().length,
        memoryGb: totalmem() / 2 ** 30,
        node: process.version,
        loadBefore,
        loadAfter: loadavg(),
      },
    };
    process.stdout.write(`${formatRealReport(result)}\n${JSON.stringify(realReportJson(result))}\n`);
    return { ok: sizes.size === 1 };
  } finally {
    await ctx.close();
  }
}
