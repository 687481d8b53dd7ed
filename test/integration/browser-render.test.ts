import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditFailedError, runAuditEngine } from '../../src/audits/audit-engine.js';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';
import { SiteCrawler, type CrawledPage, type CrawlOptions } from '../../src/crawler/index.js';
import { createPageRenderer, type PageRenderer, type RenderOutput } from '../../src/crawler/browser/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { launchChromium } from '../../src/platform/chromium.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/fixture-server.js';
import {
  FIXTURE_CRAWL_OPTIONS,
  FIXTURE_USER_AGENT,
  auditSite,
  createFixtureClient,
  reportedUrls,
} from '../fixtures/sites/audit-harness.js';
// The browser of rendering mode, as the README sets it up (RENDER_CHROMIUM_PATH).
import { RENDER_CHROMIUM as CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

const HOST = 'spa.test';

/**
 * A client-rendered page: the served HTML has an empty title and an empty root; an inline script builds the title,
 * the heading, the text and the links from the page's JSON (fetched from /api), as React or Vue apps do.
 */
function spaShell(slug: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title>
<script src="/private/tracker.js"></script></head><body><div id="root"></div>
<script>
console.error('shell warning on ${slug}');
setTimeout(() => { throw new Error('late failure on ${slug}'); }, 0);
fetch('/missing-${slug}.json').catch(() => {});
fetch('/api/${slug}.json').then((r) => r.json()).then((data) => {
  document.title = data.title;
  const root = document.getElementById('root');
  const h1 = document.createElement('h1');
  h1.textContent = data.title;
  root.appendChild(h1);
  const p = document.createElement('p');
  p.textContent = data.text;
  root.appendChild(p);
  for (const link of data.links) {
    const a = document.createElement('a');
    a.href = link;
    a.textContent = 'Read ' + link;
    root.appendChild(a);
  }
});
</script></body></html>`;
}

function pageData(title: string, links: string[]): string {
  const text = `${title} is rendered in the browser from JSON data. `.repeat(20);
  return JSON.stringify({ title: `${title} | Client-rendered shop`, text, links });
}

const json = (body: string) => ({ headers: { 'content-type': 'application/json' }, body });

/** Connections accepted on the refused loopback address: the proof that nothing reached it. */
interface Listener {
  port: number;
  connections: number;
  close(): Promise<void>;
}

async function listen(host: string): Promise<Listener> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n\r\nsecret');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function crawl(
  client: SafeHttpClient,
  startUrl: string,
  options: Partial<CrawlOptions>,
  renderer?: PageRenderer,
): Promise<CrawledPage[]> {
  const pages: CrawledPage[] = [];
  await new SiteCrawler(client, { ...FIXTURE_CRAWL_OPTIONS, ...options, startUrl }, undefined, renderer).run({
    onPage: (page) => void pages.push(page),
  });
  return pages;
}

const pathOf = (url: string) => new URL(url).pathname;

describeWithChromium(CHROMIUM)('browser rendering mode (headless Chromium through the safe client)', () => {
  let site: RunningSite;
  let client: SafeHttpClient;
  let renderer: PageRenderer;

  beforeAll(async () => {
    site = await startFixtureSite({ host: HOST });
    site.serve({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' },
      '/': { body: spaShell('home') },
      '/about': { body: spaShell('about') },
      '/products': { body: spaShell('products') },
      '/api/home.json': json(pageData('Home', ['/about', '/products'])),
      '/api/about.json': json(pageData('About us', ['/'])),
      '/api/products.json': json(pageData('Products', ['/', '/about'])),
      '/private/tracker.js': { headers: { 'content-type': 'text/javascript' }, body: 'window.tracked = true;' },
    });
    client = createFixtureClient([HOST]);
    renderer = createPageRenderer({ chromiumPath: CHROMIUM, client });
  });

  afterAll(async () => {
    await renderer?.close();
    await client?.close();
    await site?.close();
  });

  it('renders client-side pages: rendered facts have the title, text and links; the crawl follows them', async () => {
    const raw = await crawl(client, site.url('/'), {});
    // html mode sees an empty shell: no title, no links, so nothing beyond the start page.
    expect(raw.map((p) => pathOf(p.fetch.url))).toEqual(['/']);
    expect(raw[0].facts?.titles).toEqual(['']);
    expect(raw[0].fetch.rendering).toBeUndefined();

    const requestsBefore = site.requests.length;
    const pages = await crawl(client, site.url('/'), { rendering: 'browser' }, renderer);
    const home = pages.find((p) => pathOf(p.fetch.url) === '/')!;
    // First, so that a failed render says why (the links below come from the rendered page).
    expect(home.fetch.renderError).toBeUndefined();
    expect(pages.map((p) => pathOf(p.fetch.url)).sort()).toEqual(['/', '/about', '/products']);
    expect(home.facts?.titles).toEqual(['Home | Client-rendered shop']);
    expect(home.facts?.headings.map((h) => h.text)).toEqual(['Home | Client-rendered shop']);
    expect(home.facts?.wordCount).toBeGreaterThan(100);
    expect(home.facts?.links.filter((l) => l.internal).map((l) => pathOf(l.url!))).toEqual(['/about', '/products']);
    const rendering = home.fetch.rendering!;
    // The raw facts are kept beside the rendered ones, as served.
    expect(rendering.raw.titles).toEqual(['']);
    expect(rendering.raw.links).toEqual([]);
    expect(rendering.raw.wordCount).toBe(0);
    expect(rendering.renderMs).toBeGreaterThan(0);
    // Console errors (console.error and uncaught exceptions) and failed requests are recorded.
    expect(rendering.consoleErrors).toEqual(
      expect.arrayContaining(['shell warning on home', expect.stringContaining('late failure on home')]),
    );
    expect(rendering.consoleErrorCount).toBe(2);
    expect(rendering.failedRequests).toEqual([{ url: site.url('/missing-home.json'), reason: 'HTTP 404' }]);
    expect(rendering.failedRequestCount).toBe(1);
    // robots.txt disallows /private/: the script is not loaded, and reported.
    expect(rendering.blockedByRobots).toEqual([site.url('/private/tracker.js')]);
    const served = site.requests.slice(requestsBefore).map((r) => r.path);
    expect(served).not.toContain('/private/tracker.js');
    // Each document was fetched once, by the crawler: the browser was given the crawler's response.
    for (const path of ['/', '/about', '/products']) expect(served.filter((p) => p === path)).toHaveLength(1);
    expect(served.filter((p) => p === '/api/home.json')).toHaveLength(1);
  });

  it('an audit in browser mode has none of the false "missing title" findings of html mode', async () => {
    const html = await auditSite(client, site.url('/'));
    expect(reportedUrls(html, 'META_TITLE_MISSING')).toEqual([site.url('/')]);
    const pages: string[] = [];
    const renderErrors: string[] = [];
    const outcome = await runAuditEngine(
      client,
      { ...FIXTURE_CRAWL_OPTIONS, startUrl: site.url('/'), rendering: 'browser' },
      {
        pages: async (rows) => {
          for (const r of rows) {
            pages.push(r.url);
            const error = r.rendering?.renderError;
            if (error) renderErrors.push(`${r.url}: ${error}`);
          }
        },
        occurrences: async (rows) => {
          for (const r of rows)
            if (r.code === 'META_TITLE_MISSING')
              throw new Error(`missing title on ${r.url} (render errors: ${renderErrors.join('; ') || 'none'})`);
        },
      },
      undefined,
      undefined,
      undefined,
      renderer,
    );
    expect(outcome.pagesCrawled).toBe(3);
    expect(pages.map(pathOf).sort()).toEqual(['/', '/about', '/products']);
  });

  it('a browser-mode audit without a renderer (no Chromium) fails with the reason, never falls back', async () => {
    const before = site.requests.length;
    const audit = runAuditEngine(
      client,
      { ...FIXTURE_CRAWL_OPTIONS, startUrl: site.url('/'), rendering: 'browser' },
      { pages: async () => undefined, occurrences: async () => undefined },
    );
    await expect(audit).rejects.toBeInstanceOf(AuditFailedError);
    await expect(audit).rejects.toThrow(/CHROMIUM_PATH/);
    expect(site.requests.length).toBe(before);
  });

  describe('SSRF: every request of a rendered page goes through the safe client', () => {
    let refused: Listener;
    let evil: RunningSite;
    let strictClient: SafeHttpClient;
    let strict: PageRenderer;

    beforeAll(async () => {
      // A second loopback server the policy refuses (only 127.0.0.1 is allowed), counting every TCP connection.
      refused = await listen('127.0.0.2');
      evil = await startFixtureSite({ host: 'ssrf.test' });
      const target = `http://127.0.0.2:${refused.port}`;
      const page = (body: string) => ({
        body: `<!doctype html><html><head><title>Probe</title></head><body><p>probe</p>${body}</body></html>`,
      });
      evil.serve({
        '/a': page(`
<link rel="stylesheet" href="${target}/style.css">
<script src="${target}/script.js"></script>
<img src="${target}/pixel.png">
<iframe src="${target}/frame"></iframe>
<script>
fetch('${target}/fetch').catch(() => {});
const xhr = new XMLHttpRequest(); xhr.open('GET', '${target}/xhr'); xhr.send();
import('${target}/module.js').catch(() => {});
try { new WebSocket('ws://127.0.0.2:${refused.port}/socket'); } catch (e) {}
fetch('/redirect').catch(() => {});
</script>`),
        '/b': page(`
<script>
fetch('http://169.254.169.254/latest/meta-data/').catch(() => {});
fetch('http://10.0.0.1/internal').catch(() => {});
fetch('http://private.test:${refused.port}/named').catch(() => {});
fetch('http://[::ffff:127.0.0.2]:${refused.port}/mapped').catch(() => {});
</script>`),
        '/redirect': { status: 302, headers: { location: `${target}/landing` } },
      });
      // The site under test is allowed (127.0.0.1 only); private.test resolves to the refused address.
      strictClient = createConfiguredSafeHttpClient(
        {
          SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
          SAFE_HTTP_RESOLVE: `ssrf.test=127.0.0.1,private.test=127.0.0.2`,
          CRAWLER_USER_AGENT: FIXTURE_USER_AGENT,
        },
        { totalTimeoutMs: 3_000 },
      );
      // No resource type blocked: images too must meet the policy.
      strict = createPageRenderer({ chromiumPath: CHROMIUM, client: strictClient, blockedResourceTypes: [] });
    });

    afterAll(async () => {
      await strict?.close();
      await strictClient?.close();
      await evil?.close();
      await refused?.close();
    });

    const renderPath = async (path: string): Promise<RenderOutput> => {
      const response = await strictClient.request(evil.url(path));
      return strict.render({ url: evil.url(path), status: 200, headers: response.headers, body: response.body });
    };

    it('scripts, styles, images, iframes, fetch, XHR, import(), WebSocket, redirect to a refused address', async () => {
      const out = await renderPath('/a');
      const target = `http://127.0.0.2:${refused.port}`;
      const reasons = new Map(out.failedRequests.map((f) => [f.url, f.reason]));
      for (const path of ['/style.css', '/script.js', '/pixel.png', '/frame', '/fetch', '/xhr', '/module.js'])
        expect(reasons.get(`${target}${path}`), path).toMatch(/^BLOCKED_ADDRESS: Refused: 127\.0\.0\.2 is a loopback/);
      expect(reasons.get(`ws://127.0.0.2:${refused.port}/socket`)).toBe('WebSockets are not opened while rendering');
      // The redirect is followed hop by hop by the client, which refuses the second hop.
      expect(reasons.get(evil.url('/redirect'))).toMatch(/^BLOCKED_ADDRESS: .*\(redirected to .*\/landing\)$/);
      expect(out.failedRequestCount).toBe(out.failedRequests.length);
      expect(out.failedRequests).toHaveLength(9);
      expect(refused.connections).toBe(0);
    });

    it('belt and braces: the browser has no network of its own, should a request escape routing', async () => {
      const browser = await launchChromium(CHROMIUM, undefined, { offline: true });
      try {
        const page = await browser.newPage();
        for (const url of [`http://127.0.0.2:${refused.port}/direct`, evil.url('/a')])
          await expect(page.goto(url, { timeout: 10_000 })).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);
      } finally {
        await browser.close();
      }
      expect(refused.connections).toBe(0);
      expect(evil.requests.filter((r) => r.path === '/a')).toHaveLength(1);
    });

    it('the metadata address, private ranges and a name resolving to a refused address', async () => {
      const out = await renderPath('/b');
      const reasons = new Map(out.failedRequests.map((f) => [f.url, f.reason]));
      expect(reasons.get('http://169.254.169.254/latest/meta-data/')).toMatch(/^BLOCKED_ADDRESS: .*link-local/);
      expect(reasons.get('http://10.0.0.1/internal')).toMatch(/^BLOCKED_ADDRESS: .*private network/);
      expect(reasons.get(`http://private.test:${refused.port}/named`)).toMatch(/^BLOCKED_ADDRESS: .*loopback/);
      expect(reasons.get(`http://[::ffff:7f00:2]:${refused.port}/mapped`)).toMatch(/^BLOCKED_ADDRESS: .*loopback/);
      expect(out.failedRequests).toHaveLength(4);
      expect(refused.connections).toBe(0);
    });
  });

  describe('budgets', () => {
    let slow: RunningSite;
    let slowClient: SafeHttpClient;
    let budgeted: PageRenderer;

    beforeAll(async () => {
      slow = await startFixtureSite({ host: 'slow.test' });
      slow.serve({
        '/': {
          body:
            '<!doctype html><html><head><title>Slow</title></head><body><h1>Before the hang</h1>' +
            '<a href="/busy">busy</a><a href="/many">many</a>' +
            '<script src="/hang.js"></script><p>after</p></body></html>',
        },
        '/hang.js': { headers: { 'content-type': 'text/javascript' }, body: '', delayMs: 60_000 },
        '/busy': {
          body:
            '<!doctype html><html><head><title>Busy raw title</title></head><body><a href="/after">after</a>' +
            '<script>for (;;) {}</script></body></html>',
        },
        '/many': {
          body:
            '<!doctype html><html><head><title>Many</title></head><body><script>' +
            'for (let i = 0; i < 8; i++) fetch("/api/" + i).catch(() => {});</script></body></html>',
        },
        '/after': { body: '<!doctype html><html><head><title>After</title></head><body>ok</body></html>' },
      });
      slowClient = createFixtureClient(['slow.test'], {}, { totalTimeoutMs: 60_000, headersTimeoutMs: 60_000 });
      budgeted = createPageRenderer({ chromiumPath: CHROMIUM, client: slowClient, timeoutMs: 3_000, maxRequests: 3 });
    });

    afterAll(async () => {
      await budgeted?.close();
      await slowClient?.close();
      await slow?.close();
    });

    it('a page that never settles ends at its budget; a page that never yields fails; the crawl goes on', async () => {
      const started = Date.now();
      const pages = await crawl(slowClient, slow.url('/'), { rendering: 'browser', concurrency: 2 }, budgeted);
      expect(Date.now() - started).toBeLessThan(20_000);
      const byPath = new Map(pages.map((p) => [pathOf(p.fetch.url), p]));
      expect([...byPath.keys()].sort()).toEqual(['/', '/after', '/busy', '/many']);

      // Load never came (a script that never arrives): the DOM as it was at the budget's end, partial.
      const home = byPath.get('/')!;
      expect(home.fetch.renderError).toBeUndefined();
      expect(home.facts?.headings.map((h) => h.text)).toEqual(['Before the hang']);
      // The budget (3 s) minus what is kept back for the snapshot (750 ms).
      expect(home.fetch.rendering!.renderMs).toBeGreaterThanOrEqual(2_200);
      expect(home.fetch.rendering!.renderMs).toBeLessThan(3_000);
      expect(home.fetch.rendering!.failedRequests).toEqual([{ url: slow.url('/hang.js'), reason: expect.any(String) }]);

      // A script that never yields: no snapshot; the raw facts are kept (their links followed) with the reason.
      const busy = byPath.get('/busy')!;
      expect(busy.fetch.renderError).toMatch(/did not render within 3 s/);
      expect(busy.fetch.rendering).toBeUndefined();
      expect(busy.facts?.titles).toEqual(['Busy raw title']);

      // Requests past the page's budget are refused and recorded.
      const many = byPath.get('/many')!.fetch.rendering!;
      expect(many.failedRequestCount).toBe(8);
      expect(many.failedRequests.filter((f) => f.reason === 'HTTP 404')).toHaveLength(3);
      expect(many.failedRequests.filter((f) => /budget of 3 requests/.test(f.reason))).toHaveLength(5);

      // The pool replaced the page that hung: the renderer still renders.
      expect(byPath.get('/after')!.fetch.rendering).toBeDefined();
    });
  });
});

