import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ROUTES, STREAM_ROUTES } from '../../facades/server.js';
import { emptyBody } from '../../facades/rest/route-schemas.js';
import {
  OPENAPI_PATHS,
  SURFACE_BASE,
  documentSurfaceOf,
  toOpenApiPath,
  type DocumentSurface,
} from '../../facades/openapi/document.js';
import { anApiKey, anAudit, anOrg, aProject, type Org } from '../factories.js';
import { createTestApp, gql, uniq, type TestApp, type TestUser } from '../support/app.js';
import { ValidatingProxy } from '../support/openapi-proxy.js';

/**
 * The contract: every route of the table is in its surface's OpenAPI document with every status it
 * declares, and real responses — a success and each declared error, provoked the way a client would —
 * conform to the documents: every request of this file goes through a validating proxy (openapi-backend,
 * test/support/openapi-proxy.ts) that checks status, Content-Type, body and headers of each response.
 */

type AnyRoute = (typeof ROUTES)[number] | (typeof STREAM_ROUTES)[number];
const ALL: AnyRoute[] = [...ROUTES, ...STREAM_ROUTES];
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

const host = `contract-${uniq()}.test`;
const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contract fixture page for ' +
  'tools</title></head><body><h1>Hi</h1></body></html>';
let site: http.Server;
let sitePort: number;
let t: TestApp;
let proxy: ValidatingProxy;
const docs = {} as Record<DocumentSurface, any>;

interface Actor {
  org: Org;
  user: TestUser;
  key: string;
  projectId: string;
}
let owner: Actor;
let other: Actor;
const ids = { auditId: '', baseAuditId: '', issueId: '', jobId: '', pageUrl: '' };

async function actor(plan: 'FREE' | 'ENTERPRISE', url?: string): Promise<Actor> {
  const org = await anOrg(t, { plan });
  const { id } = await aProject({ org, url });
  return { org, user: org.owner, key: await anApiKey(org), projectId: id };
}

let ipCounter = 0;
const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

/** Credentials of an actor for a route's surface (tools: none, from a fresh client IP). */
function credentials(route: AnyRoute, a: Actor | null): Partial<InjectOptions> {
  if (route.surface === 'TOOLS' || !a) return { remoteAddress: nextIp() };
  if (route.surface === 'A') return { headers: { authorization: `Bearer ${a.key}` } };
  return { headers: { cookie: a.user.cookie, origin: t.config.baseUrl } };
}

interface Sample {
  path: string;
  body?: unknown;
}

