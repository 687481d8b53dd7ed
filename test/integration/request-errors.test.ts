import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativePoolOf } from '../../src/platform/db/native-query.js';
import { createApiKey, createProject, createTestApp, signUp, type TestApp, type TestUser } from '../support/app.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '4096' });
  user = await signUp(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const post = (payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/api/projects', headers: { cookie: user.cookie, origin: t.config.baseUrl, 'content-type': contentType }, payload });

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
    const key = await createApiKey(t, user);
    await createProject(t, user);
    // Make the project-list query fail inside the driver, the way a broken schema would.
    const pool = nativePoolOf(t.runtime.orm.config)!;
    const query = pool.query.bind(pool);
    pool.query = ((config: any, ...rest: any[]) => {
      const text = typeof config === 'string' ? config : config?.text;
      if (typeof text === 'string' && text.includes('FROM project WHERE organization_id')) {
        return Promise.reject(Object.assign(new Error('relation "project" does not exist'), { code: '42P01' }));
      }
      return (query as any)(config, ...rest);
    }) as typeof pool.query;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL', requestId: res.headers['x-request-id'] });
      expect(res.body).not.toMatch(/relation|stack|at /);
      const g = await t.app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: { query: '{ projects { id } }' } });
      expect(g.json().errors[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL' } });
      expect(g.body).not.toMatch(/relation/);
    } finally {
      pool.query = query;
    }
  });
});

describe('GraphQL errors carry codes', () => {
  it('unauthenticated queries are UNAUTHENTICATED; bad input is BAD_USER_INPUT', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: { query: '{ projects { id } }' } });
    expect(anon.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: user.cookie, 'content-type': 'application/json', origin: t.config.baseUrl },
      payload: { query: 'mutation { createProject(input: { url: "javascript:alert(1)" }) { id } }' },
    });
    expect(bad.json().errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', details: [{ path: 'url' }] } });
  });
});
