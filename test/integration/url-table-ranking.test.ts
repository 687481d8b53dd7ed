import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';

/**
 * The URL table's ranking columns and Issue.rankingPages match a keyword's ranking URL to the crawled page by one
 * rule (keywordsByRankingPage): a page ranking as `https://Host/a/` and crawled as `https://host/a` carries its
 * keywords in both, as does one ranking with "www.", a default port and a fragment; a keyword ranking the http://
 * redirect of a crawled https:// page ranks the page, not the redirect. Exact matching of the URLs finds none of them.
 */
let t: TestApp;
let org: Org;
let project: Project;
let host: string;
let auditId: string;

const at = (path: string, scheme = 'https') => `${scheme}://${host}${path}`;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `cased-${uniq()}.example.com`;
  project = await aProject({ org, url: `https://${host}/` });
  const pages = [
    { url: at('/a'), statusCode: 200 },
    { url: at('/b/'), statusCode: 200 },
    { url: at('/c'), statusCode: 200 },
    { url: at('/c', 'http'), statusCode: 301, finalUrl: at('/c') },
    { url: at('/d'), statusCode: 200 },
  ];
  const audit = await anAudit({
    project,
    pages,
    issues: [{ code: 'META_TITLE_MISSING', occurrences: [at('/a'), at('/d')], applicablePages: 5 }],
  });
  auditId = audit.id;
  const added = await gql(
    t,
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id term } }',
    { p: project.id, k: ['cased', 'www port fragment', 'over http', 'exact'] },
    { cookie: org.owner.cookie },
  );
  const ids = Object.fromEntries(
    (added.body.data.addKeywords as { id: string; term: string }[]).map((k) => [k.term, k.id]),
  );
  const upper = host.replace(/^cased/, 'CASED');
  for (const [term, position, url] of [
    ['cased', 3, `https://${upper}/a/`],
    ['www port fragment', 5, `https://www.${host}:443/b#reviews`],
    ['over http', 2, at('/c', 'http')],
    ['exact', 8, at('/a')],
  ] as const)
    await t.runtime.pool.query(
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
       VALUES ($1, $2, 'OK', $3, $4, 'serper', now())`,
      [newId(), ids[term], position, url],
    );
}, 60_000);
afterAll(() => t?.close());

const TABLE = `query($p: ID!, $a: ID, $columns: [String!], $filter: UrlTableFilterInput, $checkCode: String) {
  audit(projectId: $p, auditId: $a) { urlTable(first: 50, columns: $columns, filter: $filter, checkCode: $checkCode) {
    rows { url values } totalCount } } }`;

async function table(vars: Record<string, unknown>) {
  const res = await gql(t, TABLE, { p: project.id, a: auditId, ...vars }, { cookie: org.owner.cookie });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.audit.urlTable as { rows: { url: string; values: unknown[] }[]; totalCount: number };
}

describe('ranking URLs matched as the ranking pages match them', () => {
  it('the URL table counts the keywords of pages ranking under another form of their URL', async () => {
    const { rows } = await table({ columns: ['ranking_keywords', 'best_position'] });
    expect(Object.fromEntries(rows.map((r) => [r.url, r.values]))).toEqual({
      [at('/a')]: [2, 3],
      [at('/b/')]: [1, 5],
      [at('/c')]: [1, 2],
      [at('/c', 'http')]: [0, null],
      [at('/d')]: [0, null],
    });
    const ranking = await table({
      columns: ['best_position'],
      filter: { groups: [{ conditions: [{ field: 'ranking_keywords', operator: 'gt', value: '0' }] }] },
    });
    expect(ranking.rows.map((r) => r.url).sort()).toEqual([at('/a'), at('/b/'), at('/c')]);
    expect(ranking.totalCount).toBe(3);
  });

  it("an issue's URL table lists its ranking URL first, as Issue.rankingPages counts it", async () => {
    const { rows } = await table({ checkCode: 'META_TITLE_MISSING', columns: ['ranking_keywords'] });
    expect(rows.map((r) => [r.url, r.values[0]])).toEqual([
      [at('/a'), 2],
      [at('/d'), 0],
    ]);
    const res = await gql(
      t,
      `query($p: ID!, $a: ID!) { audit(projectId: $p, auditId: $a) { issues { code rankingPages
        occurrences(first: 5) { nodes { url rankingKeywords { term position } } } } } }`,
      { p: project.id, a: auditId },
      { cookie: org.owner.cookie },
    );
    const [issue] = res.body.data.audit.issues as {
      rankingPages: number;
      occurrences: { nodes: { url: string; rankingKeywords: { term: string; position: number }[] }[] };
    }[];
    expect(issue.rankingPages).toBe(1);
    const a = issue.occurrences.nodes.find((n) => n.url === at('/a'))!;
    expect(a.rankingKeywords).toEqual([
      { term: 'cased', position: 3 },
      { term: 'exact', position: 8 },
    ]);
  });
});
