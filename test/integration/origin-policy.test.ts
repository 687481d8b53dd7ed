import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

/**
 * Cookie-authenticated writes (spec §5 B.2: "from an authenticated browser session or with the session token"):
 * one whose Origin is not trusted is refused (CSRF), one without Origin is a script using its session token and is
 * served (browsers send Origin on cross-site writes, and the cookie is SameSite=Lax).
 */
let t: TestApp;
let org: Org;
beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const rest = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, 'content-type': 'application/json', ...headers },
    payload: { url: `https://origin-${uniq()}.example.com` },
  });
const graphql = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { cookie: org.owner.cookie, 'content-type': 'application/json', ...headers },
    payload: {
      query: 'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }',
      variables: { i: { url: `https://origin-${uniq()}.example.com` } },
    },
  });

describe('cookie writes and the Origin header', () => {
  it('/api: an untrusted Origin is refused (403), no Origin is served, the trusted one is served', async () => {
    const evil = await rest({ origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toEqual({ error: expect.stringMatching(/origin is not trusted/), code: 'FORBIDDEN' });
    const cross = await rest({ 'sec-fetch-site': 'cross-site' });
    expect(cross.statusCode).toBe(403);
    const script = await rest({});
    expect(script.statusCode).toBe(200);
    expect(script.json()).toMatchObject({ project: { id: expect.any(String) } });
    expect((await rest({ origin: t.config.baseUrl })).statusCode).toBe(200);
  });

  it('/graphql: an untrusted Origin is refused (403 in GraphQL shape), no Origin is served', async () => {
    const evil = await graphql({ origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toEqual({
      errors: [{ message: expect.stringMatching(/origin is not trusted/), extensions: { code: 'FORBIDDEN' } }],
    });
    const script = await graphql({});
    expect(script.statusCode).toBe(200);
    expect(script.json()).toEqual({ data: { createProject: { id: expect.any(String) } } });
    expect((await graphql({ origin: t.config.baseUrl })).json().data.createProject.id).toEqual(expect.any(String));
  });

  it('the projects made without Origin are the user’s (the refused ones were not made)', async () => {
    const { rows } = await t.runtime.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM project WHERE organization_id = $1 AND url LIKE 'https://origin-%'`,
      [org.id],
    );
    expect(Number(rows[0].n)).toBe(4);
  });
});
