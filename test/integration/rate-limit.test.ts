import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg } from '../factories.js';

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  // Two API processes sharing one Redis (same key prefix), as in a multi-process deployment.
  const prefix = `rl-${uniq()}`;
  a = await createTestApp({ REDIS_PREFIX: prefix });
  b = await createTestApp({ REDIS_PREFIX: prefix });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** Start tests right after a window boundary so the 60 s fixed window cannot roll over mid-test. */
async function freshWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
}

describe('rate limits (spec §8)', () => {
  it('Surface A, PRO key: the 61st request in a minute gets 429 with RateLimit-* and Retry-After', async () => {
    const org = await anOrg(a, { plan: 'PRO' });
    const key = await anApiKey(org);
    await freshWindow();
    const headers = { authorization: `Bearer ${key}` };
    let last;
    for (let i = 1; i <= 60; i++) {
      last = await a.app.inject({ method: 'GET', url: '/api/v1/projects', headers });
      expect(last.statusCode, `request ${i}`).toBe(200);
    }
    expect(last!.headers['ratelimit-limit']).toBe('60');
    expect(last!.headers['ratelimit-remaining']).toBe('0');
    const over = await a.app.inject({ method: 'GET', url: '/api/v1/projects', headers });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(over.headers['ratelimit-limit']).toBe('60');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    const reset = Number(over.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(Number(over.headers['retry-after'])).toBe(reset);
  });

  it('the limit holds when requests alternate between two API processes', async () => {
    const org = await anOrg(a, { plan: 'PRO' });
    const key = await anApiKey(org);
    await freshWindow();
    const headers = { authorization: `Bearer ${key}` };
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push((await (i % 2 ? b : a).app.inject({ method: 'GET', url: '/api/v1/projects', headers })).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('Surface B FREE sessions are limited to 10 per minute, counting forbidden requests too', async () => {
    const org = await anOrg(a, { plan: 'FREE' });
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await b.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } })).statusCode,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses[10]).toBe(429);
  });

  it('organizations do not share a budget', async () => {
    const u1Org = await anOrg(a, { plan: 'PRO' });
    const u2Org = await anOrg(a, { plan: 'PRO' });
    const r1 = await a.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: u1Org.owner.cookie } });
    const r2 = await a.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: u2Org.owner.cookie } });
    expect(r1.headers['ratelimit-remaining']).toBe('59');
    expect(r2.headers['ratelimit-remaining']).toBe('59');
  });

  it('requests that fail authentication are limited per client IP', async () => {
    const c = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      await freshWindow();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (
            await c.app.inject({
              method: 'GET',
              url: '/api/v1/projects',
              headers: { authorization: `Bearer seo_guess${i}` },
              remoteAddress: '203.0.113.7',
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // The refusal is a limited response like any other: rate headers and Retry-After.
      const limited = await c.app.inject({
        method: 'GET',
        url: '/api/projects',
        headers: { cookie: 'better-auth.session-token=forged' },
        remoteAddress: '203.0.113.7',
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.headers).toMatchObject({
        'ratelimit-limit': '5',
        'ratelimit-remaining': '0',
        'retry-after': expect.stringMatching(/^\d+$/),
      });
      expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
      const otherIp = await c.app.inject({
        method: 'GET',
        url: '/api/v1/projects',
        headers: { authorization: 'Bearer seo_x' },
        remoteAddress: '203.0.113.8',
      });
      expect(otherIp.statusCode).toBe(401);
    } finally {
      await c.close();
    }
  });

  it('failed sign-ins are limited per IP, with the rate headers on the 429', async () => {
    const c = await createTestApp({ AUTH_FAILURES_PER_MINUTE: '2' });
    try {
      await freshWindow();
      const signIn = () =>
        c.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: '203.0.113.9',
          headers: { origin: c.config.baseUrl, 'content-type': 'application/json' },
          payload: { email: `nobody-${uniq()}@example.test`, password: 'wrong-password-1' },
        });
      expect([(await signIn()).statusCode, (await signIn()).statusCode]).toEqual([401, 401]);
      const limited = await signIn();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.headers).toMatchObject({
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'retry-after': expect.stringMatching(/^\d+$/),
      });
      expect(limited.headers['ratelimit-reset']).toEqual(expect.stringMatching(/^\d+$/));
    } finally {
      await c.close();
    }
  });

  it('/graphql answers its refusals in GraphQL shape: anonymous 429 with Retry-After, a bad key 401', async () => {
    const c = await createTestApp({ ANONYMOUS_RATE_PER_MINUTE: '2' });
    try {
      await freshWindow();
      const query = (headers: Record<string, string> = {}) =>
        c.app.inject({
          method: 'POST',
          url: '/graphql',
          remoteAddress: '203.0.113.10',
          headers: { 'content-type': 'application/json', ...headers },
          payload: { query: '{ __typename }' },
        });
      expect([(await query()).statusCode, (await query()).statusCode]).toEqual([200, 200]);
      const limited = await query();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        errors: [{ message: expect.stringMatching(/Rate limit exceeded/), extensions: { code: 'RATE_LIMITED' } }],
      });
      expect(limited.headers).toMatchObject({
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'retry-after': expect.stringMatching(/^\d+$/),
      });
      const badKey = await c.app.inject({
        method: 'POST',
        url: '/graphql',
        remoteAddress: '203.0.113.11',
        headers: { 'content-type': 'application/json', authorization: 'Bearer seo_nope' },
        payload: { query: '{ __typename }' },
      });
      expect(badKey.statusCode).toBe(401);
      expect(badKey.json()).toEqual({
        errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHENTICATED' } }],
      });
    } finally {
      await c.close();
    }
  });
});
