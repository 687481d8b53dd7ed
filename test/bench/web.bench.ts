import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Page } from 'playwright-core';
import { TARGETS, buildIfChanged } from '../../src/platform/build/incremental-build.js';
import { createRedis } from '../../src/platform/redis.js';
import { prepareBenchDatabase, removeRedisKeys } from './bench-database.js';
import { freePort, startApiProcess } from './api-process.js';
import { measureLoad, type LoadSettings, type PageLoad, type PageTarget } from './page-vitals.js';
import { measureIssuesInteraction, type IssuesInteraction } from './issues-page-interaction.js';
import {
  CHARTED,
  CHART_DAYS,
  KEYWORDS,
  formatKeywordsSummary,
  measureKeywordsInteraction,
  seedKeywordsBench,
  summarizeKeywords,
  type KeywordsInteraction,
} from './keywords-page-interaction.js';
import { serveStaticBaselineAsPage, writeStaticBaseline } from './static-baseline.js';
import { SESSION_COOKIE, issuesMatching, lastListedIssue, removeBenchUser, seedWebBench } from './web-seed.js';
import {
  formatDiagnostics,
  formatInteractionTable,
  formatPageTable,
  summarizeInteraction,
  summarizePage,
  type PageSummary,
} from './web-report.js';

/**
 * The web app as a visitor gets it: the real API process from the build (`npm start`'s dist/), headless Chromium,
 * a cold cache for every load. Landing, sign-in, the dashboard with 50 projects and an audit's issues page with
 * 2,000 issues, against a plain HTML page with the dashboard's words served by the same server, interleaved (and the
 * same page with the app's page headers, a check of the baseline: static-baseline.ts).
 * Goals: each signed-in page's LCP <= 3x the static page's in the same run (a ratio, not milliseconds: the box and
 * its load change, the same server's plain HTML under the same conditions does not), CLS < 0.05, the issues list
 * interactive with 2,000 rows. A missed goal is a
 * finding, not a failure: the bench fails only when a page does not render or seeding fails.
 */

const PROJECTS = 50;
const ISSUES = 2000;
const OCCURRENCES_PER_ISSUE = 3;
const SEARCH_TERM = 'canonical';
/** Signed-in pages' median LCP over the static baseline's median LCP, same run. */
const GOAL_LCP_VS_STATIC = 3;
const GOAL_CLS = 0.05;
/**
 * "Interactive": an update within INP's "good" bound, and a virtualized list (a tenth of the rows at most in the DOM).
 */
const GOAL_INTERACTION_MS = 200;
const GOAL_MAX_ISSUE_ROWS_IN_DOM = ISSUES / 10;
/** The keywords page with 1,000 keywords and a 365-day chart of 20: each input painted within 100 ms. */
const GOAL_KEYWORDS_INPUT_MS = 100;
const VIEWPORT = { width: 1280, height: 900 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/seo_audit_bench_web';
const WEB_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));
const ASSETS_DIR = fileURLToPath(new URL('../../dist/web/assets/', import.meta.url));

const log = (line: string) => process.stderr.write(`[bench:web] ${line}\n`);

