import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { anAudit, anOrg, aProject, type Project } from '../factories.js';
import { createTestApp, signUp, uniq, type TestApp, type TestUser } from '../support/app.js';

const host = `fix-${uniq()}.test`;
const PAGE =
  `<!doctype html><html lang="en"><head><title>Hand-made oak tables | Woodshop</title></head><body>
<h1>Oak tables built to last</h1><p>Every table in our workshop is cut from solid European oak, joined by ` +
  `hand and finished with natural oils that age beautifully over decades of family dinners.</p>
<p>Delivery is free across the country.</p></body></html>`;
/** A page of the same site that has no <title> (served under /courses/). */
const NO_TITLE_PAGE = `<!doctype html><html lang="en"><head></head><body><h1>Joinery courses for beginners</h1>
<p>Two-day courses in our workshop: cut, join and finish a small oak table of your own.</p></body></html>`;

/** The audited site, and a local OpenAI-compatible endpoint whose answer the test controls. */
let site: http.Server;
let llm: http.Server;
let sitePort: number;
let llmPort: number;
let llmMode: 'ok' | 'malformed' = 'ok';
const llmRequests: { path: string; auth?: string; body: any }[] = [];

const listen = (s: http.Server) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as { port: number }).port)));

let rules: TestApp; // no model configured
let withModel: TestApp;
let user: TestUser;
let project: Project;
let projectId: string;
let issueId: string;
let pageUrl: string;

beforeAll(async () => {
  site = http.createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(req.url?.startsWith('/courses/') ? NO_TITLE_PAGE : PAGE),
  );
  llm = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      llmRequests.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) });
      const content =
        llmMode === 'ok'
          ? JSON.stringify({
              summary: 'Add a meta description about the oak tables.',
              steps: ['Add the tag in the head.'],
              code: '<meta name="description" content="Solid oak tables, hand-made.">',
            })
          : 'Sure! Here is some advice without JSON.';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          model: 'local-test-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  sitePort = await listen(site);
  llmPort = await listen(llm);
  const common = { SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` };
  rules = await createTestApp(common);
  withModel = await createTestApp({
    ...common,
    LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    LLM_MODEL: 'local-test-model',
    LLM_API_KEY: 'sk-test-secret-key',
  });
  const org = await anOrg(rules, { plan: 'ENTERPRISE' });
  user = org.owner;
  pageUrl = `http://${host}:${sitePort}/tables?session=abc&api_key=PLANTED-SECRET`;
  project = await aProject({ org, url: `http://${host}:${sitePort}/` });
  projectId = project.id;
  // One page with one issue; its URL carries credentials that must never reach the model.
  const issue = { code: 'META_DESCRIPTION_MISSING', description: 'd', occurrences: [{ url: pageUrl, evidence: {} }] };
  const audit = await anAudit({ project, scores: null, pages: 1, maxPages: 10, issues: [issue] });
  issueId = audit.issueIds.get('META_DESCRIPTION_MISSING')!;
}, 60_000);
afterAll(async () => {
  await rules.close();
  await withModel.close();
  site.close();
  llm.close();
});

const fix = (app: TestApp, body: object, cookie = user.cookie, pid = projectId) =>
  app.app.inject({
    method: 'POST',
    url: `/api/projects/${pid}/audit/fix`,
    headers: { cookie, origin: app.config.baseUrl },
    payload: body,
  });

describe('POST /api/projects/:id/audit/fix', () => {
  it('without a model: a page-specific rules fix, cached per (issue, url)', async () => {
    const res = await fix(rules, { issueId });
    expect(res.statusCode).toBe(200);
    const { suggestion } = res.json();
    expect(suggestion).toMatchObject({
      id: expect.any(String),
      issueId,
      url: pageUrl,
      source: 'RULES',
      summary: expect.any(String),
      steps: expect.any(Array),
    });
    expect(suggestion).not.toHaveProperty('model');
    const proposed = /content="([^"]*)"/.exec(suggestion.code)?.[1] ?? '';
    expect(proposed.length).toBeGreaterThanOrEqual(70);
    expect(proposed.length).toBeLessThanOrEqual(160);
    expect(proposed).toMatch(/oak/i);
    const again = await fix(rules, { issueId, url: pageUrl });
    expect(again.json().suggestion.id).toBe(suggestion.id);
  });

  it('with an OpenAI-compatible model: the request carries the evidence, no secret; the answer is used', async () => {
    await withModel.runtime.pool.query('DELETE FROM fix_suggestion WHERE issue_id = $1', [issueId]);
    const res = await fix(withModel, { issueId });
    expect(res.statusCode).toBe(200);
    expect(res.json().suggestion).toMatchObject({
      source: 'LLM',
      model: 'local-test-model',
      summary: 'Add a meta description about the oak tables.',
      code: expect.stringContaining('<meta'),
    });
    const request = llmRequests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.auth).toBe('Bearer sk-test-secret-key');
    expect(request.body.model).toBe('local-test-model');
    const prompt = JSON.stringify(request.body.messages);
    expect(prompt).toContain('META_DESCRIPTION_MISSING');
    expect(prompt).toContain('Hand-made oak tables');
    expect(prompt).toContain(`${host}:${sitePort}/tables`);
    expect(prompt).not.toContain('PLANTED-SECRET');
    expect(prompt).not.toContain('sk-test-secret-key');
  });

  it('a malformed model answer falls back to the rules engine', async () => {
    await withModel.runtime.pool.query('DELETE FROM fix_suggestion WHERE issue_id = $1', [issueId]);
    llmMode = 'malformed';
    try {
      const res = await fix(withModel, { issueId });
      expect(res.statusCode).toBe(200);
      expect(res.json().suggestion.source).toBe('RULES');
    } finally {
      llmMode = 'ok';
    }
  });

  it('access: PRO cannot trigger fixes (write), another organization gets 404, bad input is 400', async () => {
    const other = await signUp(rules, { plan: 'ENTERPRISE' });
    expect((await fix(rules, { issueId }, other.cookie)).statusCode).toBe(404);
    expect((await fix(rules, { issueId: newId() })).statusCode).toBe(404);
    expect((await fix(rules, { issueId, url: 'https://elsewhere.example/' })).statusCode).toBe(400);
    expect((await fix(rules, { issue: issueId })).statusCode).toBe(400);
    await rules.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['PRO', user.organizationId]);
    try {
      const res = await fix(rules, { issueId });
      expect(res.statusCode).toBe(403);
    } finally {
      await rules.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', [
        'ENTERPRISE',
        user.organizationId,
      ]);
    }
  });
});

