import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativePoolOf } from '../../src/platform/db/native-query.js';
import { ROUTES } from '../../facades/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '4096' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const post = (payload: string, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl, 'content-type': contentType },
    payload,
  });

describe('bad requests get a clear error in the { error, code } shape, never a 500', () => {
  it.each([
    ['malformed JSON', '{"url": ', 400, 'BAD_USER_INPUT'],
    ['an unknown field', '{"url":"https://a.example.org","owner":"x"}', 400, 'BAD_USER_INPUT'],
    ['a missing url', '{"name":"x"}', 400, 'BAD_USER_INPUT'],
    ['a wrong type', '{"url":42}', 400, 'BAD_USER_INPUT'],
    ['a non-object body', '[1,2]', 400, 'BAD_USER_INPUT'],
    ['a non-http URL', '{"url":"ftp://a.example.org"}', 400, 'BAD_USER_INPUT'],
    ['a URL with credentials', '{"url":"https://u:p@a.example.org"}', 400, 'BAD_USER_INPUT'],
    ['not a URL', '{"url":"http://"}', 400, 'BAD_USER_INPUT'],
  ])('%s → %i', async (_name, payload, status, code) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ error: expect.any(String), code });
  });

  it('unknown fields are named in details', async () => {
    const res = await post('{"url":"https://a.example.org","owner":"x"}');
    expect(res.json().details).toEqual([{ path: 'owner', message: 'unknown field' }]);
  });

  it('a wrong content type is 415', async () => {
    const res = await post('url=https://a.example.org', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('an oversize body is 413', async () => {
    const res = await post(JSON.stringify({ url: 'https://a.example.org', name: 'x'.repeat(10_000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
  });

  it('unknown routes are 404 in the same shape; every response carries X-Request-Id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    const echoed = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
  });

  it('an unexpected failure is a generic 500 with a request id, no stack or SQL', async () => {
    const key = await anApiKey(org);
    await aProject({ org });
    // Make the project-list query fail inside the driver, the way a broken schema would.
    const pool = nativePoolOf(t.runtime.orm.config)!;
    const query = pool.query.bind(pool);
    pool.query = ((config: any, ...rest: any[]) => {
      const text = typeof config === 'string' ? config : config?.text;
      if (typeof text === 'string' && /FROM project\s+WHERE organization_id/.test(text)) {
        return Promise.reject(Object.assign(new Error('relation "project" does not exist'), { code: '42P01' }));
      }
      return (query as any)(config, ...rest);
    }) as typeof pool.query;
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/projects',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: 'Internal server error',
        code: 'INTERNAL',
        requestId: res.headers['x-request-id'],
      });
      expect(res.body).not.toMatch(/relation|stack|at /);
      const g = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: { query: '{ projects { id } }' },
      });
      expect(g.json().errors[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL' } });
      expect(g.body).not.toMatch(/relation/);
    } finally {
      pool.query = query;
    }
  });
});

describe('GraphQL errors carry codes', () => {
  it('unauthenticated queries are UNAUTHENTICATED; bad input is BAD_USER_INPUT', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { query: '{ projects { id } }' },
    });
    expect(anon.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: org.owner.cookie, 'content-type': 'application/json', origin: t.config.baseUrl },
      payload: { query: 'mutation { createProject(input: { url: "javascript:alert(1)" }) { id } }' },
    });
    expect(bad.json().errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', details: [{ path: 'url' }] } });
  });
});

/** Every response to a bad request: its status, the documented REST shape, a request id, no internals. */
function expectRefusal(
  res: { statusCode: number; headers: Record<string, unknown>; body: string; json(): any },
  status: number | number[],
  code?: string,
) {
  expect(Array.isArray(status) ? status : [status], res.body).toContain(res.statusCode);
  const body = res.json();
  expect(body, res.body).toEqual(
    expect.objectContaining({ error: expect.any(String), code: code ?? expect.any(String) }),
  );
  if (res.statusCode === 400 && body.code === 'BAD_USER_INPUT')
    expect(body.details, res.body).toEqual(
      expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
    );
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
  expect(res.body).not.toMatch(/ at |\.ts:|SELECT|syntax error|node_modules|invalid message format/);
}

