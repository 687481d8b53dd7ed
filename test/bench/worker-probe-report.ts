import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * What worker-probe.ts records in an audit worker, and where an audit's wall time and CPU went according to it:
 * the pure half (no side effects on import), unit-tested in test/unit/bench/worker-probe-report.test.ts.
 */

/** [origin, method, path, start, headers (or -1), end (or -1), status (or -1), error code or null] */
export type ProbeRequest = [string, string, string, number, number, number, number, string | null];
/** [host, start, end (or -1), error code or null] */
export type ProbeLookup = [string, number, number, string | null];
/** [kind, start, end (or -1)] */
export type ProbeQuery = [string, number, number];
/** [name, at] */
export type ProbeMark = [string, number];
/** [at, user + system CPU ms since the probe loaded] */
export type ProbeCpu = [number, number];

export interface ProbeData {
  /** performance.timeOrigin of the worker: add it to a time to get epoch ms. */
  timeOrigin: number;
  loadedAt: number;
  requests: ProbeRequest[];
  lookups: ProbeLookup[];
  queries: ProbeQuery[];
  marks: ProbeMark[];
  cpu: ProbeCpu[];
}

/** What a statement is, for the breakdown: `insert <table>`, the audit's phase changes (marks), or its first words. */
export function classifyStatement(text: string, values: readonly unknown[] = []): { kind: string; mark?: string } {
  const sql = text.trimStart().replace(/\s+/g, ' ');
  if (/^UPDATE audit SET phase = /i.test(sql))
    return { kind: 'update audit (phase)', mark: `phase ${String(values[2])}` };
  if (/^UPDATE audit SET status = \$\d+, phase = 'CRAWLING'/i.test(sql))
    return { kind: 'update audit (claim)', mark: 'claim' };
  if (/^UPDATE audit SET status = \$\d+, phase = NULL, overall_score/i.test(sql))
    return { kind: 'update audit (complete)', mark: 'complete' };
  const insert = /^INSERT INTO "?(\w+)/i.exec(sql);
  if (insert) return { kind: `insert ${insert[1]}` };
  const update = /^UPDATE "?(\w+)/i.exec(sql);
  if (update) return { kind: `update ${update[1]}` };
  const select = /^SELECT .*? FROM "?(\w+)/i.exec(sql.slice(0, 400));
  if (select) return { kind: `select ${select[1]}` };
  return { kind: sql.split(' ', 1)[0].toLowerCase() || 'other' };
}

export type RequestClass = 'page' | 'robots/sitemap' | 'site file' | 'resource check' | 'external';

const ASSET = /\.(css|js|mjs|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|pdf|mp4|webm)$/i;

/** A request of the audit, by what it is for (`siteOrigin`: scheme://host:port of the audited site). */
export function classifyRequest(siteOrigin: string, origin: string, method: string, path: string): RequestClass {
  if (origin.replace(/\/$/, '') !== siteOrigin) return 'external';
  const bare = path.split(/[?#]/)[0];
  if (bare === '/robots.txt' || /sitemap[^/]*\.xml(\.gz)?$/i.test(bare)) return 'robots/sitemap';
  if (bare === '/favicon.ico' || bare === '/llms.txt') return 'site file';
  if (method !== 'GET' || ASSET.test(bare)) return 'resource check';
  return 'page';
}

/** Process CPU ms at `at`, interpolated between the samples around it. */
export function cpuAt(samples: readonly ProbeCpu[], at: number): number {
  if (!samples.length) return 0;
  if (at <= samples[0][0]) return samples[0][1];
  let lo = 0;
  let hi = samples.length - 1;
  if (at >= samples[hi][0]) return samples[hi][1];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid][0] <= at) lo = mid;
    else hi = mid;
  }
  const [t0, c0] = samples[lo];
  const [t1, c1] = samples[hi];
  return t1 === t0 ? c1 : c0 + ((c1 - c0) * (at - t0)) / (t1 - t0);
}

export interface Span {
  name: string;
  /** Probe times (ms since the worker's timeOrigin). */
  start: number;
  end: number;
  wallMs: number;
  cpuMs: number;
  note: string;
}

export interface RequestGroup {
  kind: RequestClass;
  count: number;
  failed: number;
  /** Distinct origins (external) or paths. */
  distinct: number;
  /** Sum of each request's own duration (they overlap). */
  sumMs: number;
  /** The last one ended this long after the last page response (0 when before it). */
  endsAfterPagesMs: number;
}

export interface AuditBreakdown {
  /** Sequential: pick-up, robots/sitemap, pages, tail, site checks, lab vitals, final save. */
  spans: Span[];
  /** Job added -> audit COMPLETED update, in ms. */
  endToEndMs: number;
  cpuMs: number;
  /** The pages' fetch window (first page request start -> last page response end), probe times. */
  pages: { count: number; start: number; end: number };
  requests: RequestGroup[];
  lookups: { count: number; failed: number; sumMs: number; maxMs: number; hosts: number };
  /** Statements by kind, most time first; `inPagesMs`: their time inside the pages window. */
  queries: { kind: string; count: number; sumMs: number; inPagesMs: number }[];
  warnings: string[];
}

const endOf = (r: ProbeRequest) => Math.max(r[5], r[4], r[3]);

/**
 * Where an audit's time went. `jobAddedAtMs` and `completedAtMs` are epoch ms (the latter used when the probe saw
 * no completing statement).
 */