/** A successful call of every route, for the owner's project (DELETE gets a project of its own). */
const SUCCESS: Record<string, (a: Actor) => Promise<Sample> | Sample> = {
  'GET /api/v1/projects': () => ({ path: '/api/v1/projects' }),
  'POST /api/v1/projects/:projectId/audit-schedule': (a) => ({
    path: `/api/v1/projects/${a.projectId}/audit-schedule`,
    body: { frequency: 'WEEKLY', dayOfWeek: 1, time: '06:30', timeZone: 'Europe/Berlin' },
  }),
  'GET /api/v1/projects/:projectId/audit': (a) => ({
    path: `/api/v1/projects/${a.projectId}/audit?auditId=${ids.auditId}`,
  }),
  'POST /api/v1/projects/:projectId/audit': (a) => ({ path: `/api/v1/projects/${a.projectId}/audit` }),
  // The started audit: the first call cancels it, later ones get it back as it is.
  'POST /api/v1/projects/:projectId/audit/cancel': (a) => ({
    path: `/api/v1/projects/${a.projectId}/audit/cancel?auditId=${ids.jobId}`,
  }),
  'GET /api/v1/jobs/:jobId': () => ({ path: `/api/v1/jobs/${ids.jobId}` }),
  'GET /api/v1/projects/:projectId/keywords': (a) => ({ path: `/api/v1/projects/${a.projectId}/keywords` }),
  'GET /api/v1/projects/:projectId/keywords/cannibalisation': (a) => ({
    path: `/api/v1/projects/${a.projectId}/keywords/cannibalisation?days=30&minUrls=2&search=oak`,
  }),
  'GET /api/v1/projects/:projectId/exports/:kind': (a) => ({
    path: `/api/v1/projects/${a.projectId}/exports/issues?format=json&auditId=${ids.auditId}`,
  }),
  'GET /api/v1/projects/:projectId/audit/urls/export': (a) => ({
    path: `/api/v1/projects/${a.projectId}/audit/urls/export?format=json&auditId=${ids.auditId}&sort=words:desc`,
  }),
  'GET /api/v1/projects/:projectId/audit/compare': (a) => ({
    path: `/api/v1/projects/${a.projectId}/audit/compare?base=${ids.baseAuditId}&head=${ids.auditId}`,
  }),
  'GET /api/projects': () => ({ path: '/api/projects' }),
  'POST /api/projects': () => ({
    path: '/api/projects',
    body: { url: `https://contract-${uniq()}.example.org/`, name: 'Contract' },
  }),
  'GET /api/projects/:id': (a) => ({ path: `/api/projects/${a.projectId}` }),
  'POST /api/projects/:id/audit-schedule': (a) => ({
    path: `/api/projects/${a.projectId}/audit-schedule`,
    body: { frequency: 'OFF' },
  }),
  'DELETE /api/projects/:id': async (a) => ({ path: `/api/projects/${(await aProject({ org: a.org })).id}` }),
  'POST /api/projects/:id/audit': (a) => ({ path: `/api/projects/${a.projectId}/audit` }),
  'POST /api/projects/:id/audit/cancel': (a) => ({
    path: `/api/projects/${a.projectId}/audit/cancel?auditId=${ids.jobId}`,
  }),
  'GET /api/projects/:id/audit': (a) => ({ path: `/api/projects/${a.projectId}/audit?auditId=${ids.auditId}` }),
  'GET /api/jobs/:jobId': () => ({ path: `/api/jobs/${ids.jobId}` }),
  'GET /api/projects/:id/technical': (a) => ({ path: `/api/projects/${a.projectId}/technical?days=30` }),
  'GET /api/projects/:id/keywords': (a) => ({ path: `/api/projects/${a.projectId}/keywords` }),
  'POST /api/projects/:id/keywords': (a) => ({
    path: `/api/projects/${a.projectId}/keywords`,
    body: { keywords: [`oak table ${uniq()}`] },
  }),
  'GET /api/projects/:id/keywords/rankings': (a) => ({ path: `/api/projects/${a.projectId}/keywords/rankings` }),
  'GET /api/projects/:id/keywords/cannibalisation': (a) => ({
    path: `/api/projects/${a.projectId}/keywords/cannibalisation?days=30&minUrls=2&search=oak`,
  }),
  'GET /api/projects/:id/competitors': (a) => ({ path: `/api/projects/${a.projectId}/competitors` }),
  'POST /api/projects/:id/competitors': (a) => ({
    path: `/api/projects/${a.projectId}/competitors`,
    body: { domain: `rival-${uniq()}.example.net` },
  }),
  'POST /api/projects/:id/audit/fix': (a) => ({
    path: `/api/projects/${a.projectId}/audit/fix`,
    body: { issueId: ids.issueId },
  }),
  'GET /api/projects/:id/reports': (a) => ({ path: `/api/projects/${a.projectId}/reports?auditId=${ids.auditId}` }),
  'GET /api/projects/:id/audit/compare': (a) => ({ path: `/api/projects/${a.projectId}/audit/compare` }),
  'POST /api/tools/meta-tags': () => ({
    path: '/api/tools/meta-tags',
    body: { html: PAGE, url: 'https://example.com/' },
  }),
  'POST /api/tools/robots': () => ({
    path: '/api/tools/robots',
    body: {
      content: 'User-agent: *\nDisallow: /private\nSitemap: https://example.com/s.xml\n',
      testUrls: ['/private/x', '/open'],
    },
  }),
  'POST /api/tools/headers': () => ({ path: '/api/tools/headers', body: { url: ids.pageUrl } }),
  'GET /api/checks': () => ({ path: '/api/checks?category=META' }),
  'GET /api/checks/:code': () => ({ path: '/api/checks/META_TITLE_MISSING' }),
  'POST /api/tools/sitemap': () => ({
    path: '/api/tools/sitemap',
    body: {
      content:
        '<?xml version="1.0"?><urlset ' +
        ('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc><priority>0' +
          '.5</priority></url></urlset>'),
    },
  }),
};

