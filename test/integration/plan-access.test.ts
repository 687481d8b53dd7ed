import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Plan } from '../../src/platform/config.js';
import { createTestApp, gql, type TestApp, type TestUser } from '../support/app.js';
import { anApiKey, anOrg, aProject } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Actor {
  user: TestUser;
  key: string;
  projectId: string;
}

async function actor(plan: Plan): Promise<Actor> {
  const org = await anOrg(t);
  const { id } = await aProject({ org }); // the dashboard may create on every plan
  await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', [plan, org.id]);
  const key = await anApiKey(org);
  return { user: org.owner, key, projectId: id };
}

type Call = { name: string; write: boolean; run: (a: Actor) => Promise<LightMyRequestResponse> };
const calls: Call[] = [
  {
    name: 'GET /api/v1/projects',
    write: false,
    run: (a) => t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${a.key}` } }),
  },
  {
    name: 'GET /api/projects',
    write: false,
    run: (a) => t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: a.user.cookie } }),
  },
  {
    name: 'GET /api/projects/:id',
    write: false,
    run: (a) =>
      t.app.inject({ method: 'GET', url: `/api/projects/${a.projectId}`, headers: { cookie: a.user.cookie } }),
  },
  {
    name: 'POST /api/projects',
    write: true,
    run: (a) =>
      t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: { cookie: a.user.cookie, origin: t.config.baseUrl },
        payload: { url: 'https://another.example.org/' },
      }),
  },
  {
    name: 'DELETE /api/projects/:id',
    write: true,
    run: (a) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/projects/${a.projectId}`,
        headers: { cookie: a.user.cookie, origin: t.config.baseUrl },
      }),
  },
];