describeWithChromium(CHROMIUM)("politeness: a rendered page's requests to the site share the crawl's", () => {
  let site: RunningSite;
  let client: SafeHttpClient;
  let renderer: PageRenderer;

  /** A page whose script asks the site for six slow pieces of data at once. */
  const busyPage = (name: string, links: string[]) =>
    `<!doctype html><html lang="en"><head><title>${name}</title></head><body>` +
    links.map((l) => `<a href="${l}">${l}</a>`).join(' ') +
    `<script>for (let i = 0; i < 6; i++) fetch('/data/${name}/' + i).catch(() => {});</script></body></html>`;

  beforeAll(async () => {
    site = await startFixtureSite({ host: 'polite.test' });
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    const routes: Parameters<RunningSite['serve']>[0] = {
      '/': {
        body: busyPage(
          'home',
          names.map((n) => `/${n}`),
        ),
      },
    };
    for (const name of ['home', ...names]) {
      if (name !== 'home') routes[`/${name}`] = { body: busyPage(name, ['/']) };
      for (let i = 0; i < 6; i++) routes[`/data/${name}/${i}`] = { ...json('{}'), delayMs: 150 };
    }
    site.serve(routes);
    client = createFixtureClient(['polite.test']);
    renderer = createPageRenderer({ chromiumPath: CHROMIUM, client, pages: 4 });
  });

  afterAll(async () => {
    await renderer?.close();
    await client?.close();
    await site?.close();
  });

  it('never more requests in flight against the site than the crawl concurrency, renders included', async () => {
    const pages = await crawl(client, site.url('/'), { rendering: 'browser', concurrency: 2 }, renderer);
    expect(pages).toHaveLength(6);
    expect(pages.every((p) => p.fetch.rendering && p.fetch.rendering.failedRequestCount === 0)).toBe(true);
    const data = site.requests.filter((r) => r.path.startsWith('/data/'));
    expect(data).toHaveLength(36);
    // The most requests the site had open at once (each from its arrival to the end of its response).
    const edges = site.requests.flatMap((r) => [
      { at: r.at, step: 1 },
      { at: r.endedAt ?? Infinity, step: -1 },
    ]);
    edges.sort((a, b) => a.at - b.at || a.step - b.step);
    let open = 0;
    let peak = 0;
    for (const e of edges) peak = Math.max(peak, (open += e.step));
    expect(peak).toBe(2);
  });

  it("the scope's excludes hold for a rendered page's requests: not fetched, not reported", async () => {
    const before = site.requests.length;
    const pages = await crawl(
      client,
      site.url('/'),
      { rendering: 'browser', concurrency: 2, scope: { exclude: ['/data/p1/**', '/p2'] } },
      renderer,
    );
    expect(pages.map((p) => pathOf(p.fetch.url)).sort()).toEqual(['/', '/p1', '/p3', '/p4', '/p5']);
    const fetched = site.requests.slice(before).map((r) => r.path);
    expect(fetched.filter((p) => p.startsWith('/data/p1/') || p === '/p2')).toEqual([]);
    expect(fetched.filter((p) => p.startsWith('/data/p3/'))).toHaveLength(6);
    const p1 = pages.find((p) => pathOf(p.fetch.url) === '/p1')!;
    expect(p1.fetch.rendering).toMatchObject({ failedRequestCount: 0, blockedByRobots: [] });
  });
});