function request(
  route: AnyRoute,
  sample: Sample,
  creds: Partial<InjectOptions>,
  overrides: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> {
  const headers = {
    ...(creds.headers as Record<string, string> | undefined),
    ...(overrides.headers as Record<string, string> | undefined),
  };
  const opts: InjectOptions = {
    method: route.method,
    url: sample.path,
    remoteAddress: creds.remoteAddress,
    ...overrides,
    headers,
  };
  if (!('payload' in overrides) && sample.body !== undefined) opts.payload = sample.body as object;
  return t.app.inject(opts);
}

const hasBody = (route: AnyRoute) => route.method === 'POST';
const bodySchema = (route: AnyRoute) => route.schema?.body;
const replaceIds = (path: string, id: string) => path.replace(/\/(projects|jobs|checks)\/[^/?]+/, `/$1/${id}`);
/** The public catalog's GET routes: no credentials to refuse (403), and no organization to hide a code from. */
const publicRead = (route: AnyRoute) => route.surface === 'TOOLS' && route.method === 'GET';

// ------------------------------------------------------------------ documented responses

function documented(route: AnyRoute, status: number) {
  const surface = documentSurfaceOf(route)!;
  const path = toOpenApiPath(route.url.slice(SURFACE_BASE[surface].length));
  return docs[surface].paths[path]?.[route.method.toLowerCase()]?.responses?.[String(status)];
}

const exercised = new Map<string, Set<number>>();

/** Checks one real response against the route's document: status, content type, schema, headers. */
function expectDocumented(route: AnyRoute, res: LightMyRequestResponse, status: number, what: string) {
  const label = `${key(route)} ${what}`;
  expect(res.statusCode, `${label}: ${res.body.slice(0, 500)}`).toBe(status);
  const response = documented(route, status);
  expect(response, `${label}: status ${status} is documented`).toBeDefined();
  // The proxy matched the response to this route's operation and found it conforming.
  const verdict = proxy.verdict(res);
  const surface = documentSurfaceOf(route)!;
  const path = toOpenApiPath(route.url.slice(SURFACE_BASE[surface].length));
  expect(verdict?.operation, label).toBe(
    `${surface} ${docs[surface].paths[path][route.method.toLowerCase()].operationId}`,
  );
  expect(verdict?.problems, label).toEqual([]);
  expect(res.headers['x-request-id'], `${label}: X-Request-Id`).toEqual(expect.any(String));
  for (const name of Object.keys(response.headers ?? {}))
    expect(docs[documentSurfaceOf(route)!].components.headers[name], name).toBeDefined();
  if (status < 300) {
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      expect(res.headers[h], `${label}: ${h}`).toMatch(/^\d+$/);
  }
  if (status === 429) {
    expect(res.headers['retry-after'], `${label}: Retry-After`).toMatch(/^\d+$/);
    expect(res.json().code).toBe('RATE_LIMITED');
  }
  if (status === 500)
    expect(res.json()).toEqual({
      error: 'Internal server error',
      code: 'INTERNAL',
      requestId: res.headers['x-request-id'],
    });
  if (!exercised.has(key(route))) exercised.set(key(route), new Set());
  exercised.get(key(route))!.add(status);
}

const declared = (route: AnyRoute) =>
  Object.keys((route.schema?.response ?? {}) as object)
    .map(Number)
    .sort();

/** Start right after a window boundary so a fixed one-minute window cannot roll over mid-check. */
async function freshWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
}

