import { cpus, totalmem } from 'node:os';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import type { WorkerAuditResult } from './audit-worker-run.js';
import { formatExtraction, TARGET_EXTRACTION_RATIO, type ExtractionResult } from './audit-extraction.js';

/** The audit benchmark's results as a table for people and one JSON line for machines. */

export const TARGET_RATIO = 5;
/** Our CPU per page at most this many times the floor's (fetch and tokenize only) on the generated site. */
export const TARGET_FLOOR_CPU_RATIO = 2;
/** crawlee's CPU per page at least this many times ours. */
export const TARGET_CRAWLEE_CPU_RATIO = 4;
export const TARGET_RSS_MB = 300;

export interface AuditBenchSettings {
  pages: number;
  rounds: number;
  warmupRounds: number;
  rssPages: number;
  extractionRounds: number;
  extractionPages: number | null;
  seed: number;
  crawleeConcurrency: number;
  crawleeDefaults: boolean;
  crawleeMaxRequests: number | null;
  timeoutMs: number;
  sitemap: boolean;
  workerDist: string | null;
  workerNodeArgs: string[];
  workerLog: string | null;
  crawleeVersion: string;
  /** A side that measures a worker's second audit (BENCH_AUDIT_WARM, on by default). */
  warmSide: boolean;
}

export interface ThroughputRow {
  /** 0 for a warm-up run (not in the ratio). */
  round: number;
  side: 'ours' | 'ours-warm' | 'crawlee' | 'crawlee-defaults' | 'floor';
  label: string;
  pages: number;
  seconds: number;
  pagesPerSec: number;
  cpuSec: number;
  peakRssMb: number;
  /** Pages (GET, HTML) and other requests the site served during the run, and its CPU. */
  servedPages: number;
  servedOther: number;
  serverCpuSec: number;
}

