import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SiteCrawler, type CrawledPage } from '../../src/crawler/index.js';
import { createPageRenderer } from '../../src/crawler/browser/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { launchChromium } from '../../src/platform/chromium.js';
import { RENDER_CHROMIUM } from '../support/chromium.js';
import { benchEntry } from './compiled.js';
import type { RenderSiteMessage, RenderSiteRequest } from './render-site-server.js';

/**
 * Browser rendering mode: our crawler in browser mode (SiteCrawler + the page renderer: every request through the
 * safe client, a page pool, budgets, rendered facts) against a plain playwright-core loop over the same
 * generated site of client-rendered pages (render-site-server.ts), with the same Chromium and the same number of
 * pages at once, in interleaved rounds. Reported: rendered pages/s of both and their ratio, and the peak memory of
 * this process and its browser processes (read from /proc every 200 ms; the site server, a child of its own, is
 * not counted): the sum of RSS (counts shared pages once per process) and the sum of PSS (shares them out: the
 * total resident memory, which the goal is checked on), and the CPU time of both sides (node and browser).
 *
 * Goal (issue 28): >= 15 rendered pages/s on 2 cores with < 1 GB total RSS, browser included.
 *
 * Environment: BENCH_RENDER_PAGES (400), BENCH_RENDER_CONCURRENCY (4: renderer pages, crawl concurrency and loop
 * pages), BENCH_RENDER_ROUNDS (3), RENDER_CHROMIUM_PATH (both sides' browser; default Debian's
 * /usr/bin/chromium-headless-shell when installed, else CHROMIUM_PATH or /usr/bin/chromium: test/support/chromium.ts).
 */

const HOST = 'render.bench';
const GOAL_PAGES_PER_S = 15;
const GOAL_RSS_MB = 1024;

interface RunResult {
  name: 'ours' | 'playwright';
  elapsedMs: number;
  /** Pages whose rendered DOM had the title only its script sets. */
  rendered: number;
  fetched: number;
  peakRssMb: number;
  peakPssMb: number;
  /** This process alone (the crawler, or the loop's Playwright client). */
  peakNodePssMb: number;
  cpuMs: number;
  browserCpuMs: number;
}

class RenderSite {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(pages: number): Promise<RenderSite> {
    const entry = benchEntry('render-site-server');
    const child = fork(entry.path, [JSON.stringify({ pages })], {
      execArgv: entry.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`render site server exited with code ${code}`)));
      child.on('message', (m: RenderSiteMessage) => m.type === 'listening' && resolve(m.port));
    });
    return new RenderSite(child, port);
  }

  stats(reset: boolean): Promise<Extract<RenderSiteMessage, { type: 'stats' }>> {
    return new Promise((resolve) => {
      const onMessage = (m: RenderSiteMessage) => {
        if (m.type !== 'stats') return;
        this.child.off('message', onMessage);
        resolve(m);
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'stats', reset } satisfies RenderSiteRequest);
    });
  }

  close(): void {
    this.child.send({ type: 'close' } satisfies RenderSiteRequest);
  }
}

const TICKS_PER_S = 100;

/**
 * RSS and PSS (kB) of `root` and its descendants, leaving out the subtrees of `exclude`; `cpuTicks` gets each
 * descendant's CPU time (user + system, clock ticks) as last seen.
 */
function treeMemory(
  root: number,
  exclude: ReadonlySet<number>,
  cpuTicks?: Map<number, number>,
): { rssKb: number; pssKb: number; rootPssKb: number } {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // The process ended meanwhile.
    }
  }
  let rssKb = 0;
  let pssKb = 0;
  let rootPssKb = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (exclude.has(pid)) continue;
    if (pid !== root && cpuTicks && ticks.has(pid)) cpuTicks.set(pid, ticks.get(pid)!);
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      rssKb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pssKb += pss;
      if (pid === root) rootPssKb = pss;
    } catch {
      // Gone meanwhile.
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { rssKb, pssKb, rootPssKb };
}

/**
 * Samples the tree's memory every 200 ms until stopped; returns the peaks in MB and the CPU the descendants (the
 * browser's processes) used, in ms (a process that ended between two samples loses its last 200 ms).
 */
