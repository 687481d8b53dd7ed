import { createHash } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, createTestApp, gql, signUp, uniq, type TestApp, type TestUser } from '../support/app.js';
import { anAudit } from '../factories.js';

/**
 * Signed-in pages rendered by the server (facades/http/server-render.ts, facades/web/src/entry-server.tsx): the page's
 * HTML has its content and the state the browser's first render starts from; anything the server cannot render for
 * this session (no session, another organization's project, a page without a loader) stays the plain index.html.
 */
const APP_RATE = 40;
let t: TestApp;
let owner: TestUser;
let project: { id: string };
const HOSTILE = `Acme </script><script>alert(1)</script><img src=x onerror=alert(2)> ${uniq()}`;

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: String(APP_RATE) });
  owner = await signUp(t);
  project = await createProject(t, owner);
  const renamed = await gql(
    t,
    'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { name } }',
    { id: project.id, i: { name: HOSTILE } },
    { cookie: owner.cookie },
  );
  expect(renamed.body.errors).toBeUndefined();
  // One page first, its answer not read: the renderer module's import and the first compile of each read happen once
  // per process, and on a loaded machine they can pass the 2-second render deadline, after which the product sends the
  // plain index.html (as it should). The tests below are about what a rendered page holds.
  await t.app.inject({ method: 'GET', url: '/projects', headers: { cookie: owner.cookie } });
});
afterAll(() => t.close());

const load = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** The page's parts: the markup of #root and the parsed state, or null when the page is the plain index.html. */
function rendered(
  html: string,
): { root: string; state: { session: string; results: Record<string, { data?: string; error?: unknown }> } } | null {
  const state = /<script type="application\/json" id="ssr-state">([\s\S]*?)<\/script>/.exec(html);
  if (!state) return null;
  const root = /<div id="root">([\s\S]*?)<\/div>\n\s*<script type="application\/json"/.exec(html);
  return { root: root![1], state: JSON.parse(state[1]) };
}

