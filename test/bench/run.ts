/**
 * Benchmark entry: `npm run bench` runs every benchmark, `npm run bench -- <name>` one of them.
 * Benchmarks print a table and one JSON line to stdout; progress goes to stderr.
 */

import { RUNNING_COMPILED, runCompiled } from './compiled.js';

// Measure what production runs: libraries (graphql-js among them) read NODE_ENV when they load.
process.env.NODE_ENV ??= 'production';

interface Benchmark {
  description: string;
  run(): Promise<{ ok: boolean }>;
}

const BENCHMARKS: Record<string, Benchmark> = {
  tools: {
    description:
      'Free-tool analyzers: robots.txt 500 KiB vs robots-parser, sitemap 50,000 URLs (plain, gzip) vs bare saxes',
    run: async () => (await import('./tools.bench.js')).runToolsBench(),
  },
  facade: {
    description:
      'GET /api/v1/projects through the REST facade vs the same route written by hand (+ /api/projects, /graphql)',
    // Compiled with tsc first, like production (BENCH_FACADE_TSX=1: the sources under tsx).
    run: async () =>
      RUNNING_COMPILED || process.env.BENCH_FACADE_TSX === '1'
        ? (await import('./facade.bench.js')).runFacadeBench()
        : runCompiled('facade', (line) => process.stderr.write(`[bench:facade] ${line}\n`)),
  },
  audit: {
    description:
      '5,000-page site: our worker (crawl + analyze + persist) vs crawlee CheerioCrawler pages/s; worker ' +
      'peak RSS on 20,000 pages',
    run: async () => (await import('./audit.bench.js')).runAuditBench(),
  },
  stages: {
    description:
      "The audit's per-page work stage by stage in one process (our facts, checks and rows; our HTTP client) against " +
      "the floor's parse and undici's fetch: a lower bound of the audit bench's ours/floor",
    run: async () => (await import('./stages.bench.js')).runStagesBench(),
  },
  'audit-ab': {
    description:
      "Two builds of the audit worker alternating on one generated site (BENCH_AB_BASELINE: another checkout's " +
      'built dist/): CPU per page of each and the ratio',
    run: async () => (await import('./audit-ab.bench.js')).runAuditAbBench(),
  },
  memory: {
    description:
      'Idle RSS of `npm start` (supervisor, API, audit worker, rank worker) after 30 s, against a 350 MB budget',
    run: async () => (await import('./memory.bench.js')).runMemoryBench(),
  },
  web: {
    description:
      'Web app in headless Chromium (built API process, cold cache): LCP, CLS, TBT, bytes of 4 pages vs a ' +
      'static page; 2,000-issue list',
    run: async () => (await import('./web.bench.js')).runWebBench(),
  },
  'url-table-sorts': {
    description:
      'URL table at 20,000 and 100,000 pages: the first page of every sortable field (both ways) and a filter on ' +
      'each, 50 segments of 20 conditions, first/last seen from the URL history',
    run: async () => (await import('./url-table-sorts.bench.js')).runUrlTableSortsBench(),
  },
  pageview: {
    description:
      'Page view with 500 inlinks on a 20,000-page audit (GraphQL) vs OFFSET and no-index reads of its links',
    run: async () => (await import('./pageview.bench.js')).runPageviewBench(),
  },
  compare: {
    description:
      'Audit comparison of two 10,000-page x 20-occurrence audits (GraphQL, goal < 1 s) vs both audits compared ' +
      'in JavaScript with Sets; full CSV, deep keyset page',
    run: async () => (await import('./compare.bench.js')).runCompareBench(),
  },
  real: {
    description:
      "Debian's PostgreSQL manual (1,169 pages): our full audit (real worker) vs crawlee CheerioCrawler, " +
      'interleaved; end to end, crawl phase, CPU per page, where our time goes',
    run: async () => (await import('./real.bench.js')).runRealBench(),
  },
  render: {
    description:
      'Browser rendering mode: 400 client-rendered pages, our browser-mode crawl vs a plain playwright-core loop ' +
      '(same Chromium, same concurrency), interleaved; rendered pages/s and peak RSS of node + browser',
    // Compiled with tsc first, like production: under tsx every stack Playwright captures per API call is mapped.
    run: async () =>
      RUNNING_COMPILED || process.env.BENCH_RENDER_TSX === '1'
        ? (await import('./render.bench.js')).runRenderBench()
        : runCompiled('render', (line) => process.stderr.write(`[bench:render] ${line}\n`)),
  },
  accuracy: {
    description:
      "Debian's HTML manuals audited by us and judged by Lighthouse's SEO audits (a fixed sample of pages) and " +
      'linkinator (broken links): agreement per audit, precision and recall, every disagreement listed',
    run: async () => (await import('./accuracy.bench.js')).runAccuracyBench(),
  },
  'audit-100k': {
    description:
      '100,000-page generated site audited by a real worker (html mode): time, peak RSS; then issues, pages, ' +
      'occurrences and comparison queries through GraphQL, p50/p95',
    run: async () => (await import('./audit-100k.bench.js')).runAudit100kBench(),
  },
};

async function main(): Promise<number> {
  const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = requested.filter((name) => !(name in BENCHMARKS));
  if (unknown.length) {
    console.error(`unknown benchmark: ${unknown.join(', ')}\navailable:`);
    for (const [name, b] of Object.entries(BENCHMARKS)) console.error(`  ${name}  ${b.description}`);
    return 2;
  }
  let ok = true;
  for (const name of requested.length ? requested : Object.keys(BENCHMARKS)) {
    const result = await BENCHMARKS[name].run();
    ok &&= result.ok;
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  },
);