describe("title fixes follow the title pattern of the audit's other pages", () => {
  /** An audit of the site whose page /courses/joinery has no title; the other pages carry `titles`. */
  async function missingTitleFix(titles: string[]): Promise<string> {
    const origin = `http://${host}:${sitePort}`;
    const noTitle = `${origin}/courses/joinery`;
    const pages = [{ url: noTitle, title: null }, ...titles.map((title, i) => ({ url: `${origin}/p${i}`, title }))];
    const issue = { code: 'META_TITLE_MISSING', occurrences: [{ url: noTitle, evidence: { titleCount: 0 } }] };
    const audit = await anAudit({ project, scores: null, pages, issues: [issue] });
    const res = await fix(rules, { issueId: audit.issueIds.get('META_TITLE_MISSING')! });
    expect(res.statusCode).toBe(200);
    expect(res.json().suggestion).toMatchObject({ url: noTitle, source: 'RULES' });
    return res.json().suggestion.code as string;
  }

  it('the page without a title gets the " | Brand" suffix most other pages share', async () => {
    const code = await missingTitleFix([
      'Handmade oak furniture from Devon | Gridline Studio',
      'Oak dining tables | Gridline Studio',
      'Chairs and benches | Gridline Studio',
      'About the workshop',
    ]);
    expect(code).toBe('<title>Joinery courses for beginners | Gridline Studio</title>');
  });

  it('one page with the suffix is no pattern: the brand is guessed from the host as before', async () => {
    const code = await missingTitleFix([
      'Handmade oak furniture from Devon | Gridline Studio',
      'Oak dining tables',
      'Chairs and benches',
      'About the workshop',
    ]);
    expect(code).toMatch(/^<title>Joinery courses for beginners \| Fix /);
    expect(code).not.toContain('Gridline');
  });
});

describe('duplicate-title fixes give each page of the group a title of its own', () => {
  it('two pages with one title and h1: different titles from their URLs, that no page of the audit has', async () => {
    const origin = `http://${host}:${sitePort}`;
    const suffix = ' — Woodshop manual';
    const shared = `Introduction${suffix}`;
    const twins = [`${origin}/c-api/intro.html`, `${origin}/library/intro.html`];
    const pages = [
      ...twins.map((url) => ({ url, title: shared, kind: 'HTML', details: { h1: ['Introduction'] } })),
      // A page that already has the first title the library twin would be given.
      { url: `${origin}/old-intro`, title: `Introduction – Library${suffix}`, kind: 'HTML' },
      ...['Oak tables', 'Joinery', 'Finishes'].map((topic, i) => ({ url: `${origin}/t${i}`, title: topic + suffix })),
    ];
    const occurrences = twins.map((url) => ({
      url,
      evidence: { title: shared, duplicates: 1, sameAs: twins.filter((twin) => twin !== url) },
    }));
    const audit = await anAudit({
      project,
      scores: null,
      pages,
      issues: [{ code: 'META_TITLE_DUPLICATE', occurrences }],
    });
    const titles: string[] = [];
    for (const url of twins) {
      const res = await fix(rules, { issueId: audit.issueIds.get('META_TITLE_DUPLICATE')!, url });
      expect(res.statusCode).toBe(200);
      titles.push(/^<title>(.*)<\/title>$/.exec(res.json().suggestion.code as string)![1]);
    }
    expect(titles).toEqual([`Introduction – C api${suffix}`, `Library – Introduction${suffix}`]);
  });
});