describe('signed-in pages rendered by the server', () => {
  it('/projects: the projects in the HTML, the session and the query results beside them', async () => {
    const res = await load('/projects', { cookie: owner.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // The user's data: never cached, varied by cookie; the app's CSP unchanged.
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['vary']).toMatch(/Cookie/);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
    // The app's stylesheet inline, allowed by its hash alone; the plain index.html links it.
    const style = /^\s*<style>([\s\S]*?)<\/style>/m.exec(res.body);
    expect(style).not.toBeNull();
    const hash = createHash('sha256').update(style![1], 'utf8').digest('base64');
    expect(String(res.headers['content-security-policy'])).toContain(`style-src 'self' 'sha256-${hash}';`);
    expect(res.body).not.toContain('rel="stylesheet"');
    const plain = await load('/projects');
    expect(plain.body).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[\w.-]+\.css">/);
    expect(plain.body).not.toMatch(/^\s*<style>/m);
    expect(String(plain.headers['content-security-policy'])).toContain("style-src 'self';");
    const page = rendered(res.body)!;
    expect(page).not.toBeNull();
    expect(page.root).toContain('<h1 id="projects-title">Projects</h1>');
    expect(page.root).toContain('Acme &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x');
    // The session it was rendered for, without its token; the page does not fetch it again.
    const session = JSON.parse(page.state.session);
    expect(session.user.email).toBe(owner.email);
    expect(session.session.token).toBeUndefined();
    expect(res.body).not.toContain('href="/api/auth/get-session"');
    // The results the loaders fetched, as urql's ssrExchange serializes them.
    const names = Object.values(page.state.results).flatMap((r) =>
      r.data ? ((JSON.parse(r.data) as { projects?: { name: string }[] }).projects ?? []).map((p) => p.name) : [],
    );
    expect(names).toEqual([HOSTILE]);
    expect(Object.values(page.state.results).every((r) => !r.error)).toBe(true);
  });

  it('user-given text cannot end the state or add a script: only the app’s files and the data run', async () => {
    const res = await load('/projects', { cookie: owner.cookie });
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img src=x');
    // React's own inline scripts (its streaming runtime) run by the response's nonce, a new one per response.
    const nonce = /script-src 'self' 'nonce-([\w+/=]+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toMatch(/^[\w+/]{24}$/);
    const again = await load('/projects', { cookie: owner.cookie });
    expect(String(again.headers['content-security-policy'])).toContain("script-src 'self' 'nonce-");
    expect(String(again.headers['content-security-policy'])).not.toContain(nonce);
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attrs, body] of scripts) {
      if (attrs.includes('type="application/json"')) expect(body).not.toMatch(/<\/?script/i);
      else if (attrs === ` nonce="${nonce}"`) expect(body).toMatch(/^(requestAnimationFrame|\$R[A-Z])/);
      else {
        expect(attrs).toMatch(/src="\/assets\//);
        expect(body.trim()).toBe('');
      }
    }
    // The CSP refuses style attributes: the markup has none (react-aria's visually hidden ones become a class).
    expect(rendered(res.body)!.root).not.toMatch(/\sstyle="/);
  });

  it('the issues and keywords pages carry their data too', async () => {
    const added = await gql(
      t,
      'mutation($p: ID!, $i: AddKeywordsInput!) { addKeywords(projectId: $p, input: $i) { id } }',
      { p: project.id, i: { keywords: ['garden hose', 'rain barrel'] } },
      { cookie: owner.cookie },
    );
    expect(added.body.errors).toBeUndefined();
    // The table's rows are drawn by the browser (a virtual list, below the page's first screen when keywords are
    // compared: rendered here they cost the first paint ~40 ms); the page's own facts are in the HTML.
    const keywords = rendered((await load(`/projects/${project.id}/keywords`, { cookie: owner.cookie })).body);
    expect(keywords?.root).toMatch(/Keywords<\/h1>/);
    expect(keywords?.root).toContain('2 keywords');
    expect(JSON.stringify(keywords?.state.results)).toContain('rain barrel');
    // A search the route rewrites to its canonical form (compare=a,b) is rendered at that form.
    const ids = (added.body.data as { addKeywords: { id: string }[] }).addKeywords.map((k) => k.id).join(',');
    const compared = await load(`/projects/${project.id}/keywords?compare=${ids}&days=90`, { cookie: owner.cookie });
    expect(JSON.stringify(rendered(compared.body)?.state.results)).toContain('garden hose');
    const overview = rendered((await load(`/projects/${project.id}`, { cookie: owner.cookie })).body);
    expect(overview?.root).toContain('Acme &lt;/script&gt;');

    // The audit's issues: the list's first screen of rows, standing in flow (their positions are inline styles, which
    // the CSP refuses in HTML) until the browser positions them.
    const org = { t, id: owner.organizationId, plan: 'FREE' as const, owner };
    const audit = await anAudit({
      project: { org, id: project.id },
      pages: 3,
      issues: [
        {
          code: 'META_TITLE_MISSING',
          title: 'Missing title',
          severity: 'CRITICAL',
          category: 'META',
          affectedPages: 2,
        },
        { code: 'CONTENT_THIN', title: 'Thin content', severity: 'WARNING', category: 'CONTENT', affectedPages: 1 },
      ],
    });
    const issues = rendered((await load(`/projects/${project.id}/audits/${audit.id}`, { cookie: owner.cookie })).body);
    expect(issues?.root).toMatch(/<div[^>]*class="virtual-list"[^>]*data-server-rows=""/);
    // One list, the costliest first: the missing title (CRITICAL) before the thin content.
    expect(issues?.root.match(/class="virtual-row"/g)).toHaveLength(2);
    expect(issues?.root.indexOf('Missing title')).toBeGreaterThan(-1);
    expect(issues?.root.indexOf('Missing title')).toBeLessThan(issues!.root.indexOf('Thin content'));
    expect(issues?.root).not.toContain('style=');
  });

  it('a long list streams after the page: its heading goes out while the issues are still being read', async () => {
    const org = { t, id: owner.organizationId, plan: 'FREE' as const, owner };
    const audit = await anAudit({
      project: { org, id: project.id },
      pages: 2,
      issues: [
        {
          code: 'CONTENT_THIN',
          title: 'Streamed thin content',
          severity: 'WARNING',
          category: 'CONTENT',
          affectedPages: 2,
        },
      ],
    });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The issues' table locked: the list's query waits on it, the page's own query (project, audit) does not.
    const locker = new pg.Client({ connectionString: t.config.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE audit_issue IN ACCESS EXCLUSIVE MODE');
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        httpGet(`${base}/projects/${project.id}/audits/${audit.id}`, { headers: { cookie: owner.cookie } }, resolve).on(
          'error',
          reject,
        ),
      );
      res.setEncoding('utf8');
      let html = '';
      let arrived = () => undefined as void;
      res.on('data', (chunk: string) => {
        html += chunk;
        arrived();
      });
      const until = async (text: string) => {
        while (!html.includes(text)) await new Promise<void>((resolve) => (arrived = resolve));
      };
      await until('Loading the issues');
      expect(html).toContain('Audit issues</h1>');
      expect(html).toContain('overall score');
      expect(html).not.toContain('Streamed thin content');
      expect(html).not.toContain('id="ssr-state"');
      await locker.query('COMMIT');
      await until('</html>');
      // The list, then React's script that puts it in place of the fallback, allowed by the response's nonce.
      const nonce = /'nonce-([\w+/=]+)'/.exec(String(res.headers['content-security-policy']))![1];
      expect(html).toMatch(/<div hidden id="S:0">[\s\S]*Streamed thin content[\s\S]*<\/div>/);
      expect(html).toContain(`<script nonce="${nonce}">$RB=[];`);
      expect(html).toMatch(/\$RC\("B:0","S:0"\)<\/script><\/div>\s*<script type="application\/json" id="ssr-state">/);
      const page = rendered(html)!;
      expect(page.root).not.toMatch(/\sstyle="/);
      // The state has the list too: the browser's first render draws it without asking again.
      expect(JSON.stringify(page.state.results)).toContain('Streamed thin content');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
  });

  it('gzip when the browser accepts it: the same page once decoded', async () => {
    const res = await load('/projects', { cookie: owner.cookie, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/);
    const html = gunzipSync(res.rawPayload).toString('utf8');
    expect(rendered(html)?.root).toContain('<h1 id="projects-title">Projects</h1>');
  });
});

describe('what the browser renders itself', () => {
  /** An empty #root and no state: the page's scripts fetch the session and the data, as without server rendering. */
  const plain = (html: string) => {
    expect(rendered(html)).toBeNull();
    expect(html).toContain('<div id="root"></div>');
  };

  it('no cookie or an unknown session: the plain index.html, which preloads the session', async () => {
    for (const res of [await load('/projects'), await load('/projects', { cookie: 'better-auth.session-token=x.y' })]) {
      plain(res.body);
      expect(res.body).toContain('href="/api/auth/get-session"');
    }
  });

  it('a page whose route loads nothing, an unknown page: the plain index.html, no budget spent', async () => {
    for (const path of ['/settings/api-keys', '/no/such/page', `/projects/${project.id}/competitors`]) {
      const res = await load(path, { cookie: owner.cookie });
      plain(res.body);
      expect(res.body).toContain('href="/api/auth/get-session"');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('another organization’s project: nothing of it in the HTML (the browser shows its not-found)', async () => {
    const stranger = await signUp(t);
    for (const path of [`/projects/${project.id}`, `/projects/${project.id}/keywords`]) {
      const res = await load(path, { cookie: stranger.cookie });
      expect(res.statusCode).toBe(200);
      plain(res.body);
      expect(res.body).not.toContain('Acme');
    }
  });

  it('a page counts once against the user’s web-app budget; past it, the page is left to the browser', async () => {
    const user = await signUp(t);
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
    for (let i = 1; i <= APP_RATE; i++) {
      const res = await load('/projects', { cookie: user.cookie });
      expect(rendered(res.body), `page ${i}`).not.toBeNull();
    }
    const over = await load('/projects', { cookie: user.cookie });
    expect(over.statusCode).toBe(200);
    plain(over.body);
    // The budget is the one the app's own GraphQL calls spend.
    expect((await gql(t, '{ viewer { userId } }', {}, { cookie: user.cookie })).status).toBe(429);
  });
});

describe('SERVER_RENDERING=false', () => {
  it('every signed-in page is the plain index.html', async () => {
    const off = await createTestApp({ SERVER_RENDERING: 'false' });
    try {
      const user = await signUp(off);
      const res = await off.app.inject({ method: 'GET', url: '/projects', headers: { cookie: user.cookie } });
      expect(res.statusCode).toBe(200);
      expect(rendered(res.body)).toBeNull();
    } finally {
      await off.close();
    }
  });
});