describe('plan access matrix (spec §5 B.4) on both surfaces', () => {
  it('FREE: 403 on every project endpoint', async () => {
    const a = await actor('FREE');
    for (const call of calls) {
      const res = await call.run(a);
      expect(res.statusCode, call.name).toBe(403);
      expect(res.json(), call.name).toMatchObject({ code: 'FORBIDDEN', error: expect.stringMatching(/Free plan/) });
    }
  });

  it('PRO: reads succeed, writes are 403', async () => {
    const a = await actor('PRO');
    for (const call of calls) {
      const res = await call.run(a);
      expect(res.statusCode, call.name).toBe(call.write ? 403 : 200);
      if (call.write) expect(res.json().error, call.name).toMatch(/read-only/);
    }
  });

  it('ENTERPRISE: everything succeeds', async () => {
    const a = await actor('ENTERPRISE');
    for (const call of calls) expect((await call.run(a)).statusCode, call.name).toBe(200);
  });

  it('key-authenticated GraphQL follows the plan; the session dashboard manages projects on every plan', async () => {
    const a = await actor('PRO');
    const byKey = await gql(
      t,
      'mutation { createProject(input: { url: "https://k.example.org" }) { id } }',
      {},
      { authorization: `Bearer ${a.key}` },
    );
    expect(byKey.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const read = await gql(t, '{ projects { id } }', {}, { authorization: `Bearer ${a.key}` });
    expect(read.body.data.projects).toHaveLength(1);
    const bySession = await gql(
      t,
      'mutation { createProject(input: { url: "https://s.example.org" }) { id } }',
      {},
      { cookie: a.user.cookie },
    );
    expect(bySession.body.data?.createProject.id).toEqual(expect.any(String));
  });
});

describe('quotas', () => {
  it('FREE allows one project: the second is 403 PLAN_LIMIT', async () => {
    const org = await anOrg(t);
    await aProject({ org });
    const res = await gql(
      t,
      'mutation { createProject(input: { url: "https://second.example.org" }) { id } }',
      {},
      { cookie: org.owner.cookie },
    );
    expect(res.body.errors?.[0]).toMatchObject({
      extensions: { code: 'PLAN_LIMIT' },
      message: expect.stringMatching(/Free plan allows 1 project/),
    });
  });

  it('reaching the quota on Surface B is 403 with code PLAN_LIMIT, also under concurrent creates', async () => {
    const q = await createTestApp({ PLAN_QUOTAS: JSON.stringify({ ENTERPRISE: { projects: 3 } }) });
    try {
      const org = await anOrg(q, { plan: 'ENTERPRISE' });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          q.app.inject({
            method: 'POST',
            url: '/api/projects',
            headers: { cookie: org.owner.cookie, origin: q.config.baseUrl },
            payload: { url: `https://p${i}.example.org` },
          }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
      const refused = results.filter((r) => r.statusCode === 403);
      expect(refused).toHaveLength(3);
      expect(refused[0].json()).toMatchObject({ code: 'PLAN_LIMIT' });
    } finally {
      await q.close();
    }
  });
});

describe('tenant isolation', () => {
  it("another organization's project is 404 on every route and in GraphQL, and stays intact", async () => {
    const owner = await actor('ENTERPRISE');
    const other = await actor('ENTERPRISE');
    const id = owner.projectId;
    const h = { cookie: other.user.cookie, origin: t.config.baseUrl };
    for (const [method, url] of [
      ['GET', `/api/projects/${id}`],
      ['DELETE', `/api/projects/${id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: h });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'Project not found', code: 'NOT_FOUND' });
    }
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(list.json().projects.map((p: { id: string }) => p.id)).toEqual([other.projectId]);
    const g = await gql(
      t,
      'query($id: ID!) { project(id: $id) { id } }',
      { id },
      { authorization: `Bearer ${other.key}` },
    );
    expect(g.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${id}`,
      headers: { cookie: owner.user.cookie },
    });
    expect(mine.statusCode).toBe(200);
  });

  it('a malformed or unknown id is 404, not 400 or 500', async () => {
    const a = await actor('ENTERPRISE');
    for (const id of ['nope', '00000000-0000-7000-8000-000000000000', "1' OR '1'='1"]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/projects/${encodeURIComponent(id)}`,
        headers: { cookie: a.user.cookie },
      });
      expect(res.statusCode, id).toBe(404);
    }
  });
});

describe('projects end to end (exact shapes of docs/api.md)', () => {
  /** The additive `auditSchedule` field of a project that has none (docs/audits-and-crawling.md: Scheduled audits). */
  const OFF_SCHEDULE = {
    frequency: 'OFF',
    time: '09:00',
    timeZone: 'UTC',
    dayOfWeek: null,
    dayOfMonth: null,
    nextRunAt: null,
  };

  it('create, list (both surfaces), get, delete', async () => {
    const a = await actor('ENTERPRISE');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: a.user.cookie, origin: t.config.baseUrl },
      payload: { url: 'HTTPS://Shop.Example.COM/start#top', name: 'Shop' },
    });
    expect(created.statusCode).toBe(200);
    const project = created.json().project;
    expect(project).toEqual({
      id: expect.any(String),
      name: 'Shop',
      url: 'https://shop.example.com/start',
      domain: 'shop.example.com',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      auditSchedule: OFF_SCHEDULE,
    });

    const b = await t.app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: a.user.cookie } });
    expect(b.json().projects).toContainEqual({
      id: project.id,
      name: 'Shop',
      url: 'https://shop.example.com/start',
      lastAuditScore: null,
    });

    const v1 = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(v1.json().projects).toContainEqual({
      id: project.id,
      name: 'Shop',
      domain: 'shop.example.com',
      createdAt: project.createdAt,
      _count: { audits: 0, keywords: 0, competitors: 0 },
      auditSchedule: OFF_SCHEDULE,
    });

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}`,
      headers: { cookie: a.user.cookie },
    });
    expect(detail.json()).toEqual({
      project: { ...project, _count: { audits: 0, keywords: 0, competitors: 0 }, latestAudit: null, scheduledRuns: [] },
    });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${project.id}`,
      headers: { cookie: a.user.cookie, origin: t.config.baseUrl },
    });
    expect(del.json()).toEqual({ success: true });
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}`,
      headers: { cookie: a.user.cookie },
    });
    expect(gone.statusCode).toBe(404);
  });

  it('name defaults to the host; the same URL twice is refused', async () => {
    const a = await actor('ENTERPRISE');
    const h = { cookie: a.user.cookie, origin: t.config.baseUrl };
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: h,
      payload: { url: 'https://Blog.Example.net' },
    });
    expect(first.json().project).toMatchObject({ name: 'blog.example.net', url: 'https://blog.example.net/' });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: h,
      payload: { url: 'https://blog.example.net/' },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'url', message: 'already tracked' }],
    });
  });
});
