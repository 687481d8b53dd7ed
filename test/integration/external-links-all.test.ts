/**
 * Every external link checked (issue 51, part 3), seen from the "external" servers themselves (local fixture sites
 * under their own host names): each distinct target once, HEAD first and GET where HEAD is refused, a few at a time
 * per host, started as pages link them; the time budget and the cap leave targets not tried, counted as such; a
 * project's verdicts of the last day are reused by its next audit (no request), never by another project's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalLinkGaps, withNotTried } from '../../src/audits/index.js';
import { projectExternalLinkCache } from '../../src/audits/external-link-cache.js';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { aProject, anOrg } from '../factories.js';
import { auditSite, createFixtureClient } from '../fixtures/sites/audit-harness.js';
import { startFixtureSite, type FixtureRoutes, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { image, textFile } from '../fixtures/sites/shared-assets.js';
import { createTestApp, type TestApp } from '../support/app.js';

const OPEN_SITE_FILES: FixtureRoutes = {
  '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
  '/favicon.ico': image(),
};
/** Each external host answers after this long. */
const LATENCY_MS = 150;
const HOSTS = 8;
const PAGES = 6;
const LINKS_PER_PAGE = 20;

async function closeAll(client: SafeHttpClient, ...sites: RunningSite[]): Promise<void> {
  await client.close();
  await Promise.all(sites.map((s) => s.close()));
}

/** Most requests in flight at once. */
const peak = (requests: readonly { at: number; endedAt?: number }[]) =>
  Math.max(0, ...requests.map((r) => requests.filter((o) => o.at <= r.at && (o.endedAt ?? Infinity) > r.at).length));

/**
 * A site of PAGES pages (each slow enough for the checks to keep up), each linking LINKS_PER_PAGE distinct targets
 * spread over HOSTS external hosts; the last host refuses HEAD (405) on every target.
 */
