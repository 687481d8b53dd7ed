import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createApiKey, createProject, createTestApp, gql, setPlan, signUp, type TestApp } from '../support/app.js';

let t: TestApp;
// Non-default quotas prove the limits come from the configuration, not from constants of their own.
const QUOTAS = { PRO: { projects: 7, keywordsPerProject: 70, competitorsPerProject: 3, pagesPerAudit: 700 } };
beforeAll(async () => {
  t = await createTestApp({ PLAN_QUOTAS: JSON.stringify(QUOTAS) });
});
afterAll(() => t.close());

const USAGE = `{ viewer { organization { apiAccess usage {
  projects projectsLimit auditsThisMonth keywords keywordsPerProjectLimit competitorsPerProjectLimit pagesPerAuditLimit apiKeys apiKeysLimit
} } } }`;

/** An audit created at a time given as SQL relative to the start of the current month (UTC). */
async function auditAt(projectId: string, status: string, createdAt: string): Promise<void> {
  const id = newId();
  await t.runtime.pool.query(
    `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, max_pages, created_at, completed_at)
     VALUES ($1::uuid, $2, $3, $1::text, 0, 100, ${createdAt}, CASE WHEN $3 IN ('QUEUED', 'RUNNING') THEN NULL ELSE now() END)`,
    [id, projectId, status],
  );
}
const MONTH_START = `(date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

describe('Organization.usage and Organization.apiAccess', () => {
  it('counts projects, audits this month (any status), keywords and active keys, with the configured limits', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const [a, b] = [await createProject(t, user), await createProject(t, user)];
    await setPlan(t, user.organizationId, 'PRO');
    for (const status of ['COMPLETED', 'FAILED', 'CANCELLED', 'QUEUED']) await auditAt(a.id, status, `${MONTH_START} + interval '1 second'`);
    await auditAt(b.id, 'COMPLETED', `${MONTH_START} + interval '2 seconds'`);
    // Last month's audits are not this month's.
    await auditAt(a.id, 'COMPLETED', `${MONTH_START} - interval '1 second'`);
    await auditAt(b.id, 'COMPLETED', `${MONTH_START} - interval '20 days'`);
    await t.runtime.pool.query(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       SELECT gen_random_uuid(), $1::uuid, 'term ' || n, 'term ' || n, 'us', 'en', 'desktop' FROM generate_series(1, 3) n
       UNION ALL SELECT gen_random_uuid(), $2::uuid, 'other ' || n, 'other ' || n, 'us', 'en', 'desktop' FROM generate_series(1, 2) n`,
      [a.id, b.id],
    );
    const keys = [await createApiKey(t, user, 'one'), await createApiKey(t, user, 'two'), await createApiKey(t, user, 'three')];
    const listed = await gql(t, '{ apiKeys { id name } }', {}, { cookie: user.cookie });
    const two = listed.body.data.apiKeys.find((k: { name: string }) => k.name === 'two').id;
    await gql(t, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: two }, { cookie: user.cookie });

    // Another organization's rows count for it alone.
    const other = await signUp(t, { plan: 'ENTERPRISE' });
    const otherProject = await createProject(t, other);
    await auditAt(otherProject.id, 'COMPLETED', 'now()');
    await createApiKey(t, other);

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

  it('apiAccess follows the plan (FREE NONE, PRO READ_ONLY, ENTERPRISE FULL) for sessions and keys; FREE keys still read their usage', async () => {
    const user = await signUp(t, { plan: 'FREE' });
    const key = await createApiKey(t, user);
    for (const [plan, access] of [['FREE', 'NONE'], ['PRO', 'READ_ONLY'], ['ENTERPRISE', 'FULL']] as const) {
      await setPlan(t, user.organizationId, plan);
      for (const headers of [{ cookie: user.cookie }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const res = await gql(t, '{ viewer { organization { plan apiAccess usage { projectsLimit apiKeys } } } }', {}, headers);
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
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(403);
    await setPlan(t, user.organizationId, 'PRO');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
  });

  it('all counters cost one statement', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    await createProject(t, user);
    await gql(t, USAGE, {}, { cookie: user.cookie });
    t.queries.length = 0;
    const res = await gql(t, '{ viewer { organization { usage { projects auditsThisMonth keywords apiKeys } } } }', {}, { cookie: user.cookie });
    expect(res.body.errors).toBeUndefined();
    const counting = t.queries.filter((q) => /count\(\*\)/i.test(q));
    expect(counting).toHaveLength(1);
  });

  it('without credentials: UNAUTHENTICATED', async () => {
    const res = await gql(t, USAGE);
    expect(res.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
