/**
 * Raw versus rendered, end to end (issue 28 item 2): the client-rendered fixture site (rendered-site.ts) audited by
 * the real crawler and engine, once in html mode and once in browser mode with headless Chromium (A1's renderer,
 * every request through the safe HTTP client). Html mode reports the shell's false findings and suggests browser
 * mode; browser mode reports each RENDER_* code exactly on the pages built for it, and none of those findings.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAuditEngine, type AuditOutcome } from '../../src/audits/audit-engine.js';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createPageRenderer, type PageRenderer } from '../../src/crawler/browser/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { ProjectEntity } from '../../src/projects/index.js';
import { CHECK_CATALOG, RENDERING_CHECK_CODES, type PageRenderingRecord } from '../../src/seo/checks/index.js';
import {
  FIXTURE_CRAWL_OPTIONS,
  auditSite,
  createFixtureClient,
  reportedUrls,
  type AuditRun,
} from '../fixtures/sites/audit-harness.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { RENDERED_SITE_EXPECTED, RENDERED_SITE_TRAPS, renderedSite } from '../fixtures/sites/rendered-site.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';
import { RENDER_CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

const HOST = 'rendered.test';
const RENDER_CODES = CHECK_CATALOG.map((check) => check.code).filter((code) => RENDERING_CHECK_CODES.has(code));

let site: RunningSite;
let client: SafeHttpClient;
let renderer: PageRenderer;
let html: AuditRun;
let browser: AuditRun;

/** The browser-mode audit: the harness's options with `rendering: 'browser'` and a renderer. */
async function auditRendered(startUrl: string): Promise<AuditRun> {
  const run: AuditRun = { outcome: undefined as unknown as AuditOutcome, pages: [], occurrences: [] };
  run.outcome = await runAuditEngine(
    client,
    { ...FIXTURE_CRAWL_OPTIONS, startUrl, rendering: 'browser' },
    {
      pages: async (rows) => void run.pages.push(...rows),
      occurrences: async (rows) => void run.occurrences.push(...rows),
    },
    undefined,
    undefined,
    undefined,
    renderer,
  );
  return run;
}

const urls = (paths: readonly string[]) => paths.map((path) => site.url(path)).sort();
const applicable = (run: AuditRun, code: string) =>
  run.outcome.aggregates.find((aggregate) => aggregate.code === code)?.applicablePages ?? 0;
const recordOf = (run: AuditRun, path: string) =>
  run.pages.find((row) => row.url === site.url(path))?.rendering as PageRenderingRecord | null | undefined;

describeWithChromium(RENDER_CHROMIUM)('raw versus rendered on a client-rendered site', () => {
  beforeAll(async () => {
    site = await startFixtureSite({ host: HOST, compress: true });
    site.serve(renderedSite(site.origin));
    client = createFixtureClient([HOST]);
    renderer = createPageRenderer({ chromiumPath: RENDER_CHROMIUM, client });
    html = await auditSite(client, site.url('/'));
    browser = await auditRendered(site.url('/'));
  }, 120_000);

  afterAll(async () => {
    await renderer?.close();
    await client?.close();
    await site?.close();
  });

  it('html mode reports the app shell as missing its title and thin, and suggests browser mode', () => {
    expect(reportedUrls(html, 'META_TITLE_MISSING')).toEqual(urls(['/app']));
    expect(reportedUrls(html, 'CONTENT_H1_MISSING')).toEqual(urls(['/app']));
    expect(reportedUrls(html, 'CONTENT_THIN')).toEqual(urls(['/app', '/content-needs-js']));
    expect(reportedUrls(html, 'TECH_CLIENT_RENDERED_SUSPECTED')).toEqual(urls(['/app']));
    // The page the app links to only once rendered is never found.
    expect(html.pages.map((row) => row.url)).not.toContain(site.url('/app/more'));
    for (const code of RENDER_CODES) expect(applicable(html, code), code).toBe(0);
    expect(html.pages.every((row) => row.rendering === null)).toBe(true);
  });

  it.each(RENDER_CODES)('browser mode reports %s exactly on the pages built for it', (code) => {
    expect(reportedUrls(browser, code)).toEqual(urls(RENDERED_SITE_EXPECTED[code]));
    expect(applicable(browser, code), code).toBeGreaterThan(0);
  });

  it('browser mode has none of the shell findings, and crawls what only rendering links to', () => {
    for (const code of ['META_TITLE_MISSING', 'CONTENT_H1_MISSING', 'TECH_CLIENT_RENDERED_SUSPECTED'])
      expect(reportedUrls(browser, code), code).toEqual([]);
    expect(applicable(browser, 'TECH_CLIENT_RENDERED_SUSPECTED')).toBe(0);
    expect(reportedUrls(browser, 'CONTENT_THIN')).toEqual([]);
    expect(browser.pages.map((row) => row.url)).toEqual(expect.arrayContaining(urls(['/app/more', '/links-target'])));
    const app = browser.pages.find((row) => row.url === site.url('/app'))!;
    expect(app.title).toBe('Garden planner app: plots, seeds and seasons');
  });

  it('stays silent on the trap pages', () => {
    const traps = new Set(urls(RENDERED_SITE_TRAPS));
    const fired = browser.occurrences.filter((o) => RENDERING_CHECK_CODES.has(o.code) && traps.has(o.url));
    expect(fired).toEqual([]);
  });

  it('stores the raw-versus-rendered record of every page', () => {
    const app = recordOf(browser, '/app')!;
    expect(app.raw).toMatchObject({ title: null, h1: [], internalLinks: 1 });
    // The raw side has the template's navigation link text only.
    expect(app.raw!.wordCount).toBeLessThan(10);
    expect(app.rendered).toMatchObject({
      title: 'Garden planner app: plots, seeds and seasons',
      h1: ['Garden planner'],
    });
    expect(app.rendered!.wordCount).toBeGreaterThan(250);
    expect(app.renderMs).toBeGreaterThanOrEqual(0);
    expect(app.renderError).toBeNull();
    expect(recordOf(browser, '/noindex-removed')).toMatchObject({
      raw: { robots: { noindex: true } },
      rendered: { robots: { noindex: false } },
    });
    expect(recordOf(browser, '/blocked-script')?.blockedByRobots).toEqual([site.url('/private/widget.js')]);
    expect(recordOf(browser, '/console-error')).toMatchObject({
      consoleErrorCount: 1,
      consoleErrors: [expect.stringContaining('The widget could not start')],
    });
    expect(recordOf(browser, '/failed-request')?.failedRequests).toEqual([
      { url: site.url('/api/stock.json'), reason: expect.stringMatching(/500/) },
    ]);
    // The blocked script was never requested from the site.
    expect(site.requests.filter((request) => request.path.startsWith('/private/'))).toEqual([]);
  });
});