export interface AuditBenchResult {
  settings: AuditBenchSettings;
  nodeEnv: string;
  throughput: { rows: ThroughputRow[]; workerRuns: WorkerAuditResult[] } | null;
  memory: WorkerAuditResult | null;
  extraction: ExtractionResult | null;
  warnings: string[];
  loadAverage: { before: number; after: number };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const mb = (kb: number) => kb / 1024;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

function formatTable(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

interface Ratios {
  oursPps: number;
  crawleePps: number;
  ratio: number;
  ratioPerRound: number[];
  ratioVsDefaults: number | null;
  /** Mean CPU ms per page of each side measured (rounds > 0). */
  cpuMsPerPage: Partial<Record<ThroughputRow['side'], number>>;
  floorPps: number | null;
}

const cpuMsPerPageOf = (rows: ThroughputRow[]) => mean(rows.map((r) => (r.cpuSec * 1000) / Math.max(1, r.pages)));

function ratios(rows: ThroughputRow[]): Ratios {
  const bySide = (side: ThroughputRow['side']) => rows.filter((r) => r.side === side && r.round > 0);
  const ours = bySide('ours');
  const crawlee = bySide('crawlee');
  const defaults = bySide('crawlee-defaults');
  const floor = bySide('floor');
  const oursWarm = bySide('ours-warm');
  const oursPps = mean(ours.map((r) => r.pagesPerSec));
  const crawleePps = mean(crawlee.map((r) => r.pagesPerSec));
  const cpuMsPerPage: Ratios['cpuMsPerPage'] = {};
  for (const [side, sideRows] of [
    ['ours', ours],
    ['ours-warm', oursWarm],
    ['floor', floor],
    ['crawlee', crawlee],
    ['crawlee-defaults', defaults],
  ] as const)
    if (sideRows.length) cpuMsPerPage[side] = cpuMsPerPageOf(sideRows);
  return {
    oursPps,
    crawleePps,
    ratio: oursPps / crawleePps,
    ratioPerRound: ours.map((r, i) => r.pagesPerSec / crawlee[i].pagesPerSec),
    ratioVsDefaults: defaults.length ? oursPps / mean(defaults.map((r) => r.pagesPerSec)) : null,
    cpuMsPerPage,
    floorPps: floor.length ? mean(floor.map((r) => r.pagesPerSec)) : null,
  };
}

/** CPU per page of ours, the floor and crawlee, and the ratios against the floor (the steadier yardstick). */
function floorLines(r: Ratios): string[] {
  const { ours, floor, crawlee } = r.cpuMsPerPage;
  if (ours === undefined || floor === undefined || crawlee === undefined) return [];
  const oursOverFloor = ours / floor;
  const crawleeOverOurs = crawlee / ours;
  return [
    `CPU ms/page: ours ${ours.toFixed(3)}, floor ${floor.toFixed(3)}, crawlee ${crawlee.toFixed(3)}; ` +
      `pages/s: ours ${r.oursPps.toFixed(1)}, floor ${r.floorPps!.toFixed(1)}, crawlee ${r.crawleePps.toFixed(1)}`,
    `ours/floor CPU per page = ${oursOverFloor.toFixed(2)} (target <= ${TARGET_FLOOR_CPU_RATIO}): ` +
      `${oursOverFloor <= TARGET_FLOOR_CPU_RATIO ? 'MEETS TARGET' : 'BELOW TARGET'}; crawlee/floor = ` +
      `${(crawlee / floor).toFixed(2)}; crawlee/ours = ${crawleeOverOurs.toFixed(2)} (target >= ` +
      `${TARGET_CRAWLEE_CPU_RATIO}): ${crawleeOverOurs >= TARGET_CRAWLEE_CPU_RATIO ? 'MEETS TARGET' : 'BELOW TARGET'}`,
    ...warmLine(r.cpuMsPerPage['ours-warm'], floor, crawlee),
  ];
}

/** A worker's second audit (BENCH_AUDIT_WARM): its CPU per page against the floor and crawlee. */
function warmLine(warm: number | undefined, floor: number, crawlee: number): string[] {
  if (warm === undefined) return [];
  return [
    `a worker's second audit (its code compiled and optimized by the first): ${warm.toFixed(3)} ms/page = ` +
      `${(warm / floor).toFixed(2)}x the floor, crawlee/ours ${(crawlee / warm).toFixed(2)} ` +
      `(the targets above are judged on the fresh worker)`,
  ];
}

const pagesPerSec = (w: WorkerAuditResult) => w.pagesCrawled / (w.elapsedMs / 1000);

export function formatReport(result: AuditBenchResult): string {
  const { settings: s, throughput, memory } = result;
  const worker = s.workerDist
    ? `${s.workerDist}/workers/audit.worker.js (compiled)`
    : 'workers/audit.worker.ts under tsx';
  const out: string[] = [
    '',
    `audit benchmark: generated site (seed ${s.seed}), ~12.5 KB pages, 30 internal links, 3-4 images, ` +
      `robots.txt${s.sitemap ? ' + sitemap.xml' : ', no sitemap (BENCH_AUDIT_SITEMAP=1 adds one)'}; served ` +
      `uncompressed by a child process on 127.0.0.1 (pages rendered once at its ` +
      `start${s.warmupRounds ? '' : ', every page fetched once before round 1 to warm it'})`,
    `node ${process.version}, NODE_ENV=${result.nodeEnv}; machine: ${cpus().length} ` +
      `CPUs, ${(totalmem() / 2 ** 30).toFixed(0)} GB, 1-min load ` +
      `average ${result.loadAverage.before.toFixed(2)} ` +
      `before, ${result.loadAverage.after.toFixed(2)} after`,
    `ours: a real worker process ` +
      `(${worker}${s.workerNodeArgs.length ? `, node ${s.workerNodeArgs.join(' ')}` : ''}, ` +
      `WORKER_CONCURRENCY=1, LOG_LEVEL=warn), DEFAULT_CRAWL_OPTIONS ` +
      `(concurrency ${DEFAULT_CRAWL_OPTIONS.concurrency}, ` +
      `assetBudget ${DEFAULT_CRAWL_OPTIONS.assetBudget}), robots respected, results written to PostgreSQL; ` +
      `time = audit.completed_at - started_at; CPU = the worker process only (PostgreSQL not counted)`,
  ];
  if (throughput) {
    const r = ratios(throughput.rows);
    const meets = r.ratio >= TARGET_RATIO;
    out.push(
      `crawlee ${s.crawleeVersion}: CheerioCrawler in a fresh child process per run, requestHandler = ` +
        `enqueueLinks({ strategy: 'same-hostname' }), Configuration({ persistStorage: false }), ` +
        `maxRequestsPerCrawl ${s.crawleeMaxRequests ?? `unset (the site has exactly ${s.pages} pages)`}; ` +
        `time = crawler.run()`,
      '',
      `1. throughput, ${s.pages}-page site (${s.rounds} rounds, order ` +
        `alternating${
          s.warmupRounds
            ? `, after ${s.warmupRounds} warm-up run(s) of each side shown as round 0 and left out of the ratio`
            : ''
        }):`,
      formatTable(
        [
          'round',
          'side',
          'pages',
          'seconds',
          'pages/s',
          'CPU s',
          'CPU ms/page',
          'peak RSS MB',
          'served pages+other',
          'site CPU s',
        ],
        throughput.rows.map((row) => [
          row.round === 0 ? '0 (warm-up)' : String(row.round),
          row.label,
          String(row.pages),
          row.seconds.toFixed(1),
          row.pagesPerSec.toFixed(1),
          row.cpuSec.toFixed(1),
          ((row.cpuSec * 1000) / Math.max(1, row.pages)).toFixed(2),
          row.peakRssMb.toFixed(0),
          `${row.servedPages}+${row.servedOther}`,
          row.serverCpuSec.toFixed(1),
        ]),
      ),
      '',
      `ours ${r.oursPps.toFixed(1)} pages/s vs crawlee ` +
        `(pinned ${s.crawleeConcurrency}) ${r.crawleePps.toFixed(1)} pages/s: ours/crawlee ` +
        `= ${r.ratio.toFixed(2)} (per round ${r.ratioPerRound.map((x) => x.toFixed(2)).join(', ')}; target ` +
        `>= ${TARGET_RATIO}): ${meets ? 'MEETS TARGET' : 'BELOW TARGET'}`,
    );
    if (r.ratioVsDefaults !== null)
      out.push(`ours / crawlee with its default autoscaling = ${r.ratioVsDefaults.toFixed(2)}`);
    out.push(...floorLines(r));
  }
  if (memory) {
    const meets = mb(memory.rss.hwmKb) < TARGET_RSS_MB;
    out.push(
      '',
      `2. worker memory, ${s.rssPages}-page site:`,
      formatTable(
        [
          'pages',
          'side',
          'seconds',
          'pages/s',
          'CPU s',
          'idle RSS MB',
          'max sampled RSS MB',
          'VmHWM MB',
          'rows pages/occurrences/issues',
        ],
        [
          [
            String(memory.pagesCrawled),
            'ours: real worker',
            (memory.elapsedMs / 1000).toFixed(1),
            pagesPerSec(memory).toFixed(1),
            (memory.cpuMs / 1000).toFixed(1),
            mb(memory.rss.idleKb).toFixed(0),
            mb(memory.rss.maxSampledKb).toFixed(0),
            mb(memory.rss.hwmKb).toFixed(0),
            `${memory.rows.pages}/${memory.rows.occurrences}/${memory.rows.issues}`,
          ],
        ],
      ),
      `RSS as pages accumulate: ${memory.rss.timeline
        .map((p) => `${p.pagesCrawled}p ${mb(p.rssKb).toFixed(0)}MB`)
        .join(', ')}`,
      `peak RSS (VmHWM) ${mb(memory.rss.hwmKb).toFixed(0)} MB (target < ${TARGET_RSS_MB} ` +
        `MB): ${meets ? 'MEETS TARGET' : 'BELOW TARGET'}`,
    );
    if (s.workerNodeArgs.some((a) => a.startsWith('--cpu-prof')))
      out.push('NOTE: the CPU profiler was on; it inflates RSS, so these memory numbers are not representative.');
  }
  if (result.extraction) out.push(...formatExtraction(result.extraction));
  for (const w of result.warnings) out.push(`WARNING: ${w}`);
  return out.join('\n');
}

export function reportJson(result: AuditBenchResult): Record<string, unknown> {
  const { settings, throughput, memory } = result;
  const r = throughput ? ratios(throughput.rows) : null;
  return {
    bench: 'audit',
    settings,
    targetRatio: TARGET_RATIO,
    ratio: r ? round(r.ratio, 3) : null,
    ratioPerRound: r ? r.ratioPerRound.map((x) => round(x, 3)) : null,
    ratioVsCrawleeDefaults: r?.ratioVsDefaults == null ? null : round(r.ratioVsDefaults, 3),
    meetsRatio: r ? r.ratio >= TARGET_RATIO : null,
    oursPagesPerSec: r ? round(r.oursPps) : null,
    crawleePagesPerSec: r ? round(r.crawleePps) : null,
    floorPagesPerSec: r?.floorPps == null ? null : round(r.floorPps),
    cpuMsPerPage: r ? Object.fromEntries(Object.entries(r.cpuMsPerPage).map(([k, v]) => [k, round(v, 3)])) : null,
    oursOverFloorCpu:
      r?.cpuMsPerPage.ours && r.cpuMsPerPage.floor ? round(r.cpuMsPerPage.ours / r.cpuMsPerPage.floor, 3) : null,
    crawleeOverOursCpu:
      r?.cpuMsPerPage.ours && r.cpuMsPerPage.crawlee ? round(r.cpuMsPerPage.crawlee / r.cpuMsPerPage.ours, 3) : null,
    runs:
      throughput?.rows.map((row) => ({
        ...row,
        seconds: round(row.seconds),
        pagesPerSec: round(row.pagesPerSec),
        cpuSec: round(row.cpuSec),
        peakRssMb: Math.round(row.peakRssMb),
        serverCpuSec: round(row.serverCpuSec),
      })) ?? [],
    oursDetail:
      throughput?.workerRuns.map((w) => ({
        rows: w.rows,
        overallScore: w.overallScore,
        observedMs: Math.round(w.observedMs),
        bootMs: Math.round(w.bootMs),
        bootCpuMs: Math.round(w.bootCpuMs),
        idleRssMb: Math.round(mb(w.rss.idleKb)),
        hwmMb: Math.round(mb(w.rss.hwmKb)),
      })) ?? [],
    memory: memory
      ? {
          pages: memory.pagesCrawled,
          seconds: round(memory.elapsedMs / 1000, 1),
          pagesPerSec: round(pagesPerSec(memory)),
          cpuSec: round(memory.cpuMs / 1000, 1),
          idleRssMb: Math.round(mb(memory.rss.idleKb)),
          maxSampledRssMb: Math.round(mb(memory.rss.maxSampledKb)),
          hwmMb: Math.round(mb(memory.rss.hwmKb)),
          samples: memory.rss.samples,
          timeline: memory.rss.timeline.map((p) => ({
            pages: p.pagesCrawled,
            rssMb: Math.round(mb(p.rssKb)),
            atSec: round(p.atSec, 1),
          })),
          rows: memory.rows,
          targetMb: TARGET_RSS_MB,
          meetsTarget: mb(memory.rss.hwmKb) < TARGET_RSS_MB,
        }
      : null,
    extraction: result.extraction
      ? {
          pages: result.extraction.pages,
          extractors: result.extraction.extractors,
          medianCpuMsPerPage: {
            none: round(result.extraction.medianNone, 3),
            extractors: round(result.extraction.medianExtractors, 3),
          },
          ratio: round(result.extraction.ratio, 3),
          targetRatio: TARGET_EXTRACTION_RATIO,
          meetsTarget: result.extraction.ratio <= TARGET_EXTRACTION_RATIO,
          runs: result.extraction.runs.map((r) => ({
            ...r,
            seconds: round(r.seconds),
            cpuMsPerPage: round(r.cpuMsPerPage, 3),
            load1: round(r.load1),
          })),
        }
      : null,
    warnings: result.warnings,
    loadAverage: {
      before: round(result.loadAverage.before),
      after: round(result.loadAverage.after),
      cpus: cpus().length,
    },
  };
}
