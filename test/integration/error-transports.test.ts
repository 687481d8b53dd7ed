import { Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/platform/errors.js';
import { clientErrorHandler } from '../../facades/http/request-errors.js';
import { createTestApp, setPlan, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

/**
 * Every code of the vocabulary through every transport of the real server: the request that provokes it and the
 * status, shape and headers it gets. A code a transport can never send says why instead of a request.
 */
type Transport = 'A' | 'B' | 'GRAPHQL';
type Send = () => Promise<LightMyRequestResponse>;
interface Case {
  send: Send;
  status: number;
  /** The GraphQL extensions.code when it differs from the vocabulary's code (HTTP-level BAD_USER_INPUT). */
  wireCode?: string;
  headers?: Record<string, string | RegExp>;
}
type Row = Record<Transport, Case | string>;

let t: TestApp; // bodies at most 4 KiB
let limited: TestApp; // one failed authentication per minute per IP
let quota: TestApp; // one project per ENTERPRISE organization
let org: Org;
let freeOrg: Org;
let key: string;
let freeKey: string;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '4096' });
  limited = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '1' });
  quota = await createTestApp({ PLAN_QUOTAS: JSON.stringify({ ENTERPRISE: { projects: 1 } }) });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
  freeOrg = await anOrg(t, { plan: 'ENTERPRISE' });
  await setPlan(t, freeOrg.id, 'FREE');
  freeKey = await anApiKey(freeOrg);
});
afterAll(async () => {
  await Promise.all([t?.close(), limited?.close(), quota?.close()]);
});

const NO_ID = '00000000-0000-7000-8000-000000000000';
const GRAPHQL_ACCEPT = 'application/graphql-response+json';
const big = () => JSON.stringify({ url: 'https://a.example.org', name: 'x'.repeat(10_000) });
let clients = 0;
/** A client address of its own per request maker: the per-IP limits of one case never touch another's. */
const ip = () => `198.51.${100 + (++clients >> 8)}.${clients & 255}`;

const a =
  (
    app: () => TestApp,
    method: string,
    url: string,
    extra: { headers?: Record<string, string>; payload?: string; auth?: string } = {},
    remoteAddress = ip(),
  ): Send =>
  () =>
    app().app.inject({
      method: method as 'GET',
      url,
      remoteAddress,
      headers: { authorization: extra.auth ?? `Bearer ${key}`, ...extra.headers },
      payload: extra.payload,
    });
const b =
  (
    app: () => TestApp,
    method: string,
    url: string,
    extra: { headers?: Record<string, string>; payload?: string; cookie?: string } = {},
    remoteAddress = ip(),
  ): Send =>
  () =>
    app().app.inject({
      method: method as 'GET',
      url,
      remoteAddress,
      headers: {
        cookie: extra.cookie ?? org.owner.cookie,
        origin: app().config.baseUrl,
        ...(extra.payload ? { 'content-type': 'application/json' } : {}),
        ...extra.headers,
      },
      payload: extra.payload,
    });
const g =
  (
    app: () => TestApp,
    body: string,
    headers: Record<string, string> = {},
    method = 'POST',
    remoteAddress = ip(),
  ): Send =>
  () =>
    app().app.inject({
      method: method as 'POST',
      url: '/graphql',
      remoteAddress,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });
const twice =
  (send: Send): Send =>
  async () => {
    await send();
    return send();
  };
/** Every call of `send` while `runtime[name]` fails as given. */
const failing =
  (app: () => TestApp, name: 'rateLimit', error: () => Error, send: Send): Send =>
  async () => {
    const runtime = app().runtime as unknown as Record<string, unknown>;
    const original = runtime[name];
    runtime[name] = () => Promise.reject(error());
    try {
      return await send();
    } finally {
      runtime[name] = original;
    }
  };