describe('bad ids and text never reach PostgreSQL (finding 6)', () => {
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    key = await anApiKey(org, 'bad ids');
    projectId = (await aProject({ org })).id;
  });
  const a = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  const b = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: org.owner.cookie,
        origin: t.config.baseUrl,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      payload: payload ? JSON.stringify(payload) : undefined,
    });

  it.each([
    ['a NUL in a job id (A)', () => a('/api/v1/jobs/abc%00def')],
    ['a NUL in a job id (B)', () => b('GET', '/api/jobs/%00')],
    ['a job id that is not an id', () => a(`/api/v1/jobs/${'9'.repeat(36)}`)],
    ['a NUL in a project id', () => a('/api/v1/projects/%00/audit')],
    ['a NUL in a query id', () => b('GET', `/api/projects/${projectId}/audit?auditId=a%00b`)],
    ['a NUL in a report audit id', () => b('GET', `/api/projects/${projectId}/reports?auditId=%00`)],
    ['invalid UTF-8 in a path id', () => a('/api/v1/jobs/%C3%28')],
    ['invalid UTF-8 in a query id', () => b('GET', `/api/projects/${projectId}/audit?auditId=%C3%28`)],
    ['a lone surrogate in a query id', () => b('GET', `/api/projects/${projectId}/audit?auditId=%ED%A0%80`)],
    ['a 300-character path id', () => a(`/api/v1/projects/${'x'.repeat(300)}/keywords`)],
    ['a NUL in a project name', () => b('POST', '/api/projects', { url: 'https://nul.example.org', name: 'a\u0000b' })],
    ['a NUL in a keyword', () => b('POST', `/api/projects/${projectId}/keywords`, { keywords: ['ok', 'a\u0000b'] })],
    ['a NUL in an issue id', () => b('POST', `/api/projects/${projectId}/audit/fix`, { issueId: '\u0000' })],
  ])('%s → 400/404 in the documented shape', async (_name, send) => {
    expectRefusal(await send(), [400, 404]);
  });

  it('a NUL is named in details, on REST and GraphQL alike', async () => {
    const rest = await b('POST', `/api/projects/${projectId}/keywords`, { keywords: ['ok', 'a\u0000b'] });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().details).toEqual([{ path: 'keywords.1', message: expect.stringMatching(/NUL/) }]);
    const g = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl, 'content-type': 'application/json' },
      payload: { query: 'query($id: ID!) { job(id: $id) { id } }', variables: { id: 'a\u0000' } },
    });
    expect(g.json().errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', details: [{ path: 'id' }] } });
  });

  it('a job id that is no audit id is a 404, not a query', async () => {
    const before = t.queries.length;
    const res = await a('/api/v1/jobs/not-a-job');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Job not found', code: 'NOT_FOUND' });
    expect(t.queries.slice(before).filter((q) => /job_id/.test(q))).toEqual([]);
  });
});

describe('deep JSON is refused before anything walks it (finding 6)', () => {
  const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
  const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  it.each([
    ['/api/auth/sign-in/email', deepArray],
    ['/api/auth/sign-up/email', deepObject],
    ['/api/projects', deepObject],
  ])('POST %s with 10,000 levels → 400', async (url, payload) => {
    const big = await createTestApp();
    try {
      const res = await big.app.inject({
        method: 'POST',
        url,
        headers: { cookie: org.owner.cookie, origin: big.config.baseUrl, 'content-type': 'application/json' },
        payload,
      });
      expectRefusal(res, 400, 'BAD_USER_INPUT');
      expect(res.json().details).toEqual([{ path: 'body', message: expect.stringMatching(/nested deeper than 64/) }]);
      const after = await big.app.inject({ method: 'GET', url: '/healthz' });
      expect(after.statusCode).toBe(200);
      expect(big.logs.join('')).not.toMatch(/Maximum call stack/);
    } finally {
      await big.close();
    }
  });

  it('64 levels are still accepted by the parser (the schema then judges the body)', async () => {
    const res = await post('{"url":"https://deep.example.org","name":' + '['.repeat(63) + ']'.repeat(63) + '}');
    expectRefusal(res, 400, 'BAD_USER_INPUT');
    expect(res.json().details).toEqual([{ path: 'name', message: 'must be string' }]);
  });
});