async function manyHostsSite(tag: string) {
  const hosts = await Promise.all(
    Array.from({ length: HOSTS }, (_, h) =>
      startFixtureSite({ host: `ext-${tag}-${h}.test`, fallback: { body: 'there', delayMs: LATENCY_MS } }),
    ),
  );
  const refusing = hosts[HOSTS - 1];
  const targets: string[] = [];
  const routes: FixtureRoutes = { ...OPEN_SITE_FILES };
  const home = await startFixtureSite({ host: `home-${tag}.test` });
  const refusingRoutes: FixtureRoutes = {};
  for (let p = 0; p < PAGES; p++) {
    const links: string[] = [];
    for (let k = 0; k < LINKS_PER_PAGE; k++) {
      const far = hosts[(p * LINKS_PER_PAGE + k) % HOSTS];
      const url = `${far.origin}/doc/${p}-${k}`;
      targets.push(url);
      links.push(`<a href="${url}">Reference ${p}-${k}</a>`);
      if (far === refusing)
        refusingRoutes[`/doc/${p}-${k}`] = {
          body: 'there',
          delayMs: LATENCY_MS,
          head: { status: 405, headers: { allow: 'GET' }, body: '' },
        };
    }
    const path = p === 0 ? '/' : `/p/${p}`;
    const nav = p === 0 ? Array.from({ length: PAGES - 1 }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`) : [];
    routes[path] = {
      body: page(home.origin, path, { bodyExtra: `<p>${[...nav, ...links].join(' ')}</p>` }),
      delayMs: p === 0 ? 0 : 300 + 100 * p,
    };
  }
  home.serve(routes);
  refusing.serve(refusingRoutes);
  return { home, hosts, refusing, targets };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32' });
});
afterAll(() => t?.close());

describe('every external link of a crawl', () => {
  it('is checked once, HEAD-refusing hosts by GET, a few per host at once, the tail one latency long', async () => {
    const { home, hosts, refusing, targets } = await manyHostsSite('all');
    const client = createFixtureClient([home.host, ...hosts.map((h) => h.host)]);
    try {
      // The audit's own default: no budget of 50 first-linked targets any more.
      const result = await auditSite(client, home.url('/'), {
        externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
      });
      const ended = Date.now();
      expect(targets.length).toBe(PAGES * LINKS_PER_PAGE);
      const linkTargets = result.outcome.site.linkTargets;
      for (const url of targets) expect(linkTargets.get(url)?.status, url).toBe(200);
      // Each target asked once (HEAD), the refusing host's with HEAD then GET.
      for (const far of hosts) {
        const methods = far.requests.map((r) => r.method);
        if (far === refusing) {
          expect(methods.filter((m) => m === 'HEAD').length).toBe(far.requests.length / 2);
          expect(methods.filter((m) => m === 'GET').length).toBe(far.requests.length / 2);
        } else expect(new Set(far.requests.map((r) => r.path)).size).toBe(far.requests.length);
        expect(methods.every((m) => m === 'HEAD' || m === 'GET')).toBe(true);
        // Politeness: never more than 6 at once on one host (the crawl's concurrency 4 is less).
        expect(peak(far.requests)).toBeLessThanOrEqual(6);
      }
      expect(hosts.reduce((n, far) => n + new Set(far.requests.map((r) => r.path)).size, 0)).toBe(targets.length);
      // Several hosts side by side.
      expect(peak(hosts.flatMap((far) => far.requests))).toBeGreaterThan(6);
      const e = withNotTried(result.outcome.counts).externalLinks;
      expect(e).toMatchObject({ found: targets.length, checked: targets.length, couldNotCheck: 0, notTried: 0 });
      expect(externalLinkGaps(e)).toEqual([]);
      // Started as the pages linked them: once the last page is in, only its own targets are left (one round of
      // HEAD, and GET for the refusing host's): the slowest host's latency (twice for HEAD + GET) and 0.5 s.
      const lastPage = Math.max(
        ...home.requests.filter((r) => r.path === '/' || r.path.startsWith('/p/')).map((r) => r.endedAt ?? 0),
      );
      expect(ended - lastPage).toBeLessThan(2 * LATENCY_MS + 500);
    } finally {
      await closeAll(client, home, ...hosts);
    }
  });

  it('counts every target of a page that links more than the page summary keeps', async () => {
    // One page linking 1,005 targets on one host: the summary keeps 1,000 for the site checks; all are counted.
    const far = await startFixtureSite({ host: 'ext-wide-0.test', fallback: { body: 'there' } });
    const home = await startFixtureSite({ host: 'home-wide.test' });
    const links = Array.from({ length: 1005 }, (_, k) => `<a href="${far.origin}/doc/${k}">Reference ${k}</a>`);
    home.serve({
      ...OPEN_SITE_FILES,
      '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links.join(' ')}</p>` }) },
    });
    const client = createFixtureClient([home.host, far.host]);
    try {
      const result = await auditSite(client, home.url('/'), {
        externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
      });
      const e = withNotTried(result.outcome.counts).externalLinks;
      expect(e).toMatchObject({ found: 1005, checked: 1005, couldNotCheck: 0, notTried: 0 });
      expect(new Set(far.requests.map((r) => r.path)).size).toBe(1005);
    } finally {
      await closeAll(client, home, far);
    }
  });

  it('within the time budget: what was sent and unanswered could not be checked, the rest was not tried', async () => {
    const slow = await startFixtureSite({ host: 'slow-ext.test', fallback: { body: 'late', delayMs: 10_000 } });
    const home = await startFixtureSite({ host: 'budget-home.test' });
    const links = Array.from({ length: 20 }, (_, k) => `<a href="${slow.origin}/doc/${k}">Slow ${k}</a>`).join(' ');
    home.serve({ ...OPEN_SITE_FILES, '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links}</p>` }) } });
    const client = createFixtureClient(
      [home.host, slow.host],
      {},
      { headersTimeoutMs: 20_000, totalTimeoutMs: 20_000 },
    );
    try {
      const started = Date.now();
      const result = await auditSite(client, home.url('/'), {
        externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
        externalTimeBudgetMs: 1_000,
      });
      expect(Date.now() - started).toBeLessThan(4_000);
      // 6 at once on the host: those were sent and got no answer; the other 14 never left.
      expect(slow.requests.length).toBe(6);
      const e = withNotTried(result.outcome.counts).externalLinks;
      expect(e).toMatchObject({
        found: 20,
        checked: 0,
        couldNotCheck: 6,
        noAnswer: 6,
        refusedByPolicy: 0,
        addressCap: 0,
        notTried: 14,
        outOfTime: 14,
        overCap: 0,
      });
      expect(externalLinkGaps(e)).toEqual(['6 no answer', '14 not tried: out of time']);
      const reasons = new Set(result.outcome.crawl.uncheckedLinks.map((l) => l.reason));
      expect([...reasons]).toEqual(["no answer within the audit's 1 s for external links"]);
    } finally {
      await closeAll(client, home, slow);
    }
  });

  it('up to the cap of distinct URLs: the rest are counted as not tried, over the cap', async () => {
    const far = await startFixtureSite({ host: 'cap-ext.test', fallback: { body: 'there' } });
    const home = await startFixtureSite({ host: 'cap-home.test' });
    const links = Array.from({ length: 8 }, (_, k) => `<a href="${far.origin}/doc/${k}">Doc ${k}</a>`).join(' ');
    home.serve({ ...OPEN_SITE_FILES, '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links}</p>` }) } });
    const client = createFixtureClient([home.host, far.host]);
    try {
      const result = await auditSite(client, home.url('/'), { externalLinkBudget: 5 });
      expect(far.requests.length).toBe(5);
      const e = withNotTried(result.outcome.counts).externalLinks;
      expect(e).toMatchObject({ found: 8, checked: 5, notTried: 3, overCap: 3, outOfTime: 0 });
      expect(externalLinkGaps(e)).toEqual(['3 not tried: over the cap']);
    } finally {
      await closeAll(client, home, far);
    }
  });
});

describe("a project's external link verdicts of the last day", () => {
  it('are reused by its next audit without a request, not by another project, not after a day', async () => {
    const far = await startFixtureSite({ host: 'cached-ext.test', fallback: { body: 'there' } });
    const gone = await startFixtureSite({ host: 'cached-gone.test', fallback: { status: 404, body: 'gone' } });
    const home = await startFixtureSite({ host: 'cache-home.test' });
    const links = [
      ...Array.from({ length: 5 }, (_, k) => `<a href="${far.origin}/doc/${k}">Doc ${k}</a>`),
      `<a href="${gone.origin}/old">An old reference</a>`,
    ].join(' ');
    home.serve({ ...OPEN_SITE_FILES, '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links}</p>` }) } });
    const client = createFixtureClient([home.host, far.host, gone.host]);
    const org = await anOrg(t);
    const project = await aProject({ org });
    const other = await aProject({ org: await anOrg(t) });
    const db = t.runtime.orm.em.fork();
    const warnings: string[] = [];
    const cacheOf = (projectId: string, now = Date.now) =>
      projectExternalLinkCache(db, projectId, (_err, what) => warnings.push(what), now);
    const audit = (externalCache: ReturnType<typeof cacheOf>) =>
      auditSite(client, home.url('/'), { externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget, externalCache });
    const farRequests = () => far.requests.length + gone.requests.length;
    try {
      const first = await audit(cacheOf(project.id));
      expect(farRequests()).toBe(6);
      expect(first.outcome.counts.externalLinks).toMatchObject({ found: 6, checked: 6, fromCache: 0 });

      // The same project within the day: every verdict from the cache, the 404 still a broken link.
      const second = await audit(cacheOf(project.id));
      expect(farRequests()).toBe(6);
      expect(second.outcome.counts.externalLinks).toMatchObject({ found: 6, checked: 6, fromCache: 6 });
      expect(second.outcome.site.linkTargets.get(`${gone.origin}/old`)?.status).toBe(404);
      expect(second.outcome.site.linkTargets.get(`${far.origin}/doc/0`)?.status).toBe(200);
      const broken = (run: typeof first) => run.occurrences.filter((o) => o.code === 'LINKS_EXTERNAL_BROKEN');
      expect(broken(first).length).toBeGreaterThan(0);
      expect(broken(second)).toEqual(broken(first));

      // Another organization's project links the same URLs: nothing of the first project's is used.
      const elsewhere = await audit(cacheOf(other.id));
      expect(farRequests()).toBe(12);
      expect(elsewhere.outcome.counts.externalLinks).toMatchObject({ checked: 6, fromCache: 0 });

      // A day later, the first project's verdicts are too old: asked again.
      const dayLater = () => Date.now() + 24 * 60 * 60 * 1000 + 1_000;
      const later = await audit(cacheOf(project.id, dayLater));
      expect(farRequests()).toBe(18);
      expect(later.outcome.counts.externalLinks).toMatchObject({ checked: 6, fromCache: 0 });
      expect(warnings).toEqual([]);
    } finally {
      await closeAll(client, home, far, gone);
    }
  });
});