const T = () => t;
const L = () => limited;
const Q = () => quota;
const RATE = { 'retry-after': /^\d+$/, 'ratelimit-limit': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': /^\d+$/ };
const BEFORE_ROUTING = 'refused by Node before any route is known, always in the REST shape (see the raw-socket tests)';

const TABLE: Record<ErrorCode, Row> = {
  BAD_USER_INPUT: {
    A: { send: a(T, 'GET', `/api/v1/projects/${'x'.repeat(300)}/keywords`), status: 400 },
    B: { send: b(T, 'POST', '/api/projects', { payload: '{"url": ' }), status: 400 },
    GRAPHQL: { send: g(T, '{"query": '), status: 400, wireCode: 'BAD_REQUEST' },
  },
  UNAUTHENTICATED: {
    A: { send: a(T, 'GET', '/api/v1/projects', { auth: '' }), status: 401 },
    B: { send: b(T, 'GET', '/api/projects', { cookie: '' }), status: 401 },
    GRAPHQL: { send: g(T, '{"query":"{ projects { id } }"}', { authorization: 'Bearer seo_wrong' }), status: 401 },
  },
  FORBIDDEN: {
    A: { send: () => a(T, 'GET', '/api/v1/projects', { auth: `Bearer ${freeKey}` })(), status: 403 },
    B: {
      send: b(T, 'POST', '/api/projects', {
        payload: '{"url":"https://f.example.org"}',
        headers: { origin: 'https://evil.example' },
      }),
      status: 403,
    },
    GRAPHQL: {
      send: () =>
        g(T, '{"query":"{ projects { id } }"}', { cookie: org.owner.cookie, origin: 'https://evil.example' })(),
      status: 403,
    },
  },
  PLAN_LIMIT: {
    A: 'Surface A creates nothing that a plan quota counts (it lists, reads and starts audits)',
    B: {
      send: async () => {
        const ownerOrg = await anOrg(quota, { plan: 'ENTERPRISE' });
        await aProject({ org: ownerOrg });
        return b(Q, 'POST', '/api/projects', {
          cookie: ownerOrg.owner.cookie,
          payload: '{"url":"https://second.example.org"}',
        })();
      },
      status: 403,
    },
    GRAPHQL: {
      // A field error of an executed operation: 200 with the code in extensions, as GraphQL answers every field error.
      send: async () => {
        const ownerOrg = await anOrg(quota, { plan: 'ENTERPRISE' });
        await aProject({ org: ownerOrg });
        const query = 'mutation { createProject(input: { url: "https://second.example.org" }) { id } }';
        return g(Q, JSON.stringify({ query }), { cookie: ownerOrg.owner.cookie, origin: quota.config.baseUrl })();
      },
      status: 200,
    },
  },
  NOT_FOUND: {
    A: { send: a(T, 'GET', '/api/v1/jobs/not-a-job'), status: 404 },
    B: { send: b(T, 'GET', `/api/projects/${NO_ID}`), status: 404 },
    GRAPHQL: {
      send: () =>
        g(T, JSON.stringify({ query: `{ project(id: "${NO_ID}") { id } }` }), { authorization: `Bearer ${key}` })(),
      status: 200,
    },
  },
  METHOD_NOT_ALLOWED: {
    A: { send: a(T, 'DELETE', '/api/v1/projects'), status: 405, headers: { allow: 'GET, HEAD' } },
    B: { send: b(T, 'PUT', `/api/projects/${NO_ID}`), status: 405, headers: { allow: 'DELETE, GET, HEAD' } },
    GRAPHQL: { send: g(T, '{"query":"{ __typename }"}', {}, 'PUT'), status: 405, headers: { allow: 'GET, POST' } },
  },
  REQUEST_TIMEOUT: { A: BEFORE_ROUTING, B: BEFORE_ROUTING, GRAPHQL: BEFORE_ROUTING },
  PAYLOAD_TOO_LARGE: {
    A: {
      send: a(T, 'POST', `/api/v1/projects/${NO_ID}/audit`, {
        payload: big(),
        headers: { 'content-type': 'application/json' },
      }),
      status: 413,
    },
    B: { send: b(T, 'POST', '/api/projects', { payload: big() }), status: 413 },
    GRAPHQL: { send: g(T, JSON.stringify({ query: `{ __typename } # ${'x'.repeat(10_000)}` })), status: 413 },
  },
  URI_TOO_LONG: { A: BEFORE_ROUTING, B: BEFORE_ROUTING, GRAPHQL: BEFORE_ROUTING },
  UNSUPPORTED_MEDIA_TYPE: {
    A: {
      send: a(T, 'POST', `/api/v1/projects/${NO_ID}/audit`, {
        payload: '{}',
        headers: { 'content-type': 'text/plain' },
      }),
      status: 415,
    },
    B: {
      send: b(T, 'POST', '/api/projects', { payload: '<url/>', headers: { 'content-type': 'application/xml' } }),
      status: 415,
    },
    GRAPHQL: { send: g(T, '{"query":"{ __typename }"}', { 'content-type': 'text/plain' }), status: 415 },
  },
  QUERY_TOO_COMPLEX: {
    A: 'REST routes run fixed GraphQL documents, which the depth and cost limits never refuse',
    B: 'REST routes run fixed GraphQL documents, which the depth and cost limits never refuse',
    GRAPHQL: {
      // projects (10) x latestAudit x issues (10) x occurrences(first: 500) x 2 fields: above GRAPHQL_MAX_COST (5,000).
      send: g(
        T,
        JSON.stringify({
          query: '{ projects { latestAudit { issues { occurrences(first: 500) { nodes { url evidence } } } } } }',
        }),
        { accept: GRAPHQL_ACCEPT },
      ),
      status: 400,
    },
  },
  RATE_LIMITED: {
    A: { send: twice(a(L, 'GET', '/api/v1/projects', { auth: 'Bearer seo_wrong' })), status: 429, headers: RATE },
    B: {
      send: twice(b(L, 'GET', '/api/projects', { cookie: 'better-auth.session-token=forged' })),
      status: 429,
      headers: RATE,
    },
    GRAPHQL: {
      send: twice(g(L, '{"query":"{ __typename }"}', { authorization: 'Bearer seo_wrong' })),
      status: 429,
      headers: RATE,
    },
  },
  INTERNAL: {
    A: {
      send: failing(T, 'rateLimit', () => new TypeError('x is undefined'), a(T, 'GET', '/api/v1/projects')),
      status: 500,
    },
    B: {
      send: failing(T, 'rateLimit', () => new TypeError('x is undefined'), b(T, 'GET', '/api/projects')),
      status: 500,
    },
    GRAPHQL: {
      send: failing(T, 'rateLimit', () => new TypeError('x is undefined'), g(T, '{"query":"{ __typename }"}')),
      status: 500,
    },
  },
  UNAVAILABLE: {
    A: {
      send: failing(T, 'rateLimit', () => new Error('Connection is closed.'), a(T, 'GET', '/api/v1/projects')),
      status: 503,
      headers: { 'retry-after': '5' },
    },
    B: {
      send: failing(T, 'rateLimit', () => new Error('Connection is closed.'), b(T, 'GET', '/api/projects')),
      status: 503,
      headers: { 'retry-after': '5' },
    },
    GRAPHQL: {
      send: failing(T, 'rateLimit', () => new Error('Connection is closed.'), g(T, '{"query":"{ __typename }"}')),
      status: 503,
      headers: { 'retry-after': '5' },
    },
  },
};

describe('every error code through every transport of the server', () => {
  it('the table has a row for every code', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...ERROR_CODES].sort());
  });

  const cases = ERROR_CODES.flatMap((code) =>
    (['A', 'B', 'GRAPHQL'] as const).map((transport) => [code, transport] as const),
  );
  it.each(cases)('%s over %s', async (code, transport) => {
    const entry = TABLE[code][transport];
    if (typeof entry === 'string') return;
    const res = await entry.send();
    expect(res.statusCode, res.body).toBe(entry.status);
    expect(res.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json/);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    const body = res.json();
    if (transport === 'GRAPHQL') {
      expect(body.errors, res.body).toEqual([
        expect.objectContaining({
          message: expect.any(String),
          extensions: expect.objectContaining({ code: entry.wireCode ?? code }),
        }),
      ]);
      expect(body).not.toHaveProperty('error');
    } else {
      expect(body, res.body).toEqual(expect.objectContaining({ error: expect.any(String), code }));
      expect(
        Object.keys(body).every((k) => ['error', 'code', 'details', 'requestId'].includes(k)),
        res.body,
      ).toBe(true);
      if (code === 'BAD_USER_INPUT')
        expect(body.details).toEqual([expect.objectContaining({ path: expect.any(String) })]);
      if (code === 'INTERNAL') expect(body.requestId).toBe(res.headers['x-request-id']);
    }
    for (const [name, value] of Object.entries(entry.headers ?? {})) {
      if (value instanceof RegExp) expect(res.headers[name], name).toMatch(value);
      else expect(res.headers[name], name).toBe(value);
    }
    expect(res.body).not.toMatch(/ at |\.ts:|TypeError|Connection is closed/);
  });
});