function sampleMemory(
  exclude: ReadonlySet<number>,
): () => { peakRssMb: number; peakPssMb: number; peakNodePssMb: number; browserCpuMs: number } {
  let rss = 0;
  let pss = 0;
  let nodePss = 0;
  const before = new Map<number, number>();
  treeMemory(process.pid, exclude, before);
  const cpuTicks = new Map<number, number>();
  const sample = () => {
    const m = treeMemory(process.pid, exclude, cpuTicks);
    rss = Math.max(rss, m.rssKb);
    pss = Math.max(pss, m.pssKb);
    nodePss = Math.max(nodePss, m.rootPssKb);
  };
  sample();
  const timer = setInterval(sample, 200);
  return () => {
    clearInterval(timer);
    sample();
    let ticks = 0;
    for (const [pid, t] of cpuTicks) ticks += t - (before.get(pid) ?? 0);
    return {
      peakRssMb: Math.round(rss / 1024),
      peakPssMb: Math.round(pss / 1024),
      peakNodePssMb: Math.round(nodePss / 1024),
      browserCpuMs: (ticks * 1000) / TICKS_PER_S,
    };
  };
}

/** Our side: SiteCrawler in browser mode, resource and link checks off (rendering is what is measured). */
async function runOurs(chromium: string, start: string, pages: number, concurrency: number, exclude: Set<number>) {
  const client = createConfiguredSafeHttpClient({
    SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
    SAFE_HTTP_RESOLVE: `${HOST}=127.0.0.1`,
    CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
  });
  const renderer = createPageRenderer({ chromiumPath: chromium, client, pages: concurrency });
  const stop = sampleMemory(exclude);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rendered = 0;
  let fetched = 0;
  const errors = new Map<string, number>();
  try {
    await new SiteCrawler(
      client,
      {
        startUrl: start,
        maxPages: pages,
        maxDepth: 1_000,
        concurrency,
        delayMs: 0,
        userAgent: 'SEOAuditBot/1.0',
        respectRobots: true,
        externalLinkBudget: 0,
        assetBudget: 0,
        sitemapUrlLimit: 1_000,
        rendering: 'browser',
      },
      undefined,
      renderer,
    ).run({
      onPage: ({ fetch, facts }: CrawledPage) => {
        fetched++;
        if (fetch.renderError) errors.set(fetch.renderError, (errors.get(fetch.renderError) ?? 0) + 1);
        if (fetch.rendering && facts?.titles[0]?.startsWith('Client-rendered page')) rendered++;
      },
    });
  } finally {
    await renderer.close();
    await client.close();
  }
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  for (const [error, n] of errors) process.stderr.write(`[bench:render] ours: ${n} x ${error}\n`);
  return { name: 'ours' as const, elapsedMs, rendered, fetched, cpuMs: (cpu.user + cpu.system) / 1000, ...stop() };
}

/** The baseline: a plain playwright-core loop (goto until load, DOM and links read in the page), same browser. */
async function runPlaywright(
  chromium: string,
  start: string,
  pages: number,
  concurrency: number,
  exclude: Set<number>,
) {
  const stop = sampleMemory(exclude);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const browser = await launchChromium(chromium, new Map([[HOST, '127.0.0.1']]));
  const origin = new URL(start).origin;
  const seen = new Set<string>([start]);
  const queue = [start];
  let active = 0;
  let rendered = 0;
  let fetched = 0;
  let wake: (() => void)[] = [];
  const notify = () => {
    const w = wake;
    wake = [];
    for (const f of w) f();
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        for (;;) {
          const url = fetched + active < pages ? queue.shift() : undefined;
          if (!url) {
            if (active === 0) break;
            await new Promise<void>((resolve) => wake.push(resolve));
            continue;
          }
          active++;
          try {
            await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
            const html = await page.content();
            const links = (await page.evaluate(
              '[...document.querySelectorAll("a[href]")].map((a) => a.href)',
            )) as string[];
            fetched++;
            if (html.includes('<title>Client-rendered page')) rendered++;
            for (const link of links) {
              const clean = link.split('#')[0];
              if (clean.startsWith(origin) && !seen.has(clean)) {
                seen.add(clean);
                queue.push(clean);
              }
            }
          } catch (error) {
            fetched++;
            process.stderr.write(`[bench:render] playwright: ${url}: ${String(error).split('\n')[0]}\n`);
          } finally {
            active--;
            notify();
          }
        }
        await context.close();
      }),
    );
  } finally {
    await browser.close();
  }
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    name: 'playwright' as const,
    elapsedMs,
    rendered,
    fetched,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...stop(),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

