import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Project } from '../factories.js';

/**
 * Keyword cannibalisation read from the stored SERP snapshots, as the rank worker writes them (one snapshot of the
 * top results per successful check): keywords for which 2+ of the site's URLs ranked within the window.
 */
let t: TestApp;
let project: Project;
const ids: Record<string, string> = {};
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

async function snapshot(keywordId: string, at: Date, urls: string[]): Promise<void> {
  const results = urls.map((url, i) => ({ position: i + 1, url, domain: new URL(url).hostname, title: `R${i}` }));
  await t.runtime.pool.query(
    `INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results)
     VALUES ($1, $2, 'serper', $3, 1, $4)`,
    [newId(), keywordId, at, JSON.stringify(results)],
  );
}

const QUERY = `query($p: ID!, $d: Int, $m: Int, $s: String) {
  keywordCannibalisation(projectId: $p, days: $d, minUrls: $m, search: $s) {
    keywordId term checks maxUrlsAtOneCheck latestUrls latestCheckedAt
    urls { url bestPosition latestPosition positions { checkedAt position } } } }`;
const ask = (variables: Record<string, unknown>, cookie = project.org.owner.cookie) =>
  gql(t, QUERY, variables, { cookie });

beforeAll(async () => {
  t = await createTestApp();
  project = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
  const added = await gql(
    t,
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id term } }',
    { p: project.id, k: ['sql joins', 'sql index', 'window functions', 'old switch'] },
    { cookie: project.org.owner.cookie },
  );
  for (const k of added.body.data.addKeywords as { id: string; term: string }[]) ids[k.term] = k.id;
  const site = (path: string) => `https://${project.domain}${path}`;
  const www = (path: string) => `http://www.${project.domain}${path}`;
  // sql joins: two site URLs at one check (www. and scheme do not make it another site).
  await snapshot(ids['sql joins'], daysAgo(3), ['https://other.org/joins', site('/sql/joins'), www('/blog/joins')]);
  await snapshot(ids['sql joins'], daysAgo(1), [site('/sql/joins'), 'https://other.org/joins']);
  // sql index: switched ranking URL, never two at once; a subdomain and a look-alike host are not the site.
  await snapshot(ids['sql index'], daysAgo(10), [site('/sql/index')]);
  await snapshot(ids['sql index'], daysAgo(5), [`https://docs.${project.domain}/index`, site('/guide/index')]);
  await snapshot(ids['sql index'], daysAgo(0.5), [`https://${project.domain}.evil.net/x`, site('/guide/index')]);
  // window functions: one URL only.
  await snapshot(ids['window functions'], daysAgo(2), [site('/window')]);
  await snapshot(ids['window functions'], daysAgo(1), ['https://x.org/', site('/window')]);
  // old switch: two URLs, but 20 days ago.
  await snapshot(ids['old switch'], daysAgo(20), [site('/a'), site('/b')]);
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('keywordCannibalisation', () => {
  it('lists keywords with 2+ site URLs in the last 14 days, with each URL’s positions over time', async () => {
    const res = await ask({ p: project.id });
    expect(res.body.errors).toBeUndefined();
    const list = res.body.data.keywordCannibalisation;
    expect(list.map((k: { term: string }) => k.term)).toEqual(['sql joins', 'sql index']);
    const [joins, index] = list;
    expect(joins).toMatchObject({ keywordId: ids['sql joins'], checks: 2, maxUrlsAtOneCheck: 2, latestUrls: 1 });
    expect(joins.urls).toEqual([
      {
        url: `https://${project.domain}/sql/joins`,
        bestPosition: 1,
        latestPosition: 1,
        positions: [
          { checkedAt: expect.any(String), position: 2 },
          { checkedAt: expect.any(String), position: 1 },
        ],
      },
      {
        url: `http://www.${project.domain}/blog/joins`,
        bestPosition: 3,
        latestPosition: null,
        positions: [{ checkedAt: expect.any(String), position: 3 }],
      },
    ]);
    expect(index).toMatchObject({ checks: 3, maxUrlsAtOneCheck: 1, latestUrls: 1 });
    expect(index.urls.map((u: { url: string; latestPosition: number | null }) => [u.url, u.latestPosition])).toEqual([
      [`https://${project.domain}/guide/index`, 2],
      [`https://${project.domain}/sql/index`, null],
    ]);
  });

  it('takes the window, the minimum of URLs and a search', async () => {
    const week = await ask({ p: project.id, d: 7 });
    expect(week.body.data.keywordCannibalisation.map((k: { term: string }) => k.term)).toEqual(['sql joins']);
    const month = await ask({ p: project.id, d: 30 });
    expect(month.body.data.keywordCannibalisation.map((k: { term: string }) => k.term)).toEqual([
      'sql joins',
      'sql index',
      'old switch',
    ]);
    const three = await ask({ p: project.id, d: 30, m: 3 });
    expect(three.body.data.keywordCannibalisation).toEqual([]);
    const search = await ask({ p: project.id, s: '  INDEX ' });
    expect(search.body.data.keywordCannibalisation.map((k: { term: string }) => k.term)).toEqual(['sql index']);
  });

  it('counts subdomains when the project says so', async () => {
    await t.runtime.pool.query(
      `UPDATE project SET settings = settings || '{"rankIncludeSubdomains": true}'::jsonb WHERE id = $1`,
      [project.id],
    );
    try {
      const res = await ask({ p: project.id, d: 7 });
      const index = res.body.data.keywordCannibalisation.find((k: { term: string }) => k.term === 'sql index');
      expect(index).toMatchObject({ maxUrlsAtOneCheck: 2 });
      expect(index.urls.map((u: { url: string }) => u.url)).toContain(`https://docs.${project.domain}/index`);
    } finally {
      await t.runtime.pool.query(`UPDATE project SET settings = settings - 'rankIncludeSubdomains' WHERE id = $1`, [
        project.id,
      ]);
    }
  });

  it('refuses bad input with the fields at fault, and another organization’s project is NOT_FOUND', async () => {
    for (const [variables, path] of [
      [{ d: 0 }, 'days'],
      [{ d: 91 }, 'days'],
      [{ m: 1 }, 'minUrls'],
      [{ m: 21 }, 'minUrls'],
      [{ s: 'x'.repeat(201) }, 'search'],
    ] as const) {
      const res = await ask({ p: project.id, ...variables });
      expect(res.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0].message).toMatch(path);
    }
    const other = await aProject({ org: await anOrg(t) });
    const stranger = await ask({ p: project.id }, other.org.owner.cookie);
    expect(stranger.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const empty = await ask({ p: other.id }, other.org.owner.cookie);
    expect(empty.body.data.keywordCannibalisation).toEqual([]);
  });

  it('is GET /api/projects/:id/keywords/cannibalisation, with the same rules', async () => {
    const get = (query: string, cookie = project.org.owner.cookie) =>
      t.app.inject({
        method: 'GET',
        url: `/api/projects/${project.id}/keywords/cannibalisation${query}`,
        headers: { cookie },
      });
    const week = await get('?days=7');
    expect(week.statusCode).toBe(200);
    expect(week.json().keywords.map((k: { term: string }) => k.term)).toEqual(['sql joins']);
    expect(week.json().keywords[0].urls[0]).toMatchObject({
      url: `https://${project.domain}/sql/joins`,
      latestPosition: 1,
    });
    const all = await get('');
    expect(all.json().keywords.map((k: { term: string }) => k.term)).toEqual(['sql joins', 'sql index']);
    const bad = await get('?days=0');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/days/);
    const notANumber = await get('?minUrls=many');
    expect(notANumber.statusCode).toBe(400);
    const other = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
    expect((await get('', other.org.owner.cookie)).statusCode).toBe(404);
  });

  it('is GET /api/v1/projects/:projectId/keywords/cannibalisation with an API key, the same answer', async () => {
    const key = await anApiKey(project.org, 'cannibalisation');
    const get = (query: string, bearer = key, projectId = project.id) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/keywords/cannibalisation${query}`,
        headers: { authorization: `Bearer ${bearer}` },
      });
    const v1 = await get('?days=30&minUrls=2&search=SQL');
    expect(v1.statusCode).toBe(200);
    const dashboard = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/keywords/cannibalisation?days=30&minUrls=2&search=SQL`,
      headers: { cookie: project.org.owner.cookie },
    });
    expect(v1.json()).toEqual(dashboard.json());
    expect(v1.json().keywords.map((k: { term: string }) => k.term)).toEqual(['sql joins', 'sql index']);
    expect((await get('')).json().keywords.map((k: { term: string }) => k.term)).toEqual(['sql joins', 'sql index']);
    const bad = await get('?minUrls=21');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/minUrls/);
    expect((await get('?days=abc')).statusCode).toBe(400);
    expect((await get('', 'seo_not-a-key')).statusCode).toBe(401);
    const other = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
    expect((await get('', await anApiKey(other.org))).statusCode).toBe(404);
    expect((await get('', key, other.id)).statusCode).toBe(404);
  });

  it('reads the stored site results when their needle is the domain, all the results otherwise', async () => {
    const before = (await ask({ p: project.id, d: 30 })).body.data.keywordCannibalisation;
    expect(before.length).toBeGreaterThanOrEqual(2);
    const store = (needle: string, site: string) =>
      t.runtime.pool.query(
        `UPDATE serp_snapshot SET site_needle = $2, site_results = ${site}
         WHERE keyword_id IN (SELECT id FROM keyword WHERE project_id = $1)`,
        [project.id, needle],
      );
    try {
      // Stored empty under the domain: read as stored, so no site URL ranked anywhere.
      await store(project.domain, `'[]'::jsonb`);
      expect((await ask({ p: project.id, d: 30 })).body.data.keywordCannibalisation).toEqual([]);
      // Stored under another needle (the domain changed since): read from all the results, as before.
      await store('old-domain.example', `'[]'::jsonb`);
      expect((await ask({ p: project.id, d: 30 })).body.data.keywordCannibalisation).toEqual(before);
      // Stored as the rank worker stores them: the same answer.
      await store(
        project.domain,
        `(SELECT COALESCE(jsonb_agg(e ORDER BY (e->>'position')::numeric), '[]'::jsonb)
          FROM jsonb_array_elements(results) e WHERE strpos(lower(e->>'url'), $2) > 0)`,
      );
      expect((await ask({ p: project.id, d: 30 })).body.data.keywordCannibalisation).toEqual(before);
    } finally {
      await store('', 'NULL');
    }
  });
});
