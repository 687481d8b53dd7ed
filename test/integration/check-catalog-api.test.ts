/**
 * The public check catalog (issue 28 item 5): GraphQL `checks` / `check`, GET /api/checks and /api/checks/:code,
 * with no authentication; every code of CHECK_CATALOG is listed with its guidance, whatever codes it holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CATALOG, CHECK_GUIDANCE, chargedScope, type CheckCode } from '../../src/seo/checks/index.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIELDS = 'code title category severity scope description why fix banded requires needsBrowser blocker scoring';

describe('GraphQL checks', () => {
  it('lists every catalog code, in catalog order, with its rule and guidance, without a session', async () => {
    const res = await gql(t, `{ checks { ${FIELDS} } }`);
    expect(res.body.errors).toBeUndefined();
    const checks = res.body.data.checks as Record<string, unknown>[];
    expect(checks).toHaveLength(CHECK_CATALOG.length);
    expect(checks.map((c) => c.code)).toEqual(CHECK_CATALOG.map((c) => c.code));
    for (const [i, check] of CHECK_CATALOG.entries()) {
      const guidance = CHECK_GUIDANCE[check.code as CheckCode];
      expect(checks[i]).toMatchObject({
        code: check.code,
        title: check.title,
        category: check.category,
        severity: check.severity,
        // How a failure is charged: a site fact evaluated on every page (No HTTPS...) is charged once, "site".
        scope: chargedScope(check),
        description: check.description,
        why: guidance.why,
        fix: guidance.fix,
        banded: 'banded' in check && check.banded === true,
      });
      expect((checks[i].scoring as string).length).toBeGreaterThan(40);
    }
  });

  it('filters by category and severity; a blocker and a lab check say so', async () => {
    const res = await gql(t, '{ checks(category: META, severity: WARNING) { code category severity } }');
    const expected = CHECK_CATALOG.filter((c) => c.category === 'META' && c.severity === 'WARNING');
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.data.checks.map((c: { code: string }) => c.code)).toEqual(expected.map((c) => c.code));
    const one = await gql(
      t,
      `{ a: check(code: "TECH_ROBOTS_BLOCKS_ALL") { ${FIELDS} } b: check(code: "PERF_LCP") {
      banded requires needsBrowser scoring } }`,
    );
    expect(one.body.data.a).toMatchObject({ blocker: true, requires: 'NONE', needsBrowser: false });
    expect(one.body.data.a.scoring).toMatch(/capped at 50/);
    expect(one.body.data.b).toMatchObject({ banded: true, requires: 'LAB_BROWSER', needsBrowser: true });
    expect(one.body.data.b.scoring).toMatch(/cannot|not change its severity/);
  });

  it('check(code) of an unknown code is NOT_FOUND', async () => {
    const res = await gql(t, '{ check(code: "NOPE_NOT_A_CHECK") { code } }');
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(res.body.errors?.[0].message).toMatch(/NOPE_NOT_A_CHECK/);
  });
});

describe('REST /api/checks', () => {
  it('GET /api/checks lists them all, public and rate-limited per IP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/checks' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    const body = res.json() as { checks: { code: string; why: string; fix: string }[] };
    expect(body.checks).toHaveLength(CHECK_CATALOG.length);
    expect(new Set(body.checks.map((c) => c.code)).size).toBe(CHECK_CATALOG.length);
    expect(body.checks.every((c) => c.why && c.fix)).toBe(true);
  });

  it('filters by query; an unknown filter value or parameter is a 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/checks?category=LINKS&severity=CRITICAL' });
    expect(res.statusCode).toBe(200);
    const codes = res.json().checks.map((c: { code: string }) => c.code);
    expect(codes).toEqual(
      CHECK_CATALOG.filter((c) => c.category === 'LINKS' && c.severity === 'CRITICAL').map((c) => c.code),
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/checks?category=SPEED' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/checks?limit=3' })).statusCode).toBe(400);
  });

  it('GET /api/checks/:code answers one check; an unknown code is a 404 with the error shape', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/checks/META_TITLE_MISSING' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().check).toMatchObject({ code: 'META_TITLE_MISSING', category: 'META', severity: 'CRITICAL' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/checks/NOT_A_CODE' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(missing.json().error).toMatch(/NOT_A_CODE/);
  });
});

describe('the catalog pages, rendered by the server (the built web app)', () => {
  it('/checks and /checks/:code carry their content, unique head and canonical; an unknown code is a 404', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/checks' });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<title>SEO check catalog: every audit check explained · SEO Audit Platform</title>');
    expect(list.body).toMatch(/<link rel="canonical" href="[^"]*\/checks" \/>/);
    for (const check of CHECK_CATALOG) expect(list.body).toContain(`href="/checks/${check.code}"`);
    const one = await t.app.inject({ method: 'GET', url: '/checks/META_TITLE_MISSING' });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('<title>Missing title (META_TITLE_MISSING) · SEO check</title>');
    expect(one.body).toMatch(/<link rel="canonical" href="[^"]*\/checks\/META_TITLE_MISSING" \/>/);
    expect(one.body).toContain('How it counts in the score');
    expect(one.body).toContain(CHECK_GUIDANCE.META_TITLE_MISSING.why.replaceAll('"', '&quot;').slice(0, 60));
    const other = await t.app.inject({ method: 'GET', url: '/checks/META_DESCRIPTION_MISSING' });
    expect(other.body).not.toContain('<title>Missing title');
    const missing = await t.app.inject({ method: 'GET', url: '/checks/NOT_A_CODE' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('rel="canonical"');
  });
});