beforeAll(async () => {
  site = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' }).end(PAGE),
  );
  sitePort = await new Promise<number>((r) =>
    site.listen(0, '127.0.0.1', () => r((site.address() as { port: number }).port)),
  );
  t = await createTestApp({
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    BODY_LIMIT_BYTES: '65536',
  });
  for (const surface of ['A', 'B'] as const)
    docs[surface] = (await t.app.inject({ method: 'GET', url: OPENAPI_PATHS[surface] })).json();
  proxy = await ValidatingProxy.install(t.app);

  owner = await actor('ENTERPRISE', `http://${host}:${sitePort}/`);
  other = await actor('ENTERPRISE');
  ids.pageUrl = `http://${host}:${sitePort}/tables`;
  // A completed audit with one issue on one page.
  const issue = {
    code: 'META_DESCRIPTION_MISSING',
    description: 'No meta description.',
    occurrences: [{ url: ids.pageUrl, evidence: { length: 0 } }],
  };
  // The audit before it (compared with it by GET …/audit/compare): the same page, without the issue.
  const base = await anAudit({
    project: { org: owner.org, id: owner.projectId },
    pages: [{ url: ids.pageUrl }],
    createdAt: new Date(Date.now() - 3_600_000),
  });
  ids.baseAuditId = base.id;
  const audit = await anAudit({
    project: { org: owner.org, id: owner.projectId },
    pages: [{ url: ids.pageUrl }],
    issues: [issue],
  });
  ids.auditId = audit.id;
  ids.issueId = audit.issueIds.get('META_DESCRIPTION_MISSING')!;
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { jobId } }',
    { p: owner.projectId },
    { cookie: owner.user.cookie },
  );
  ids.jobId = started.body.data.startAudit.jobId;
  await gql(
    t,
    'mutation($p: ID!) { addKeywords(projectId: $p, input: { keywords: ["oak table"] }) { id } }',
    { p: owner.projectId },
    { cookie: owner.user.cookie },
  );
  await gql(
    t,
    'mutation($p: ID!) { addCompetitor(projectId: $p, domain: "rival.example.net") { id } }',
    { p: owner.projectId },
    { cookie: owner.user.cookie },
  );
}, 60_000);

afterAll(async () => {
  await t.close();
  await new Promise((r) => site.close(r));
});

describe('the route table and the OpenAPI documents', () => {
  it('every route declares the params/query/body it takes and a response schema for each status it makes', () => {
    for (const route of ALL) {
      const statuses = declared(route);
      const write = route.method !== 'GET';
      expect(
        statuses.filter((s) => s < 300),
        key(route),
      ).toHaveLength(1);
      const expected = [
        ...(route.surface === 'TOOLS' ? [] : [401]),
        ...(publicRead(route) ? [] : [403]),
        429,
        500,
        ...(route.schema?.params || route.schema?.querystring || route.schema?.body ? [400] : []),
        ...(route.url.includes(':') ? [404] : []),
        ...(route.method === 'POST' ? [413, 415] : []),
      ];
      for (const s of expected) expect(statuses, `${key(route)} declares ${s}`).toContain(s);
      if (route.url.includes(':')) expect(route.schema?.params, `${key(route)} params schema`).toBeDefined();
      if (route.method === 'POST') expect(route.schema?.body, `${key(route)} body schema`).toBeDefined();
      if (!write && route.schema?.body) throw new Error(`${key(route)}: a body schema on a GET`);
    }
  });

  it('each surface document lists exactly its routes, with every declared status, summary and security', () => {
    for (const surface of ['A', 'B'] as const) {
      const doc = docs[surface];
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toEqual(expect.any(String));
      expect(doc.servers).toEqual([expect.objectContaining({ url: SURFACE_BASE[surface] })]);
      expect(doc.components.schemas.Error.required).toEqual(['error', 'code']);
      const mine = ALL.filter((r) => documentSurfaceOf(r) === surface);
      const listed = Object.entries<Record<string, any>>(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${SURFACE_BASE[surface]}${p}`),
      );
      expect(listed.sort()).toEqual(mine.map((r) => `${r.method} ${toOpenApiPath(r.url)}`).sort());
      for (const route of mine) {
        const op =
          docs[surface].paths[toOpenApiPath(route.url.slice(SURFACE_BASE[surface].length))][route.method.toLowerCase()];
        expect(op.summary).toBe(route.summary);
        // 408 (request not received in time, before routing) and 503 (PostgreSQL or Redis down) are documented on
        // every operation; error-transports.test.ts and outages.test.ts produce them for real.
        expect(Object.keys(op.responses).map(Number).sort()).toEqual(
          [...new Set([...declared(route), 408, 503])].sort(),
        );
        expect(op.responses[503].headers).toHaveProperty('Retry-After');
        expect(op.responses[408].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        for (const status of declared(route).filter((s) => s >= 400)) {
          expect(op.responses[status].content['application/json'].schema, `${key(route)} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
        expect(op.responses[429].headers).toHaveProperty('Retry-After');
        if (route.surface === 'TOOLS') expect(op.security).toEqual([]);
        else expect(op.security).toBeUndefined();
        for (const p of (route.url.match(/:(\w+)/g) ?? []).map((s) => s.slice(1))) {
          expect(op.parameters, `${key(route)} documents ${p}`).toContainEqual(
            expect.objectContaining({ name: p, in: 'path', required: true }),
          );
        }
      }
    }
    expect(docs.A.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(docs.B.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'better-auth.session-token',
    });
    expect(docs.B.info.description).toMatch(/FREE = free tools only.*PRO = read-only.*ENTERPRISE = full access/s);
  });

  it('every route has a success sample in this test', () => {
    expect(ALL.map(key).filter((k) => !SUCCESS[k])).toEqual([]);
  });
});