describe('refusals before routing (Node closed the request)', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'REQUEST_TIMEOUT'],
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', 'URI_TOO_LONG'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'BAD_USER_INPUT'],
  ])('%s → %i %s in the REST shape', (errorCode, status, reason, code) => {
    const written: string[] = [];
    const socket = Object.assign(new Socket(), { writable: true });
    socket.on('error', () => {}); // the handler destroys the socket with the error
    socket.write = ((chunk: string) => written.push(chunk) > 0) as never;
    clientErrorHandler.call(t.app, Object.assign(new Error('x'), { code: errorCode }), socket);
    const [head, body] = written.join('').split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} ${reason}\\r\\n`));
    expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    expect(JSON.parse(body)).toEqual(expect.objectContaining({ error: expect.any(String), code }));
  });
});

describe('405 instead of 404 for a known path asked with another method', () => {
  it('lists the methods of every route at that path; unknown paths stay 404', async () => {
    const options = await t.app.inject({ method: 'OPTIONS', url: `/api/projects/${NO_ID}/keywords` });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD, POST');
    expect(options.json()).toEqual({ error: expect.stringMatching(/OPTIONS/), code: 'METHOD_NOT_ALLOWED' });
    const tools = await t.app.inject({ method: 'GET', url: '/api/tools/robots' });
    expect([tools.statusCode, tools.headers.allow]).toEqual([405, 'POST']);
    const unknown = await t.app.inject({ method: 'DELETE', url: `/api/nothing-${uniq()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a mutation over GET /graphql is METHOD_NOT_ALLOWED with Allow: POST', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('mutation { deleteProject(id: "x") { success } }')}`,
      remoteAddress: ip(),
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe("better-auth's routes keep better-auth's shape (its client reads it)", () => {
  it(
    "a failed sign-in is better-auth's { code, message }; a " + 'refusal made before better-auth runs is ours',
    async () => {
      const signIn = (payload: string, contentType = 'application/json') =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: ip(),
          headers: { 'content-type': contentType, origin: t.config.baseUrl },
          payload,
        });
      const wrong = await signIn(JSON.stringify({ email: org.owner.email, password: 'not-the-password' }));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
      expect(wrong.json()).not.toHaveProperty('error');
      const xml = await signIn('<email/>', 'application/xml');
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({ error: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE' });
    },
  );
});
