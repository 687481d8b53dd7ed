/**
 * Login crawls (issue 28, item 4): a member area behind a form login is crawled; basic, bearer, cookie and header
 * logins work; the credentials reach the project's host only (never another host's link, asset or redirect target,
 * never a competitor fetch); a logout link is not followed with the session; a failed login fails the audit; the
 * secrets are write-only through GraphQL and REST, stored sealed, and another organization cannot touch them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { CompetitorProfileRunner } from '../../src/competitors/index.js';
import { CrawlLoginService, crawlKeyMaterial, crawlLoginBox } from '../../src/projects/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import {
  credentialHeaders,
  formLoginFor,
  requestsFor,
  startLoginSites,
  type LoginHost,
  type startMemberSite,
} from '../support/crawl-login-site.js';
import { createTestApp, gql, signUp, uniq, type TestApp, type TestUser } from '../support/app.js';
import { RENDER_CHROMIUM } from '../support/chromium.js';
import { describeWithChromium, itWithChromium } from '../support/chromium-suite.js';

export const CRAWL_TEST_KEY = 'crawl-login-test-key-0123456789abcdef';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let site: Awaited<ReturnType<typeof startMemberSite>>;
let other: LoginHost;
let subdomain: { host: string; origin: string };
let client: SafeHttpClient;
let projectId: string;

const SECRETS = {
  password: 'pw-Sup3r-s3cret-!',
  username: 'crawler-user-77',
  token: 'tok3n-bearer-abcdef0123456789',
  cookieValue: 'c00kie-value-9f8e7d',
  headerValue: 'h3ader-value-5a4b3c',
};

const SET = `mutation($p: ID!, $i: CrawlLoginInput!) {
  setCrawlLogin(projectId: $p, input: $i) { id crawlLogin { kind loginUrl usernameField cookieNames headerName } } }`;

async function setLogin(input: Record<string, unknown>, user = owner) {
  return gql(t, SET, { p: projectId, i: input }, { cookie: user.cookie });
}

async function runAudit(
  config: Partial<TestApp['config']> = {},
  starter: TestUser = owner,
): Promise<{ auditId: string; result: string; status: string; error: string | null }> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/audit`,
    headers: { cookie: starter.cookie, origin: t.config.baseUrl },
  });
  expect(started.statusCode, started.body).toBeLessThan(300);
  const { auditId } = started.json() as { auditId: string };
  let result: string;
  try {
    result = await new AuditJobRunner(t.runtime.orm, client, { ...t.config, ...config }, t.runtime.logger).run(auditId);
  } catch (err) {
    result = `threw: ${(err as Error).message}`;
  }
  const { rows } = await t.runtime.pool.query('SELECT status, error FROM audit WHERE id = $1', [auditId]);
  return { auditId, result, status: rows[0].status, error: rows[0].error };
}

async function pagesOf(auditId: string): Promise<{ url: string; status_code: number; title: string | null }[]> {
  const { rows } = await t.runtime.pool.query(
    'SELECT url, status_code, title FROM audit_page WHERE audit_id = $1 ORDER BY url',
    [auditId],
  );
  return rows;
}

beforeAll(async () => {
  let env: Record<string, string>;
  ({ site, other, subdomain, env } = await startLoginSites(uniq()));
  t = await createTestApp({ ...env, CRAWL_SECRET_KEY: CRAWL_TEST_KEY });
  client = createConfiguredSafeHttpClient(t.config);
  owner = await signUp(t, { plan: 'ENTERPRISE' });
  stranger = await signUp(t, { plan: 'ENTERPRISE' });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: owner.cookie, origin: t.config.baseUrl },
    payload: { url: `${site.origin}/` },
  });
  expect(created.statusCode, created.body).toBe(200);
  projectId = created.json().project.id as string;
});

afterAll(async () => {
  await client?.close();
  await t?.close();
  await site?.close();
  await other?.close();
});

describe('a form login crawl', () => {
  it('signs in, crawls the member area, keeps the session past a logout and sends nothing elsewhere', async () => {
    const set = await setLogin(formLoginFor(site, SECRETS.username, SECRETS.password));
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setCrawlLogin.crawlLogin).toMatchObject({ kind: 'FORM', usernameField: 'user' });
    const siteSeen = site.requests.length;
    const otherSeen = other.requests.length;

    const audit = await runAudit();
    expect(audit, JSON.stringify(audit)).toMatchObject({ result: 'completed', status: 'COMPLETED' });
    const pages = await pagesOf(audit.auditId);
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    // The member pages were audited signed in (200 and their own titles), not as redirects to /login.
    for (const path of ['/members/', '/members/a', '/members/b'])
      expect(byPath.get(path), path).toMatchObject({ status_code: 200, title: `Member ${path.slice(9) || 'index'}` });

    // The login posted the CSRF token with the credentials, and the member pages got the session cookie.
    const mine = site.requests.slice(siteSeen);
    expect(mine.some((r) => r.method === 'POST' && r.path === '/login')).toBe(true);
    expect(mine.some((r) => r.path === '/members/a' && /\bsid=/.test(String(r.headers.cookie)))).toBe(true);
    // The logout link was requested (it is a page of the site) but never with the session: it did not end it.
    expect(mine.filter((r) => r.path === '/account/logout').every((r) => r.headers.cookie === undefined)).toBe(true);
    expect(site.logoutsWithSession).toBe(0);

    // The other host was reached (a link, an image, a redirect target), never with a credential.
    const elsewhere = other.requests.slice(otherSeen);
    const paths = new Set(elsewhere.map((r) => r.path.split('?')[0]));
    for (const path of ['/page', '/img.png', '/landing', '/member-link']) expect(paths, path).toContain(path);
    expect(elsewhere.flatMap(credentialHeaders)).toEqual([]);
  });

  it('a wrong password fails the audit with the reason, and nothing behind the login is audited', async () => {
    site.setAuth({ kind: 'FORM', username: SECRETS.username, password: 'another-password' });
    const audit = await runAudit();
    expect(audit.status).toBe('FAILED');
    expect(audit.error).toMatch(/login form was shown again.*check the username and password/i);
    expect(audit.error).not.toContain(SECRETS.password);
    expect(await pagesOf(audit.auditId)).toEqual([]);
  });

  it('a login URL that answers 404 fails the audit with the reason', async () => {
    site.setAuth({ kind: 'FORM', username: SECRETS.username, password: SECRETS.password });
    // The write-only username and password are kept: only the login URL changes.
    const moved = await setLogin({
      kind: 'FORM',
      loginUrl: `${site.origin}/nowhere`,
      usernameField: 'user',
      passwordField: 'pass',
    });
    expect(moved.body.errors).toBeUndefined();
    const audit = await runAudit();
    expect(audit.status).toBe('FAILED');
    expect(audit.error).toContain(`The login page ${site.origin}/nowhere answered 404`);
  });
});

describe('basic, bearer, cookie and header logins', () => {
  const cases = [
    {
      input: { kind: 'BASIC', username: SECRETS.username, password: SECRETS.password },
      auth: { kind: 'BASIC', username: SECRETS.username, password: SECRETS.password } as const,
    },
    { input: { kind: 'BEARER', token: SECRETS.token }, auth: { kind: 'BEARER', token: SECRETS.token } as const },
    {
      input: { kind: 'COOKIE', cookies: `preview=${SECRETS.cookieValue}; theme=dark` },
      auth: { kind: 'COOKIE', name: 'preview', value: SECRETS.cookieValue } as const,
    },
    {
      input: { kind: 'HEADER', headerName: 'X-Preview-Token', headerValue: SECRETS.headerValue },
      auth: { kind: 'HEADER', name: 'x-preview-token', value: SECRETS.headerValue } as const,
    },
  ];
  for (const { input, auth } of cases) {
    it(`${input.kind}: the member area is audited and the other host gets no credential`, async () => {
      site.setAuth(auth);
      const set = await setLogin(input);
      expect(set.body.errors).toBeUndefined();
      const otherSeen = other.requests.length;
      const audit = await runAudit();
      expect(audit, JSON.stringify(audit)).toMatchObject({ result: 'completed', status: 'COMPLETED' });
      const pages = await pagesOf(audit.auditId);
      expect(pages.find((p) => p.url.endsWith('/members/a'))).toMatchObject({ status_code: 200, title: 'Member a' });
      const elsewhere = other.requests.slice(otherSeen);
      expect(elsewhere.length).toBeGreaterThanOrEqual(3);
      expect(elsewhere.flatMap(credentialHeaders)).toEqual([]);
    });
  }

  it('without a login the member area is a redirect to the login page', async () => {
    const cleared = await gql(
      t,
      'mutation($p: ID!) { clearCrawlLogin(projectId: $p) { id crawlLogin { kind } } }',
      {
        p: projectId,
      },
      { cookie: owner.cookie },
    );
    expect(cleared.body.data.clearCrawlLogin.crawlLogin).toBeNull();
    const audit = await runAudit();
    expect(audit.status).toBe('COMPLETED');
    const pages = await pagesOf(audit.auditId);
    expect(pages.find((p) => p.url.endsWith('/members/'))).toMatchObject({ status_code: 302 });
  });
});

describe('a competitor fetch', () => {
  it('never carries the crawl credentials (competitors have their own client and path)', async () => {
    site.setAuth({ kind: 'BEARER', token: SECRETS.token });
    await setLogin({ kind: 'BEARER', token: SECRETS.token });
    expect((await runAudit()).status).toBe('COMPLETED');
    const otherSeen = other.requests.length;
    const runner = new CompetitorProfileRunner(t.runtime.orm, client);
    await runner.analyze(`${other.host}:${other.port}`);
    const fetched = other.requests.slice(otherSeen);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.flatMap(credentialHeaders)).toEqual([]);
  });
});

describeWithChromium(RENDER_CHROMIUM)('a login crawl in browser rendering mode', () => {
  it("the page's own requests carry the credentials to the project's host only, never elsewhere", async () => {
    expect((await setLogin(formLoginFor(site, SECRETS.username, SECRETS.password))).body.errors).toBeUndefined();
    const renderingMode = (mode: string) =>
      t.runtime.pool.query(
        `UPDATE project SET settings = coalesce(settings, '{}'::jsonb) || jsonb_build_object('renderingMode', $2::text)
          WHERE id = $1`,
        [projectId, mode],
      );
    await renderingMode('browser');
    const siteSeen = site.requests.length;
    const otherSeen = other.requests.length;
    let audit: Awaited<ReturnType<typeof runAudit>>;
    try {
      audit = await runAudit({ RENDER_CHROMIUM_PATH: RENDER_CHROMIUM });
    } finally {
      await renderingMode('html');
    }
    expect(audit, JSON.stringify(audit)).toMatchObject({ result: 'completed', status: 'COMPLETED' });

    // The client-rendered member page loaded its profile signed in: its rendered title is the member's.
    const app = (await pagesOf(audit.auditId)).find((p) => p.url.endsWith('/members/app'));
    expect(app).toMatchObject({ status_code: 200, title: 'Member app of Ada' });
    const mine = site.requests.slice(siteSeen);
    const profile = mine.filter((r) => r.path === '/members/api/profile.json');
    expect(profile.length).toBeGreaterThan(0);
    expect(profile.every((r) => /\bsid=/.test(String(r.headers.cookie)))).toBe(true);
    // The page's logout call went without the session (and did not end it).
    expect(mine.some((r) => r.path === '/account/logout?from=app')).toBe(true);
    expect(mine.filter((r) => r.path.startsWith('/account/logout')).every((r) => !r.headers.cookie)).toBe(true);
    expect(site.logoutsWithSession).toBe(0);

    // The page's call to another host and the member API's redirect there arrived, with no credential.
    const elsewhere = other.requests.slice(otherSeen);
    const paths = new Set(elsewhere.map((r) => r.path));
    for (const path of ['/beacon', '/partner-data']) expect(paths, path).toContain(path);
    expect(elsewhere.flatMap(credentialHeaders)).toEqual([]);
  });
});

describe('the API: write-only, validated, isolated', () => {
  it('returns no secret from any field of CrawlLogin, from the project or from REST; the row is sealed', async () => {
    const set = await setLogin({
      kind: 'FORM',
      loginUrl: `${site.origin}/login`,
      usernameField: 'user',
      passwordField: 'pass',
      username: SECRETS.username,
      password: SECRETS.password,
      extraFields: [{ name: 'tenant', value: SECRETS.headerValue }],
    });
    expect(set.body.errors).toBeUndefined();
    const type = await gql(t, '{ __type(name: "CrawlLogin") { fields { name } } }', {}, { cookie: owner.cookie });
    const fields = (type.body.data.__type.fields as { name: string }[]).map((f) => f.name);
    expect(fields.sort()).toEqual(
      [
        'boundTo',
        'cookieNames',
        'extraFieldNames',
        'headerName',
        'kind',
        'loginUrl',
        'passwordField',
        'suspendedReason',
        'updatedAt',
        'usernameField',
      ].sort(),
    );
    const read = await gql(
      t,
      `query($id: ID!) { project(id: $id) { id name url settings { userAgent } crawlLogin { ${fields
        .map((f) => (f === 'boundTo' ? 'boundTo { startUrl includeSubdomains includePatterns excludePatterns }' : f))
        .join(' ')} } } }`,
      { id: projectId },
      { cookie: owner.cookie },
    );
    expect(read.body.data.project.crawlLogin).toMatchObject({
      kind: 'FORM',
      loginUrl: `${site.origin}/login`,
      usernameField: 'user',
      passwordField: 'pass',
      extraFieldNames: ['tenant'],
    });
    const rest = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}`,
      headers: { cookie: owner.cookie },
    });
    const { rows } = await t.runtime.pool.query('SELECT * FROM project_crawl_login WHERE project_id = $1', [projectId]);
    for (const text of [JSON.stringify(read.body), rest.body, JSON.stringify(rows)]) {
      expect(text).not.toContain(SECRETS.password);
      expect(text).not.toContain(SECRETS.username);
      expect(text).not.toContain(SECRETS.headerValue);
    }
    // Sealed with the configured key (its id stored beside), and it opens to the values given.
    const box = crawlLoginBox(crawlKeyMaterial(t.config));
    expect(rows[0].key_id).toBe(box.keyId);
    expect(rows[0].sealed).toMatch(/^v1\./);
    expect(JSON.parse(box.open(rows[0].sealed)!)).toMatchObject({
      projectId,
      binding: { startUrl: `${site.origin}/`, includeSubdomains: false },
      secrets: { username: SECRETS.username, password: SECRETS.password },
    });
  });

  it('an empty write-only field keeps its stored value; another kind needs its own', async () => {
    const changed = await setLogin({
      kind: 'FORM',
      loginUrl: `${site.origin}/login?next=%2Fmembers%2F`,
      usernameField: 'user',
      passwordField: 'pass',
      password: '',
    });
    expect(changed.body.errors).toBeUndefined();
    const box = crawlLoginBox(crawlKeyMaterial(t.config));
    const { rows } = await t.runtime.pool.query('SELECT sealed FROM project_crawl_login WHERE project_id = $1', [
      projectId,
    ]);
    expect(JSON.parse(box.open(rows[0].sealed)!)).toMatchObject({ secrets: { password: SECRETS.password } });
    const other = await setLogin({ kind: 'BEARER' });
    expect(other.body.errors?.[0]).toMatchObject({ message: 'token is required for the BEARER kind' });
  });

  it('refuses bad input with a clear message', async () => {
    const form = { kind: 'FORM', usernameField: 'user', passwordField: 'pass', username: 'u', password: 'p' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...form, loginUrl: `http://${other.host}:${other.port}/login` }, /loginUrl must be on the project's site/],
      [{ ...form, loginUrl: 'ftp://x/login' }, /loginUrl must use http or https/],
      [{ ...form, loginUrl: 'not a url' }, /loginUrl must be an absolute/],
      [{ ...form, loginUrl: `${site.origin}/login`, password: 'x'.repeat(1001) }, /password must be at most 1000/],
      [{ kind: 'BEARER', token: 'has space' }, /token must be a bearer token/],
      [{ kind: 'BEARER', token: 'abc', password: 'p' }, /password is not used by the BEARER kind/],
      [{ kind: 'HEADER', headerName: 'Cookie', headerValue: 'a' }, /headerName cannot be cookie/],
      [{ kind: 'HEADER', headerName: 'X-A', headerValue: 'a\r\nb' }, /headerValue must be a header value/],
      [{ kind: 'COOKIE', cookies: 'novalue' }, /cookies must be name=value pairs/],
      [{ kind: 'BASIC', username: 'a:b', password: 'p' }, /username must not contain ":"/],
    ];
    for (const [input, message] of cases) {
      const res = await setLogin(input);
      expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(message);
    }
  });

  it("another organization's project is NOT_FOUND for reading, setting and clearing", async () => {
    const read = await gql(
      t,
      'query($id: ID!) { project(id: $id) { crawlLogin { kind } } }',
      { id: projectId },
      {
        cookie: stranger.cookie,
      },
    );
    expect(read.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const set = await setLogin({ kind: 'BEARER', token: 'stolen' }, stranger);
    expect(set.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const cleared = await gql(
      t,
      'mutation($p: ID!) { clearCrawlLogin(projectId: $p) { id } }',
      { p: projectId },
      {
        cookie: stranger.cookie,
      },
    );
    expect(cleared.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const { rows } = await t.runtime.pool.query('SELECT kind FROM project_crawl_login WHERE project_id = $1', [
      projectId,
    ]);
    expect(rows).toEqual([{ kind: 'FORM' }]);
  });
});

/** A new user who joins the owner's organization with `role`, their session on it. */
async function joinAs(role: 'member' | 'admin'): Promise<TestUser> {
  const user = await signUp(t);
  await t.runtime.pool.query(
    `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, $4, now())`,
    [randomUUID(), owner.organizationId, user.userId, role],
  );
  await t.runtime.pool.query('UPDATE "session" SET "activeOrganizationId" = $1 WHERE "userId" = $2', [
    owner.organizationId,
    user.userId,
  ]);
  return { ...user, organizationId: owner.organizationId };
}

