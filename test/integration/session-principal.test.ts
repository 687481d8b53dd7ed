import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/identity/index.js';
import { signedCookieValue } from '../../src/platform/fast-path/session-principal.js';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anOrg } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEFAULT_PLAN: 'FREE' });
});
afterAll(() => t.close());

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const sign = (token: string, secret = SECRET) =>
  `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`;
const cookieOf = (value: string) => `${SESSION_COOKIE}=${encodeURIComponent(value)}`;
const signedSessionToken = (header: string, secret: string) => signedCookieValue(header, SESSION_COOKIE, secret);

/** The session token inside a signed-in user's cookie. */
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split('=').slice(1).join('=')).replace(/\.[^.]*$/, '');

describe('the session cookie, read as better-call reads it', () => {
  it('gives the token when the HMAC-SHA256 signature checks out, wherever the cookie sits in the header', () => {
    expect(signedSessionToken(cookieOf(sign('tok123')), SECRET)).toBe('tok123');
    expect(signedSessionToken(`a=1; ${cookieOf(sign('tok123'))}; b=2`, SECRET)).toBe('tok123');
    expect(signedSessionToken(`${SESSION_COOKIE}="${encodeURIComponent(sign('tok123'))}"`, SECRET)).toBe('tok123');
    // Not percent-encoded at all: still read.
    expect(signedSessionToken(`${SESSION_COOKIE}=${sign('tok123')}`, SECRET)).toBe('tok123');
  });

  it('is no session for another secret, a changed token, a missing or malformed signature, or no cookie', () => {
    expect(signedSessionToken(cookieOf(sign('tok123', 'another-secret')), SECRET)).toBeNull();
    expect(signedSessionToken(cookieOf(sign('tok123').replace('tok123', 'tok124')), SECRET)).toBeNull();
    expect(signedSessionToken(cookieOf('tok123'), SECRET)).toBeNull();
    expect(signedSessionToken(cookieOf('.abc'), SECRET)).toBeNull();
    expect(signedSessionToken(cookieOf(`${sign('tok123')}x`), SECRET)).toBeNull();
    expect(signedSessionToken('other=1', SECRET)).toBeNull();
    expect(signedSessionToken('', SECRET)).toBeNull();
    // Only the first cookie of that name counts, as in better-call.
    expect(signedSessionToken(`${cookieOf('bad.sig')}; ${cookieOf(sign('tok123'))}`, SECRET)).toBeNull();
  });

  it('leaves an unusually written signature (another base64 alphabet) to better-auth', () => {
    // '-' is base64url's, never standard base64's: better-call's decoder, not ours, says what it means.
    expect(signedSessionToken(cookieOf(`${sign('tok123').slice(0, -2)}-=`), SECRET)).toBeUndefined();
  });
});

describe('Surface B sessions read directly', () => {
  it('a session costs one statement for its principal, and gives the principal better-auth gives', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
    t.queries.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
    expect(res.statusCode).toBe(200);
    const statements = t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q));
    expect(statements.filter((q) => /"session"/.test(q))).toHaveLength(1);
    expect(statements.some((q) => /from "user"/i.test(q))).toBe(false);

    const principal = await t.runtime.authenticate(
      { session: { cookie: org.owner.cookie, headers: () => new Headers({ cookie: org.owner.cookie }) } },
      'SURFACE_B',
    );
    expect(principal).toEqual({
      organizationId: org.id,
      plan: 'PRO',
      role: 'owner',
      via: 'SESSION',
      channel: 'SURFACE_B',
      userId: org.owner.userId,
    });
    const viaBetterAuth = await t.runtime.auth.api.getSession({ headers: new Headers({ cookie: org.owner.cookie }) });
    expect(viaBetterAuth?.user.id).toBe(principal?.userId);
  });

  it("follows the session's active organization, else the oldest membership", async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const second = `org-${uniq()}`;
    await t.runtime.pool.query(
      `INSERT INTO "organization" (id, name, slug, "createdAt", plan) VALUES ($1, 'Second', $1, now(), 'ENTERPRISE')`,
      [second],
    );
    await t.runtime.pool.query(
      `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'admin', now())`,
      [`m-${uniq()}`, second, org.owner.userId],
    );
    const principal = () =>
      t.runtime.authenticate(
        { session: { cookie: org.owner.cookie, headers: () => new Headers({ cookie: org.owner.cookie }) } },
        'SURFACE_B',
      );
    expect(await principal()).toMatchObject({ organizationId: org.id, plan: 'PRO', role: 'owner' });
    await t.runtime.pool.query(`UPDATE "session" SET "activeOrganizationId" = $1 WHERE token = $2`, [
      second,
      tokenOf(org.owner.cookie),
    ]);
    expect(await principal()).toMatchObject({ organizationId: second, plan: 'ENTERPRISE', role: 'admin' });
    await t.runtime.pool.query(`DELETE FROM "member" WHERE "userId" = $1`, [org.owner.userId]);
    expect(await principal()).toBeNull();
  });

  it('an expired session is refused, and better-auth removes it', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const token = tokenOf(org.owner.cookie);
    await t.runtime.pool.query(`UPDATE "session" SET "expiresAt" = now() - interval '1 minute' WHERE token = $1`, [
      token,
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
    expect(res.statusCode).toBe(401);
    const { rows } = await t.runtime.pool.query('SELECT 1 FROM "session" WHERE token = $1', [token]);
    expect(rows).toHaveLength(0);
  });

  it('a session due for its daily refresh still works, and better-auth extends it', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const token = tokenOf(org.owner.cookie);
    // Read more than a day after it was last extended: 5 of its 7 days left.
    await t.runtime.pool.query(`UPDATE "session" SET "expiresAt" = now() + interval '5 days' WHERE token = $1`, [
      token,
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.runtime.pool.query(
      `SELECT "expiresAt" > now() + interval '6 days 23 hours' AS extended FROM "session" WHERE token = $1`,
      [token],
    );
    expect(rows).toEqual([{ extended: true }]);
  });

  it('a session whose user is gone, or a token that is not a session, is refused', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const stranger = cookieOf(sign(`not-a-session-${uniq()}`, t.config.authSecret));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: stranger } })).statusCode,
    ).toBe(401);
    await t.runtime.pool.query('DELETE FROM "user" WHERE id = $1', [org.owner.userId]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: org.owner.cookie } })).statusCode,
    ).toBe(401);
  });
});
