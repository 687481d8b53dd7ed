import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anApiKey, anAudit, anOrg, aProject } from '../factories.js';
import { createApiKey, createProject, createTestApp, gql, setPlan, signUp, type TestApp } from '../support/app.js';

let t: TestApp;
// Non-default quotas prove the limits come from the configuration, not from constants of their own.
const QUOTAS = { PRO: { projects: 7, keywordsPerProject: 70, competitorsPerProject: 3, pagesPerAudit: 700 } };
beforeAll(async () => {
  t = await createTestApp({ PLAN_QUOTAS: JSON.stringify(QUOTAS) });
});
afterAll(() => t.close());

const USAGE =
  `{ viewer { organization { apiAccess usage {
  projects projectsLimit auditsThisMonth keywords keywordsPerProjectLimit competitorsPerProjectLimit ` +
  `pagesPerAuditLimit apiKeys apiKeysLimit
} } } }`;

/** The start of the current month (UTC), and a time `seconds` after it (before it when negative). */
const monthStart = (seconds = 0) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) + seconds * 1000);
};

describe('Organization.usage and Organization.apiAccess', () => {
  it('counts projects, audits this month (any status), keywords, active keys, with the configured limits', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const user = org.owner;
    const [a, b] = [await aProject({ org }), await aProject({ org })];
    await setPlan(t, org.id, 'PRO');
    for (const status of ['COMPLETED', 'FAILED', 'CANCELLED', 'QUEUED'] as const)
      await anAudit({ project: a, status, createdAt: monthStart(1) });
    await anAudit({ project: b, createdAt: monthStart(2) });
    // Last month's audits are not this month's.
    await anAudit({ project: a, createdAt: monthStart(-1) });
    await anAudit({ project: b, createdAt: monthStart(-20 * 86_400) });
    await t.runtime.pool.query(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       SELECT gen_random_uuid(), $1::uuid, 'term ' || n, 'term ' || n, 'us', 'en', 'desktop' FROM ` +
        `generate_series(1, 3) n
       UNION ALL SELECT gen_random_uuid(), $2::uuid, 'other ' || n, 'other ' || n, 'us', 'en', ` +
        `'desktop' FROM generate_series(1, 2) n`,
      [a.id, b.id],
    );
    const keys = [await anApiKey(org, 'one'), await anApiKey(org, 'two'), await anApiKey(org, 'three')];
    const listed = await gql(t, '{ apiKeys { id name } }', {}, { cookie: user.cookie });
    const two = listed.body.data.apiKeys.find((k: { name: string }) => k.name === 'two').id;
    await gql(t, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: two }, { cookie: user.cookie });

    // Another organization's rows count for it alone.
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    await anAudit({ project: await aProject({ org: other }) });
    await anApiKey(other);

    const expected = {
      apiAccess: 'READ_ONLY',
      usage: {
        projects: 2,
        projectsLimit: 7,
        auditsThisMonth: 5,
        keywords: 5,
        keywordsPerProjectLimit: 70,
        competitorsPerProjectLimit: 3,
        pagesPerAuditLimit: 700,
        apiKeys: 2,
        apiKeysLimit: 5,
      },
    };
    const bySession = await gql(t, USAGE, {}, { cookie: user.cookie });
    expect(bySession.body.errors).toBeUndefined();
    expect(bySession.body.data.viewer.organization).toEqual(expected);
    // A key of the organization (a PRO key may read) sees the same.
    const byKey = await gql(t, USAGE, {}, { authorization: `Bearer ${keys[0]}` });
    expect(byKey.body.errors).toBeUndefined();
    expect(byKey.body.data.viewer.organization).toEqual(expected);
  });

  it(
    'apiAccess follows the plan (FREE NONE, PRO READ_ONLY, ENTERPRISE FULL) for sessions and keys; FREE keys ' +
      'still read their usage',
    async () => {
      const user = await signUp(t, { plan: 'FREE' });
      const key = await createApiKey(t, user);
      for (const [plan, access] of [
        ['FREE', 'NONE'],
        ['PRO', 'READ_ONLY'],
        ['ENTERPRISE', 'FULL'],
      ] as const) {
        await setPlan(t, user.organizationId, plan);
        for (const headers of [{ cookie: user.cookie }, { authorization: `Bearer ${key}` }] as Record<
          string,
          string
        >[]) {
          const res = await gql(
            t,
            '{ viewer { organization { plan apiAccess usage { projectsLimit apiKeys } } } }',
            {},
            headers,
          );
          expect(res.body.errors, `${plan} ${Object.keys(headers)[0]}`).toBeUndefined();
          expect(res.body.data.viewer.organization).toEqual({
            plan,
            apiAccess: access,
            usage: { projectsLimit: t.config.quotas[plan].projects, apiKeys: 1 },
          });
        }
      }
      // What apiAccess reports is what Surface A does.
      await setPlan(t, user.organizationId, 'FREE');
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } }))
          .statusCode,
      ).toBe(403);
      await setPlan(t, user.organizationId, 'PRO');
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } }))
          .statusCode,
      ).toBe(200);
    },
  );

  it('all counters cost one statement', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    await createProject(t, user);
    await gql(t, USAGE, {}, { cookie: user.cookie });
    t.queries.length = 0;
    const res = await gql(
      t,
      '{ viewer { organization { usage { projects auditsThisMonth keywords apiKeys } } } }',
      {},
      { cookie: user.cookie },
    );
    expect(res.body.errors).toBeUndefined();
    const counting = t.queries.filter((q) => /count\(\*\)/i.test(q));
    expect(counting).toHaveLength(1);
  });

  it('without credentials: UNAUTHENTICATED', async () => {
    const res = await gql(t, USAGE);
    expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
