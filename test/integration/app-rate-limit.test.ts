import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg } from '../factories.js';

const APP_RATE = 15;
let t: TestApp;
beforeAll(async () => {
  // The minute's count is under test here; the burst rule has its own describe below.
  t = await createTestApp({ APP_RATE_PER_MINUTE: String(APP_RATE), APP_RATE_BURST: String(APP_RATE) });
});
afterAll(async () => {
  await t.close();
});

/** Start tests right after a window boundary so the 60 s fixed window cannot roll over mid-test. */
async function freshWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
}

const viewer = '{ viewer { organization { id } } }';

describe('the web app is not a script (per-user budget, APP_RATE_PER_MINUTE)', () => {
  it('a FREE session on /graphql gets APP_RATE_PER_MINUTE calls a minute, not the plan’s 10', async () => {
    const org = await anOrg(t, { plan: 'FREE' });
    await freshWindow();
    for (let i = 1; i <= APP_RATE; i++) {
      const { status, body, res } = await gql(t, viewer, {}, { cookie: org.owner.cookie });
      expect(status, `call ${i}`).toBe(200);
      expect(body.errors, `call ${i}`).toBeUndefined();
      expect(res.headers['ratelimit-limit']).toBe(String(APP_RATE));
      expect(res.headers['ratelimit-remaining']).toBe(String(APP_RATE - i));
    }
    const over = await gql(t, viewer, {}, { cookie: org.owner.cookie });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      errors: [{ message: expect.stringMatching(/Rate limit exceeded/), extensions: { code: 'RATE_LIMITED' } }],
    });
    expect(over.res.headers).toMatchObject({
      'ratelimit-limit': String(APP_RATE),
      'ratelimit-remaining': '0',
      'retry-after': expect.stringMatching(/^\d+$/),
    });
  });

  it('the same cookie on /api/projects (Surface B, FREE) keeps the contract: 403, then 429 at the 11th', async () => {
    const org = await anOrg(t, { plan: 'FREE' });
    await freshWindow();
    // The app's calls do not spend the organization's Surface B allowance.
    for (let i = 0; i < 12; i++) expect((await gql(t, viewer, {}, { cookie: org.owner.cookie })).status).toBe(200);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
      statuses.push(last.statusCode);
    }
    // Spec §5 B.4: Free = free tools only (403); spec §8: Free = 10 requests/min, then 429.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses[10]).toBe(429);
    expect(last!.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(last!.headers).toMatchObject({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0' });
    // ... and the script's calls do not spend the app's budget.
    const app = await gql(t, viewer, {}, { cookie: org.owner.cookie });
    expect(app.status).toBe(200);
    expect(app.res.headers['ratelimit-remaining']).toBe(String(APP_RATE - 13));
  });

  it('GraphQL with an API key keeps Surface A’s figure (FREE: 10/min) per organization', async () => {
    const org = await anOrg(t, { plan: 'FREE' });
    const key = await anApiKey(org);
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await gql(t, '{ __typename }', {}, { authorization: `Bearer ${key}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // The session of the key's owner is unaffected.
    expect((await gql(t, viewer, {}, { cookie: org.owner.cookie })).status).toBe(200);
  });

  it('the budget is per user: two members of one organization do not share it', async () => {
    const aOrg = await anOrg(t, { plan: 'FREE' });
    const bOrg = await anOrg(t, { plan: 'FREE' });
    await t.runtime.pool.query(
      `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'member', now())`,
      [uniq(), aOrg.id, bOrg.owner.userId],
    );
    await t.runtime.pool.query(`UPDATE "session" SET "activeOrganizationId" = $1 WHERE "userId" = $2`, [
      aOrg.id,
      bOrg.owner.userId,
    ]);
    await freshWindow();
    for (let i = 0; i < APP_RATE; i++)
      expect((await gql(t, viewer, {}, { cookie: aOrg.owner.cookie })).status).toBe(200);
    expect((await gql(t, viewer, {}, { cookie: aOrg.owner.cookie })).status).toBe(429);
    const other = await gql<{ viewer: { organization: { id: string } } }>(t, viewer, {}, { cookie: bOrg.owner.cookie });
    expect(other.status).toBe(200);
    expect(other.body.data?.viewer.organization.id).toBe(aOrg.id);
  });

  it('/api/auth calls with a session count in the same per-user budget, refused in better-auth’s shape', async () => {
    const org = await anOrg(t, { plan: 'FREE' });
    await freshWindow();
    const getSession = () =>
      t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: org.owner.cookie } });
    for (let i = 0; i < 10; i++) expect((await gql(t, viewer, {}, { cookie: org.owner.cookie })).status).toBe(200);
    for (let i = 11; i <= APP_RATE; i++) {
      const res = await getSession();
      expect(res.statusCode, `call ${i}`).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(APP_RATE - i));
    }
    const over = await getSession();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/Rate limit exceeded/) });
    expect(over.headers).toMatchObject({
      'ratelimit-limit': String(APP_RATE),
      'ratelimit-remaining': '0',
      'retry-after': expect.stringMatching(/^\d+$/),
    });
    expect((await gql(t, viewer, {}, { cookie: org.owner.cookie })).status).toBe(429);
  });
});

describe('the web app’s budget comes at most APP_RATE_BURST at once, then spread over the minute', () => {
  let b: TestApp;
  beforeAll(async () => {
    // 6 a minute is one every 10 s: the test's few requests cannot earn one back by being slow.
    // The hold as deployed: a refused call is answered when it could be served, a second at most.
    b = await createTestApp({ APP_RATE_PER_MINUTE: '6', APP_RATE_BURST: '3', RATE_LIMIT_HOLD_MS: '1000' });
  });
  afterAll(async () => {
    await b.close();
  });

  it('a session past its burst gets a 429 that says so; another user and a script are served', async () => {
    const org = await anOrg(b, { plan: 'FREE' });
    const other = await anOrg(b, { plan: 'FREE' });
    const scripted = await anOrg(b, { plan: 'PRO' });
    const key = await anApiKey(scripted);
    await freshWindow();
    // Signing up spent part of the burst: the first call's remaining count says how much.
    const first = await gql(b, viewer, {}, { cookie: org.owner.cookie });
    expect(first.status).toBe(200);
    const spent = 6 - Number(first.res.headers['ratelimit-remaining']);
    expect(spent).toBeLessThanOrEqual(3);
    for (let i = spent + 1; i <= 3; i++)
      expect((await gql(b, viewer, {}, { cookie: org.owner.cookie })).status, `call ${i}`).toBe(200);
    const started = performance.now();
    const over = await gql(b, viewer, {}, { cookie: org.owner.cookie });
    expect(performance.now() - started, 'the refusal was held').toBeGreaterThanOrEqual(990);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^Too many requests at once: 3 back to back, then 6 per minute .*Retry in/),
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    });
    expect(over.res.headers).toMatchObject({
      'ratelimit-remaining': '0',
      'retry-after': expect.stringMatching(/^\d+$/),
    });
    expect(Number(over.res.headers['retry-after'])).toBeLessThanOrEqual(10);
    // /api/auth with the session shares the budget, refused in its own shape.
    const session = await b.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: org.owner.cookie },
    });
    expect(session.statusCode).toBe(429);
    expect(session.json()).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests at once/),
    });
    expect((await gql(b, viewer, {}, { cookie: other.owner.cookie })).status).toBe(200);
    // Scripts keep the contract's per-minute figure, unspaced (Surface A, PRO: 60 a minute).
    for (let i = 0; i < 8; i++)
      expect((await gql(b, '{ __typename }', {}, { authorization: `Bearer ${key}` })).status).toBe(200);
  });
});

describe('sign-up is limited per client IP (SIGNUPS_PER_IP_PER_HOUR)', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ SIGNUPS_PER_IP_PER_HOUR: '3' });
  });
  afterAll(async () => {
    await s.close();
  });
  const signUpFrom = (ip: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      remoteAddress: ip,
      headers: { origin: s.config.baseUrl },
      payload: { email: `ip-${uniq()}@example.test`, password: 'correct-horse-battery', name: 'Limited' },
    });

  it('the 4th sign-up in an hour from one address is a 429 with rate headers; another address is served', async () => {
    const ip = '198.51.100.7';
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await signUpFrom(ip)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const over = await signUpFrom(ip);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/3 per hour/) });
    const reset = Number(over.headers['ratelimit-reset']);
    expect(over.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0' });
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(3600);
    expect(Number(over.headers['retry-after'])).toBe(reset);
    expect(over.headers['set-cookie']).toBeUndefined();
    expect((await signUpFrom('192.0.2.77')).statusCode).toBe(200);
  });
});
