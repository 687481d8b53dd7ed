/**
 * Subresource and link checks of a crawl, seen from the fixture servers: each URL is asked once however many pages
 * reference it, HEAD first and GET only when HEAD is refused, a bounded number at a time, never on a refused
 * address; failures are reported on every page that references them, with their cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabMeter } from '../../src/audits/audit-engine.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { auditSite, createFixtureClient, reportedUrls, type AuditRun } from '../fixtures/sites/audit-harness.js';
import {
  closedPort,
  startFixtureSite,
  type FixtureRoutes,
  type RunningSite,
} from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { CACHED, image, sitemapXml, textFile } from '../fixtures/sites/shared-assets.js';

const PAGES = 50;
/** Each resource answers after this long, so that checks overlap and their concurrency shows. */
const RESOURCE_DELAY_MS = 40;

let site: RunningSite;
let guarded: RunningSite | null = null;
let client: SafeHttpClient;
let run: AuditRun;
let closed: string;

beforeAll(async () => {
  closed = `http://127.0.0.1:${await closedPort()}`;
  // A server on ::1 (loopback, outside the client's allow-list): it must never see a request.
  guarded = await startFixtureSite({ host: '[::1]', listenAddress: '::1' }).catch(() => null);
  guarded?.serve({ '/secret.png': image() });
  const guardedUrl = guarded ? `http://[::1]:${guarded.port}/secret.png` : 'http://[::1]:9/secret.png';

  site = await startFixtureSite({ host: 'resources.test' });
  const origin = site.origin;
  const routes: FixtureRoutes = {
    '/robots.txt': textFile(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`),
    '/sitemap.xml': sitemapXml([
      `${origin}/`,
      `${origin}/p/1`,
      `${origin}/private/listed`,
      `${origin}/private/also-listed`,
    ]),
    '/favicon.ico': image(),
    '/css/shared.css': {
      headers: { 'content-type': 'text/css', ...CACHED },
      body: 'p { color: green }',
      delayMs: RESOURCE_DELAY_MS,
    },
    '/img/shared.png': { ...image(), delayMs: RESOURCE_DELAY_MS },
    '/img/head-refused.png': {
      ...image(),
      delayMs: RESOURCE_DELAY_MS,
      head: { status: 405, headers: { allow: 'GET' }, body: '' },
    },
    '/private/hidden.png': image(),
  };
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">Garden page number ${i + 1}</a>`).join(
    ' ',
  );
  for (let i = 0; i <= PAGES; i++) {
    const path = i === 0 ? '/' : `/p/${i}`;
    routes[path] = {
      body: page(origin, path, {
        headExtra: `<link rel="stylesheet" href="/css/shared.css"><script src="${closed}/widget.js" defer></script>`,
        // Every page: the shared image, the HEAD-refusing one, one of its own, one that is gone, one on ::1, one
        // robots.txt disallows.
        image:
          `<img src="/img/shared.png" alt="Shared" width="8" height="8"><img src="/img/head-refused.png" ` +
          `alt="Refuses HEAD" width="8" height="8">` +
          (`<img src="/img/own-${i}.png" alt="Own" width="8" height="8"><img src="/img/gone.png" ` +
            `alt="Gone" width="8" height="8">`) +
          (`<img src="${guardedUrl}" alt="Private" width="8" height="8"><img src="/private/hidden.png" ` +
            `alt="Hidden" width="8" height="8">`),
        bodyExtra: i === 0 ? `<p>${links} <a href="${closed}/">A preview server that is down</a></p>` : '',
      }),
    };
    routes[`/img/own-${i}.png`] = { ...image(), delayMs: RESOURCE_DELAY_MS };
  }
  site.serve(routes);
  client = createFixtureClient([site.host]);
  run = await auditSite(client, site.url('/'), { assetBudget: 200 });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await site?.close();
  await guarded?.close();
});

/** robots.txt allowing everything, and a favicon: a site with nothing to report about either. */
const OPEN_SITE_FILES: FixtureRoutes = {
  '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
  '/favicon.ico': image(),
};

async function closeAll(client: SafeHttpClient, ...sites: RunningSite[]): Promise<void> {
  await client.close();
  await Promise.all(sites.map((s) => s.close()));
}

const requestsFor = (path: string) => site.requests.filter((r) => r.path === path).map((r) => r.method);
const everyPage = () => ['/', ...Array.from({ length: PAGES }, (_, i) => `/p/${i + 1}`)].map((p) => site.url(p)).sort();

describe('subresource checks', () => {
  it('asks each resource once, however many pages reference it', () => {
    expect(run.outcome.pagesCrawled).toBe(PAGES + 1);
    expect(requestsFor('/img/shared.png')).toEqual(['HEAD']);
    expect(requestsFor('/css/shared.css')).toEqual(['HEAD']);
    expect(requestsFor('/img/gone.png')).toEqual(['HEAD']);
    expect(requestsFor('/img/own-7.png')).toEqual(['HEAD']);
  });

  it('asks again with GET when HEAD is refused (405), and does not report the resource', () => {
    expect(requestsFor('/img/head-refused.png')).toEqual(['HEAD', 'GET']);
    const broken = run.occurrences
      .filter((o) => o.code === 'CONTENT_IMAGE_BROKEN')
      .map((o) => JSON.stringify(o.evidence));
    expect(broken.length).toBe(PAGES + 1);
    for (const evidence of broken) expect(evidence).not.toContain('head-refused');
  });

  it('reports the broken image and the script on a closed port on every page, with the status or the cause', () => {
    expect(reportedUrls(run, 'CONTENT_IMAGE_BROKEN')).toEqual(everyPage());
    expect(reportedUrls(run, 'TECH_RESOURCE_BROKEN')).toEqual(everyPage());
    const image = run.occurrences.find((o) => o.code === 'CONTENT_IMAGE_BROKEN')!.evidence;
    expect(image).toEqual({ count: 1, images: [{ url: site.url('/img/gone.png'), kind: 'image', status: 404 }] });
    const script = run.occurrences.find((o) => o.code === 'TECH_RESOURCE_BROKEN')!.evidence;
    expect(script).toEqual({
      count: 1,
      resources: [
        { url: `${closed}/widget.js`, kind: 'script', status: null, error: 'The server refused the connection' },
      ],
    });
    const issue = run.outcome.issues.find((i) => i.code === 'CONTENT_IMAGE_BROKEN')!;
    expect(issue).toMatchObject({ severity: 'WARNING', category: 'CONTENT', affectedPages: PAGES + 1 });
  });

  it('never fetches a resource on a refused address, and reports it as such', () => {
    if (guarded) expect(guarded.requests).toEqual([]);
    expect(reportedUrls(run, 'TECH_RESOURCE_PRIVATE_ADDRESS')).toEqual(everyPage());
  });

  it('stays within the budget of distinct resources', async () => {
    const before = site.requests.length;
    const small = await auditSite(client, site.url('/'), { assetBudget: 10 });
    const checked = new Set(
      site.requests
        .slice(before)
        .filter((r) => /^\/(img|css)\//.test(r.path))
        .map((r) => r.path),
    );
    expect(checked.size).toBeLessThanOrEqual(10);
    expect(small.outcome.pagesCrawled).toBe(PAGES + 1);
  });

  it("obeys robots.txt for the site's own resources", () => {
    expect(requestsFor('/private/hidden.png')).toEqual([]);
  });

  it('checks a bounded number of resources at a time (the crawl concurrency, 4)', () => {
    // 54 distinct resource URLs each answering after 40 ms: with no bound they would pile up together.
    const resources = site.requests.filter((r) => /^\/(img|css)\//.test(r.path));
    expect(resources.length).toBeGreaterThanOrEqual(54);
    let most = 0;
    for (const r of resources) {
      const overlapping = resources.filter((o) => o.at <= r.at && (o.endedAt ?? Infinity) > r.at).length;
      most = Math.max(most, overlapping);
    }
    expect(most).toBeGreaterThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe('slow resources', () => {
  it('hold the audit at most resourceTailMs after the last page; the unfinished ones are not reported', async () => {
    const slow = await startFixtureSite({ host: 'slow-resources.test' });
    const routes: FixtureRoutes = { '/robots.txt': textFile('User-agent: *\nAllow: /\n') };
    const scripts = Array.from({ length: 40 }, (_, k) => `<script src="/js/${k}.js" defer></script>`).join('');
    routes['/'] = { body: page(slow.origin, '/', { headExtra: scripts, icon: '' }) };
    for (let k = 0; k < 40; k++)
      routes[`/js/${k}.js`] = {
        headers: { 'content-type': 'application/javascript' },
        body: 'void 0;',
        delayMs: 2_000,
      };
    slow.serve(routes);
    const slowClient = createFixtureClient([slow.host]);
    try {
      const started = Date.now();
      const result = await auditSite(slowClient, slow.url('/'), { resourceTailMs: 500 });
      const elapsed = Date.now() - started;
      // 40 scripts, 4 at a time, 2 s each would take 20 s; the tail is cut at 0.5 s.
      expect(elapsed).toBeLessThan(5_000);
      expect(reportedUrls(result, 'TECH_RESOURCE_BROKEN')).toEqual([]);
      const asked = slow.requests.filter((r) => r.path.startsWith('/js/')).length;
      expect(asked).toBeLessThanOrEqual(8);
    } finally {
      await slowClient.close();
      await slow.close();
    }
  });
});

describe('an origin out of reach', () => {
  it('is not asked again after two timeouts: its other resources share the failure', async () => {
    const hang = await startFixtureSite({ host: 'hang.test', fallback: { delayMs: 10_000, body: 'too late' } });
    const home = await startFixtureSite({ host: 'home.test' });
    const images = Array.from(
      { length: 10 },
      (_, k) => `<img src="${hang.origin}/img/${k}.png" alt="" width="8" height="8">`,
    ).join('');
    home.serve({
      ...OPEN_SITE_FILES,
      '/img/logo.png': image(),
      '/': { body: page(home.origin, '/', { image: images }) },
    });
    const pinned = createFixtureClient([hang.host, home.host]);
    try {
      const result = await auditSite(pinned, home.url('/'));
      // The first checks (6 at a time, as a browser would) time out after the client's 2.5 s header timeout; the first
      // of them to end lets one more start before the second timeout is known. The other three are not sent.
      expect(hang.requests.length).toBeLessThanOrEqual(7);
      const evidence = result.occurrences.find((o) => o.code === 'CONTENT_IMAGE_BROKEN')?.evidence as {
        count: number;
        images: { error?: string }[];
      };
      expect(evidence.count).toBe(10);
      for (const entry of evidence.images) expect(entry.error).toMatch(/response headers|did not complete|timed out/);
    } finally {
      await closeAll(pinned, hang, home);
    }
  });
});

describe('external links that could not be checked', () => {
  it('are not broken links: a host gone from DNS, one that never answers (waited for), one we refuse', async () => {
    const hang = await startFixtureSite({ host: 'stalled.test', fallback: { delayMs: 30_000, body: 'too late' } });
    const home = await startFixtureSite({ host: 'links-home.test' });
    const links =
      `<a href="https://no-such-host.invalid/page">A site that is gone from DNS</a> ` +
      `<a href="${hang.origin}/slow">A site that never answers</a> ` +
      // Our own URL policy refuses user info in a URL (the git manual links such clone URLs): never fetched.
      `<a href="https://author@git.example.org/project.git">A clone URL with a user name</a>`;
    home.serve({
      ...OPEN_SITE_FILES,
      '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links}</p>` }) },
    });
    // A client that waits longer than the tail: the tail, not the client's deadline, ends the stalled check.
    const patient = createFixtureClient(
      [hang.host, home.host],
      {},
      { headersTimeoutMs: 20_000, totalTimeoutMs: 20_000 },
    );
    try {
      const started = Date.now();
      const result = await auditSite(patient, home.url('/'), { externalTailMs: 1_000 });
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(reportedUrls(result, 'LINKS_EXTERNAL_BROKEN')).toEqual([]);
      const targets = result.outcome.site.linkTargets;
      expect(targets.get('https://no-such-host.invalid/page')?.couldNotCheck).toMatch(/resolve|DNS|not found/i);
      expect(targets.get(`${hang.origin}/slow`)?.couldNotCheck).toBe("no answer within 1 s of the crawl's end");
      expect(targets.get('https://author@git.example.org/project.git')?.couldNotCheck).toBe(
        'refused by policy: URLs with embedded credentials (user:password@host) are not allowed',
      );
      expect(result.outcome.crawl.uncheckedLinks).toContainEqual({
        url: 'https://author@git.example.org/project.git',
        reason: 'refused by policy: URLs with embedded credentials (user:password@host) are not allowed',
      });
    } finally {
      await closeAll(patient, hang, home);
    }
  });
});

describe('external links on many hosts', () => {
  it('are checked on several hosts side by side, each host no harder than a browser asks it (6)', async () => {
    const hosts = await Promise.all(
      Array.from({ length: 6 }, (_, h) =>
        startFixtureSite({ host: `far-${h}.test`, fallback: { body: 'there', delayMs: 300 } }),
      ),
    );
    const home = await startFixtureSite({ host: 'many-hosts.test' });
    const links = hosts
      .flatMap((far) => Array.from({ length: 8 }, (_, k) => `<a href="${far.origin}/doc/${k}">Reference ${k}</a>`))
      .join(' ');
    home.serve({
      ...OPEN_SITE_FILES,
      '/': { body: page(home.origin, '/', { bodyExtra: `<p>${links}</p>` }) },
    });
    const pinned = createFixtureClient([home.host, ...hosts.map((far) => far.host)]);
    try {
      const result = await auditSite(pinned, home.url('/'), { externalLinkBudget: 48 });
      const targets = result.outcome.site.linkTargets;
      for (const far of hosts)
        for (let k = 0; k < 8; k++) expect(targets.get(`${far.origin}/doc/${k}`)?.status).toBe(200);
      const peak = (requests: readonly { at: number; endedAt?: number }[]) =>
        Math.max(...requests.map((r) => requests.filter((o) => o.at <= r.at && (o.endedAt ?? Infinity) > r.at).length));
      // Each host: at most 6 at once; all of them together: more than one host's worth.
      for (const far of hosts) expect(peak(far.requests)).toBeLessThanOrEqual(6);
      expect(peak(hosts.flatMap((far) => far.requests))).toBeGreaterThan(6);
    } finally {
      await closeAll(pinned, home, ...hosts);
    }
  });
});

describe('external link checks while a wave goes on', () => {
  it("start once every page before the linking one is done, not when the linking page's wave ends", async () => {
    const far = await startFixtureSite({ host: 'far-early.test', fallback: { body: 'there' } });
    const home = await startFixtureSite({ host: 'early-home.test' });
    home.serve({
      ...OPEN_SITE_FILES,
      '/': { body: page(home.origin, '/', { bodyExtra: '<p><a href="/fast">Fast</a> <a href="/slow">Slow</a></p>' }) },
      '/fast': { body: page(home.origin, '/fast', { bodyExtra: `<p><a href="${far.origin}/doc">Far</a></p>` }) },
      // After /fast in the crawl order, and in the same wave: its links could not displace /fast's.
      '/slow': { body: page(home.origin, '/slow'), delayMs: 1_500 },
    });
    const pinned = createFixtureClient([home.host, far.host]);
    try {
      const result = await auditSite(pinned, home.url('/'));
      const slow = home.requests.find((r) => r.path === '/slow' && r.method === 'GET');
      expect(far.requests.length).toBe(1);
      expect(far.requests[0].at).toBeLessThan(slow?.endedAt ?? 0);
      expect(result.outcome.site.linkTargets.get(`${far.origin}/doc`)?.status).toBe(200);
    } finally {
      await closeAll(pinned, home, far);
    }
  });
});

describe('lab vitals beside the external link checks', () => {
  it('start once the last page is done, while a slow external link is still being checked', async () => {
    const far = await startFixtureSite({ host: 'far-slow.test', fallback: { body: 'there', delayMs: 1_500 } });
    const home = await startFixtureSite({ host: 'lab-home.test' });
    home.serve({
      ...OPEN_SITE_FILES,
      '/': {
        body: page(home.origin, '/', {
          bodyExtra: `<p><a href="/a">A page</a> <a href="${far.origin}/doc">Far</a></p>`,
        }),
      },
      '/a': { body: page(home.origin, '/a') },
    });
    const pinned = createFixtureClient([home.host, far.host]);
    let labAt = 0;
    let measured: string[] = [];
    const lab: LabMeter = async (urls) => {
      labAt = Date.now();
      measured = urls;
      return new Map(urls.map((url) => [url, { lcpMs: 900, cls: 0, tbtMs: 0, fcpMs: 300 }]));
    };
    try {
      const result = await auditSite(pinned, home.url('/'), {}, lab);
      const pages = home.requests.filter((r) => r.path === '/' || r.path === '/a');
      expect(pages.every((r) => (r.endedAt ?? Infinity) <= labAt)).toBe(true);
      expect(labAt).toBeLessThan(far.requests[0].endedAt ?? Infinity);
      expect(measured).toEqual([home.url('/'), home.url('/a')]);
      expect(result.outcome.site.linkTargets.get(`${far.origin}/doc`)?.status).toBe(200);
      expect(result.outcome.vitals.map((v) => v.source)).toEqual(['LAB', 'LAB']);
    } finally {
      await closeAll(pinned, home, far);
    }
  });
});

describe('links and sitemaps', () => {
  it('counts a link to a closed loopback port as a broken external link, with its cause', () => {
    expect(reportedUrls(run, 'LINKS_EXTERNAL_BROKEN')).toEqual([site.url('/')]);
    expect(run.occurrences.find((o) => o.code === 'LINKS_EXTERNAL_BROKEN')!.evidence).toEqual({
      count: 1,
      links: [{ url: `${closed}/`, status: null, error: 'The server refused the connection' }],
    });
  });

  it('reports sitemap URLs disallowed by robots.txt as blocked, never as orphans, and never fetches them', () => {
    expect(reportedUrls(run, 'TECH_SITEMAP_BLOCKED_BY_ROBOTS')).toEqual([
      site.url('/private/also-listed'),
      site.url('/private/listed'),
    ]);
    expect(reportedUrls(run, 'LINKS_ORPHAN')).toEqual([]);
    expect(run.outcome.aggregates.find((a) => a.code === 'LINKS_ORPHAN')).toMatchObject({ affectedPages: 0 });
    expect(
      site.requests.filter((r) => r.path.startsWith('/private/listed') || r.path.startsWith('/private/also')),
    ).toEqual([]);
  });
});
