import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createApiKey, createProject, createTestApp, gql, signUp, type TestApp, type TestUser } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Audits written as the worker would, oldest first; `completedAt` is minutes before now. */
async function audits(projectId: string, rows: { status: string; score: number | null; minutesAgo: number }[]): Promise<void> {
  for (const r of rows) {
    const id = newId();
    await t.runtime.pool.query(
      `INSERT INTO audit (id, project_id, status, job_id, overall_score, pages_crawled, max_pages, created_at, completed_at)
       VALUES ($1::uuid, $2, $3, $1::text, $4, 1, 100, now() - make_interval(mins => $5), now() - make_interval(mins => $5))`,
      [id, projectId, r.status, r.score, r.minutesAgo],
    );
  }
}

async function scoreChanges(user: TestUser, headers: Record<string, string> = { cookie: user.cookie }): Promise<Map<string, number | null>> {
  const res = await gql(t, '{ projects { id scoreChange lastAuditScore } }', {}, headers);
  expect(res.body.errors).toBeUndefined();
  return new Map(res.body.data.projects.map((p: { id: string; scoreChange: number | null }) => [p.id, p.scoreChange]));
}

describe('Project.scoreChange', () => {
  it('latest completed minus the completed one before it; failed and cancelled audits do not count; null with fewer than two', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const none = await createProject(t, user);
    const one = await createProject(t, user);
    const up = await createProject(t, user);
    const down = await createProject(t, user);
    const same = await createProject(t, user);
    await audits(one.id, [{ status: 'COMPLETED', score: 70, minutesAgo: 10 }, { status: 'FAILED', score: null, minutesAgo: 5 }]);
    // Three completed audits: only the two latest matter; a later failed and a cancelled one are skipped.
    await audits(up.id, [
      { status: 'COMPLETED', score: 40, minutesAgo: 30 },
      { status: 'COMPLETED', score: 60, minutesAgo: 20 },
      { status: 'COMPLETED', score: 72, minutesAgo: 10 },
      { status: 'FAILED', score: null, minutesAgo: 5 },
      { status: 'CANCELLED', score: null, minutesAgo: 2 },
    ]);
    await audits(down.id, [{ status: 'COMPLETED', score: 90, minutesAgo: 20 }, { status: 'COMPLETED', score: 81, minutesAgo: 10 }]);
    await audits(same.id, [{ status: 'COMPLETED', score: 55, minutesAgo: 20 }, { status: 'COMPLETED', score: 55, minutesAgo: 10 }]);
    const changes = await scoreChanges(user);
    expect(Object.fromEntries([none, one, up, down, same].map((p) => [p.id, changes.get(p.id)]))).toEqual({
      [none.id]: null,
      [one.id]: null,
      [up.id]: 12,
      [down.id]: -9,
      [same.id]: 0,
    });
    const single = await gql(t, 'query($id: ID!) { project(id: $id) { scoreChange } }', { id: down.id }, { cookie: user.cookie });
    expect(single.body.data.project.scoreChange).toBe(-9);
  });

  it('is batched: a list of 12 projects costs the same statements as a list of 1', async () => {
    const count = async (n: number) => {
      const user = await signUp(t, { plan: 'ENTERPRISE' });
      for (let i = 0; i < n; i++) {
        const p = await createProject(t, user);
        await audits(p.id, [{ status: 'COMPLETED', score: 50, minutesAgo: 20 }, { status: 'COMPLETED', score: 50 + i, minutesAgo: 10 }]);
      }
      const key = await createApiKey(t, user);
      const headers = { authorization: `Bearer ${key}` };
      await scoreChanges(user, headers);
      // The key's first use writes lastUsedAt in the background; wait for it so it is not counted below.
      for (let i = 0; i < 100; i++) {
        const { rows } = await t.runtime.pool.query('SELECT last_used_at FROM api_key WHERE organization_id = $1', [user.organizationId]);
        if (rows[0].last_used_at) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      t.queries.length = 0;
      const changes = await scoreChanges(user, headers);
      expect([...changes.values()]).toEqual(Array.from({ length: n }, (_, i) => i));
      return t.queries.filter((q) => /\b(select|insert|update|delete)\b/i.test(q)).length;
    };
    const one = await count(1);
    const twelve = await count(12);
    expect(twelve).toBe(one);
  });
});