const intFromEnv = (name: string, fallback: number, min = 1): number => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}`);
  return value;
};

/** Waits until a table (found by its caption) shows exactly `count` row headers, the last one visible. */
async function waitForTableRows(page: Page, caption: string, count: number): Promise<void> {
  const rows = page.getByRole('table', { name: caption }).getByRole('rowheader');
  await rows.nth(count - 1).waitFor();
  const shown = await rows.count();
  if (shown !== count) throw new Error(`the table "${caption}" shows ${shown} rows, expected ${count}`);
}

/** Page-side twin of waitForTableRows: the first table's row headers (both pages have one table). */
const tableRowsProbe = (count: number) => `document.querySelectorAll('table th[scope="row"]').length >= ${count}`;

const rotate = <T>(xs: readonly T[], by: number): T[] =>
  xs.map((_, i) => xs[(((i + by) % xs.length) + xs.length) % xs.length]);
const round1 = (x: number, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);

export async function runWebBench(): Promise<{ ok: boolean }> {
  const runs = intFromEnv('BENCH_WEB_RUNS', 5);
  const warmup = intFromEnv('BENCH_WEB_WARMUP', 1, 0);
  const databaseUrl = process.env.BENCH_WEB_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `bench-web-${randomBytes(5).toString('hex')}`;

  // What `npm start` runs: the server compiled by tsc and the web app built by vite, each only if its inputs changed.
  for (const target of [TARGETS.server, TARGETS.web]) {
    log(`build ${target.name}: ${buildIfChanged(target) ? 'built' : 'up to date'}`);
  }
  log(`database ${new URL(databaseUrl).pathname.slice(1)}: ensuring and migrating`);
  await prepareBenchDatabase(databaseUrl);

  const cleanups: (() => Promise<unknown>)[] = [];
  const failures: { page: string; round: number; error: string }[] = [];
  try {
    const redis = createRedis(redisUrl, { name: 'bench-web' });
    cleanups.push(() => redis.quit());
    cleanups.push(async () =>
      log(`removed ${await removeRedisKeys(redis, `${redisPrefix}:*`)} Redis keys under ${redisPrefix}:`),
    );
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.push(() => pool.end());

    const port = await freePort();
    const api = await startApiProcess({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      ANONYMOUS_RATE_PER_MINUTE: '1000000',
    });
    cleanups.push(async () => log(`API process (pid ${api.pid}) stopped, exit code ${await api.stop()}`));
    log(`API process pid ${api.pid} ready at ${api.baseUrl}`);

    const seedStarted = Date.now();
    const seed = await seedWebBench(pool, api.baseUrl, {
      projects: PROJECTS,
      issues: ISSUES,
      occurrencesPerIssue: OCCURRENCES_PER_ISSUE,
    });
    cleanups.push(() => removeBenchUser(pool));
    const keywordsSeed = await seedKeywordsBench(pool, seed.projects[1].id);
    // Statistics for the planner, as autovacuum gathers them within a minute of such writes on a running server:
    // read at once, the 1,000 keywords' query was planned for 8 rows (17 ms against 11 ms with statistics).
    await pool.query('ANALYZE');
    log(
      `seeded in ${Date.now() - seedStarted} ms: ${PROJECTS} projects x 2 audits, ${ISSUES} issues ` +
        `and ${seed.occurrences} occurrences on one audit; ${KEYWORDS} keywords and ${keywordsSeed.rankings} ` +
        `rankings on another`,
    );

    const staticPage = serveStaticBaselineAsPage(WEB_DIR, seed.projects);
    cleanups.push(async () => staticPage.remove());
    const staticAsset = writeStaticBaseline(ASSETS_DIR, seed.projects);
    cleanups.push(async () => staticAsset.remove());

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    cleanups.push(() => browser.close());

    const expectedMatches = issuesMatching(seed.issues, SEARCH_TERM);
    const lastIssue = lastListedIssue(seed.issues);
    const keywordsPath =
      `/projects/${keywordsSeed.projectId}/keywords?compare=${keywordsSeed.chartedIds.join(',')}` +
      `&days=${CHART_DAYS}`;
    const targets: PageTarget<IssuesInteraction | KeywordsInteraction>[] = [
      {
        name: 'landing',
        label: 'landing / (signed out)',
        path: '/',
        signedIn: false,
        ready: (page) => page.getByRole('heading', { level: 1, name: /Find what holds your site back/ }).waitFor(),
        readyProbe:
          `[...document.querySelectorAll('h1')].some((h) => h.textContent.includes('Find what holds your ` +
          `site back'))`,
      },
      {
        name: 'sign-in',
        label: 'sign-in /sign-in (signed out)',
        path: '/sign-in',
        signedIn: false,
        ready: (page) => page.getByRole('button', { name: 'Sign in' }).waitFor(),
        readyProbe: `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Sign in')`,
      },
      {
        name: 'dashboard',
        label: `dashboard /projects (${PROJECTS} projects)`,
        path: '/projects',
        signedIn: true,
        ready: (page) => waitForTableRows(page, 'Projects with their latest audit', PROJECTS),
        readyProbe: tableRowsProbe(PROJECTS),
      },
      {
        name: 'issues',
        label: `audit issues (${ISSUES.toLocaleString('en-US')} issues)`,
        path: `/projects/${seed.issuesProjectId}/audits/${seed.issuesAuditId}`,
        signedIn: true,
        ready: (page) =>
          page.getByRole('list', { name: 'Issues, most costly first' }).getByRole('button').first().waitFor(),
        readyProbe: `document.querySelector('[role="list"][aria-label="Issues, most costly first"] button')`,
        afterReady: (page) =>
          measureIssuesInteraction(page, { term: SEARCH_TERM, expectedMatches, totalIssues: ISSUES }),
      },
      {
        name: 'keywords',
        label: `keywords (${KEYWORDS.toLocaleString('en-US')}; chart ${CHARTED} x ${CHART_DAYS} days)`,
        path: keywordsPath,
        signedIn: true,
        ready: async (page) => {
          await page.locator('.keyword-chart canvas').first().waitFor();
          await page
            .getByRole('table', { name: /Tracked keywords/ })
            .getByRole('rowheader')
            .first()
            .waitFor();
        },
        readyProbe:
          `document.querySelector('.keyword-chart canvas') && ` +
          `document.querySelector('table.table-keywords tbody th[scope="row"]')`,
        afterReady: (page) => measureKeywordsInteraction(page, keywordsSeed),
      },
      {
        name: 'static',
        label: `static HTML baseline (same ${PROJECTS} rows)`,
        path: staticAsset.urlPath,
        signedIn: false,
        ready: (page) => waitForTableRows(page, 'Projects with their latest audit', PROJECTS),
        readyProbe: tableRowsProbe(PROJECTS),
      },
      {
        name: 'static-page',
        label: `the same HTML with the app's page headers`,
        path: staticPage.urlPath,
        signedIn: false,
        ready: (page) => waitForTableRows(page, 'Projects with their latest audit', PROJECTS),
        readyProbe: tableRowsProbe(PROJECTS),
      },
    ];
    const settings: LoadSettings = {
      baseUrl: api.baseUrl,
      cookie: { name: SESSION_COOKIE, value: seed.sessionToken },
      viewport: VIEWPORT,
      readyTimeoutMs: 30_000,
    };

    const loads = new Map<string, PageLoad[]>(targets.map((t) => [t.name, []]));
    const interactions: IssuesInteraction[] = [];
    const keywordRuns: KeywordsInteraction[] = [];
    const loadBefore = loadavg()[0];
    log(
      `${targets.length} pages x ${runs} runs (+${warmup} warm-up round), a fresh context per load, order ` +
        `rotated every round`,
    );
    for (let round = -warmup; round < runs; round++) {
      const order = rotate(targets, round);
      for (const target of order) {
        try {
          const { load, extra } = await measureLoad(browser, target, settings);
          const what = round < 0 ? 'warm-up' : `run ${round + 1}/${runs}`;
          log(
            `${what} ${target.name}: LCP ${load.lcpMs?.toFixed(0)} ms, CLS ${load.cls.toFixed(3)}, ` +
              `TBT ${load.tbtMs.toFixed(0)} ms, ready ${load.readyMs.toFixed(0)} ` +
              `ms, ${(load.transferBytes / 1024).toFixed(1)} KB`,
          );
          if (round < 0) continue;
          loads.get(target.name)!.push(load);
          if (extra && 'kind' in extra) keywordRuns.push(extra);
          else if (extra) interactions.push(extra);
        } catch (err) {
          const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
          failures.push({ page: target.name, round, error: message });
          log(`FAILED ${target.name} (round ${round + 1}): ${message}`);
          if (!api.alive()) throw new Error(`the API process died:\n${api.output()}`, { cause: err });
        }
      }
    }
    const loadAfter = loadavg()[0];

    const staticLoads = loads.get('static')!;
    const staticLcp = summarizePage('static', '', staticLoads, 1).lcpMs.median;
    const summaries: PageSummary[] = targets.map((t) => summarizePage(t.name, t.label, loads.get(t.name)!, staticLcp));
    const appPages = summaries.filter((s) => !s.name.startsWith('static') && s.runs > 0);
    // The baseline with the app's page headers, a check of the baseline (static-baseline.ts).
    const pageLcp = summarizePage('static-page', '', loads.get('static-page')!, 1).lcpMs.median;
    const interaction = summarizeInteraction(interactions);
    const signedIn = new Set(targets.filter((t) => t.signedIn).map((t) => t.name));
    const keywordsSummary = summarizeKeywords(keywordRuns, GOAL_KEYWORDS_INPUT_MS);
    const goals = {
      lcp: appPages
        .filter((s) => signedIn.has(s.name))
        .map((s) => ({
          page: s.name,
          medianMs: s.lcpMs.median,
          ratio: s.lcpVsStatic,
          met: s.lcpVsStatic <= GOAL_LCP_VS_STATIC,
        })),
      cls: appPages.map((s) => ({
        page: s.name,
        median: s.cls.median,
        worst: s.cls.max,
        met: s.cls.median < GOAL_CLS,
      })),
      interactive: {
        met:
          interactions.length > 0 &&
          interaction.issueRowsInDom.max <= GOAL_MAX_ISSUE_ROWS_IN_DOM &&
          interaction.lastReached === interactions.length &&
          interaction.searchToPaintMs.median <= GOAL_INTERACTION_MS &&
          interaction.clearToPaintMs.median <= GOAL_INTERACTION_MS &&
          interaction.openToPaintMs.median <= GOAL_INTERACTION_MS,
      },
    };
    const metText = (met: boolean) => (met ? 'met' : 'NOT MET');
    const allLoads = [...loads.values()].flat();
    const findings = new Map<string, Set<string>>();
    for (const t of targets) {
      const seen = new Set<string>();
      for (const l of loads.get(t.name)!) for (const m of [...l.consoleErrors, ...l.failedResponses]) seen.add(m);
      if (seen.size) findings.set(t.name, seen);
    }
    const searchWrong = interactions.filter(
      (i) => i.search.shown !== expectedMatches || i.clear.shown !== ISSUES,
    ).length;
    const lastWrong = interactions.filter((i) => i.scroll.reached && i.scroll.lastTitle !== lastIssue.title).length;

    const out: string[] = [
      '',
      `web benchmark: ${runs} cold loads per page (+${warmup} warm-up round, not counted), each in a ` +
        `fresh browser context (empty cache); the pages interleaved and their order rotated every round`,
      `server: node dist/facades/main.js as built by the incremental build, NODE_ENV=production, ` +
        `LOG_LEVEL=warn, no workers; database ${new URL(databaseUrl).pathname.slice(1)}, Redis ` +
        `prefix ${redisPrefix}`,
      `browser: Chromium ${browser.version()} headless, ${VIEWPORT.width}x${VIEWPORT.height}, no CPU or ` +
        `network throttling, 127.0.0.1`,
      `seed: ${PROJECTS} projects with 2 completed, scored audits each; one audit ` +
        `with ${ISSUES.toLocaleString('en-US')} issues (${seed.occurrences.toLocaleString('en-US')} ` +
        `occurrences).`,
      `  A stress case: the check catalog ` +
        `has ${new Set(seed.issues.map((i) => i.code.replace(/_\d+$/, ''))).size} codes and a real audit at ` +
        `most one issue per code; these cycle the catalog's titles, categories and severities with a ` +
        `numeric suffix on the code.`,
      'LCP: last largest-contentful-paint entry after ready; CLS: sum of layout shifts without recent input ' +
        '(one window: the load); TBT: long tasks beyond 50 ms between FCP and ready (Lighthouse clipping)',
      'ready: the first frame in which the page shows what it is for (landing and sign-in: heading / button; ' +
        'dashboard and static: 50 table rows; issues: the first issue button), confirmed visible by Playwright',
      `issues page: the search term entered as one input event (Playwright fill), then cleared; times run ` +
        `from the event's timestamp to the DOM change and to the frame after it, in the page`,
      'bytes: CDP Network.loadingFinished encodedDataLength (headers + body as received: assets ' +
        'Brotli-precompressed, signed-in pages and API responses compressed by the server), summed until the ' +
        'read-out',
      "static: the dashboard's words as plain HTML from /assets/; static-page: the same HTML served as the app " +
        'serves a page, with its headers (CSP, Cross-Origin-Opener-Policy…)',
      `machine: ${cpus().length} CPUs, 1-min load average ${loadBefore.toFixed(2)} ` +
        `before, ${loadAfter.toFixed(2)} after (other work on the box shows in the min-max spread)`,
      '',
      formatPageTable(summaries),
      '',
      'LCP elements:',
      ...summaries.map((s) => `  ${s.name}: ${s.lcpElements.join('; ')}`),
      'what explains them:',
      ...formatDiagnostics(targets.map((t) => ({ name: t.name, loads: loads.get(t.name)! }))),
      '',
      formatInteractionTable(interaction),
      `  search "${SEARCH_TERM}" showed ${[...new Set(interaction.searchShown)].join('/')} issues ` +
        `(expected ${expectedMatches}); last issue expected "${lastIssue.title}", ` +
        `rendered: ${interaction.lastTitles.join(' / ')}`,
      '',
      ...formatKeywordsSummary(keywordsSummary, GOAL_KEYWORDS_INPUT_MS),
      '',
      'goals (judged on the medians):',
      `  signed-in LCP <= ${GOAL_LCP_VS_STATIC}x the static page's (${staticLcp.toFixed(0)} ms): ` +
        goals.lcp
          .map((g) => `${g.page} ${g.medianMs.toFixed(0)} ms = ${g.ratio.toFixed(2)}x ${metText(g.met)}`)
          .join(', ') +
        ` -> ${metText(goals.lcp.every((g) => g.met))}`,
      `    (against the same HTML with the app's page headers, ${pageLcp.toFixed(0)} ms: ` +
        goals.lcp.map((g) => `${g.page} ${(g.medianMs / pageLcp).toFixed(2)}x`).join(', ') +
        ')',
      `  CLS < ${GOAL_CLS}: ${goals.cls
        .map((g) => `${g.page} ${g.median.toFixed(3)} (worst ${g.worst.toFixed(3)}) ${metText(g.met)}`)
        .join(', ')} -> ${metText(goals.cls.every((g) => g.met))}`,
      `  issues list interactive with ${ISSUES.toLocaleString('en-US')} rows ` +
        `(<= ${GOAL_MAX_ISSUE_ROWS_IN_DOM} issue rows in the DOM, the last one reachable, search and ` +
        `opening painted within ${GOAL_INTERACTION_MS} ms): ${metText(goals.interactive.met)}`,
    ];
    if (searchWrong)
      out.push(`WARNING: in ${searchWrong} run(s) the search did not show the expected number of issues.`);
    if (lastWrong)
      out.push(`WARNING: in ${lastWrong} run(s) the last row was not the issue the page's order puts last.`);
    for (const [page, messages] of findings) out.push(`console / HTTP errors on ${page}: ${[...messages].join(' | ')}`);
    for (const f of failures) out.push(`FAILED: ${f.page} round ${f.round + 1}: ${f.error}`);
    process.stdout.write(`${out.join('\n')}\n`);

    const ok = failures.length === 0 && allLoads.length === runs * targets.length;
    process.stdout.write(
      `${JSON.stringify({
        bench: 'web',
        runs,
        warmup,
        seed: {
          projects: PROJECTS,
          auditsPerProject: 2,
          issues: ISSUES,
          occurrences: seed.occurrences,
          stressCase: true,
        },
        baseline: 'static',
        baselineLcpMs: round1(staticLcp),
        pageHeadersBaselineLcpMs: round1(pageLcp),
        bytes: 'cdp-encodedDataLength',
        browser: `chromium ${browser.version()}`,
        viewport: VIEWPORT,
        loadAverage: { before: round1(loadBefore, 2), after: round1(loadAfter, 2), cpus: cpus().length },
        pages: summaries.map((s) => ({
          name: s.name,
          path: targets.find((t) => t.name === s.name)!.path.replace(/[0-9a-f-]{36}/g, ':id'),
          runs: s.runs,
          lcpMs: { median: round1(s.lcpMs.median), min: round1(s.lcpMs.min), max: round1(s.lcpMs.max) },
          cls: { median: round1(s.cls.median, 4), min: round1(s.cls.min, 4), max: round1(s.cls.max, 4) },
          tbtMs: { median: round1(s.tbtMs.median), min: round1(s.tbtMs.min), max: round1(s.tbtMs.max) },
          fcpMs: { median: round1(s.fcpMs.median), min: round1(s.fcpMs.min), max: round1(s.fcpMs.max) },
          transferKb: {
            median: round1(s.transferKb.median),
            min: round1(s.transferKb.min),
            max: round1(s.transferKb.max),
          },
          resourceTimingKb: round1(
            loads.get(s.name)!.reduce((sum, l) => sum + l.resourceTimingBytes, 0) / 1024 / Math.max(1, s.runs),
          ),
          readyMs: { median: round1(s.readyMs.median), min: round1(s.readyMs.min), max: round1(s.readyMs.max) },
          requests: loads.get(s.name)!.map((l) => l.requests),
          domElements: loads.get(s.name)!.map((l) => l.domElements),
          longestTaskMs: loads.get(s.name)!.map((l) => round1(l.longestTaskMs)),
          lcpVsStatic: round1(s.lcpVsStatic, 3),
          lcpVsStaticWithHeaders: round1(s.lcpMs.median / pageLcp, 3),
          lcpElements: s.lcpElements,
          layoutShiftSources: [
            ...new Set(loads.get(s.name)!.flatMap((l) => l.shifts.map((x) => x.sources.join(' + ')))),
          ],
          apiCalls: loads.get(s.name)![0]?.apiCalls.map((c) => c.path) ?? [],
        })),
        issuesInteraction: {
          searchTerm: SEARCH_TERM,
          searchShown: interaction.searchShown,
          searchExpected: expectedMatches,
          searchToUpdateMs: round1(interaction.searchToUpdateMs.median),
          searchToPaintMs: round1(interaction.searchToPaintMs.median),
          clearToUpdateMs: round1(interaction.clearToUpdateMs.median),
          clearToPaintMs: round1(interaction.clearToPaintMs.median),
          openToPaintMs: round1(interaction.openToPaintMs.median),
          openToOccurrencesMs: round1(interaction.openToOccurrencesMs.median),
          eventTimingMs: {
            search: round1(interaction.searchEventMs.median),
            clear: round1(interaction.clearEventMs.median),
            open: round1(interaction.openEventMs.median),
          },
          issueRowsInDom: interaction.issueRowsInDom.max,
          rowsInDomAtBottom: interaction.rowsInDomAtBottom.max,
          lastReached: `${interaction.lastReached}/${interaction.runs}`,
        },
        goals: {
          lcpVsStatic: GOAL_LCP_VS_STATIC,
          cls: GOAL_CLS,
          lcpMet: goals.lcp.every((g) => g.met),
          clsMet: goals.cls.every((g) => g.met),
          interactiveMet: goals.interactive.met,
          keywordsInputMs: GOAL_KEYWORDS_INPUT_MS,
          keywordsMet: keywordsSummary.met,
        },
        keywordsInteraction: {
          keywords: KEYWORDS,
          chart: { keywords: CHARTED, days: CHART_DAYS },
          filterToPaintMs: round1(keywordsSummary.filterMs ?? NaN),
          clearToPaintMs: round1(keywordsSummary.clearMs ?? NaN),
          sortToPaintMs: round1(keywordsSummary.sortMs ?? NaN),
          legendToPaintMs: round1(keywordsSummary.legendMs ?? NaN),
          rowsInDom: keywordsSummary.rowsInDom,
          shown: keywordsSummary.shown,
        },
        findings: Object.fromEntries([...findings].map(([page, messages]) => [page, [...messages]])),
        failures,
      })}\n`,
    );
    return { ok };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
  }
}
