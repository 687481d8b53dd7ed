import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anApiKey, anAudit, anOrg, aProject, type AuditStatus, type Org, type Project } from '../factories.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Audits of the project, oldest first, created and finished `minutesAgo`, with an overall score only. */
async function audits(
  project: Project,
  rows: { status: AuditStatus; score: number | null; minutesAgo: number }[],
): Promise<void> {
  for (const r of rows) {
    const at = new Date(Date.now() - r.minutesAgo * 60_000);
    await anAudit({ project, status: r.status, scores: { overall: r.score }, pages: 1, createdAt: at });
  }
}

async function scoreChanges(
  org: Org,
  headers: Record<string, string> = { cookie: org.owner.cookie },
): Promise<Map<string, number | null>> {
  const res = await gql(t, '{ projects { id scoreChange lastAuditScore } }', {}, headers);
  expect(res.body.errors).toBeUndefined();
  return new Map(res.body.data.projects.map((p: { id: string; scoreChange: number | null }) => [p.id, p.scoreChange]));
}

describe('Project.scoreChange', () => {
  it(
    'latest completed minus the completed one before it; failed and cancelled audits do not count; null with ' +
      'fewer than two',
    async () => {
      const org = await anOrg(t, { plan: 'ENTERPRISE' });
      const none = await aProject({ org });
      const one = await aProject({ org });
      const up = await aProject({ org });
      const down = await aProject({ org });
      const same = await aProject({ org });
      await audits(one, [
        { status: 'COMPLETED', score: 70, minutesAgo: 10 },
        { status: 'FAILED', score: null, minutesAgo: 5 },
      ]);
      // Three completed audits: only the two latest matter; a later failed and a cancelled one are skipped.
      await audits(up, [
        { status: 'COMPLETED', score: 40, minutesAgo: 30 },
        { status: 'COMPLETED', score: 60, minutesAgo: 20 },
        { status: 'COMPLETED', score: 72, minutesAgo: 10 },
        { status: 'FAILED', score: null, minutesAgo: 5 },
        { status: 'CANCELLED', score: null, minutesAgo: 2 },
      ]);
      await audits(down, [
        { status: 'COMPLETED', score: 90, minutesAgo: 20 },
        { status: 'COMPLETED', score: 81, minutesAgo: 10 },
      ]);
      await audits(same, [
        { status: 'COMPLETED', score: 55, minutesAgo: 20 },
        { status: 'COMPLETED', score: 55, minutesAgo: 10 },
      ]);
      const changes = await scoreChanges(org);
      expect(Object.fromEntries([none, one, up, down, same].map((p) => [p.id, changes.get(p.id)]))).toEqual({
        [none.id]: null,
        [one.id]: null,
        [up.id]: 12,
        [down.id]: -9,
        [same.id]: 0,
      });
      const single = await gql(
        t,
        'query($id: ID!) { project(id: $id) { scoreChange } }',
        { id: down.id },
        { cookie: org.owner.cookie },
      );
      expect(single.body.data.project.scoreChange).toBe(-9);
    },
  );

  it('is batched: a list of 12 projects costs the same statements as a list of 1', async () => {
    const count = async (n: number) => {
      const org = await anOrg(t, { plan: 'ENTERPRISE' });
      for (let i = 0; i < n; i++) {
        const p = await aProject({ org });
        await audits(p, [
          { status: 'COMPLETED', score: 50, minutesAgo: 20 },
          { status: 'COMPLETED', score: 50 + i, minutesAgo: 10 },
        ]);
      }
      const headers = { authorization: `Bearer ${await anApiKey(org)}` };
      await scoreChanges(org, headers);
      // The key's first use writes lastUsedAt in the background; wait for it so it is not counted below.
      for (let i = 0; i < 100; i++) {
        const { rows } = await t.runtime.pool.query('SELECT last_used_at FROM api_key WHERE organization_id = $1', [
          org.id,
        ]);
        if (rows[0].last_used_at) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      t.queries.length = 0;
      const changes = await scoreChanges(org, headers);
      expect([...changes.values()]).toEqual(Array.from({ length: n }, (_, i) => i));
      return t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q)).length;
    };
    const one = await count(1);
    const twelve = await count(12);
    expect(twelve).toBe(one);
  });
});