export async function runRenderBench(): Promise<{ ok: boolean }> {
  const chromium = RENDER_CHROMIUM;
  if (!existsSync(chromium)) {
    console.error(`render bench: no Chromium at ${chromium} (set RENDER_CHROMIUM_PATH)`);
    return { ok: false };
  }
  const pages = Number(process.env.BENCH_RENDER_PAGES ?? 400);
  const concurrency = Number(process.env.BENCH_RENDER_CONCURRENCY ?? 4);
  const rounds = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
  const log = (line: string) => process.stderr.write(`[bench:render] ${line}\n`);
  const site = await RenderSite.start(pages);
  const exclude = new Set([site.child.pid!]);
  const start = `http://${HOST}:${site.port}/p/0`;
  const results: RunResult[] = [];
  const loads: string[] = [loadAverage()];
  try {
    for (let round = 0; round < rounds; round++) {
      // Interleaved, each side first in turn: neither always meets a warmer (or busier) machine.
      const order = round % 2 === 0 ? (['ours', 'playwright'] as const) : (['playwright', 'ours'] as const);
      for (const name of order) {
        await site.stats(true);
        const result =
          name === 'ours'
            ? await runOurs(chromium, start, pages, concurrency, exclude)
            : await runPlaywright(chromium, start, pages, concurrency, exclude);
        const served = await site.stats(false);
        results.push(result);
        loads.push(loadAverage());
        const seconds = result.elapsedMs / 1000;
        log(
          `round ${round + 1} ${name}: ${result.rendered}/${pages} rendered in ${seconds.toFixed(1)} s ` +
            `(${(result.rendered / seconds).toFixed(1)} pages/s), peak RSS ${result.peakRssMb} MB, ` +
            `PSS ${result.peakPssMb} MB (node ${result.peakNodePssMb} MB), ` +
            `CPU node ${Math.round(result.cpuMs)} ms + browser ${Math.round(result.browserCpuMs)} ms; ` +
            `site served ${served.pages} pages (${served.distinctPages} distinct), load ${loads.at(-1)}`,
        );
      }
    }
  } finally {
    site.close();
  }

  const summary = (name: RunResult['name']) => {
    const runs = results.filter((r) => r.name === name);
    return {
      pagesPerS: median(runs.map((r) => (r.rendered * 1000) / r.elapsedMs)),
      rendered: Math.min(...runs.map((r) => r.rendered)),
      cpuMsPerPage: median(runs.map((r) => r.cpuMs / Math.max(1, r.fetched))),
      browserCpuMsPerPage: median(runs.map((r) => r.browserCpuMs / Math.max(1, r.fetched))),
      peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
      peakPssMb: Math.max(...runs.map((r) => r.peakPssMb)),
      peakNodePssMb: Math.max(...runs.map((r) => r.peakNodePssMb)),
    };
  };
  const ours = summary('ours');
  const playwright = summary('playwright');
  const ratio = ours.pagesPerS / playwright.pagesPerS;
  const row = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(24)} ${s.pagesPerS.toFixed(1).padStart(8)} ${String(s.rendered).padStart(9)} ` +
    `${s.cpuMsPerPage.toFixed(1).padStart(13)} ${s.browserCpuMsPerPage.toFixed(1).padStart(16)} ` +
    `${String(s.peakRssMb).padStart(9)} ${String(s.peakPssMb).padStart(9)}`;
  console.log(
    `\nBrowser rendering: ${pages} client-rendered pages, ${concurrency} pages at once, ${rounds} interleaved ` +
      `rounds (medians; memory: peaks); both sides in ${chromium}\n` +
      `${'crawler'.padEnd(24)} ${'pages/s'.padStart(8)} ${'rendered'.padStart(9)} ${'node ms CPU/pg'.padStart(13)} ` +
      `${'browser ms CPU/pg'.padStart(16)} ` +
      `${'RSS MB'.padStart(9)} ${'PSS MB'.padStart(9)}\n` +
      `${row('ours (browser mode)', ours)}\n${row('playwright-core loop', playwright)}\n` +
      `ratio ours / playwright: ${ratio.toFixed(2)}x; load average before and after each run: ${loads.join(' | ')}`,
  );
  const complete = ours.rendered === pages && playwright.rendered === pages;
  // Total resident memory: the sum of PSS (a page shared by Chromium's processes counted once; the sum of RSS
  // counts it in every process that maps it, and is printed beside it).
  const goal = ours.pagesPerS >= GOAL_PAGES_PER_S && ours.peakPssMb < GOAL_RSS_MB;
  console.log(
    `goal >= ${GOAL_PAGES_PER_S} rendered pages/s with < ${GOAL_RSS_MB} MB total resident memory (PSS, node + ` +
      `browser): ${goal ? 'met' : 'NOT met'}` +
      `${complete ? '' : '; not every page was rendered by both sides'}`,
  );
  console.log(
    JSON.stringify({
      bench: 'render',
      chromium,
      pages,
      concurrency,
      rounds,
      ours,
      playwright,
      ratio,
      goal: { pagesPerS: GOAL_PAGES_PER_S, rssMb: GOAL_RSS_MB, met: goal },
      loads,
    }),
  );
  return { ok: complete && goal };
}