describe('real responses validate against the documents', () => {
  it("success, with no field of the handler's body lost to the serialization schema", async () => {
    // The body each route built before Fastify serialized it with the route's response schema.
    const built = new Map<string, unknown>();
    const maps = new Map(ROUTES.map((r) => [r, r.map]));
    for (const route of ROUTES)
      route.map = (data) => {
        const body = maps.get(route)!(data);
        built.set(key(route), JSON.parse(JSON.stringify(body)));
        return body;
      };
    try {
      for (const route of ALL) {
        const res = await request(route, await SUCCESS[key(route)](owner), credentials(route, owner));
        expectDocumented(
          route,
          res,
          declared(route).find((s) => s < 300)!,
          'success',
        );
        if (built.has(key(route)))
          expect(res.json(), `${key(route)}: serialized body = built body`).toEqual(built.get(key(route)));
      }
    } finally {
      for (const [route, map] of maps) route.map = map;
    }
    // The CSV variant of the reports export is documented too.
    const reports = STREAM_ROUTES[0];
    for (const path of [
      `/api/projects/${owner.projectId}/reports?format=csv`,
      `/api/projects/${owner.projectId}/reports?auditId=${ids.auditId}&format=csv`,
    ]) {
      const res = await request(reports, { path }, credentials(reports, owner));
      expectDocumented(reports, res, 200, 'csv');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
    }
    const json = await request(
      reports,
      { path: `/api/projects/${owner.projectId}/reports` },
      credentials(reports, owner),
    );
    expectDocumented(reports, json, 200, 'json list');
    // So are the CSV exports of Surface A.
    const exports = STREAM_ROUTES.find((r) => r.url === '/api/v1/projects/:projectId/exports/:kind')!;
    for (const kind of ['issues', 'pages', 'keywords']) {
      const path = `/api/v1/projects/${owner.projectId}/exports/${kind}?auditId=${ids.auditId}`;
      const res = await request(exports, { path }, credentials(exports, owner));
      expectDocumented(exports, res, 200, `${kind} csv`);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
    }
    // And the URL table's CSV and XLSX.
    const urls = STREAM_ROUTES.find((r) => r.url === '/api/v1/projects/:projectId/audit/urls/export')!;
    for (const format of ['csv', 'xlsx']) {
      const path = `/api/v1/projects/${owner.projectId}/audit/urls/export?auditId=${ids.auditId}&format=${format}`;
      const res = await request(urls, { path }, credentials(urls, owner));
      expectDocumented(urls, res, 200, `urls ${format}`);
    }
  });

  it('400: an invalid body, query or path parameter', async () => {
    for (const route of ALL.filter((r) => declared(r).includes(400))) {
      const sample = await SUCCESS[key(route)](owner);
      let res: LightMyRequestResponse;
      if (bodySchema(route) === emptyBody)
        res = await request(route, sample, credentials(route, owner), { payload: { unexpectedField: 1 } });
      else if (bodySchema(route))
        res = await request(route, sample, credentials(route, owner), {
          payload: { ...(sample.body as object), unexpectedField: 1 },
        });
      else if (route.schema?.params)
        res = await request(route, { path: replaceIds(sample.path, 'x'.repeat(201)) }, credentials(route, owner));
      else if (route.schema?.querystring)
        res = await request(route, { path: `${sample.path.split('?')[0]}?unexpected=1` }, credentials(route, owner));
      else throw new Error(`${key(route)} declares 400 but the test has no way to provoke it`);
      expectDocumented(route, res, 400, 'bad input');
      expect(res.json().code).toBe('BAD_USER_INPUT');
      expect(res.json().details?.length, key(route)).toBeGreaterThan(0);
    }
  });

  it('401: no credentials', async () => {
    for (const route of ALL.filter((r) => declared(r).includes(401))) {
      const res = await request(route, await SUCCESS[key(route)](owner), credentials(route, null));
      expectDocumented(route, res, 401, 'no credentials');
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('403: the FREE plan (tools: a session from an untrusted Origin)', async () => {
    let free: Actor | null = null;
    let uses = 0;
    for (const route of ALL.filter((r) => declared(r).includes(403))) {
      if (route.surface === 'TOOLS') {
        const res = await request(route, await SUCCESS[key(route)](owner), {
          headers: { cookie: owner.user.cookie, origin: 'https://evil.example' },
        });
        expectDocumented(route, res, 403, 'untrusted origin');
        continue;
      }
      // A FREE organization has 10 requests a minute per surface: a new one every few calls.
      if (!free || uses++ >= 4) {
        free = await actor('FREE');
        uses = 1;
      }
      const sample = await SUCCESS[key(route)](owner);
      const res = await request(
        route,
        { ...sample, path: sample.path.replace(/\/projects\/[^/?]+/, `/projects/${free.projectId}`) },
        credentials(route, free),
      );
      expectDocumented(route, res, 403, 'FREE plan');
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', error: expect.stringMatching(/Free plan/) });
    }
  });

  it("404: another organization's project or job", async () => {
    for (const route of ALL.filter((r) => declared(r).includes(404))) {
      // The catalog has no organization: its 404 is a code it does not hold.
      const sample = publicRead(route)
        ? { path: replaceIds((await SUCCESS[key(route)](owner)).path, 'NOT_A_CODE') }
        : null;
      const res = await request(route, sample ?? (await SUCCESS[key(route)](owner)), credentials(route, other));
      expectDocumented(route, res, 404, 'other organization');
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it('413 and 415: oversize and non-JSON bodies', async () => {
    for (const route of ALL.filter((r) => hasBody(r))) {
      const sample = await SUCCESS[key(route)](owner);
      const limit = ('bodyLimit' in route && route.bodyLimit) || t.config.BODY_LIMIT_BYTES;
      const big = await request(route, sample, credentials(route, owner), {
        payload: JSON.stringify({ pad: 'x'.repeat(limit) }),
        headers: { 'content-type': 'application/json' },
      });
      expectDocumented(route, big, 413, 'oversize body');
      const form = await request(route, sample, credentials(route, owner), {
        payload: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectDocumented(route, form, 415, 'form body');
    }
  });

  it('429 after the limit (an exhausted FREE organization per surface, an exhausted IP for the tools)', async () => {
    await freshWindow();
    const a = await actor('FREE');
    const b = await actor('FREE');
    const ip = '203.0.113.77';
    const exhaust = async (route: AnyRoute, creds: Partial<InjectOptions>) => {
      for (let i = 0; i < 10; i++) await request(route, await SUCCESS[key(route)](owner), creds);
    };
    const firstOf = (surface: string) => ALL.find((r) => r.surface === surface)!;
    await exhaust(firstOf('A'), credentials(firstOf('A'), a));
    await exhaust(firstOf('B'), credentials(firstOf('B'), b));
    await exhaust(firstOf('TOOLS'), { remoteAddress: ip });
    for (const route of ALL) {
      const creds =
        route.surface === 'TOOLS' ? { remoteAddress: ip } : credentials(route, route.surface === 'A' ? a : b);
      const res = await request(route, await SUCCESS[key(route)](owner), creds);
      expectDocumented(route, res, 429, 'rate limited');
      expect(res.headers['ratelimit-remaining']).toBe('0');
    }
  });

  it('500: an unexpected failure inside the request', async () => {
    // Samples first: making one may itself go through GraphQL.
    const samples = await Promise.all(ALL.map(async (route) => SUCCESS[key(route)](owner)));
    const createContext = t.runtime.createContext;
    t.runtime.createContext = () => {
      throw new Error('relation "project" does not exist');
    };
    try {
      for (const [i, route] of ALL.entries()) {
        const res = await request(route, samples[i], credentials(route, owner));
        expectDocumented(route, res, 500, 'internal error');
        expect(res.body).not.toMatch(/relation/);
      }
    } finally {
      t.runtime.createContext = createContext;
    }
  });

  it('every declared status was produced by a real call', () => {
    for (const route of ALL) expect([...(exercised.get(key(route)) ?? [])].sort(), key(route)).toEqual(declared(route));
  });
});

describe('serving the documents and the reference', () => {
  it('OpenAPI JSON with an ETag (304 on revalidation), readable from other origins', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const gz = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('the docs page has a same-origin CSP; assets come from the installed packages; unknown ones: 404', async () => {
    for (const url of ['/docs']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self';/);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).not.toMatch(/<script>|<style|https?:\/\//);
    }
    const bundle = await t.app.inject({ method: 'GET', url: '/docs/assets/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^application\/javascript/);
    expect(bundle.body.length).toBeGreaterThan(500_000);
    for (const name of ['nope.js', '..%2Fpackage.json', '%2e%2e%2f%2e%2e%2fpackage.json']) {
      const res = await t.app.inject({ method: 'GET', url: `/docs/assets/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it('router-level refusals (undecodable URL, oversize parameter) use the error shape', async () => {
    for (const url of ['/api/projects/%zz', `/api/projects/${'x'.repeat(300)}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: owner.user.cookie } });
      expect(res.statusCode, url).toBe(400);
      // Every 400 names what is at fault: the undecodable path, or the parameter that is too long.
      expect(res.json()).toEqual({
        error: expect.any(String),
        code: 'BAD_USER_INPUT',
        details: [{ path: expect.stringMatching(/^(path|id)$/), message: expect.any(String) }],
      });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });
});

describe('the validating proxy', () => {
  it('refuses what the documents do not allow: an undocumented status, media type, body field or path', async () => {
    const real = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(proxy.verdict(real)).toMatchObject({ operation: 'A getProjects', problems: [] });
    const { projects } = real.json() as { projects: Record<string, unknown>[] };
    const json = { ...real.headers, 'content-type': 'application/json; charset=utf-8' };
    const cases = [
      { statusCode: 418, headers: json, body: real.body },
      { statusCode: 200, headers: { ...json, 'content-type': 'text/html' }, body: real.body },
      { statusCode: 200, headers: json, body: JSON.stringify({ projects: [{ ...projects[0], createdAt: 42 }] }) },
      {
        statusCode: 200,
        headers: json,
        body: JSON.stringify({ projects: [{ ...projects[0], createdAt: 'yesterday' }] }),
      },
      { statusCode: 200, headers: json, body: JSON.stringify({ projects: [{ ...projects[0], _count: undefined }] }) },
      { statusCode: 200, headers: { ...json, 'ratelimit-limit': 'many' }, body: real.body },
      { statusCode: 404, headers: json, body: JSON.stringify({ error: 'x', code: 'NOT_A_CODE' }) },
    ];
    for (const res of cases)
      expect(proxy.check('GET', '/api/v1/projects', res).problems, JSON.stringify(res).slice(0, 200)).not.toEqual([]);
    expect(proxy.check('GET', '/api/v1/nowhere', real).problems).toEqual([
      'no operation of document A for GET /api/v1/nowhere',
    ]);
  });

  it('every response of this file to a REST path went through it and conforms to its document', () => {
    const rest = proxy.verdicts.filter((v) => v.operation !== null || v.problems.length);
    expect(rest.filter((v) => v.problems.length)).toEqual([]);
    // Each of the 36 operations, for its success and each declared error at least.
    expect(new Set(rest.map((v) => v.operation)).size).toBe(36);
    expect(rest.length).toBeGreaterThan(200);
  });
});
