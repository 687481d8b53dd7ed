import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startFixtureSite, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject } from '../factories.js';

/** A host name pinned to 127.0.0.1 (SAFE_HTTP_RESOLVE), so a bare `name:port` is resolved against a local server. */
const PLAIN_HOST = `plain-${uniq()}.example`;

let t: TestApp;
let plain: RunningSite;
beforeAll(async () => {
  plain = await startFixtureSite({ host: PLAIN_HOST });
  plain.serve({ '/': { body: '<!doctype html><title>Plain</title><p>http only</p>' } });
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${PLAIN_HOST}=127.0.0.1` });
});
afterAll(async () => {
  await t.close();
  await plain.close();
});

const UPDATE =
  'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { id url domain name } }';
const CREATE = 'mutation($i: CreateProjectInput!) { createProject(input: $i) { id url domain } }';

interface Problem {
  message: string;
  extensions?: { code?: string; details?: { path: string; message: string }[] };
}
const firstError = (body: { errors?: unknown[] }) => body.errors?.[0] as Problem | undefined;

describe('the start URL of a project', () => {
  it('is changed by updateProject; past audits keep the URL they crawled', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org });
    const auditId = randomUUID();
    await t.runtime.pool.query(
      `INSERT INTO audit (id, project_id, status, job_id, max_pages, created_at, completed_at, error)
        VALUES ($1, $2, 'FAILED', $3, 10, now(), now(), 'Could not connect')`,
      [auditId, project.id, `job-${auditId}`],
    );
    const res = await gql(t, UPDATE, { id: project.id, i: { url: plain.url('/shop') } }, { cookie: org.owner.cookie });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateProject).toMatchObject({ url: `${plain.origin}/shop`, domain: PLAIN_HOST });
    const { rows } = await t.runtime.pool.query('SELECT id FROM audit WHERE project_id = $1', [project.id]);
    expect(rows).toEqual([{ id: auditId }]);
  });

  it('a bare host:port served over http only resolves to http://, by name and by address', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org });
    const byName = await gql(
      t,
      UPDATE,
      { id: project.id, i: { url: `${PLAIN_HOST}:${plain.port}` } },
      {
        cookie: org.owner.cookie,
      },
    );
    expect(byName.body.errors).toBeUndefined();
    expect(byName.body.data.updateProject.url).toBe(`http://${PLAIN_HOST}:${plain.port}/`);
    const created = await gql(
      t,
      CREATE,
      { i: { url: `127.0.0.1:${plain.port}/guides` } },
      { cookie: org.owner.cookie },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createProject).toMatchObject({
      url: `http://127.0.0.1:${plain.port}/guides`,
      domain: '127.0.0.1',
    });
    // Both schemes were tried, https first (the plain server saw the TLS handshake as garbage and no request).
    expect(plain.requests.filter((r) => r.method === 'HEAD').map((r) => r.path)).toEqual(['/', '/guides']);
  });

  it('a bare host that answers on neither scheme is refused with both reasons, never stored as https', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org });
    const port = await closedPort();
    const res = await gql(t, UPDATE, { id: project.id, i: { url: `127.0.0.1:${port}` } }, { cookie: org.owner.cookie });
    const error = firstError(res.body);
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error?.extensions?.details?.[0].path).toBe('url');
    expect(error?.message).toMatch(/^127\.0\.0\.1:\d+ did not answer over https \(.+\) or http \(.+\); enter the full/);
    const created = await gql(t, CREATE, { i: { url: `127.0.0.1:${port}` } }, { cookie: org.owner.cookie });
    expect(firstError(created.body)?.extensions?.code).toBe('BAD_USER_INPUT');
    // With the scheme written out, the URL is taken as given (an audit then reports why it cannot connect).
    const explicit = await gql(
      t,
      UPDATE,
      { id: project.id, i: { url: `https://127.0.0.1:${port}/` } },
      {
        cookie: org.owner.cookie,
      },
    );
    expect(explicit.body.data.updateProject.url).toBe(`https://127.0.0.1:${port}/`);
  });

  it('the SSRF policy refuses private and internal targets with a clear error on url', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org });
    for (const url of ['http://10.0.0.5/', '169.254.169.254', 'http://metadata.google.internal/', 'ftp://x.example/']) {
      const res = await gql(t, UPDATE, { id: project.id, i: { url } }, { cookie: org.owner.cookie });
      const error = firstError(res.body);
      expect(error?.extensions?.code, url).toBe('BAD_USER_INPUT');
      expect(error?.extensions?.details?.[0].path, url).toBe('url');
    }
    const refused = await gql(
      t,
      UPDATE,
      { id: project.id, i: { url: 'http://10.0.0.5/' } },
      { cookie: org.owner.cookie },
    );
    expect(firstError(refused.body)?.message).toMatch(/private, loopback or reserved address/);
    const unchanged = await gql(
      t,
      'query($id: ID!) { project(id: $id) { url } }',
      { id: project.id },
      {
        cookie: org.owner.cookie,
      },
    );
    expect(unchanged.body.data.project.url).toBe(project.url);
  });

  it("another project's URL is refused as already tracked; another organization's project is NOT_FOUND", async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const first = await aProject({ org });
    const second = await aProject({ org });
    const res = await gql(t, UPDATE, { id: second.id, i: { url: first.url } }, { cookie: org.owner.cookie });
    expect(firstError(res.body)?.extensions?.details).toEqual([{ path: 'url', message: 'already tracked' }]);
    const strangerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const other = await gql(
      t,
      UPDATE,
      { id: first.id, i: { url: 'https://x.example/' } },
      {
        cookie: strangerOrg.owner.cookie,
      },
    );
    expect(firstError(other.body)?.extensions?.code).toBe('NOT_FOUND');
  });
});