describeWithChromium(CHROMIUM)('browser rendering in the audit worker (project setting renderingMode)', () => {
  let t: TestApp;
  let org: Org;
  let site: RunningSite;
  let client: SafeHttpClient;

  beforeAll(async () => {
    site = await startFixtureSite({ host: 'worker-spa.test' });
    site.serve({
      '/': { body: spaShell('home') },
      '/about': { body: spaShell('about') },
      '/products': { body: spaShell('products') },
      '/api/home.json': json(pageData('Home', ['/about', '/products'])),
      '/api/about.json': json(pageData('About us', ['/'])),
      '/api/products.json': json(pageData('Products', ['/', '/about'])),
    });
    t = await createTestApp({
      SAFE_HTTP_ALLOW: '127.0.0.1/32',
      SAFE_HTTP_RESOLVE: 'no-browser.test=127.0.0.1,worker-spa.test=127.0.0.1',
    });
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    client = createConfiguredSafeHttpClient(t.config);
  });

  afterAll(async () => {
    await client?.close();
    await site?.close();
    await t?.close();
  });

  /** A queued audit of a project whose settings say browser rendering. */
  const browserAudit = async (host: string): Promise<string> => {
    const project = await aProject({ org, url: `http://${host}:${site.port}/` });
    await t.runtime.pool.query(
      `UPDATE project SET settings = coalesce(settings, '{}'::jsonb) || '{"renderingMode":"browser"}' WHERE id = $1`,
      [project.id],
    );
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
      { p: project.id },
      { cookie: org.owner.cookie, origin: t.config.baseUrl },
    );
    return started.body.data.startAudit.auditId as string;
  };
  const auditRow = async (id: string) =>
    (await t.runtime.pool.query('SELECT status, error, pages_crawled FROM audit WHERE id = $1', [id])).rows[0] as {
      status: string;
      error: string | null;
      pages_crawled: number;
    };

  it('no Chromium: the audit fails, saying why; with RENDER_CHROMIUM_PATH, rendered links are crawled', async () => {
    const failing = await browserAudit('no-browser.test');
    const requestsBefore = site.requests.length;
    const noBrowser = new AuditJobRunner(
      t.runtime.orm,
      client,
      { ...t.config, CHROMIUM_PATH: undefined, RENDER_CHROMIUM_PATH: undefined },
      t.runtime.logger,
    );
    await expect(noBrowser.run(failing)).rejects.toBeInstanceOf(AuditFailedError);
    const failed = await auditRow(failing);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/no Chromium is configured: set RENDER_CHROMIUM_PATH or CHROMIUM_PATH/);
    // Nothing was fetched: no silent fallback to html mode.
    expect(site.requests.length).toBe(requestsBefore);

    const auditId = await browserAudit('worker-spa.test');
    const runner = new AuditJobRunner(
      t.runtime.orm,
      client,
      { ...t.config, RENDER_CHROMIUM_PATH: CHROMIUM },
      t.runtime.logger,
    );
    expect(await runner.run(auditId)).toBe('completed');
    expect(await auditRow(auditId)).toMatchObject({ status: 'COMPLETED', pages_crawled: 3 });
    const missingTitle = await t.runtime.pool.query(
      `SELECT count(*)::int AS n FROM audit_issue WHERE audit_id = $1 AND code = 'META_TITLE_MISSING'`,
      [auditId],
    );
    expect(missingTitle.rows[0].n).toBe(0);
    const titles = await t.runtime.pool.query('SELECT title FROM audit_page WHERE audit_id = $1 ORDER BY url', [
      auditId,
    ]);
    expect(titles.rows.map((r: { title: string }) => r.title)).toEqual([
      'Home | Client-rendered shop',
      'About us | Client-rendered shop',
      'Products | Client-rendered shop',
    ]);
  });
});