const UPDATE = `mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { id url } }`;
const READ_LOGIN = `query($id: ID!) { project(id: $id) { crawlLogin { kind suspendedReason
  boundTo { startUrl includeSubdomains includePatterns excludePatterns } } } }`;

async function updateProject(user: TestUser, input: Record<string, unknown>): Promise<void> {
  const res = await gql(t, UPDATE, { id: projectId, i: input }, { cookie: user.cookie });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
}

/** Every credential header a set of requests carried, with the request's path (what a canary must never see). */
const credentialsIn = (requests: { path: string; headers: Record<string, unknown> }[]) =>
  requests.flatMap((r) => credentialHeaders(r as Parameters<typeof credentialHeaders>[0]).map((h) => `${h} ${r.path}`));

/** The project back as the owner set it: its own URL, no scope settings. */
async function resetProject(): Promise<void> {
  await updateProject(owner, {
    url: `${site.origin}/`,
    settings: { crawlSubdomains: null, excludePatterns: null, includePatterns: null },
  });
}

describe('a login bound to where it was set for (issue 47)', () => {
  let member: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    member = await joinAs('member');
    admin = await joinAs('admin');
    site.homeLinks.push(`${subdomain.origin}/sub-page`);
  });
  afterAll(async () => {
    site.homeLinks.length = 0;
    await resetProject();
  });

  const kinds = [
    {
      kind: 'BASIC',
      input: { kind: 'BASIC', username: SECRETS.username, password: SECRETS.password },
      auth: { kind: 'BASIC', username: SECRETS.username, password: SECRETS.password } as const,
    },
    {
      kind: 'BEARER',
      input: { kind: 'BEARER', token: SECRETS.token },
      auth: { kind: 'BEARER', token: SECRETS.token } as const,
    },
    {
      kind: 'COOKIE',
      input: { kind: 'COOKIE', cookies: `preview=${SECRETS.cookieValue}` },
      auth: { kind: 'COOKIE', name: 'preview', value: SECRETS.cookieValue } as const,
    },
    {
      kind: 'HEADER',
      input: { kind: 'HEADER', headerName: 'X-Preview-Token', headerValue: SECRETS.headerValue },
      auth: { kind: 'HEADER', name: 'x-preview-token', value: SECRETS.headerValue } as const,
    },
    { kind: 'FORM', input: null, auth: null },
  ];
  const setKind = async (k: (typeof kinds)[number]) => {
    const input = k.input ?? formLoginFor(site, SECRETS.username, SECRETS.password);
    if (k.auth) site.setAuth(k.auth);
    const set = await setLogin(input);
    expect(set.body.errors, JSON.stringify(set.body.errors)).toBeUndefined();
  };

  for (const k of kinds) {
    it(`${k.kind}: a member's new host, subdomains on, a removed exclude: no credential goes there`, async () => {
      // The drill: a member points the project at another host and starts an audit.
      await resetProject();
      await setKind(k);
      await updateProject(member, { url: `${other.origin}/` });
      let otherSeen = other.requests.length;
      const moved = await runAudit({}, member);
      expect(credentialsIn(other.requests.slice(otherSeen))).toEqual([]);
      expect.soft(moved.status, JSON.stringify(moved)).toBe('FAILED');
      expect
        .soft(moved.error)
        .toContain(`The project's crawl login is suspended: the project's host changed to ${other.host}:${other.port}`);
      expect.soft(moved.error).toContain(`it was set for http://${site.host}:${site.port}`);

      // Subdomains turned on: the subdomain the home page links to would be crawled.
      await updateProject(member, { url: `${site.origin}/`, settings: { crawlSubdomains: true } });
      let seen = site.requests.length;
      otherSeen = other.requests.length;
      const widened = await runAudit({}, member);
      expect(credentialsIn(requestsFor({ requests: site.requests.slice(seen) }, subdomain.host))).toEqual([]);
      expect(credentialsIn(other.requests.slice(otherSeen))).toEqual([]);
      expect.soft(widened.status, JSON.stringify(widened)).toBe('FAILED');
      expect.soft(widened.error).toMatch(/suspended: subdomains were added to the crawl scope/);

      // The owner had kept /members/b out of the crawl; a member removes that exclude.
      await updateProject(owner, { settings: { crawlSubdomains: null, excludePatterns: ['/members/b*'] } });
      await setKind(k);
      await updateProject(member, { settings: { excludePatterns: null } });
      seen = site.requests.length;
      const unexcluded = await runAudit({}, member);
      expect(credentialsIn(site.requests.slice(seen).filter((r) => r.path.startsWith('/members/b')))).toEqual([]);
      expect(unexcluded.status, JSON.stringify(unexcluded)).toBe('FAILED');
      expect(unexcluded.error).toMatch(/suspended: the exclude pattern \/members\/b\* was removed/);
    });
  }

  it('shows the suspension; a member cannot confirm (403), an admin can; undoing the change restores it', async () => {
    await resetProject();
    site.setAuth({ kind: 'BEARER', token: SECRETS.token });
    await setLogin({ kind: 'BEARER', token: SECRETS.token });
    const fresh = await gql(t, READ_LOGIN, { id: projectId }, { cookie: member.cookie });
    expect(fresh.body.data.project.crawlLogin).toEqual({
      kind: 'BEARER',
      suspendedReason: null,
      boundTo: { startUrl: `${site.origin}/`, includeSubdomains: false, includePatterns: [], excludePatterns: [] },
    });
    // An admin's change suspends it too: a change of where the login would go is confirmed explicitly, not implied.
    await updateProject(admin, { settings: { crawlSubdomains: true } });
    const read = await gql(t, READ_LOGIN, { id: projectId }, { cookie: member.cookie });
    expect(read.body.data.project.crawlLogin.suspendedReason).toMatch(/^subdomains were added to the crawl scope/);

    const CONFIRM = 'mutation($p: ID!) { confirmCrawlLogin(projectId: $p) { id crawlLogin { suspendedReason } } }';
    const refused = await gql(t, CONFIRM, { p: projectId }, { cookie: member.cookie });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: "Only organization owners and admins can change a project's crawl login.",
      extensions: { code: 'FORBIDDEN' },
    });
    let seen = site.requests.length;
    expect((await runAudit({}, member)).status).toBe('FAILED');
    expect(credentialsIn(requestsFor({ requests: site.requests.slice(seen) }, subdomain.host))).toEqual([]);

    // The admin confirms: the login is bound to the wider scope, and the subdomain is crawled signed in.
    const confirmed = await gql(t, CONFIRM, { p: projectId }, { cookie: admin.cookie });
    expect(confirmed.body.errors).toBeUndefined();
    expect(confirmed.body.data.confirmCrawlLogin.crawlLogin).toEqual({ suspendedReason: null });
    seen = site.requests.length;
    expect((await runAudit({}, member)).status).toBe('COMPLETED');
    const sub = requestsFor({ requests: site.requests.slice(seen) }, subdomain.host);
    expect(sub.length).toBeGreaterThan(0);
    expect(sub.every((r) => r.headers.authorization === `Bearer ${SECRETS.token}`)).toBe(true);

    // A narrower scope keeps the login: subdomains off, an exclude added.
    await updateProject(member, { settings: { crawlSubdomains: false, excludePatterns: ['/members/b*'] } });
    const narrowed = await runAudit({}, member);
    expect(narrowed.status, JSON.stringify(narrowed)).toBe('COMPLETED');
    const pages = await pagesOf(narrowed.auditId);
    expect(pages.find((p) => p.url.endsWith('/members/a'))).toMatchObject({ status_code: 200, title: 'Member a' });

    // A member moves the project away and back: back inside the binding, the login works again unconfirmed.
    await updateProject(member, { url: `${other.origin}/` });
    expect((await runAudit({}, member)).status).toBe('FAILED');
    await updateProject(member, { url: `${site.origin}/` });
    expect((await runAudit({}, member)).status).toBe('COMPLETED');
  });

  it('a database edit of the project URL and the login row sends nothing to the new host: it is sealed', async () => {
    await resetProject();
    site.setAuth({ kind: 'BEARER', token: SECRETS.token });
    await setLogin({ kind: 'BEARER', token: SECRETS.token });
    // Both the project's URL and the login row's plain copy of its binding are edited.
    await t.runtime.pool.query('UPDATE project SET url = $2 WHERE id = $1', [projectId, `${other.origin}/`]);
    await t.runtime.pool.query(
      `UPDATE project_crawl_login SET bound_to = jsonb_set(bound_to, '{startUrl}', to_jsonb($2::text))
        WHERE project_id = $1`,
      [projectId, `${other.origin}/`],
    );
    const otherSeen = other.requests.length;
    let audit: Awaited<ReturnType<typeof runAudit>>;
    try {
      audit = await runAudit();
    } finally {
      await t.runtime.pool.query('UPDATE project SET url = $2 WHERE id = $1', [projectId, `${site.origin}/`]);
    }
    expect(credentialsIn(other.requests.slice(otherSeen))).toEqual([]);
    expect(audit.status).toBe('FAILED');
    expect(audit.error).toContain(`the project's host changed to ${other.host}:${other.port}`);
  });

  /**
   * Defence in depth: even if the suspension check were skipped, the crawl engine checks every request against the
   * login's sealed binding. The service is made to open the login as if the project still had its old URL while the
   * crawl goes to the new host: no request there carries a credential, in html and browser mode.
   */
  const openedAsBefore = () => {
    const original = CrawlLoginService.prototype.openForCrawl;
    return vi.spyOn(CrawlLoginService.prototype, 'openForCrawl').mockImplementation(function (
      this: CrawlLoginService,
      db,
      project,
    ) {
      return original.call(this, db, { ...project, url: `${site.origin}/`, settings: {} });
    });
  };
  const modes = [
    { mode: 'html', config: {} },
    { mode: 'browser', config: { RENDER_CHROMIUM_PATH: RENDER_CHROMIUM } },
  ];
  for (const { mode, config } of modes) {
    const test: (name: string, body: () => Promise<void>) => void =
      mode === 'browser' ? itWithChromium(RENDER_CHROMIUM) : it;
    test(`${mode} mode: a crawl of another host with the login open sends it nothing (send-time check)`, async () => {
      await resetProject();
      site.setAuth({ kind: 'BEARER', token: SECRETS.token });
      await setLogin({ kind: 'BEARER', token: SECRETS.token });
      await updateProject(member, {
        url: `${subdomain.origin}/members/app`,
        settings: { renderingMode: mode.toUpperCase(), crawlSubdomains: true },
      });
      const spy = openedAsBefore();
      const seen = site.requests.length;
      let audit: Awaited<ReturnType<typeof runAudit>>;
      try {
        audit = await runAudit(config, member);
      } finally {
        spy.mockRestore();
        await updateProject(owner, { settings: { renderingMode: 'HTML' } });
      }
      expect(audit.status, JSON.stringify(audit)).toBe('COMPLETED');
      const canary = requestsFor({ requests: site.requests.slice(seen) }, subdomain.host);
      expect(canary.length).toBeGreaterThan(0);
      expect(credentialsIn(canary)).toEqual([]);
    });
  }
});