const LOCATE = 'query($id: ID!) { projectOrganization(id: $id) { id name slug } }';

async function addMember(member: { userId: string }, organizationId: string): Promise<void> {
  await t.runtime.pool.query(
    `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'member', now())`,
    [randomUUID(), organizationId, member.userId],
  );
}

describe('projectOrganization (links carry the organization)', () => {
  it("tells a member which of their organizations owns a project; a non-member's answer is NOT_FOUND", async () => {
    const ownerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org: ownerOrg });
    const teammateOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    await addMember(teammateOrg.owner, ownerOrg.id);
    const strangerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const { rows } = await t.runtime.pool.query('SELECT name, slug FROM "organization" WHERE id = $1', [ownerOrg.id]);

    // The teammate's active organization is their own: the project itself stays invisible there...
    const direct = await gql(
      t,
      'query($id: ID!) { project(id: $id) { id } }',
      { id: project.id },
      {
        cookie: teammateOrg.owner.cookie,
      },
    );
    expect(firstError(direct.body)?.extensions?.code).toBe('NOT_FOUND');
    // ...but they learn which of their organizations owns it.
    const located = await gql(t, LOCATE, { id: project.id }, { cookie: teammateOrg.owner.cookie });
    expect(located.body.data.projectOrganization).toEqual({ id: ownerOrg.id, ...rows[0] });
    const own = await gql(t, LOCATE, { id: project.id }, { cookie: ownerOrg.owner.cookie });
    expect(own.body.data.projectOrganization.id).toBe(ownerOrg.id);

    // Not a member: exactly what a missing project answers.
    const refused = await gql(t, LOCATE, { id: project.id }, { cookie: strangerOrg.owner.cookie });
    const missing = await gql(t, LOCATE, { id: randomUUID() }, { cookie: strangerOrg.owner.cookie });
    const malformed = await gql(t, LOCATE, { id: 'not-a-uuid' }, { cookie: strangerOrg.owner.cookie });
    for (const body of [refused.body, missing.body, malformed.body]) {
      expect(body.data ?? null).toBeNull();
      expect(firstError(body)?.extensions?.code).toBe('NOT_FOUND');
      expect(firstError(body)?.message).toBe(firstError(missing.body)?.message);
    }
  });
});
