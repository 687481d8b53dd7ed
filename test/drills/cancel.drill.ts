/**
 * Cancellation drill (issue 18, point 3 and finding 11): on a running platform (built API process, a `seo worker`
 * group), audits of a slow local site are stopped while they crawl, while their resource checks run after the last
 * page, and (with CHROMIUM_PATH) while Chromium measures lab vitals — by cancelling the audit and by deleting the
 * project. Measured: the time from the API's answer to the last request the site receives (must be <= 1 s), the
 * requests that start later than 1 s (must be 0), and how the job ended (completed with { result: 'cancelled' },
 * never failed, one attempt), the audit row (CANCELLED, or gone with its project).
 *
 * `npm run drill -- cancel --quick` (a cancel mid-crawl and a delete in the resource tail, about 30 s once built);
 * `npm run drill -- cancel` (every scenario three times, about 2.5 minutes; the lab one needs CHROMIUM_PATH).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis } from '../../src/platform/redis.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';

const HOST = 'cancel-drill.test';
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

interface SiteOptions {
  pages: number;
  /** Delay of every page answer. */
  pageDelayMs: number;
  /** Delay of every resource answer (images, stylesheet, scripts). */
  resourceDelayMs: number;
  /** Scripts of its own per page: checked in the background, after the pages (the resource tail). */
  scriptsPerPage?: number;
}

