import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createProject, createTestApp, signUp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' });
});
afterAll(() => t.close());

describe('logs, health and metrics', () => {
  it('a log capture of authenticated traffic shows no key and no cookie value', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const key = await createApiKey(t, user);
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
    await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: user.cookie } });
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: 'Bearer seo_wrongwrongwrong' } });
    const all = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(5);
    const cookieValue = user.cookie.split('=')[1];
    expect(all).not.toContain(key);
    expect(all).not.toContain(cookieValue);
    expect(all).not.toContain(decodeURIComponent(cookieValue).split('.')[0]);
    expect(all).not.toContain('seo_wrongwrongwrong');
    expect(all).toContain('"reqId"');
  });

  it('/healthz, /readyz and /metrics answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok', checks: { postgres: true, redis: true } });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200"\} 1/);
    // Series are cached per route and status after the first request: later requests still count.
    await t.app.inject({ method: 'GET', url: '/readyz' });
    await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id' } });
    const again = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(again).toMatch(/http_requests_total\{method="GET",route="\/readyz",status="200"\} 2/);
    expect(again).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} 2/);
    expect(again).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/readyz"\} 2/);
  });
});

describe('query count', () => {
  it('listing 20 projects costs the same number of SQL statements as listing 1 (no per-row lookups)', async () => {
    const count = async (n: number) => {
      const user = await signUp(t, { plan: 'ENTERPRISE' });
      for (let i = 0; i < n; i++) await createProject(t, user);
      const key = await createApiKey(t, user);
      await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } }); // warm lastUsedAt
      t.queries.length = 0;
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
      expect(res.json().projects).toHaveLength(n);
      return t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q)).length;
    };
    const one = await count(1);
    const twenty = await count(20);
    expect(twenty).toBe(one);
    expect(twenty).toBeLessThanOrEqual(6);
  });
});
