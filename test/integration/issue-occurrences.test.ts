import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { anAudit, anOrg, aProject, type Project } from '../factories.js';
import { createTestApp, gql, signUp, type TestApp, type TestUser } from '../support/app.js';

let t: TestApp;
let user: TestUser;
let project: Project;
let projectId: string;
let auditId: string;
let issueId: string;

/**
 * Occurrence ids that cross a power of ten (…998 .. 1…009): as numbers 98 < 99 < 100, as text '100' < '98'.
 * Explicit ids far above the identity sequence, so no other test's rows can collide with them.
 */
const BOUNDARY = 1_000_000_000_000n;
const IDS = Array.from({ length: 12 }, (_, i) => (BOUNDARY - 2n + BigInt(i)).toString());

beforeAll(async () => {
  t = await createTestApp();
  const org = await anOrg(t, { plan: 'PRO' });
  user = org.owner;
  project = await aProject({ org, url: 'https://occurrences.example.com' });
  projectId = project.id;
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  // Rows an interrupted earlier run of this file left behind would collide with the fixed ids.
  await q('DELETE FROM issue_occurrence WHERE id = ANY($1::bigint[])', [IDS]);
  // The occurrences have fixed ids, so they are written below rather than by the factory.
  const audit = await anAudit({
    project,
    pages: 12,
    issues: [{ code: 'TECH_HTTP_PAGE', affectedPages: 12, applicablePages: 12 }],
  });
  auditId = audit.id;
  issueId = audit.issueIds.get('TECH_HTTP_PAGE')!;
  // Inserted in reverse, so neither insertion order nor physical order happens to match id order.
  await q(
    `INSERT INTO issue_occurrence (id, audit_id, code, url, evidence) OVERRIDING SYSTEM VALUE
     SELECT id, $1, 'TECH_HTTP_PAGE', 'http://occurrences.example.com/p/' || id, NULL FROM ` +
      `unnest($2::bigint[]) AS id ORDER BY id DESC`,
    [auditId, IDS],
  );
});
afterAll(async () => {
  await t.runtime.pool.query('DELETE FROM audit WHERE id = $1', [auditId]);
  await t.close();
});

const page = async (first: number, after: string | null) => {
  const { body } = await gql(
    t,
    'query($p: ID!, $f: Int!, $a: String) { audit(projectId: $p) { issues { code occurrences(first: $f, ' +
      'after: $a) { nodes { url } pageInfo { hasNextPage endCursor } } } } }',
    { p: projectId, f: first, a: after },
    { cookie: user.cookie },
  );
  expect(body.errors).toBeUndefined();
  return body.data.audit.issues.find((i: { code: string }) => i.code === 'TECH_HTTP_PAGE').occurrences as {
    nodes: { url: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
};

describe('Issue.occurrences cursor pagination', () => {
  it('pages through every occurrence once, in id order, when the ids cross a power of ten', async () => {
    const urls: string[] = [];
    let after: string | null = null;
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { nodes, pageInfo } = await page(5, after);
      urls.push(...nodes.map((n) => n.url));
      sizes.push(nodes.length);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(urls).toEqual(IDS.map((id) => `http://occurrences.example.com/p/${id}`));
  });

  it('one page holds them all in id order', async () => {
    const { nodes, pageInfo } = await page(50, null);
    expect(nodes.map((n) => n.url)).toEqual(IDS.map((id) => `http://occurrences.example.com/p/${id}`));
    expect(pageInfo).toEqual({ hasNextPage: false, endCursor: IDS.at(-1) });
  });
});

describe('Audit.issue: one issue of an audit, for paging its occurrences alone', () => {
  const ISSUE =
    'query($p: ID!, $a: ID, $i: ID!) { audit(projectId: $p, auditId: $a) { issue(id: $i) { id code ' +
    'affectedPages occurrences(first: 3) { nodes { url } pageInfo { hasNextPage } } } } }';

  it('finds the issue by id, with its occurrences', async () => {
    const { body } = await gql(t, ISSUE, { p: projectId, a: auditId, i: issueId }, { cookie: user.cookie });
    expect(body.errors).toBeUndefined();
    expect(body.data.audit.issue).toMatchObject({ id: issueId, code: 'TECH_HTTP_PAGE', affectedPages: 12 });
    expect(body.data.audit.issue.occurrences.nodes).toHaveLength(3);
    expect(body.data.audit.issue.occurrences.pageInfo.hasNextPage).toBe(true);
  });

  it.each([
    ['an unknown id', () => newId()],
    ['a malformed id', () => 'not-a-uuid'],
  ])('%s is NOT_FOUND', async (_what, id) => {
    const { body } = await gql(t, ISSUE, { p: projectId, a: auditId, i: id() }, { cookie: user.cookie });
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('an issue of another audit of the same organization is NOT_FOUND through this audit', async () => {
    const { id: other } = await anAudit({
      project,
      status: 'FAILED',
      pages: 0,
      createdAt: new Date(Date.now() - 86_400_000),
    });
    try {
      const { body } = await gql(t, ISSUE, { p: projectId, a: other, i: issueId }, { cookie: user.cookie });
      expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    } finally {
      await t.runtime.pool.query('DELETE FROM audit WHERE id = $1', [other]);
    }
  });

  it('another organization cannot reach it (the audit is NOT_FOUND)', async () => {
    const stranger = await signUp(t, { plan: 'PRO' });
    const { body } = await gql(t, ISSUE, { p: projectId, a: auditId, i: issueId }, { cookie: stranger.cookie });
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(body.data).toBeNull();
  });
});
