import { loadavg } from 'node:os';
import type pg from 'pg';
import { extractorProblem } from '../../src/seo/extraction/index.js';
import { newId } from '../../src/platform/ids.js';
import { SiteProcess } from './audit-site-client.js';
import { runWorkerAudit, type WorkerAuditOptions } from './audit-worker-run.js';
import { BENCH_EXTRACTORS } from './extraction-specs.js';

/**
 * The audit bench's extraction arm: the same generated site audited by two projects, one without custom extractors
 * and one with 20 (BENCH_EXTRACTORS), interleaved in one run (the order swapped every round), each audit in a fresh
 * worker process. It reports each arm's worker CPU per page and the ratio with / without. Target: <= 1.20.
 */

export const TARGET_EXTRACTION_RATIO = 1.2;

export interface ExtractionRun {
  /** 0 for the warm-up (not in the figures). */
  round: number;
  arm: 'none' | 'extractors';
  pages: number;
  seconds: number;
  cpuMsPerPage: number;
  /** Pages whose stored extraction holds a value per extractor, and pages with an extractor timed out. */
  extractedPages: number;
  timedOutPages: number;
  load1: number;
}

export interface ExtractionResult {
  pages: number;
  extractors: number;
  runs: ExtractionRun[];
  medianNone: number;
  medianExtractors: number;
  ratio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export async function measureExtraction(opts: {
  pool: pg.Pool;
  worker: Omit<WorkerAuditOptions, 'projectId' | 'maxPages'>;
  createProject(url: string): Promise<string>;
  host: string;
  pages: number;
  rounds: number;
  seed: number;
  warnings: string[];
  defer: (cleanup: () => Promise<unknown>) => void;
  log(line: string): void;
}): Promise<ExtractionResult> {
  for (const spec of BENCH_EXTRACTORS) {
    const problem = extractorProblem(spec);
    if (problem) throw new Error(`bench extractor ${spec.key} is refused: ${problem}`);
  }
  // A project's URL is unique in its organization: each arm audits its own copy of the site (same seed, same pages)
  // on a port of its own.
  const sites = await Promise.all(
    [0, 1].map(() => SiteProcess.start({ pages: opts.pages, seed: opts.seed, sitemap: false })),
  );
  for (const site of sites) opts.defer(() => site.close());
  const plain = await opts.createProject(`http://${opts.host}:${sites[0].port}/`);
  const extracting = await opts.createProject(`http://${opts.host}:${sites[1].port}/`);
  for (const spec of BENCH_EXTRACTORS) {
    await opts.pool.query(
      `INSERT INTO project_extractor (id, project_id, key, name, kind, expression, output, attribute, match, regex,
         ignore_case) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        newId(),
        extracting,
        spec.key,
        spec.key,
        spec.kind,
        spec.expression,
        spec.output,
        spec.attribute,
        spec.match,
        spec.regex,
        spec.ignoreCase,
      ],
    );
  }
  opts.log(
    `extraction: ${opts.pages}-page site on 127.0.0.1:${sites[0].port} and :${sites[1].port}, no extractors vs ` +
      `${BENCH_EXTRACTORS.length}, ${opts.rounds} rounds after a warm-up`,
  );
  const arms = [
    { arm: 'none' as const, projectId: plain },
    { arm: 'extractors' as const, projectId: extracting },
  ];
  const runs: ExtractionRun[] = [];
  for (let round = 0; round <= opts.rounds; round++) {
    for (const { arm, projectId } of round % 2 ? [...arms].reverse() : arms) {
      // Kept until its stored values are counted below, then deleted as runWorkerAudit would.
      const r = await runWorkerAudit({ ...opts.worker, projectId, maxPages: opts.pages, keep: true });
      if (r.status !== 'COMPLETED') throw new Error(`extraction arm ${arm}: audit ended ${r.status}: ${r.error ?? ''}`);
      if (r.pagesCrawled !== opts.pages)
        opts.warnings.push(`extraction round ${round} ${arm}: crawled ${r.pagesCrawled} of ${opts.pages} pages`);
      const [stored] = (
        await opts.pool.query<{ extracted: number; timed_out: number }>(
          `SELECT count(*) FILTER (WHERE extraction IS NOT NULL)::int AS extracted,
                  count(*) FILTER (WHERE extraction::text LIKE '%"timeout"%')::int AS timed_out
           FROM audit_page WHERE audit_id = $1`,
          [r.auditId],
        )
      ).rows;
      await opts.pool.query('DELETE FROM audit WHERE id = $1', [r.auditId]);
      const run: ExtractionRun = {
        round,
        arm,
        pages: r.pagesCrawled,
        seconds: r.elapsedMs / 1000,
        cpuMsPerPage: r.cpuMs / r.pagesCrawled,
        extractedPages: stored.extracted,
        timedOutPages: stored.timed_out,
        load1: loadavg()[0],
      };
      runs.push(run);
      opts.log(
        `extraction ${round === 0 ? 'warm-up' : `round ${round}/${opts.rounds}`} ${arm}: ${run.pages} pages, ` +
          `${run.cpuMsPerPage.toFixed(3)} ms CPU/page, load ${run.load1.toFixed(2)}`,
      );
      if (arm === 'extractors' && stored.extracted !== r.pagesCrawled)
        opts.warnings.push(`extraction round ${round}: ${stored.extracted} of ${r.pagesCrawled} pages have values`);
    }
  }
  for (const site of sites) await site.close();
  const measured = (arm: ExtractionRun['arm']) =>
    runs.filter((r) => r.round > 0 && r.arm === arm).map((r) => r.cpuMsPerPage);
  const medianNone = median(measured('none'));
  const medianExtractors = median(measured('extractors'));
  return {
    pages: opts.pages,
    extractors: BENCH_EXTRACTORS.length,
    runs,
    medianNone,
    medianExtractors,
    ratio: medianExtractors / medianNone,
  };
}

export function formatExtraction(x: ExtractionResult): string[] {
  const rows = x.runs.map(
    (r) =>
      `${String(r.round).padStart(5)}  ${r.arm.padEnd(10)}  ${String(r.pages).padStart(5)}  ` +
      `${r.seconds.toFixed(1).padStart(7)}  ${r.cpuMsPerPage.toFixed(3).padStart(10)}  ` +
      `${String(r.extractedPages).padStart(9)}  ${String(r.timedOutPages).padStart(8)}  ` +
      r.load1.toFixed(2).padStart(6),
  );
  return [
    '',
    `3. custom extraction, ${x.pages}-page site: no extractors vs ${x.extractors} (CPU = the worker process only; ` +
      'round 0 is a warm-up)',
    'round  arm         pages  seconds  CPU ms/page  extracted  timeouts  load1',
    ...rows,
    `median CPU per page: none ${x.medianNone.toFixed(3)} ms, ${x.extractors} extractors ` +
      `${x.medianExtractors.toFixed(3)} ms; ratio ${x.ratio.toFixed(3)} (target <= ${TARGET_EXTRACTION_RATIO}): ` +
      (x.ratio <= TARGET_EXTRACTION_RATIO ? 'MEETS TARGET' : 'OVER TARGET'),
  ];
}
