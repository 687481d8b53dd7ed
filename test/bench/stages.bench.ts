/**
 * `npm run bench -- stages`: what the audit's per-page work costs stage by stage, in one process, against what the
 * floor (test/bench/audit-floor-crawl.ts) does per page, on the pages of the audit bench's generated site.
 *
 * - The floor's parse: the bytes decoded, htmlparser2's tokenizer finding the `<a href>`s, each resolved and kept in
 *   a set, as the floor does after each fetch.
 * - Our facts: extractPageFacts, what the worker's parse thread does per page (one tokenization, every fact the
 *   150+ checks read, the visible text's words, SHA-1 and SimHash).
 * - Our page work: the facts, then what the crawl loop does with them: the page checks, the page's summary (the site
 *   checks' input), its stored rows and its link rows built. Not in it: the hand-off between the threads, the rows'
 *   writes to PostgreSQL, the site checks after the crawl and V8's compile work in a fresh process (each stage here
 *   runs warm: one unmeasured round first).
 * - Fetching: undici alone (the floor's request) and our SSRF-guarded client as the crawl calls it (a stream read
 *   whole, a caller's signal), the same 12.5 KB page from a child process over keep-alive, 4 at once.
 *
 * From these it prints a lower bound of the audit bench's ours/floor: (our fetch + our page work) / (undici's fetch
 * + the floor's parse). A fresh worker pays more on top (compilation, the hand-off, storage, the site pass), so when
 * this bound is above a goal, no change outside these stages can reach the goal.
 */
import { Agent, request } from 'undici';
import { linkRowsOf, pageRowsOf } from '../../src/audits/audit-page-rows.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { runPageChecks, summarizePage, type PageFetch } from '../../src/seo/checks/index.js';
import { extractPageFacts } from '../../src/seo/page/index.js';
import { benchHostEnv, intFromEnv } from './audit-bench-context.js';
import { SiteProcess } from './audit-site-client.js';
import { newLinksOf } from './floor-links.js';
import { pagePath, renderPage, type SiteSpec } from './audit-site-pages.js';

const log = (line: string) => process.stderr.write(`[bench:stages] ${line}\n`);

const HOST = 'bench.test';
const HEADERS = { 'content-type': 'text/html; charset=utf-8' };
/** The floor's concurrency and the worker's (DEFAULT_CRAWL_OPTIONS.concurrency). */
const CONCURRENCY = 4;
/** The audit bench's goal for ours/floor (CPU per page). */
const FLOOR_GOAL = 2;

type ParseStage = 'floor-parse' | 'facts' | 'page-work';
type FetchStage = 'fetch-undici' | 'fetch-safe';
type Stage = ParseStage | FetchStage;

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The floor's parse of one page: its `<a href>`s by the tokenizer's events, resolved, new ones kept. */
const floorParse = (body: Buffer, url: string, host: string, seen: Set<string>): number =>
  newLinksOf(body.toString('utf8'), url, host, seen).length;

function fetchOf(url: string, bytes: number): PageFetch {
  return { url, finalUrl: url, status: 200, depth: 1, redirects: [], bytes, headers: HEADERS, responseMs: 5 };
}

/** Our per-page work after the fetch: facts, page checks, summary, page rows and link rows. */
function pageWork(body: Buffer, url: string): number {
  const facts = extractPageFacts(body, { url, headers: HEADERS, status: 200 });
  const fetch = fetchOf(url, body.byteLength);
  const results = runPageChecks(facts, fetch);
  const summary = summarizePage(facts, fetch);
  const rows = pageRowsOf(fetch, url, facts, summary, null);
  return results.length + rows.length + linkRowsOf(url, facts).length;
}

interface Fetcher {
  get(path: string): Promise<number>;
  close(): Promise<void>;
}

function undiciFetcher(port: number): Fetcher {
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  return {
    async get(path) {
      const res = await request(`http://127.0.0.1:${port}${path}`, {
        dispatcher: agent,
        headers: { 'user-agent': 'bench-floor', host: `${HOST}:${port}` },
      });
      return (await res.body.text()).length;
    },
    close: () => agent.close(),
  };
}

function safeFetcher(port: number): Fetcher {
  // Built as the worker builds its client, with the audit bench's address settings (the host pinned to loopback).
  const env = benchHostEnv(HOST);
  const client: SafeHttpClient = createConfiguredSafeHttpClient({
    SAFE_HTTP_ALLOW: [env.SAFE_HTTP_ALLOW],
    SAFE_HTTP_RESOLVE: env.SAFE_HTTP_RESOLVE,
    CRAWLER_USER_AGENT: 'bench-stages',
  });
  const crawl = new AbortController();
  return {
    async get(path) {
      // As the crawl asks for a page (src/crawler/page-receive.ts): a stream read whole, a caller's signal.
      const response = await client.request(`http://${HOST}:${port}${path}`, {
        stream: true,
        maxBytes: 5 * 1024 * 1024,
        onBodyLimit: 'truncate',
        signal: crawl.signal,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      });
      return (await response.body.readAll()).byteLength;
    },
    close: () => client.close(),
  };
}

async function fetchAll(fetcher: Fetcher, paths: string[]): Promise<number> {
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) bytes += await fetcher.get(paths[next++]);
    }),
  );
  return bytes;
}