export function auditBreakdown(
  probe: ProbeData,
  siteOrigin: string,
  jobAddedAtMs: number,
  completedAtMs: number | null = null,
): AuditBreakdown {
  const warnings: string[] = [];
  const mark = (name: string): number | null => probe.marks.find((m) => m[0] === name)?.[1] ?? null;
  const added = jobAddedAtMs - probe.timeOrigin;
  const complete = mark('complete') ?? (completedAtMs === null ? null : completedAtMs - probe.timeOrigin);
  const claim = mark('claim');
  if (claim === null) warnings.push('no claim statement seen: the pick-up span starts at the job');
  if (complete === null) throw new Error('auditBreakdown: the audit never completed');

  const classes = probe.requests.map((r) => classifyRequest(siteOrigin, r[0], r[1], r[2]));
  const pageRows = probe.requests.filter((_, i) => classes[i] === 'page');
  const firstPage = pageRows.length ? Math.min(...pageRows.map((r) => r[3])) : (claim ?? added);
  const lastPage = pageRows.length ? Math.max(...pageRows.map(endOf)) : firstPage;
  const analyzing = mark('phase ANALYZING') ?? lastPage;
  const measuring = mark('phase MEASURING') ?? analyzing;
  const saving = mark('phase SAVING') ?? measuring;

  const requests: RequestGroup[] = (
    ['page', 'robots/sitemap', 'site file', 'resource check', 'external'] as RequestClass[]
  ).map((kind) => {
    const rows = probe.requests.filter((_, i) => classes[i] === kind);
    const distinct = new Set(rows.map((r) => (kind === 'external' ? r[0] : r[2])));
    return {
      kind,
      count: rows.length,
      failed: rows.filter((r) => r[7] !== null || r[6] >= 400).length,
      distinct: distinct.size,
      sumMs: rows.reduce((s, r) => s + (endOf(r) - r[3]), 0),
      endsAfterPagesMs: Math.max(0, ...rows.map((r) => endOf(r) - lastPage)),
    };
  });
  const group = (kind: RequestClass) => requests.find((g) => g.kind === kind)!;
  const lookupMs = probe.lookups.map((l) => (l[2] < 0 ? 0 : l[2] - l[1]));

  const span = (name: string, start: number, end: number, note = ''): Span => {
    if (end < start) {
      warnings.push(`${name}: ends before it starts (${(end - start).toFixed(0)} ms); shown as 0`);
      end = start;
    }
    return { name, start, end, wallMs: end - start, cpuMs: cpuAt(probe.cpu, end) - cpuAt(probe.cpu, start), note };
  };
  const ext = group('external');
  const res = group('resource check');
  const tailNote =
    `external link checks: ${ext.count} requests to ${ext.distinct} origins (${ext.failed} failed), the last ended ` +
    `${ext.endsAfterPagesMs.toFixed(0)} ms after the last page; resource checks: ${res.count}, the last ended ` +
    `${res.endsAfterPagesMs.toFixed(0)} ms after it; favicon/llms.txt ended ` +
    `${group('site file').endsAfterPagesMs.toFixed(0)} ms after it`;
  const start = claim ?? added;
  const spans = [
    span('queue pick-up (job added -> claimed)', added, start),
    span('robots.txt + sitemap (claimed -> first page request)', start, firstPage),
    span('pages (first page request -> last page response)', firstPage, lastPage, `${pageRows.length} pages`),
    span('crawl tail (last page -> site checks)', lastPage, analyzing, tailNote),
    span('site checks (ANALYZING)', analyzing, measuring),
    span('lab vitals (MEASURING)', measuring, saving),
    span('final save (SAVING -> COMPLETED)', saving, complete),
  ];

  const byKind = new Map<string, { kind: string; count: number; sumMs: number; inPagesMs: number }>();
  for (const [kind, s, e] of probe.queries) {
    if (e < 0) continue;
    let row = byKind.get(kind);
    if (!row) byKind.set(kind, (row = { kind, count: 0, sumMs: 0, inPagesMs: 0 }));
    row.count++;
    row.sumMs += e - s;
    row.inPagesMs += Math.max(0, Math.min(e, lastPage) - Math.max(s, firstPage));
  }
  return {
    spans,
    endToEndMs: complete - added,
    cpuMs: cpuAt(probe.cpu, complete) - cpuAt(probe.cpu, added),
    pages: { count: pageRows.length, start: firstPage, end: lastPage },
    requests,
    lookups: {
      count: probe.lookups.length,
      failed: probe.lookups.filter((l) => l[3] !== null).length,
      sumMs: lookupMs.reduce((a, b) => a + b, 0),
      maxMs: Math.max(0, ...lookupMs),
      hosts: new Set(probe.lookups.map((l) => l[0])).size,
    },
    queries: [...byKind.values()].sort((a, b) => b.sumMs - a.sumMs),
    warnings,
  };
}

/**
 * The probe as a file `node --import` can load in a compiled worker (no tsx there): worker-probe.ts and this module
 * transpiled by TypeScript into `dir` (the caller removes it). Returns the module URL to pass to --import.
 */
export async function probeImport(dir: string): Promise<string> {
  // Running from the tsc output already (dist/bench): the compiled probe is next to this file.
  if (import.meta.url.endsWith('.js')) return new URL('./worker-probe.js', import.meta.url).href;
  const { default: ts } = await import('typescript');
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  for (const name of ['worker-probe', 'worker-probe-report']) {
    const source = readFileSync(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: `${name}.ts`,
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
  return pathToFileURL(join(dir, 'worker-probe.js')).href;
}

export const readProbe = (file: string): ProbeData => JSON.parse(readFileSync(file, 'utf8')) as ProbeData;
