import type { AuditBreakdown } from './worker-probe-report.js';
import { formatExternalTail, type ExternalTail } from './external-tail.js';

/** The real-site bench's figures: a table for people, one JSON line for machines. */

export const GOAL_END_TO_END = 3;
export const GOAL_CPU_PER_PAGE = 5;

export interface RealBenchSettings {
  root: string;
  rounds: number;
  warmupRounds: number;
  chromiumPath: string | null;
  workerDist: string | null;
  compile: boolean;
  timeoutMs: number;
  concurrency: number;
  crawleeVersion: string;
  /** The external hosts the site names, answered on this machine (outside-web.ts), and their latency range. */
  outside: { hosts: number; minMs: number; maxMs: number };
  /** Where our worker's CPU profiles go (BENCH_REAL_CPU_PROF), or null. */
  cpuProfileDir: string | null;
}

export interface RealRun {
  /** 0: warm-up (not in the figures). */
  round: number;
  side: 'ours' | 'crawlee' | 'floor';
  pages: number;
  distinctServed: number;
  /**
   * Ours: job added -> COMPLETED, readable (pages, scores, issues; the external verdicts may still be coming);
   * crawlee: crawler.run().
   */
  seconds: number;
  /** Ours: job added -> final, the external verdicts folded in (the 250 ms poll's precision). */
  finalSeconds?: number;
  /** The site server's window: first page request -> answer to the last page served for the first time. */
  crawlSeconds: number;
  /** Ours: worker + its ended children (Chromium); crawlee: its process. */
  cpuMs: number;
  /** CPU inside the pages window (ours: from the probe's samples). */
  crawlCpuMs: number;
  /** Ours: worker spawned -> connected to its queue (not in `seconds`: a worker is long-running). */
  bootMs: number | null;
  peakRssMb: number;
  /** Every request the site answered (pages, HEADs, other files, 404s). */
  served: number;
  serverCpuMs: number;
}

