import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, uniq, type TestApp } from '../support/app.js';
import { anOrg } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEFAULT_PLAN: 'FREE' });
});
afterAll(() => t.close());

describe('sign-up, sign-in and sessions (Surface B)', () => {
  it('sign-up sets the better-auth.session-token cookie: HttpOnly, SameSite=Lax, not Secure on http', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: t.config.baseUrl },
      payload: { email: `new-${uniq()}@example.test`, password: 'correct-horse-battery', name: 'New' },
    });
    expect(res.statusCode).toBe(200);
    const raw = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('better-auth.session-token='))!;
    expect(raw).toBeDefined();
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).not.toMatch(/Secure/i);
  });

  it('sign-up creates a personal organization on DEFAULT_PLAN owned by the user', async () => {
    const org = await anOrg(t);
    const { rows } = await t.runtime.pool.query(
      'SELECT o.plan, m.role FROM "member" m JOIN "organization" o ON o.id = m."organizationId" WHERE m."userId" = $1',
      [org.owner.userId],
    );
    expect(rows).toEqual([{ plan: 'FREE', role: 'owner' }]);
  });

  it('sign-in issues a cookie that authenticates Surface B calls; sign-out ends it', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: t.config.baseUrl },
      payload: { email: org.owner.email, password: 'correct-horse-battery' },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = sessionCookie(signIn);
    const list = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ projects: [] });

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: t.config.baseUrl },
    });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('a wrong password is refused', async () => {
    const org = await anOrg(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: t.config.baseUrl },
      payload: { email: org.owner.email, password: 'wrong-password-123' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('unauthenticated Surface B requests get 401 with an { error } that says to sign in', async () => {
    for (const [method, url] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['GET', '/api/projects/x'],
      ['DELETE', '/api/projects/x'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === 'POST' ? { payload: { url: 'https://a.example' } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized. Please sign in.', code: 'UNAUTHENTICATED' });
    }
  });

  it('a forged or tampered cookie is not a session', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const tampered = org.owner.cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const res = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: tampered } });
    expect(res.statusCode).toBe(401);
  });

  it('cookie-authenticated state changes from an untrusted Origin are refused', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: org.owner.cookie, origin: 'https://evil.example' },
      payload: { url: 'https://mine.example.com' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      payload: { url: 'https://mine.example.com' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('GraphQL viewer reports the session principal', async () => {
    const org = await anOrg(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: org.owner.cookie, 'content-type': 'application/json' },
      payload: { query: '{ viewer { userId role via organization { id plan } } }' },
    });
    expect(res.json()).toEqual({
      data: {
        viewer: {
          userId: org.owner.userId,
          role: 'owner',
          via: 'SESSION',
          organization: { id: org.id, plan: 'FREE' },
        },
      },
    });
  });
});