/**
 * The stored record, through the job runner, PostgreSQL and GraphQL: `AuditPageView.rendering` is the raw-versus-
 * rendered table of the page view, null in html mode. (The project's rendering mode is set on the entity: the
 * settings API for it belongs to the crawl settings work.)
 */
describeWithChromium(RENDER_CHROMIUM)('the page view of a rendered page', () => {
  let t: TestApp;
  let org: Org;
  let spa: RunningSite;
  let projectId: string;
  const host = `rendered-${uniq()}.test`;

  async function audit(mode: 'html' | 'browser'): Promise<string> {
    const em = t.runtime.orm.em.fork();
    const project = await em.findOneOrFail(ProjectEntity, { id: projectId });
    project.settings = { ...project.settings, renderingMode: mode };
    await em.flush();
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
      { p: projectId },
      { cookie: org.owner.cookie },
    );
    const auditId: string = started.body.data.startAudit.auditId;
    const http = createConfiguredSafeHttpClient(t.config);
    const runner = new AuditJobRunner(t.runtime.orm, http, t.config, t.runtime.logger);
    try {
      await runner.run(auditId);
    } finally {
      await http.close();
    }
    return auditId;
  }

  const VIEW = `query($p: ID!, $a: ID, $u: String!) { audit(projectId: $p, auditId: $a) { status page(url: $u) {
    title rendering { raw { title h1 wordCount internalLinks noindex } rendered { title h1 wordCount internalLinks }
      renderMs consoleErrorCount failedRequestCount blockedByRobots renderError }
    outlinks(first: 50) { nodes { targetUrl position } } } } }`;

  beforeAll(async () => {
    spa = await startFixtureSite({ host, compress: true });
    spa.serve(renderedSite(spa.origin));
    t = await createTestApp({
      SAFE_HTTP_ALLOW: '127.0.0.1/32',
      SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
      RENDER_CHROMIUM_PATH: RENDER_CHROMIUM,
    });
    org = await anOrg(t, { plan: 'ENTERPRISE' });
    const created = await gql(
      t,
      'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
      { u: `${spa.origin}/` },
      { cookie: org.owner.cookie },
    );
    projectId = created.body.data.createProject.id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await spa?.close();
  });

  it('shows the raw HTML beside the rendered page in browser mode, and nothing in html mode', async () => {
    const rendered = await audit('browser');
    const { body } = await gql(
      t,
      VIEW,
      { p: projectId, a: rendered, u: `${spa.origin}/app` },
      { cookie: org.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.audit.status).toBe('COMPLETED');
    const view = body.data.audit.page;
    expect(view.title).toBe('Garden planner app: plots, seeds and seasons');
    expect(view.rendering).toMatchObject({
      raw: { title: null, h1: [], internalLinks: 1, noindex: false },
      rendered: { title: 'Garden planner app: plots, seeds and seasons', h1: ['Garden planner'] },
      consoleErrorCount: 0,
      failedRequestCount: 0,
      blockedByRobots: [],
      renderError: null,
    });
    expect(view.rendering.rendered.wordCount).toBeGreaterThan(250);
    // The link the script puts in a <nav> is stored with the rendered page's position.
    expect(view.outlinks.nodes).toContainEqual({ targetUrl: `${spa.origin}/app/more`, position: 'NAVIGATION' });

    const plain = await audit('html');
    const html = await gql(t, VIEW, { p: projectId, a: plain, u: `${spa.origin}/app` }, { cookie: org.owner.cookie });
    // The served title element is empty.
    expect(html.body.data.audit.page.title ?? '').toBe('');
    expect(html.body.data.audit.page.rendering).toBeNull();
  }, 120_000);
});