export async function runStagesBench(): Promise<{ ok: boolean }> {
  const pages = intFromEnv('BENCH_STAGES_PAGES', 2_000);
  const rounds = intFromEnv('BENCH_STAGES_ROUNDS', 5);
  if (pages < 1 || rounds < 1) throw new Error('BENCH_STAGES_PAGES and BENCH_STAGES_ROUNDS must be at least 1');
  const spec: SiteSpec = { pages: pages + 1, seed: 20261121, sitemap: false };
  const site = await SiteProcess.start(spec);
  const origin = `http://${HOST}:${site.port}`;
  const host = new URL(origin).host;
  try {
    await site.warmUp([HOST]);
    const paths = Array.from({ length: pages }, (_, i) => pagePath(spec, i + 1));
    const urls = paths.map((p) => `${origin}${p}`);
    const bodies = paths.map((_, i) => Buffer.from(renderPage(spec, i + 1, origin)));
    const kb = bodies.reduce((s, b) => s + b.byteLength, 0) / pages / 1024;
    log(`${pages} pages of the generated site (${kb.toFixed(1)} KB each on average), ${rounds} rounds + 1 warm-up`);

    const parse: Record<ParseStage, (i: number, seen: Set<string>) => number> = {
      'floor-parse': (i, seen) => floorParse(bodies[i], urls[i], host, seen),
      facts: (i) => extractPageFacts(bodies[i], { url: urls[i], headers: HEADERS, status: 200 }).links.length,
      'page-work': (i) => pageWork(bodies[i], urls[i]),
    };
    const fetchers: Record<FetchStage, () => Fetcher> = {
      'fetch-undici': () => undiciFetcher(site.port),
      'fetch-safe': () => safeFetcher(site.port),
    };
    const stages = [...Object.keys(parse), ...Object.keys(fetchers)] as Stage[];
    const samples = new Map<Stage, number[]>(stages.map((s) => [s, []]));
    let sink = 0;
    for (let round = 0; round <= rounds; round++) {
      // The order reversed every other round: a drift of the machine's speed falls on every stage alike.
      const order = round % 2 ? [...stages].reverse() : stages;
      for (const stage of order) {
        let spent: number;
        if (stage in parse) {
          const fn = parse[stage as ParseStage];
          const seen = new Set<string>();
          const c0 = cpuMs();
          for (let i = 0; i < pages; i++) sink += fn(i, seen);
          spent = cpuMs() - c0;
        } else {
          // A fresh agent per round, as a fresh process has; its connections are opened inside the measure.
          const fetcher = fetchers[stage as FetchStage]();
          const c0 = cpuMs();
          const bytes = await fetchAll(fetcher, paths);
          spent = cpuMs() - c0;
          await fetcher.close();
          if (bytes < pages * 1024) throw new Error(`${stage}: ${bytes} bytes for ${pages} pages`);
        }
        if (round > 0) samples.get(stage)!.push(spent / pages);
        log(`${round === 0 ? 'warm-up' : `round ${round}/${rounds}`}: ${stage} ${(spent / pages).toFixed(3)} ms/page`);
      }
    }
    if (sink === 0) throw new Error('no stage produced anything');

    const ms = Object.fromEntries(stages.map((s) => [s, median(samples.get(s)!)])) as Record<Stage, number>;
    const floor = ms['fetch-undici'] + ms['floor-parse'];
    const oursAtLeast = ms['fetch-safe'] + ms['page-work'];
    const bound = oursAtLeast / floor;
    const labels: Record<Stage, string> = {
      'floor-parse': "the floor's parse: tokenizer, <a href>s resolved, new ones kept",
      facts: 'our page facts (extractPageFacts: the parse thread)',
      'page-work': 'our page work: facts + page checks + summary + page and link rows',
      'fetch-undici': "undici's fetch (the floor's), 4 at once, keep-alive",
      'fetch-safe': 'our SSRF-guarded client as the crawl calls it, 4 at once, keep-alive',
    };
    console.log('\nper-page CPU, one process, medians of the rounds (ms per page):');
    for (const stage of stages)
      console.log(
        `  ${stage.padEnd(13)} ${ms[stage].toFixed(3)}  ${samples
          .get(stage)!
          .map((v) => v.toFixed(3))
          .join(' ')}  ${labels[stage]}`,
      );
    console.log(
      `\nthe floor per page: fetch ${ms['fetch-undici'].toFixed(3)} + parse ${ms['floor-parse'].toFixed(3)} = ` +
        `${floor.toFixed(3)} ms`,
    );
    console.log(
      `ours per page, at least: fetch ${ms['fetch-safe'].toFixed(3)} + page work ${ms['page-work'].toFixed(3)} = ` +
        `${oursAtLeast.toFixed(3)} ms (no hand-off, storage, site pass or compile work in it)`,
    );
    console.log(
      `our facts alone: ${(ms.facts / ms['floor-parse']).toFixed(2)}x the floor's parse, ` +
        `${(ms.facts / floor).toFixed(2)}x the whole floor; our page work ${(ms['page-work'] / floor).toFixed(2)}x ` +
        'the whole floor',
    );
    console.log(
      `lower bound of ours/floor: ${bound.toFixed(2)} (goal <= ${FLOOR_GOAL}: ` +
        `${bound > FLOOR_GOAL ? 'out of reach with this per-page work' : 'not ruled out by these stages'})`,
    );
    console.log(
      JSON.stringify({
        bench: 'stages',
        settings: { pages, rounds, concurrency: CONCURRENCY },
        msPerPage: ms,
        perRound: Object.fromEntries(samples),
        floorMsPerPage: floor,
        oursAtLeastMsPerPage: oursAtLeast,
        oursOverFloorLowerBound: bound,
      }),
    );
    return { ok: true };
  } finally {
    await site.close();
  }
}
