import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchDatabaseUrl } from './bench-database.js';
import { intFromEnv, openAuditBenchContext } from './audit-bench-context.js';
import { SiteProcess } from './audit-site-client.js';
import { runWorkerAudit, type WorkerAuditResult } from './audit-worker-run.js';

/**
 * Two builds of the audit worker side by side: this checkout's (dist/, compiled first) and another's
 * (BENCH_AB_BASELINE: the folder of another checkout whose `tsc -p tsconfig.build.json` output is in its dist/),
 * alternating on the same generated site, each run in a fresh process, the order swapped every round. It prints each
 * build's CPU per page (the worker process only) and the ratio, so that a change that should not cost anything (a
 * move of code) is measured against the commit before it in one run. Both builds must read the same database schema.
 */

const HOST = 'bench.test';
const log = (line: string) => process.stderr.write(`[bench:audit-ab] ${line}\n`);

interface Side {
  name: 'this' | 'baseline';
  distDir: string;
  /** Extra node flags of this side's worker. */
  nodeArgs: string[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export async function runAuditAbBench(): Promise<{ ok: boolean }> {
  const baselineRoot = process.env.BENCH_AB_BASELINE;
  if (!baselineRoot) throw new Error('bench audit-ab: set BENCH_AB_BASELINE to another checkout with a built dist/');
  const baselineDist = resolve(baselineRoot, 'dist');
  if (!existsSync(resolve(baselineDist, 'workers/audit.worker.js')))
    throw new Error(`bench audit-ab: no ${baselineDist}/workers/audit.worker.js (tsc -p tsconfig.build.json there)`);
  const pages = Math.max(1, intFromEnv('BENCH_AUDIT_PAGES', 5_000));
  const rounds = Math.max(1, intFromEnv('BENCH_AB_ROUNDS', 5));
  const ctx = await openAuditBenchContext({
    name: 'audit-ab',
    databaseUrl: benchDatabaseUrl(),
    host: HOST,
    workerDist: 'dist',
    compile: true,
    timeoutMs: 1_800_000,
    log,
  });
  // BENCH_AB_THIS_NODE_ARGS / BENCH_AB_BASELINE_NODE_ARGS: node flags of one side's worker only; with
  // BENCH_AB_BASELINE set to this checkout, the two sides are one build under two sets of V8 flags.
  const nodeArgs = (name: string) => (process.env[name] ?? '').split(/\s+/).filter(Boolean);
  const sides: Side[] = [
    { name: 'this', distDir: 'dist', nodeArgs: nodeArgs('BENCH_AB_THIS_NODE_ARGS') },
    { name: 'baseline', distDir: baselineDist, nodeArgs: nodeArgs('BENCH_AB_BASELINE_NODE_ARGS') },
  ];
  const results: Record<Side['name'], WorkerAuditResult[]> = { this: [], baseline: [] };
  try {
    const site = await SiteProcess.start({ pages, seed: 20_261_121, sitemap: false });
    ctx.defer(() => site.close());
    const projectId = await ctx.createProject(`http://${HOST}:${site.port}/`);
    // Round 0 warms the site and the database for both; it is left out of the figures.
    for (let round = 0; round <= rounds; round++) {
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) {
        // BENCH_AB_CPU_PROF=<dir>: a V8 CPU profile of every run, in <dir>/<side>.
        const prof = process.env.BENCH_AB_CPU_PROF;
        const execArgv = [
          ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${resolve(prof, side.name)}`] : (ctx.worker.execArgv ?? [])),
          ...side.nodeArgs,
        ];
        const r = await runWorkerAudit({ ...ctx.worker, execArgv, distDir: side.distDir, projectId, maxPages: pages });
        if (r.status !== 'COMPLETED') throw new Error(`${side.name}: audit ended ${r.status}: ${r.error ?? ''}`);
        const perPage = r.cpuMs / r.pagesCrawled;
        log(
          `round ${round} ${side.name}: ${r.pagesCrawled} pages, ${perPage.toFixed(3)} ms CPU/page, ` +
            `boot ${r.bootMs.toFixed(0)} ms (CPU ${r.bootCpuMs.toFixed(0)} ms), audit ${r.elapsedMs.toFixed(0)} ms`,
        );
        if (round > 0) results[side.name].push(r);
      }
    }
  } finally {
    await ctx.close();
  }
  const perPage = (rs: WorkerAuditResult[]) => rs.map((r) => r.cpuMs / r.pagesCrawled);
  const rows = sides.map((s) => {
    const xs = perPage(results[s.name]);
    const rowsOf = results[s.name][0]?.rows;
    const bootMs = results[s.name].map((r) => Math.round(r.bootMs));
    const bootCpuMs = results[s.name].map((r) => Math.round(r.bootCpuMs));
    return {
      side: s.name,
      dist: s.distDir,
      nodeArgs: s.nodeArgs,
      cpuMsPerPage: xs,
      median: median(xs),
      bootMs,
      bootCpuMs,
      rows: rowsOf,
    };
  });
  const ratio = rows[0].median / rows[1].median;
  console.log(`audit-ab: ${pages} pages, ${rounds} rounds each, alternating; CPU = the worker process only`);
  for (const r of rows) {
    const runs = r.cpuMsPerPage.map((x) => x.toFixed(3)).join(' ');
    console.log(
      `${[r.side.padEnd(8), ...r.nodeArgs].join(' ')} median ${r.median.toFixed(3)} ms/page  runs ${runs}  ` +
        `boot ms ${r.bootMs.join(' ')} (CPU ${r.bootCpuMs.join(' ')})  ` +
        `rows ${JSON.stringify(r.rows)}`,
    );
  }
  console.log(`this / baseline = ${ratio.toFixed(3)}`);
  console.log(JSON.stringify({ bench: 'audit-ab', pages, rounds, rows, ratio }));
  return { ok: true };
}