describe('every refusal of the framework is in the documented shape', () => {
  it('a non-JSON body on every JSON-body endpoint of both surfaces is 415', async () => {
    const key = await anApiKey(org, '415');
    const posts = ROUTES.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(8);
    for (const route of posts) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-7000-8000-000000000000');
      for (const type of [
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'application/xml',
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: {
            authorization: `Bearer ${key}`,
            cookie: org.owner.cookie,
            origin: t.config.baseUrl,
            'content-type': type,
          },
          payload: '{"url":"https://a.example.org"}',
        });
        expect(res.statusCode, `${route.url} ${type}`).toBe(415);
        expect(res.json(), `${route.url} ${type}`).toEqual({
          error: expect.any(String),
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
        expect(res.headers['x-request-id']).toEqual(expect.any(String));
      }
    }
    const g = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'text/plain' },
      payload: '{"query":"{ __typename }"}',
    });
    expect(g.statusCode).toBe(415);
    expect(g.json()).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }],
    });
  });

  it('malformed JSON and undecodable URLs say where the problem is (details)', async () => {
    const json = await post('{"url": ');
    expectRefusal(json, 400, 'BAD_USER_INPUT');
    expect(json.json().details).toEqual([{ path: 'body', message: 'is not valid JSON' }]);
    const url = await t.app.inject({
      method: 'GET',
      url: '/api/projects/%E0%A4%A',
      headers: { cookie: org.owner.cookie },
    });
    expectRefusal(url, 400, 'BAD_USER_INPUT');
    const long = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${'x'.repeat(1000)}`,
      headers: { cookie: org.owner.cookie },
    });
    expectRefusal(long, 400, 'BAD_USER_INPUT');
    expect(long.json().details).toEqual([{ path: 'id', message: expect.stringMatching(/200 characters/) }]);
    const graphql = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: '{"query": ',
    });
    expect(graphql.statusCode).toBe(400);
    expect(graphql.json()).toEqual({
      errors: [
        {
          message: 'Malformed JSON body.',
          extensions: { code: 'BAD_REQUEST', details: [{ path: 'body', message: 'is not valid JSON' }] },
        },
      ],
    });
  });

  it('an oversized request line or header block is 431 with a code and a request id', async () => {
    const big = await createTestApp();
    try {
      await big.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (big.app.server.address() as { port: number }).port;
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(request));
          let data = '';
          socket.on('data', (d) => (data += String(d)));
          socket.on('error', (err) => (data ? resolve(data) : reject(err)));
          socket.on('close', () => resolve(data));
        });
      for (const request of [
        `GET /api/projects?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        `GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`,
      ]) {
        const response = await raw(request);
        const [head, body] = response.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 431 /);
        expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
        expect(JSON.parse(body)).toEqual({ error: expect.stringMatching(/too large/), code: 'URI_TOO_LONG' });
      }
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await big.close();
    }
  });
});

describe('refusals are sent once (finding 7)', () => {
  it('401s, 403s and 429s of both surfaces log no FST_ERR_REP_ALREADY_SENT', async () => {
    const c = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      const send = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>) =>
        statuses.push((await c.app.inject({ method, url, headers, remoteAddress: '198.51.100.20' })).statusCode);
      await send('GET', '/api/v1/projects', { authorization: 'Bearer seo_wrong' });
      await send('GET', '/api/v1/projects', {});
      await send('GET', '/api/projects', {});
      await send('GET', '/api/projects/x/reports', {}); // a streaming route's guard
      await send('GET', '/api/v1/projects', { authorization: 'Bearer seo_wrong' }); // 429 from here on
      await send('GET', '/api/projects/x/reports', { cookie: 'better-auth.session-token=forged' });
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const otherOrg = await anOrg(c, { plan: 'ENTERPRISE' });
      const crossSite = await c.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: { cookie: otherOrg.owner.cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: { url: 'https://a.example.org' },
      });
      expect(crossSite.statusCode).toBe(403);
      await new Promise((r) => setTimeout(r, 50));
      const logs = c.logs.join('');
      expect(logs).toMatch(/"statusCode":401/); // the log is captured at all
      expect(logs).not.toMatch(/FST_ERR_REP_ALREADY_SENT|Reply was already sent/);
      expect(c.logs.filter((l) => /"level":(40|50)/.test(l))).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('a refusal sent before the body arrived reaches a client that reads only after its upload', () => {
  /**
   * The client writes its whole request (16 MiB, more than the sockets' buffers hold) and reads only once it has
   * written everything, as many HTTP clients do. A server that answered and closed with the upload still arriving
   * reset the connection, and the client saw EPIPE instead of the answer (the fuzz drill's lost 413s).
   */
  const UPLOAD = 16 * 1024 * 1024;

  const sendWhole = (port: number, head: string, body: Buffer) =>
    new Promise<{ response: string; error: string | null }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.pause();
      const chunks: Buffer[] = [];
      let error: string | null = null;
      socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
      socket.on('connect', () => {
        socket.write(Buffer.concat([Buffer.from(head), body]), () => {
          socket.on('data', (d: Buffer) => chunks.push(d));
          socket.resume();
        });
      });
      socket.on('close', () => resolve({ response: Buffer.concat(chunks).toString('latin1'), error }));
    });

  it('413 for a body over the limit, 415 for a wrong content type', async () => {
    const app = await createTestApp();
    try {
      await app.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.app.server.address() as { port: number }).port;
      const body = Buffer.from(JSON.stringify({ url: 'https://a.example.org', pad: 'y'.repeat(UPLOAD) }));
      const head = (path: string, type: string) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n` +
        'Connection: close\r\n\r\n';
      for (const [path, type, status, code] of [
        ['/api/projects', 'application/json', 413, 'PAYLOAD_TOO_LARGE'],
        ['/api/v1/projects/p1/audit', 'application/json', 413, 'PAYLOAD_TOO_LARGE'],
        ['/api/projects', 'text/csv', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ] as const) {
        const { response, error } = await sendWhole(port, head(path, type), body);
        expect(response.slice(0, 40), `${path} (${type}): ${error ?? 'no socket error'}`).toMatch(
          new RegExp(`^HTTP/1\\.1 ${status} `),
        );
        expect(JSON.parse(response.split('\r\n\r\n')[1])).toMatchObject({ code });
      }
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await app.close();
    }
  }, 60_000);
});