describeWithChromium(CHROMIUM)('settling: what a page brings in after load is in the snapshot', () => {
  let site: RunningSite;
  let client: SafeHttpClient;
  let renderer: PageRenderer;
  let patient: PageRenderer;
  const js = (body: string, delayMs = 0) => ({ headers: { 'content-type': 'text/javascript' }, body, delayMs });
  /** Each script sets the title some time after the load event, in its own way. */
  const LATE: Record<string, string> = {
    timer: `addEventListener('load', () => setTimeout(() => { document.title = 'Final'; }, 150));`,
    frames:
      `addEventListener('load', () => { let n = 0; const step = () => { if (++n < 12) requestAnimationFrame(step); ` +
      `else document.title = 'Final'; }; requestAnimationFrame(step); });`,
    // A framework scheduler's way: work in 4 ms chunks, each posting the next through a MessageChannel.
    chunks:
      `addEventListener('load', () => { const ch = new MessageChannel(); let n = 0; ch.port1.onmessage = () => { ` +
      `const end = performance.now() + 4; while (performance.now() < end); ` +
      `if (++n < 40) ch.port2.postMessage(0); else document.title = 'Final'; }; ch.port2.postMessage(0); });`,
    script:
      `addEventListener('load', () => { const s = document.createElement('script'); s.src = '/late.js'; ` +
      `document.head.appendChild(s); });`,
    import: `addEventListener('load', () => { import('/late.mjs'); });`,
    fetch:
      `addEventListener('load', () => setTimeout(() => fetch('/late.json').then((r) => r.json())` +
      `.then((d) => { document.title = d.title; }), 20));`,
  };
  const page = (script: string) =>
    `<!doctype html><html lang="en"><head><title>Shell</title></head><body><p>Text</p>` +
    `<script>${script}</script></body></html>`;
  const render = (r: PageRenderer, path: string): Promise<RenderOutput> => {
    const body = Buffer.from(page(LATE[path.slice(1)] ?? ''));
    return r.render({ url: site.url(path), status: 200, headers: { 'content-type': 'text/html' }, body });
  };
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

  beforeAll(async () => {
    site = await startFixtureSite({ host: 'settle.test' });
    site.serve({
      '/late.js': js(`document.title = 'Final';`, 100),
      '/late.mjs': js(`document.title = 'Final';`, 100),
      '/late.json': { ...json(JSON.stringify({ title: 'Final' })), delayMs: 100 },
    });
    client = createFixtureClient(['settle.test']);
    renderer = createPageRenderer({ chromiumPath: CHROMIUM, client });
    patient = createPageRenderer({ chromiumPath: CHROMIUM, client, idleMs: 10_000 });
  });

  afterAll(async () => {
    await renderer?.close();
    await patient?.close();
    await client?.close();
    await site?.close();
  });

  for (const way of Object.keys(LATE)) {
    it(`${way}: the title set after load is the rendered one`, async () => {
      const out = await render(renderer, `/${way}`);
      expect({ way, title: titleOf(out.html), partial: out.partial }).toEqual({ way, title: 'Final', partial: false });
    });
  }

  it('a page with nothing left to do is done without waiting out the quiet window', async () => {
    // The whole window is 10 s: only a page found done (nothing pending, main thread idle) ends sooner.
    const out = await render(patient, '/static');
    expect(titleOf(out.html)).toBe('Shell');
    expect(out.renderMs).toBeLessThan(10_000);
  });
});