export interface RealBenchResult {
  settings: RealBenchSettings;
  runs: RealRun[];
  /** Our measured rounds' breakdowns (warm-up left out). */
  breakdowns: AuditBreakdown[];
  /** Our measured rounds' external link checks (each on a fresh project: no cached verdict). */
  externals: ExternalTail[];
  warnings: string[];
  machine: { cpus: number; memoryGb: number; node: string; loadBefore: number[]; loadAfter: number[] };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const round = (x: number, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
const perPage = (r: RealRun, ms: number) => ms / Math.max(1, r.pages);

export interface RealFigures {
  oursSeconds: number;
  /** Ours: job added -> final, the external verdicts folded in (`oursSeconds` is to readable). */
  oursFinalSeconds: number;
  crawleeSeconds: number;
  /** crawlee time / our time: how many times faster ours is (< 1: slower). */
  endToEnd: number;
  endToEndPerRound: number[];
  crawlPhase: number;
  oursCpuMsPerPage: number;
  crawleeCpuMsPerPage: number;
  /** crawlee CPU per page / ours: how many times less CPU ours uses. */
  cpuPerPage: number;
  oursCrawlCpuMsPerPage: number;
  crawlCpuPerPage: number;
  oursBootMs: number;
  /** The floor (fetch and tokenize only): its time and CPU per page; ours and crawlee over it. */
  floorSeconds: number;
  floorCpuMsPerPage: number;
  oursOverFloorCpu: number;
  crawleeOverFloorCpu: number;
}

export function realFigures(runs: RealRun[]): RealFigures {
  const measured = runs.filter((r) => r.round > 0);
  const ours = measured.filter((r) => r.side === 'ours');
  const crawlee = measured.filter((r) => r.side === 'crawlee');
  const oursSeconds = mean(ours.map((r) => r.seconds));
  const crawleeSeconds = mean(crawlee.map((r) => r.seconds));
  const oursCpu = mean(ours.map((r) => perPage(r, r.cpuMs)));
  const crawleeCpu = mean(crawlee.map((r) => perPage(r, r.cpuMs)));
  const oursCrawlCpu = mean(ours.map((r) => perPage(r, r.crawlCpuMs)));
  const floor = measured.filter((r) => r.side === 'floor');
  const floorCpu = mean(floor.map((r) => perPage(r, r.cpuMs)));
  return {
    floorSeconds: mean(floor.map((r) => r.seconds)),
    floorCpuMsPerPage: floorCpu,
    oursOverFloorCpu: oursCpu / floorCpu,
    crawleeOverFloorCpu: crawleeCpu / floorCpu,
    oursSeconds,
    oursFinalSeconds: mean(ours.map((r) => r.finalSeconds ?? r.seconds)),
    crawleeSeconds,
    endToEnd: crawleeSeconds / oursSeconds,
    endToEndPerRound: ours.map((r) => (crawlee.find((c) => c.round === r.round)?.seconds ?? NaN) / r.seconds),
    crawlPhase: mean(crawlee.map((r) => r.crawlSeconds)) / mean(ours.map((r) => r.crawlSeconds)),
    oursCpuMsPerPage: oursCpu,
    crawleeCpuMsPerPage: crawleeCpu,
    cpuPerPage: crawleeCpu / oursCpu,
    oursCrawlCpuMsPerPage: oursCrawlCpu,
    crawlCpuPerPage: crawleeCpu / oursCrawlCpu,
    oursBootMs: mean(ours.map((r) => r.bootMs ?? NaN)),
  };
}

export interface SpanSummary {
  name: string;
  wallMs: number;
  cpuMs: number;
  /** Share of our end-to-end time. */
  share: number;
  note: string;
}

/** Each span's mean over the measured rounds, in order, with the last round's note. */
export function spanSummary(breakdowns: AuditBreakdown[]): SpanSummary[] {
  if (!breakdowns.length) return [];
  const endToEnd = mean(breakdowns.map((b) => b.endToEndMs));
  return breakdowns[0].spans.map((span, i) => {
    const wallMs = mean(breakdowns.map((b) => b.spans[i].wallMs));
    return {
      name: span.name,
      wallMs,
      cpuMs: mean(breakdowns.map((b) => b.spans[i].cpuMs)),
      share: wallMs / endToEnd,
      note: breakdowns.at(-1)!.spans[i].note,
    };
  });
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');

export function formatRealReport(result: RealBenchResult): string {
  const { settings: s, runs, breakdowns, machine } = result;
  const f = realFigures(runs);
  const out = [
    '',
    `real-site benchmark: ${s.root} served from memory by a child process on 127.0.0.1; ` +
      `${s.warmupRounds} warm-up + ${s.rounds} interleaved rounds (order alternating)`,
    `machine: ${machine.cpus} CPUs, ${machine.memoryGb.toFixed(0)} GB, node ${machine.node}; load average ` +
      `(1/5/15 min) ${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after`,
    `ours: a real audit worker (${s.workerDist ? `${s.workerDist}/workers/audit.worker.js` : 'tsx'}), concurrency ` +
      `${s.concurrency}, the full audit (robots, crawl + page checks, resource and external link checks, site ` +
      `checks, lab vitals ${s.chromiumPath ? `in ${s.chromiumPath}` : 'OFF (no Chromium)'}, results in PostgreSQL); ` +
      'time = job added -> COMPLETED (readable; final: the external verdicts in, said below); CPU = worker + ended ' +
      'children (/proc)',
    `crawlee ${s.crawleeVersion}: CheerioCrawler, fetch + parse every page (enqueueLinks same-hostname), ` +
      `concurrency pinned to ${s.concurrency}; time = crawler.run()`,
    `outside world: the ${s.outside.hosts} external hosts the site links to answer on 127.0.0.2 (http and https), ` +
      `each after ${s.outside.minMs}-${s.outside.maxMs} ms of its own (no packet leaves the machine)`,
    '',
    table(
      ['round / side', 'pages', 'seconds', 'crawl phase s', 'CPU ms/page', 'crawl CPU ms/page', 'boot ms', 'RSS MB'],
      runs.map((r) => [
        `${r.round === 0 ? 'warm-up' : r.round} ${r.side}`,
        String(r.pages),
        r.seconds.toFixed(2),
        r.crawlSeconds.toFixed(2),
        perPage(r, r.cpuMs).toFixed(2),
        perPage(r, r.crawlCpuMs).toFixed(2),
        r.bootMs === null ? '-' : r.bootMs.toFixed(0),
        r.peakRssMb.toFixed(0),
      ]),
    ),
    '',
    `end to end: ours ${f.oursSeconds.toFixed(2)} s vs crawlee ${f.crawleeSeconds.toFixed(2)} s = ${x(f.endToEnd)} ` +
      `(per round ${f.endToEndPerRound.map(x).join(', ')}; goal >= ${GOAL_END_TO_END}x): ` +
      `${f.endToEnd >= GOAL_END_TO_END ? 'MEETS GOAL' : 'BELOW GOAL'}`,
    `ours readable (COMPLETED: pages, scores, issues) after ${f.oursSeconds.toFixed(2)} s, final (external ` +
      `verdicts folded in) after ${f.oursFinalSeconds.toFixed(2)} s`,
    `crawl phase (site server's first page request -> last new page's answer): ${x(f.crawlPhase)}`,
    `CPU per page: ours ${f.oursCpuMsPerPage.toFixed(2)} ms vs crawlee ${f.crawleeCpuMsPerPage.toFixed(2)} ms = ` +
      `${x(f.cpuPerPage)} less (goal >= ${GOAL_CPU_PER_PAGE}x): ` +
      `${f.cpuPerPage >= GOAL_CPU_PER_PAGE ? 'MEETS GOAL' : 'BELOW GOAL'}; in the crawl phase alone ours ` +
      `${f.oursCrawlCpuMsPerPage.toFixed(2)} ms/page = ${x(f.crawlCpuPerPage)} less`,
    `floor (undici + htmlparser2 tokenizer, links only): ${f.floorSeconds.toFixed(2)} s, ` +
      `${f.floorCpuMsPerPage.toFixed(2)} CPU ms/page; ours/floor CPU per page = ${f.oursOverFloorCpu.toFixed(2)}, ` +
      `crawlee/floor = ${f.crawleeOverFloorCpu.toFixed(2)}`,
    `worker start-up (spawn -> connected to its queue, outside the end-to-end time): ${f.oursBootMs.toFixed(0)} ms`,
  ];
  const spans = spanSummary(breakdowns);
  if (spans.length) {
    const last = breakdowns.at(-1)!;
    out.push(
      '',
      `where our time goes (mean of ${breakdowns.length} measured rounds; the worker's probe: undici, DNS, pg, CPU):`,
      table(
        ['span', 'wall ms', 'share', 'CPU ms'],
        spans.map((p) => [p.name, p.wallMs.toFixed(0), `${(p.share * 100).toFixed(1)}%`, p.cpuMs.toFixed(0)]),
      ),
      ...spans.filter((p) => p.note).map((p) => `  ${p.name}: ${p.note}`),
      '',
      'requests (last round):',
      table(
        ['kind', 'count', 'failed', 'distinct', 'sum ms', 'last ends after last page ms'],
        last.requests.map((g) => [
          g.kind,
          String(g.count),
          String(g.failed),
          String(g.distinct),
          g.sumMs.toFixed(0),
          g.endsAfterPagesMs.toFixed(0),
        ]),
      ),
      `DNS lookups: ${last.lookups.count} (${last.lookups.failed} failed) for ${last.lookups.hosts} hosts, ` +
        `sum ${last.lookups.sumMs.toFixed(0)} ms, longest ${last.lookups.maxMs.toFixed(0)} ms`,
      '',
      'PostgreSQL statements (last round, most time first; time inside the pages window overlaps the crawl):',
      table(
        ['kind', 'count', 'sum ms', 'in pages window ms'],
        last.queries.slice(0, 10).map((q) => [q.kind, String(q.count), q.sumMs.toFixed(0), q.inPagesMs.toFixed(0)]),
      ),
    );
  }
  if (result.externals.length)
    out.push(
      '',
      `external link checks (last round; mean end to end without their wait over ${result.externals.length} ` +
        `rounds: ${(mean(result.externals.map((e) => e.endToEndWithoutExternalMs)) / 1000).toFixed(2)} s):`,
      ...formatExternalTail(result.externals.at(-1)!),
    );
  for (const w of result.warnings) out.push(`WARNING: ${w}`);
  return out.join('\n');
}

export function realReportJson(result: RealBenchResult): Record<string, unknown> {
  const f = realFigures(result.runs);
  return {
    bench: 'real',
    settings: result.settings,
    goals: { endToEnd: GOAL_END_TO_END, cpuPerPage: GOAL_CPU_PER_PAGE },
    endToEnd: round(f.endToEnd, 3),
    endToEndPerRound: f.endToEndPerRound.map((v) => round(v, 3)),
    crawlPhase: round(f.crawlPhase, 3),
    cpuPerPage: round(f.cpuPerPage, 3),
    crawlCpuPerPage: round(f.crawlCpuPerPage, 3),
    oursSeconds: round(f.oursSeconds, 3),
    oursFinalSeconds: round(f.oursFinalSeconds, 3),
    crawleeSeconds: round(f.crawleeSeconds, 3),
    oursCpuMsPerPage: round(f.oursCpuMsPerPage, 3),
    crawleeCpuMsPerPage: round(f.crawleeCpuMsPerPage, 3),
    oursBootMs: round(f.oursBootMs, 0),
    floorSeconds: round(f.floorSeconds, 3),
    floorCpuMsPerPage: round(f.floorCpuMsPerPage, 3),
    oursOverFloorCpu: round(f.oursOverFloorCpu, 3),
    crawleeOverFloorCpu: round(f.crawleeOverFloorCpu, 3),
    runs: result.runs.map((r) => ({
      ...r,
      seconds: round(r.seconds, 3),
      crawlSeconds: round(r.crawlSeconds, 3),
      cpuMs: round(r.cpuMs, 0),
      crawlCpuMs: round(r.crawlCpuMs, 0),
      bootMs: r.bootMs === null ? null : round(r.bootMs, 0),
      peakRssMb: round(r.peakRssMb, 0),
      serverCpuMs: round(r.serverCpuMs, 0),
    })),
    externals: result.externals,
    spans: spanSummary(result.breakdowns).map((p) => ({
      name: p.name,
      wallMs: round(p.wallMs, 0),
      cpuMs: round(p.cpuMs, 0),
      share: round(p.share, 3),
    })),
    lastBreakdown: result.breakdowns.at(-1)
      ? {
          requests: result.breakdowns.at(-1)!.requests,
          lookups: result.breakdowns.at(-1)!.lookups,
          queries: result.breakdowns.at(-1)!.queries.slice(0, 10),
        }
      : null,
    warnings: result.warnings,
    machine: result.machine,
  };
}
