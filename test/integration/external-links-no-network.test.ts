/**
 * No outside network, no wait (issue 62, part 6): a site on 127.0.0.1 whose pages link to many outside hosts, audited
 * where outside names do not resolve (the client's resolver is replaced: no test asks a real one). The audit stops
 * trying after a few names in a row fail, counts the rest under noNetwork, says "no outside network: N external links
 * not checked" on every surface that shows the counts, and reports none of them as broken. Link rot on a site that
 * does have a network (dead names failing faster than live hosts answer) never passes for a missing network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner, externalLinkGaps, withNotTried } from '../../src/audits/index.js';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import { NO_NETWORK_FAILURES, OUTSIDE_LOOKUP_TIMEOUT_MS } from '../../src/crawler/outside-network.js';
import { createConfiguredSafeHttpClient, type LookupFunction } from '../../src/platform/safe-http/index.js';
import { clientReportHtml } from '../../src/reports/report-html.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { auditSite, createFixtureClient } from '../fixtures/sites/audit-harness.js';
import { startFixtureSite, type FixtureRoutes, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { image, textFile } from '../fixtures/sites/shared-assets.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';

const PAGES = 10;
const OUTSIDE_PER_PAGE = 20;
const OUTSIDE_HOSTS = PAGES * OUTSIDE_PER_PAGE;

/**
 * A resolver that knows only `own` (127.0.0.1) and fails every other name, recording the names it was asked:
 * `nxdomain` at once (an intranet resolver that knows no outside name), `hang` never (no resolver answers: the
 * client's lookup timeout decides).
 */
function offlineResolver(own: readonly string[], mode: 'nxdomain' | 'hang') {
  const asked = new Set<string>();
  const lookup: LookupFunction = (hostname, _options, callback) => {
    // (Only the names of the fixture hosts and the outside ones reach here: no real resolver is ever asked.)
    if (own.includes(hostname.toLowerCase()))
      return void process.nextTick(() => callback(null, [{ address: '127.0.0.1', family: 4 }]));
    asked.add(hostname);
    if (mode === 'hang') return;
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    setImmediate(() => callback(error, []));
  };
  return { lookup, asked };
}

/** PAGES pages, each linking OUTSIDE_PER_PAGE outside hosts of its own (and the home page every page). */
function outsideLinks(p: number, k: number): string {
  return `https://ref-${p}-${k}.outside.example/doc/${k}`;
}

async function linkingSite(host: string): Promise<RunningSite> {
  const site = await startFixtureSite({ host });
  const routes: FixtureRoutes = {
    '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
    '/favicon.ico': image(),
    '/img/logo.png': image(),
  };
  for (let p = 0; p < PAGES; p++) {
    const path = p === 0 ? '/' : `/p/${p}`;
    const nav = p === 0 ? Array.from({ length: PAGES - 1 }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`) : [];
    const outside = Array.from({ length: OUTSIDE_PER_PAGE }, (_, k) => `<a href="${outsideLinks(p, k)}">Ref ${k}</a>`);
    routes[path] = {
      body: page(site.origin, path, {
        bodyExtra: `<p>${[...nav, ...outside].join(' ')}</p>`,
      }),
    };
  }
  site.serve(routes);
  return site;
}

/** From the last page's answer to `end`: measured and printed, never asserted (no timing assertions in tests). */
function sayTail(what: string, site: RunningSite, end: number): void {
  const lastPage = Math.max(
    ...site.requests.filter((r) => r.path === '/' || r.path.startsWith('/p/')).map((r) => r.endedAt ?? 0),
  );
  console.log(`${what}: ${end - lastPage} ms from the last page to the audit's end`);
}

let t: TestApp;
let org: Org;
const HOME = 'home-no-network.test';
beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${HOME}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
}, 60_000);
afterAll(() => t?.close());