/** A generated site: pages linking a ternary tree, each with a shared stylesheet and two images of its own. */
function slowSite(opts: SiteOptions) {
  /** `browser`: the request came from Chromium (it sends Accept-Language; the crawler's client does not). */
  const arrivals: { path: string; at: number; browser: boolean }[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    arrivals.push({
      path,
      at: Date.now(),
      browser: req.headers['accept-language'] !== undefined || req.headers['upgrade-insecure-requests'] !== undefined,
    });
    const page = /^\/(?:p\/([1-9]\d*))?$/.exec(path);
    const delay = page ? opts.pageDelayMs : path === '/robots.txt' ? 0 : opts.resourceDelayMs;
    const timer = setTimeout(() => {
      if (path === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
      if (path.startsWith('/img/')) {
        res.setHeader('content-type', 'image/png');
        return res.end(PIXEL);
      }
      if (path.startsWith('/js/')) {
        res.setHeader('content-type', 'application/javascript');
        return res.end('void 0;');
      }
      if (path === '/site.css') {
        res.setHeader('content-type', 'text/css');
        return res.end('body{margin:0}');
      }
      const n = page ? Number(page[1] ?? 0) : -1;
      if (n < 0 || n >= opts.pages) {
        res.statusCode = 404;
        return res.end('not found');
      }
      const href = (k: number) => (k === 0 ? '/' : `/p/${k}`);
      const links = [n + 1, 3 * n + 1, 3 * n + 2, 3 * n + 3]
        .map((k) => `<a href="${href(k % opts.pages)}">Page ${k % opts.pages}</a>`)
        .join(' ');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="en"><head><title>Cancel drill page ${n} of the generated ` +
          `site</title><link rel="stylesheet" href="/site.css">` +
          Array.from(
            { length: opts.scriptsPerPage ?? 0 },
            (_, k) => `<script src="/js/${n}-${k}.js" defer></script>`,
          ).join('') +
          `<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Page ${n}</h1>` +
          (`<img src="/img/a${n}.png" alt="" width="1" height="1"><img src="/img/b${n}.png" alt="" ` +
            `width="1" height="1"><p>${'word '.repeat(250)}</p>${links}</body></html>`),
      );
    }, delay);
    res.on('close', () => clearTimeout(timer));
  });
  return {
    arrivals,
    listen: () =>
      new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port))),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface Scenario {
  name: string;
  how: 'cancel' | 'delete';
  site: SiteOptions;
  /** When to stop: the audit row as the drill reads it every 50 ms, and the requests the site received. */
  when(
    row: { status: string; phase: string | null; pages_crawled: number },
    arrivals: readonly { browser: boolean }[],
  ): boolean;
  needsChromium?: boolean;
  /** Requests for these paths must have been under way in the 1.5 s before the stop (the phase was hit). */
  busyWith?: RegExp;
}

const MID_CRAWL = (row: { status: string; pages_crawled: number }) =>
  row.status === 'RUNNING' && row.pages_crawled >= 5;

const SCENARIOS: Scenario[] = [
  {
    name: 'cancel mid-crawl',
    how: 'cancel',
    site: { pages: 300, pageDelayMs: 150, resourceDelayMs: 150 },
    when: MID_CRAWL,
  },
  {
    name: 'delete mid-crawl',
    how: 'delete',
    site: { pages: 300, pageDelayMs: 150, resourceDelayMs: 150 },
    when: MID_CRAWL,
  },
  {
    // 20 pages crawl quickly; their 120 scripts answer slowly: the stop lands in the resource checks after the crawl.
    name: 'delete during resource checks',
    how: 'delete',
    site: { pages: 20, pageDelayMs: 0, resourceDelayMs: 700, scriptsPerPage: 6 },
    when: (row) => row.status === 'RUNNING' && row.pages_crawled >= 20,
    busyWith: /^\/js\//,
  },
  {
    name: 'cancel during lab measurement',
    how: 'cancel',
    site: { pages: 3, pageDelayMs: 0, resourceDelayMs: 1500 },
    // Once Chromium has asked for the page: it is then loading the slow images.
    when: (row, arrivals) => row.status === 'RUNNING' && row.phase === 'MEASURING' && arrivals.some((a) => a.browser),
    needsChromium: true,
    // Chromium loads the start page's images (slow): the stop lands while it waits for them.
    busyWith: /^\/(img|site\.css|p\/|$)/,
  },
];

interface Outcome {
  scenario: string;
  lastRequestAfterMs: number;
  lateRequests: number;
  requestsAfterStop: number;
  jobResult: unknown;
  jobFailedReason: string | null;
  attempts: number;
  auditStatus: string | null;
  /** Requests for the scenario's `busyWith` paths in the 1.5 s before the stop (-1: not asked). */
  busyRequests: number;
}

async function runScenario(
  platform: Platform,
  key: string,
  queue: Queue,
  scenario: Scenario,
  log: (line: string) => void,
): Promise<Outcome> {
  const site = slowSite(scenario.site);
  const port = await site.listen();
  const api = platform.apis[0].baseUrl;
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${api}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`${query.slice(0, 40)}: ${body.errors.map((e) => e.message).join('; ')}`);
    return body.data!;
  };
  try {
    const created = await gql('mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }', {
      i: { url: `http://${HOST}:${port}/` },
    });
    const projectId = (created.createProject as { id: string }).id;
    const started = await fetch(`${api}/api/v1/projects/${projectId}/audit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    const { auditId, jobId } = (await started.json()) as { auditId: string; jobId: string };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await platform.sql<{ status: string; phase: string | null; pages_crawled: number }>(
        'SELECT status, phase, pages_crawled FROM audit WHERE id = $1',
        [auditId],
      );
      if (row && scenario.when(row, site.arrivals)) break;
      if (!row || ['COMPLETED', 'FAILED', 'CANCELLED'].includes(row.status) || Date.now() > deadline) {
        throw new Error(`${scenario.name}: the audit never reached the moment to stop (${JSON.stringify(row)})`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = site.arrivals.length;
    if (scenario.how === 'cancel') {
      const res = await fetch(`${api}/api/v1/projects/${projectId}/audit/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      if (res.status !== 200) throw new Error(`${scenario.name}: cancel answered ${res.status}: ${await res.text()}`);
    } else {
      await gql('mutation($id: ID!) { deleteProject(id: $id) { success } }', { id: projectId });
    }
    const stoppedAt = Date.now();
    const busyRequests = scenario.busyWith
      ? site.arrivals.filter((a) => a.at > stoppedAt - 1500 && scenario.busyWith!.test(a.path)).length
      : -1;
    // The job: completed with { result: 'cancelled' }, or failed (wrong).
    let job = await queue.getJob(jobId);
    const jobDeadline = Date.now() + 20_000;
    while (Date.now() < jobDeadline) {
      const state = await queue.getJobState(jobId);
      if (state === 'completed' || state === 'failed') {
        job = await queue.getJob(jobId);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // Anything still to come would come now.
    await new Promise((r) => setTimeout(r, 2_000));
    const after = site.arrivals.slice(before);
    const last = after.length ? Math.max(...after.map((a) => a.at)) : stoppedAt;
    const [row] = await platform.sql<{ status: string }>('SELECT status FROM audit WHERE id = $1', [auditId]);
    const outcome: Outcome = {
      scenario: scenario.name,
      lastRequestAfterMs: Math.max(0, last - stoppedAt),
      lateRequests: after.filter((a) => a.at > stoppedAt + 1000).length,
      requestsAfterStop: after.filter((a) => a.at > stoppedAt).length,
      jobResult: job?.returnvalue ?? null,
      jobFailedReason: job?.failedReason ?? null,
      attempts: job?.attemptsMade ?? -1,
      auditStatus: row?.status ?? null,
      busyRequests,
    };
    log(
      `${scenario.name}: ` +
        `${busyRequests >= 0 ? `${busyRequests} requests of the phase in the 1.5 s before the stop; ` : ''}` +
        `last request ${outcome.lastRequestAfterMs} ms after the stop, ${outcome.requestsAfterStop} after it, ` +
        `${outcome.lateRequests} late; job ${JSON.stringify(outcome.jobResult)}` +
        `${outcome.jobFailedReason ? ` failed: ${outcome.jobFailedReason}` : ''}; ` +
        `audit ${outcome.auditStatus ?? 'gone'}`,
    );
    return outcome;
  } finally {
    await site.close();
  }
}

export const drill: Drill = {
  description: 'cancel and delete running audits: no request to the site later than 1 s, job ends cancelled',
  async run({ quick, log }) {
    const chromium = process.env.CHROMIUM_PATH;
    const platform = await startPlatform({
      redisUrl: process.env.DRILL_REDIS_URL ?? process.env.TEST_REDIS_URL,
      apis: 1,
      workerGroups: 1,
      env: {
        SAFE_HTTP_ALLOW: '127.0.0.1/32',
        SAFE_HTTP_RESOLVE: `${HOST}=127.0.0.1`,
        DEFAULT_PLAN: 'ENTERPRISE',
        LOG_LEVEL: 'warn',
        ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
      },
    });
    const redis = createRedis(platform.env.REDIS_URL, { name: 'cancel-drill' });
    const queue = createQueue(QUEUES.audit, redis, platform.env.REDIS_PREFIX, (err) =>
      console.error('audit queue error', err),
    );
    const e = expectations();
    const outcomes: Outcome[] = [];
    try {
      const made = await platform.cli<{ organizations: { id: string }[] }>([
        'user',
        'create',
        '--email',
        'cancel-drill@example.org',
        '--password',
        'cancel-drill-password',
      ]);
      const { key } = await platform.cli<{ key: string }>([
        'api-key',
        'create',
        '--org',
        made.organizations[0].id,
        '--name',
        'cancel drill',
      ]);
      // CANCEL_DRILL_ONLY=<words>: only the scenarios whose name contains them (e.g. "lab").
      const only = process.env.CANCEL_DRILL_ONLY;
      // The quick form: one cancel (mid-crawl) and one delete (in the resource tail).
      const inQuick = (s: Scenario) => s.name === 'cancel mid-crawl' || s.name === 'delete during resource checks';
      const scenarios = SCENARIOS.filter(
        (s) => (!s.needsChromium || chromium) && (!quick || inQuick(s)) && (!only || s.name.includes(only)),
      );
      if (!chromium) log('CHROMIUM_PATH is not set: the lab-measurement scenario is skipped');
      const repeats = quick ? 1 : 3;
      for (let i = 0; i < repeats; i++) {
        for (const scenario of scenarios) outcomes.push(await runScenario(platform, key, queue, scenario, log));
      }
      for (const o of outcomes) {
        e.expect(
          o.lateRequests === 0,
          `${o.scenario}: ${o.lateRequests} requests reached the site more than 1 s after the stop`,
        );
        e.expect(
          o.lastRequestAfterMs <= 1000,
          `${o.scenario}: the last request came ${o.lastRequestAfterMs} ms after the stop`,
        );
        e.expect(
          JSON.stringify(o.jobResult) === JSON.stringify({ result: 'cancelled' }),
          `${o.scenario}: the job ended ${JSON.stringify(o.jobResult)} (${o.jobFailedReason ?? 'not failed'})`,
        );
        e.expect(
          o.jobFailedReason === null || o.jobFailedReason === '',
          `${o.scenario}: the job failed: ${o.jobFailedReason}`,
        );
        e.expect(o.attempts === 1, `${o.scenario}: ${o.attempts} attempts`);
        e.expect(
          o.busyRequests !== 0,
          `${o.scenario}: the stop did not land in the phase meant (no request of it in the 1.5 s before)`,
        );
        e.expect(
          o.auditStatus === (o.scenario.startsWith('delete') ? null : 'CANCELLED'),
          `${o.scenario}: audit row ${o.auditStatus ?? 'gone'}`,
        );
      }
      const crashes = platform
        .logs()
        .split('\n')
        .filter((l) => /audit attempt failed|unhandled|uncaught/i.test(l));
      e.expect(crashes.length === 0, `worker logged failures: ${crashes.slice(0, 3).join(' | ')}`);
      return e.result({
        scenarios: outcomes.length,
        chromium: chromium ? 'on' : 'off',
        maxLastRequestAfterMs: Math.max(...outcomes.map((o) => o.lastRequestAfterMs)),
        lateRequests: outcomes.reduce((n, o) => n + o.lateRequests, 0),
        perScenario: outcomes.map((o) => ({
          scenario: o.scenario,
          lastRequestAfterMs: o.lastRequestAfterMs,
          requestsAfterStop: o.requestsAfterStop,
          job: o.jobResult,
        })),
      });
    } finally {
      await queue.close();
      await redis.quit();
      await platform.stop();
    }
  },
};