describe('an audit with no outside network', () => {
  it('stops checking after a few names fail, says so on every surface, and reports none as broken', async () => {
    const home = await linkingSite(HOME);
    const { lookup, asked } = offlineResolver([HOME], 'nxdomain');
    const client = createConfiguredSafeHttpClient(t.config, { lookup });
    try {
      const created = await gql(
        t,
        'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
        {
          u: home.url('/'),
        },
        { cookie: org.owner.cookie },
      );
      const projectId = created.body.data.createProject.id as string;
      const started = await gql(
        t,
        'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
        { p: projectId },
        {
          cookie: org.owner.cookie,
        },
      );
      const auditId = started.body.data.startAudit.auditId as string;
      const outcome = await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(auditId);
      sayTail('no outside network (names fail at once)', home, Date.now());
      expect(outcome).toBe('completed');

      // It stopped asking: a few names, not the 200 the pages link.
      expect(asked.size).toBeGreaterThanOrEqual(NO_NETWORK_FAILURES);
      expect(asked.size).toBeLessThan(OUTSIDE_HOSTS / 4);

      const EXTERNAL = `externalLinks { found checked couldNotCheck notTried refusedByPolicy addressCap noAnswer
        overCap outOfTime noNetwork fromCache pending workerStopped }`;
      const { body } = await gql(
        t,
        `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { status counts { ${EXTERNAL} }
          issues { code } } }`,
        { p: projectId, a: auditId },
        { cookie: org.owner.cookie },
      );
      expect(body.errors).toBeUndefined();
      const e = body.data.audit.counts.externalLinks;
      expect(e.found).toBe(OUTSIDE_HOSTS);
      expect(e.checked).toBe(0);
      // The names that failed before the audit concluded: could not check (no answer); the rest: no outside network.
      expect(e.couldNotCheck).toBe(e.noAnswer);
      expect(e.couldNotCheck).toBeGreaterThanOrEqual(NO_NETWORK_FAILURES);
      expect(e.noNetwork).toBe(OUTSIDE_HOSTS - e.couldNotCheck);
      expect(e.notTried).toBe(e.noNetwork);
      expect(e.noNetwork).toBeGreaterThan(OUTSIDE_HOSTS / 2);
      const sentence = `no outside network: ${e.noNetwork} external links not checked`;

      // None of them is a broken link.
      expect(body.data.audit.issues.map((i: { code: string }) => i.code)).not.toContain('LINKS_EXTERNAL_BROKEN');

      // The same counts and sentence on both REST APIs, the report (its PDF prints this HTML) and the CLI's words.
      const key = await anApiKey(org);
      const v1 = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: { authorization: `Bearer ${key}` },
      });
      const api = await t.app.inject({
        method: 'GET',
        url: `/api/projects/${projectId}/audit`,
        headers: { cookie: org.owner.cookie },
      });
      expect(v1.json().audit.counts.externalLinks).toEqual(e);
      expect(api.json().audit.counts.externalLinks).toEqual(e);
      const move = 'term country device position previousPosition change url checkedAt';
      const report = await gql(
        t,
        `query($p: ID!) { clientReport(projectId: $p) { projectId projectName domain url generatedAt pdfAvailable
          audit { id status createdAt completedAt pagesCrawled blockers { code message }
            counts { urlsCrawled htmlPages indexablePages ${EXTERNAL} resources { found checked }
              labPages { measured eligible } }
            scores { overall meta content links technical performance } issueCounts { critical warning notice } }
          categories { category score critical warning notice }
          topIssues { code title severity category description affectedPages scope urls fix { summary steps source } }
          vitals { url device source measuredAt lcpMs cls inpMs tbtMs fcpMs ttfbMs }
          keywordGains { ${move} } keywordLosses { ${move} }
          segments { segment { name } urls health scores { overall } issueCounts { critical warning notice } } } }`,
        { p: projectId },
        { cookie: org.owner.cookie },
      );
      if (report.body.errors) throw new Error(JSON.stringify(report.body.errors));
      expect(report.body.data.clientReport.audit.counts.externalLinks).toEqual(e);
      expect(clientReportHtml(report.body.data.clientReport)).toContain(sentence);
      expect(externalLinkGaps(e)).toContain(sentence);
    } finally {
      await client.close();
      await home.close();
    }
  });

  it('does not wait for a resolver that never answers', async () => {
    const home = await linkingSite('home-hung-resolver.test');
    const { lookup, asked } = offlineResolver([home.host], 'hang');
    // The address gate of the platform's client (politeness per address) resolves first: the path that hangs. The
    // client's own connect (and lookup) timeout is a minute, past this test's 30 s: only the outside lookup timeout
    // (OUTSIDE_LOOKUP_TIMEOUT_MS) can end these checks, as it must on a machine whose resolver never answers.
    const client = createConfiguredSafeHttpClient(t.config, { lookup, connectTimeoutMs: 60_000 });
    try {
      const run = await auditSite(client, home.url('/'), {
        externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
      });
      sayTail(
        `no outside network (no resolver answers, ${OUTSIDE_LOOKUP_TIMEOUT_MS} ms lookup timeout)`,
        home,
        Date.now(),
      );
      const e = withNotTried(run.outcome.counts).externalLinks;
      expect(e.found).toBe(OUTSIDE_HOSTS);
      expect(e.checked).toBe(0);
      expect(e.noNetwork).toBeGreaterThan(OUTSIDE_HOSTS / 2);
      expect(e.noNetwork + e.couldNotCheck).toBe(OUTSIDE_HOSTS);
      expect(asked.size).toBeLessThan(OUTSIDE_HOSTS / 4);
      expect(run.occurrences.filter((o) => o.code === 'LINKS_EXTERNAL_BROKEN')).toEqual([]);
      expect(externalLinkGaps(e)).toContain(`no outside network: ${e.noNetwork} external links not checked`);
    } finally {
      await client.close();
      await home.close();
    }
  });
});

describe('link rot on a site with a network', () => {
  it('never passes for a missing network: dead names first, live hosts after, every live link checked', async () => {
    const DEAD = 12;
    const LIVE = 24;
    const live = await Promise.all(
      Array.from({ length: LIVE }, (_, i) =>
        startFixtureSite({ host: `live-${i}.rot.test`, fallback: { body: 'there', delayMs: 150 } }),
      ),
    );
    const home = await startFixtureSite({ host: 'home-rot.test' });
    // The dead names come first in the page: they fail in microseconds, the live hosts answer 150 ms later.
    const dead = Array.from({ length: DEAD }, (_, i) => `https://gone-${i}.rot.test/page`);
    const links = [...dead, ...live.map((s) => s.url('/page'))].map((u, i) => `<a href="${u}">Ref ${i}</a>`);
    home.serve({
      '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
      '/favicon.ico': image(),
      '/img/logo.png': image(),
      '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links.join(' ')}</p>` }) },
    });
    const { lookup } = offlineResolver([home.host, ...live.map((s) => s.host)], 'nxdomain');
    const client = createFixtureClient([], {}, { lookup });
    try {
      const run = await auditSite(client, home.url('/'), {
        externalLinkBudget: DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
      });
      const e = withNotTried(run.outcome.counts).externalLinks;
      expect(e).toMatchObject({ found: DEAD + LIVE, checked: LIVE, couldNotCheck: DEAD, noNetwork: 0, notTried: 0 });
      for (const s of live) expect(run.outcome.site.linkTargets.get(s.url('/page'))?.status).toBe(200);
      expect(externalLinkGaps(e).join(' ')).not.toContain('no outside network');
    } finally {
      await client.close();
      await Promise.all([home.close(), ...live.map((s) => s.close())]);
    }
  });
});
