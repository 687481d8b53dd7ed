import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { URL_TABLE_FIELDS } from '../../src/audits/index.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { nativeTransaction } from '../../src/platform/db/native-query.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anAudit, anOrg, aProject, type Org, type PageRow, type Project } from '../factories.js';
import { readXlsxRows } from '../support/xlsx-reader.js';

/**
 * The URL table (Audit.urlTable) over an audit written as the worker writes it: pages with their details, issues
 * with occurrences, lab vitals and ranking keywords. Every sortable field walked in keyset pages both ways against
 * the same rows sorted in JavaScript; the filter model (each operator, groups, AND/OR, "has issue"); clear refusals;
 * another organization's audit is NOT_FOUND.
 */
let t: TestApp;
let org: Org;
let project: Project;
let auditId: string;
let host: string;

const N = 23;
const at = (path: string) => `https://${host}/${path}`;

function pageOf(i: number): PageRow {
  const status = [200, 200, 301, 404, 200, 500, null][i % 7];
  return {
    url: at(`p${String(i).padStart(2, '0')}${i % 2 ? '?q=1' : ''}`),
    statusCode: status,
    kind: status === null ? 'FAILED' : status === 301 ? 'REDIRECT' : status >= 400 ? 'ERROR' : 'HTML',
    depth: i % 4,
    title: i % 5 === 0 ? null : `Title ${String.fromCharCode(97 + ((i * 7) % 11))}${i % 3 ? ' shoes' : ''}`,
    metaDescription: i % 6 === 0 ? null : 'd'.repeat(50 + ((i * 13) % 120)),
    indexable: status === 200 && i % 8 !== 0,
    wordCount: ((i * 37) % 9) * 100,
    responseTimeMs: i % 9 === 3 ? null : 100 + ((i * 31) % 7) * 10,
    bytes: 1000 + i,
    outlinks: i % 3,
    error: status === null ? 'connection refused' : null,
    details: {
      contentType: status === 200 ? 'text/html' : 'application/pdf',
      lang: i % 2 ? 'en' : 'de',
      h1: i % 4 === 0 ? [] : Array.from({ length: (i % 3) + 1 }, (_, k) => `Heading ${k}`),
      robotsMeta: i % 8 === 0 ? ['noindex'] : [],
      xRobotsTag: i === 9 ? ['noarchive'] : [],
      hreflang: i % 5 === 1 ? [{ lang: 'en', url: at('en') }] : [],
      structuredData: i % 4 === 1 ? ['Product', 'Offer'] : [],
      ...(i % 8 === 0 ? { nonIndexable: 'noindex' } : {}),
    },
  };
}

const PAGES = Array.from({ length: N }, (_, i) => pageOf(i));

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: '100000' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `table-${uniq()}.example.com`;
  project = await aProject({ org, url: `https://${host}/` });
  const audit = await anAudit({
    project,
    pages: PAGES,
    issues: [
      { code: 'META_TITLE_MISSING', occurrences: PAGES.filter((p) => p.title === null).map((p) => p.url) },
      { code: 'CONTENT_H1_MISSING', occurrences: [PAGES[4].url, PAGES[8].url] },
      {
        code: 'LINKS_INTERNAL_BROKEN',
        occurrences: [
          {
            url: PAGES[1].url,
            evidence: {
              count: 2,
              links: [
                { url: at('gone'), status: 404 },
                { url: at('x'), status: 410 },
              ],
            },
          },
          { url: PAGES[5].url, evidence: { count: 1, links: [{ url: at('gone'), status: 404 }] } },
          { url: PAGES[3].url, evidence: { count: 1, links: [{ url: at('old'), status: 500 }] } },
        ],
      },
      {
        code: 'META_TITLE_DUPLICATE',
        occurrences: [
          { url: PAGES[7].url, evidence: { title: 'Same', duplicates: 1, sameAs: [PAGES[14].url] } },
          { url: PAGES[14].url, evidence: { title: 'Same', duplicates: 1, sameAs: [PAGES[7].url] } },
        ],
      },
      // Plain http pages: the evidence's URL is the page's own (no redirect), so it says nothing a column could.
      {
        code: 'TECH_HTTP_PAGE',
        occurrences: [
          { url: PAGES[2].url, evidence: { url: PAGES[2].url } },
          { url: PAGES[6].url, evidence: { url: PAGES[6].url } },
        ],
      },
      // og:url differs from the canonical: the canonical is the page itself on both (no column), og:url is not
      // (a column), though on one page it is the page's own URL.
      {
        code: 'META_OG_URL_MISMATCH',
        occurrences: [
          { url: PAGES[2].url, evidence: { ogUrl: at('moved'), canonical: PAGES[2].url } },
          { url: PAGES[6].url, evidence: { ogUrl: PAGES[6].url, canonical: PAGES[6].url } },
        ],
      },
    ],
  });
  auditId = audit.id;
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  await q(
    `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, internal)
     VALUES ($1, $2, $3, 'Old offer', true), ($1, $2, $4, 'X marks', true)`,
    [audit.id, PAGES[1].url, at('gone'), at('x')],
  );
  // Links with their position: two pages link to p02 from content, one twice (distinct pages count), one from
  // the footer, and p02 links to itself (not an inlink).
  await q(
    `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, internal, position)
     VALUES ($1, $2, $4, 'a', true, 'CONTENT'), ($1, $2, $4, 'b', true, 'CONTENT'), ($1, $3, $4, 'c', true, 'CONTENT'),
       ($1, $3, $4, 'd', true, 'FOOTER'), ($1, $4, $4, 'e', true, 'NAVIGATION'), ($1, $2, $5, 'f', true, 'NAVIGATION')`,
    [audit.id, PAGES[1].url, PAGES[3].url, PAGES[2].url, PAGES[4].url],
  );
  // Inlinks with no position (links of audits crawled before positions were kept): (i * 5) % 4 pages link to page i.
  await q(
    `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, internal)
     SELECT $1, s.url, t.url, 'n', true FROM unnest($2::text[]) WITH ORDINALITY AS t(url, i)
       CROSS JOIN generate_series(1, ((t.i - 1) * 5 % 4)::int) AS k
       JOIN unnest($2::text[]) WITH ORDINALITY AS s(url, i) ON s.i = (t.i - 1 + k) % cardinality($2::text[]) + 1`,
    [audit.id, PAGES.map((p) => p.url)],
  );
  // The completion's own statement stores the per-page counts.
  await nativeTransaction(t.runtime.orm.em, (tx) => new AuditResultsRepository().storePageCounts(tx, auditId));
  for (const [i, lcp] of [
    [1, 2400],
    [2, 1800],
  ] as const)
    await q(
      `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source, lcp_ms)
       VALUES ($1, $2, $3, $4, now(), 'mobile', 'LAB', $5)`,
      [newId(), project.id, auditId, PAGES[i].url, lcp],
    );
  const added = await gql(
    t,
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id term } }',
    { p: project.id, k: ['red shoes', 'blue shoes'] },
    { cookie: org.owner.cookie },
  );
  const ids = (added.body.data.addKeywords as { id: string }[]).map((k) => k.id);
  for (const [k, position] of [
    [0, 4],
    [1, 9],
  ] as const)
    await q(
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
       VALUES ($1, $2, 'OK', $3, $4, 'serper', now())`,
      [newId(), ids[k], position, PAGES[5].url],
    );
});
afterAll(() => t.close());

const TABLE = `query($p: ID!, $a: ID, $first: Int, $after: String, $columns: [String!], $sort: UrlTableSortInput,
  $filter: UrlTableFilterInput, $checkCode: String) {
  audit(projectId: $p, auditId: $a) { urlTable(first: $first, after: $after, columns: $columns, sort: $sort,
    filter: $filter, checkCode: $checkCode) {
    columns { key type } rows { id url values } pageInfo { hasNextPage endCursor } totalCount } } }`;

interface Table {
  columns: { key: string; type: string }[];
  rows: { id: string; url: string; values: unknown[] }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

async function table(vars: Record<string, unknown>, cookie = org.owner.cookie) {
  const res = await gql(t, TABLE, { p: project.id, a: auditId, ...vars }, { cookie });
  return {
    errors: res.body.errors as { message: string; extensions?: { code?: string } }[] | undefined,
    table: res.body.data?.audit?.urlTable as Table | undefined,
  };
}

/** Every row of a view, walked in keyset pages of `first`. */
async function walk(vars: Record<string, unknown>, first: number): Promise<Table['rows']> {
  const rows: Table['rows'] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const { errors, table: page } = await table({ ...vars, first, after });
    expect(errors).toBeUndefined();
    rows.push(...page!.rows);
    if (!page!.pageInfo.hasNextPage) return rows;
    after = page!.pageInfo.endCursor;
  }
  throw new Error('no end');
}

const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
};

describe('the field registry', () => {
  it('has at least 40 fields, each with a label, a type and SQL', () => {
    expect(URL_TABLE_FIELDS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(URL_TABLE_FIELDS.map((f) => f.key)).size).toBe(URL_TABLE_FIELDS.length);
    for (const f of URL_TABLE_FIELDS) expect(f.label && f.sql && ['text', 'number', 'bool', 'enum'].includes(f.type));
  });

  it('urlTableFields lists them with their operators', async () => {
    const res = await gql(t, '{ urlTableFields { key type operators } }', {}, { cookie: org.owner.cookie });
    const fields = res.body.data.urlTableFields as { key: string; type: string; operators: string[] }[];
    expect(fields.length).toBe(URL_TABLE_FIELDS.length);
    expect(fields.find((f) => f.key === 'url')!.operators).toContain('regex');
    expect(fields.find((f) => f.key === 'words')!.operators).toContain('between');
  });

  it('reads every field of every row in one statement', async () => {
    const { errors, table: all } = await table({ columns: URL_TABLE_FIELDS.map((f) => f.key), first: 100 });
    expect(errors).toBeUndefined();
    expect(all!.rows).toHaveLength(N);
    const row = (i: number) => {
      const r = all!.rows.find((x) => x.url === PAGES[i].url)!;
      return Object.fromEntries(all!.columns.map((c, k) => [c.key, r.values[k]])) as Record<string, any>;
    };
    expect(row(1)).toMatchObject({
      status: 200,
      status_class: 'SUCCESS',
      kind: 'HTML',
      h1: 'Heading 0',
      h1_count: 2,
      language: 'en',
      hreflang_count: 1,
      structured_data_types: 'Product, Offer',
      structured_data_count: 2,
      lab_lcp: 2400,
      has_query: true,
      size: 1001,
      content_type: 'text/html',
      issues: 1,
      issue_codes: 1,
    });
    expect(row(0)).toMatchObject({ title: null, issues: 1, warning_issues: 0, meta_robots: 'noindex' });
    expect(row(0).non_indexable_reason).toBe('noindex');
    expect(row(0).critical_issues + row(0).warning_issues + row(0).notice_issues).toBe(1);
    expect(row(5)).toMatchObject({ ranking_keywords: 2, best_position: 4, status_class: 'SERVER_ERROR' });
    expect(row(6)).toMatchObject({ status: null, status_class: 'FAILED', error: 'connection refused' });
    expect(row(9).x_robots_tag).toBe('noarchive');
    expect(row(2)).toMatchObject({ ranking_keywords: 0, best_position: null });
    expect(String(row(3).first_seen)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe('stored counts', () => {
  const stored = URL_TABLE_FIELDS.filter((f) => f.stored);

  it('a completed audit reads the counts stored with its completion, equal to those counted live', async () => {
    expect(stored.map((f) => f.key).sort()).toEqual(
      [
        'critical_issues',
        'inlinks',
        'inlinks_aside',
        'inlinks_content',
        'inlinks_footer',
        'inlinks_header',
        'inlinks_navigation',
        'issue_codes',
        'issues',
        'notice_issues',
        'warning_issues',
      ].sort(),
    );
    for (const f of stored) {
      const { rows } = await t.runtime.pool.query(
        `SELECT count(*) FILTER (WHERE (${f.sql}) IS DISTINCT FROM (${f.stored}))::int AS differ,
           count(*) FILTER (WHERE (${f.stored}) > 0)::int AS counted
         FROM audit_page p WHERE p.audit_id = $1`,
        [auditId],
      );
      expect(rows[0].differ, f.key).toBe(0);
      if (!['inlinks_header', 'inlinks_aside', 'notice_issues'].includes(f.key))
        expect(rows[0].counted, f.key).toBeGreaterThan(0);
    }
    const { table: view } = await table({
      columns: ['inlinks_content', 'inlinks_footer', 'inlinks_navigation'],
      filter: { groups: [{ conditions: [{ field: 'inlinks_content', operator: 'gt', value: '0' }] }] },
    });
    expect(view!.rows.map((r) => [r.url, r.values])).toEqual([[PAGES[2].url, [2, 1, 0]]]);
    // The set of checks found on each page ("has issue X" reads it): the codes of its occurrences, {} for none.
    const { rows: sets } = await t.runtime.pool.query(
      `SELECT count(*) FILTER (WHERE p.issue_code_set IS DISTINCT FROM (SELECT COALESCE(
           array_agg(DISTINCT o.code ORDER BY o.code), '{}') FROM issue_occurrence o
           WHERE o.audit_id = p.audit_id AND o.url = p.url))::int AS differ,
         count(*) FILTER (WHERE cardinality(p.issue_code_set) > 0)::int AS affected
       FROM audit_page p WHERE p.audit_id = $1`,
      [auditId],
    );
    expect(sets[0]).toEqual({ differ: 0, affected: expect.any(Number) });
    expect(sets[0].affected).toBeGreaterThan(0);
    // Each issue's occurrences, stored as its URL table's total.
    const { rows: issues } = await t.runtime.pool.query(
      `SELECT i.code, i.occurrences, (SELECT count(*)::int FROM issue_occurrence o
         WHERE o.audit_id = i.audit_id AND o.code = i.code) AS counted
       FROM audit_issue i WHERE i.audit_id = $1`,
      [auditId],
    );
    expect(issues.length).toBeGreaterThan(0);
    for (const i of issues) expect(i.occurrences, i.code).toBe(i.counted);
    const code = issues.find((i) => i.counted > 0)!.code;
    const { table: scoped } = await table({ checkCode: code, columns: ['url'] });
    expect(scoped!.totalCount).toBe(issues.find((i) => i.code === code)!.counted);
    // The total is the stored count (a planted one shows), not a count of the rows on every view.
    await t.runtime.pool.query('UPDATE audit_issue SET occurrences = 999 WHERE audit_id = $1 AND code = $2', [
      auditId,
      code,
    ]);
    try {
      expect((await table({ checkCode: code, columns: ['url'] })).table!.totalCount).toBe(999);
    } finally {
      await t.runtime.pool.query('UPDATE audit_issue SET occurrences = $3 WHERE audit_id = $1 AND code = $2', [
        auditId,
        code,
        issues.find((i) => i.code === code)!.counted,
      ]);
    }
  });

  it('a running audit counts them live', async () => {
    const other = await aProject({ org, url: `https://live-${uniq()}.example.com/` });
    const running = await anAudit({
      project: other,
      status: 'RUNNING',
      pages: [{ url: at('live') }],
      issues: [{ code: 'CONTENT_H1_MISSING', occurrences: [at('live')] }],
    });
    const res = await gql(
      t,
      TABLE,
      {
        p: other.id,
        a: running.id,
        columns: ['issues', 'issue_codes'],
        sort: { field: 'issues', direction: 'DESC' },
      },
      { cookie: org.owner.cookie },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.audit.urlTable.rows[0].values).toEqual([1, 1]);
    // "has issue" while the audit runs: its pages carry no set yet, the occurrences are read.
    for (const [operator, urls] of [
      ['eq', [at('live')]],
      ['neq', []],
    ] as const) {
      const filtered = await gql(
        t,
        TABLE,
        {
          p: other.id,
          a: running.id,
          filter: { groups: [{ conditions: [{ field: 'issue', operator, value: 'CONTENT_H1_MISSING' }] }] },
        },
        { cookie: org.owner.cookie },
      );
      expect(filtered.body.errors).toBeUndefined();
      expect(filtered.body.data.audit.urlTable.rows.map((r: { url: string }) => r.url)).toEqual(urls);
    }
  });
});

describe('sorting', () => {
  const sortable = URL_TABLE_FIELDS.filter((f) => f.sortable);
  it.each(sortable.map((f) => f.key))('%s in keyset pages, both ways, stable on the row id', async (key) => {
    for (const direction of ['ASC', 'DESC'] as const) {
      const rows = await walk({ columns: [key], sort: { field: key, direction } }, 4);
      expect(rows).toHaveLength(N);
      expect(new Set(rows.map((r) => r.id)).size).toBe(N);
      const sign = direction === 'ASC' ? 1 : -1;
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        const [va, vb] = [a.values[0], b.values[0]];
        if (va === null) expect(vb, `${key} nulls last`).toBeNull();
        else if (vb !== null) expect(sign * compare(va, vb), `${key} ${direction}`).toBeLessThanOrEqual(0);
        if (va === vb || (va === null && vb === null)) expect(sign * (Number(a.id) - Number(b.id))).toBeLessThan(0);
      }
    }
  });
});

describe('filtering', () => {
  const urls = async (filter: unknown) => {
    const { errors, table: page } = await table({ filter, first: 100 });
    expect(errors).toBeUndefined();
    expect(page!.totalCount).toBe(page!.rows.length);
    return page!.rows.map((r) => r.url).sort();
  };
  const where = (test: (p: PageRow, i: number) => boolean) =>
    PAGES.filter(test)
      .map((p) => p.url)
      .sort();
  const one = (field: string, operator: string, value?: string, valueTo?: string) => ({
    groups: [{ conditions: [{ field, operator, value, valueTo }] }],
  });

  it('text operators', async () => {
    expect(await urls(one('title', 'contains', 'SHOES'))).toEqual(where((p) => /shoes/.test(p.title ?? '')));
    expect(await urls(one('title', 'not_contains', 'shoes'))).toEqual(where((p) => !/shoes/.test(p.title ?? '')));
    expect(await urls(one('title', 'is_empty'))).toEqual(where((p) => p.title === null));
    expect(await urls(one('title', 'eq', 'Title a'))).toEqual(where((p) => p.title === 'Title a'));
    expect(await urls(one('url', 'regex', 'p1[0-4]$'))).toEqual(where((p) => /p1[0-4]$/.test(p.url)));
    expect(await urls(one('url', 'contains', '%'))).toEqual([]);
  });

  it('number, bool and enum operators', async () => {
    expect(await urls(one('words', 'gte', '500'))).toEqual(where((p) => p.wordCount! >= 500));
    expect(await urls(one('words', 'between', '200', '400'))).toEqual(
      where((p) => p.wordCount! >= 200 && p.wordCount! <= 400),
    );
    expect(await urls(one('response_time', 'is_empty'))).toEqual(where((p) => p.responseTimeMs === null));
    expect(await urls(one('status', 'neq', '200'))).toEqual(where((p) => p.statusCode !== 200));
    expect(await urls(one('indexable', 'eq', 'true'))).toEqual(where((p) => p.indexable === true));
    expect(await urls(one('status_class', 'eq', 'CLIENT_ERROR'))).toEqual(where((p) => p.statusCode === 404));
    expect(await urls(one('lab_lcp', 'lt', '2000'))).toEqual([PAGES[2].url]);
    expect(await urls(one('ranking_keywords', 'gt', '0'))).toEqual([PAGES[5].url]);
  });

  it('groups with AND and OR, and has issue X', async () => {
    const filter = {
      combinator: 'OR',
      groups: [
        {
          combinator: 'AND',
          conditions: [
            { field: 'status', operator: 'eq', value: '200' },
            { field: 'depth', operator: 'eq', value: '1' },
          ],
        },
        { conditions: [{ field: 'issue', operator: 'eq', value: 'CONTENT_H1_MISSING' }] },
      ],
    };
    expect(await urls(filter)).toEqual(where((p, i) => (p.statusCode === 200 && p.depth === 1) || i === 4 || i === 8));
    expect(await urls(one('issue', 'neq', 'META_TITLE_MISSING'))).toEqual(where((p) => p.title !== null));
    const anyOf = {
      groups: [
        {
          combinator: 'OR',
          conditions: [one('depth', 'eq', '0'), one('depth', 'eq', '3')].map((f) => f.groups[0].conditions[0]),
        },
      ],
    };
    expect(await urls(anyOf)).toEqual(where((p) => p.depth === 0 || p.depth === 3));
  });

  it('a filtered view walks in keyset pages with its total', async () => {
    const filter = one('title', 'contains', 'shoes');
    const rows = await walk({ filter, sort: { field: 'words', direction: 'DESC' } }, 3);
    expect(rows.map((r) => r.url).sort()).toEqual(where((p) => /shoes/.test(p.title ?? '')));
  });
});

describe("an issue's URLs", () => {
  it('are the table scoped to the check, evidence flattened into columns, ranking URLs first', async () => {
    const { errors, table: page } = await table({ checkCode: 'LINKS_INTERNAL_BROKEN', columns: ['url', 'status'] });
    expect(errors).toBeUndefined();
    expect(page!.columns.map((c) => c.key)).toEqual([
      'url',
      'status',
      'evidence.count',
      'evidence.links.status',
      'evidence.links.url',
      'evidence.links.anchor',
    ]);
    expect(page!.totalCount).toBe(3);
    // PAGES[5] ranks for two keywords: first; then by URL.
    expect(page!.rows.map((r) => [r.url, ...r.values.slice(2)])).toEqual([
      [PAGES[5].url, 1, 404, at('gone'), null],
      [PAGES[1].url, 2, 404, at('gone'), 'Old offer'],
      [PAGES[1].url, 2, 410, at('x'), 'X marks'],
      [PAGES[3].url, 1, 500, at('old'), null],
    ]);
    expect(new Set(page!.rows.map((r) => r.id)).size).toBe(4);
    // Keyset pages of one occurrence each give the same rows.
    const walked = await walk({ checkCode: 'LINKS_INTERNAL_BROKEN', columns: ['url'] }, 1);
    expect(walked.map((r) => r.url)).toEqual([PAGES[5].url, PAGES[1].url, PAGES[1].url, PAGES[3].url]);
  });

  it("an evidence field equal to the row's URL on every row is no column; one that differs somewhere is", async () => {
    const own = await table({ checkCode: 'TECH_HTTP_PAGE', columns: ['url'] });
    expect(own.errors).toBeUndefined();
    expect(own.table!.columns.map((c) => c.key)).toEqual(['url']);
    expect(own.table!.rows.map((r) => r.values)).toEqual([[PAGES[2].url], [PAGES[6].url]]);
    const asked = await table({ checkCode: 'TECH_HTTP_PAGE', columns: ['url', 'evidence.url'] });
    expect(asked.errors?.[0]?.message).toMatch(/"evidence.url" is not an evidence column of this check/);
    const og = await table({ checkCode: 'META_OG_URL_MISMATCH', columns: ['url'] });
    expect(og.errors).toBeUndefined();
    expect(og.table!.columns.map((c) => c.key)).toEqual(['url', 'evidence.ogUrl']);
    expect(og.table!.rows.map((r) => r.values)).toEqual([
      [PAGES[2].url, at('moved')],
      [PAGES[6].url, PAGES[6].url],
    ]);
  });

  it("evidence columns sort (a list by its first item) in keyset pages; the link graph's anchor does not", async () => {
    const broken = { checkCode: 'LINKS_INTERNAL_BROKEN', columns: ['url', 'evidence.count', 'evidence.links.status'] };
    const byStatus = await walk({ ...broken, sort: { field: 'evidence.links.status', direction: 'DESC' } }, 1);
    // 500 first; the two whose first link is a 404 by occurrence id, descending; a list's other items follow it.
    expect(byStatus.map((r) => [r.url, r.values[2]])).toEqual([
      [PAGES[3].url, 500],
      [PAGES[5].url, 404],
      [PAGES[1].url, 404],
      [PAGES[1].url, 410],
    ]);
    const byCount = await walk({ ...broken, sort: { field: 'evidence.count', direction: 'ASC' } }, 1);
    expect(byCount.map((r) => [r.url, r.values[1]])).toEqual([
      [PAGES[5].url, 1],
      [PAGES[3].url, 1],
      [PAGES[1].url, 2],
      [PAGES[1].url, 2],
    ]);
    const titles = await table({
      checkCode: 'META_TITLE_DUPLICATE',
      columns: ['url', 'evidence.sameAs'],
      sort: { field: 'evidence.sameAs', direction: 'ASC' },
    });
    expect(titles.table!.rows.map((r) => r.values[1])).toEqual([PAGES[7].url, PAGES[14].url]);
    const anchor = await table({ ...broken, sort: { field: 'evidence.links.anchor' } });
    expect(anchor.errors?.[0]?.message).toMatch(/evidence.links.anchor cannot be sorted on/);
    const unknown = await table({ ...broken, sort: { field: 'evidence.nope' } });
    expect(unknown.errors?.[0]?.message).toMatch(/"evidence.nope" is not an evidence column of this check/);
    const unscoped = await table({ sort: { field: 'evidence.count' } });
    expect(unscoped.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("a duplicate's twin, a chosen evidence column, an explicit sort and a filter", async () => {
    const { errors, table: page } = await table({
      checkCode: 'META_TITLE_DUPLICATE',
      columns: ['url', 'evidence.sameAs'],
      sort: { field: 'url', direction: 'DESC' },
      filter: { groups: [{ conditions: [{ field: 'depth', operator: 'gte', value: '0' }] }] },
    });
    expect(errors).toBeUndefined();
    expect(page!.rows.map((r) => r.values)).toEqual([
      [PAGES[14].url, PAGES[7].url],
      [PAGES[7].url, PAGES[14].url],
    ]);
    const bad = await table({ checkCode: 'META_TITLE_DUPLICATE', columns: ['evidence.nope'] });
    expect(bad.errors?.[0]?.message).toMatch(/not an evidence column of this check/);
    const unscoped = await table({ columns: ['evidence.title'] });
    expect(unscoped.errors?.[0]?.message).toMatch(/need a checkCode/);
  });
});

describe('refusals', () => {
  const refused = async (vars: Record<string, unknown>, message: RegExp) => {
    const { errors } = await table({ first: 10, ...vars });
    expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors![0].message).toMatch(message);
  };
  const one = (field: string, operator: string, value?: string) => ({
    groups: [{ conditions: [{ field, operator, value }] }],
  });

  it('refuses a bad field, operator, value or regex clearly', async () => {
    await refused({ columns: ['url', 'nope'] }, /columns\[1\].*"nope" is not a field/);
    await refused({ sort: { field: 'nope' } }, /sort.field/);
    await refused({ filter: one('nope', 'eq', 'x') }, /"nope" is not a field/);
    await refused({ filter: one('words', 'contains', 'x') }, /"contains" does not apply to words \(number\)/);
    await refused({ filter: one('title', 'gt', 'x') }, /does not apply to title/);
    await refused({ filter: one('words', 'gt', 'many') }, /must be a whole number/);
    await refused({ filter: one('words', 'gt', '99999999999') }, /must be a whole number/);
    await refused({ filter: one('indexable', 'eq', 'yes') }, /true or false/);
    await refused({ filter: one('kind', 'eq', 'PAGE') }, /not one of kind's values/);
    await refused({ filter: one('url', 'regex', 'a(b') }, /not a valid regular expression/);
    await refused({ filter: one('issue', 'eq', 'NOT_A_CODE') }, /not a check code/);
    await refused({ filter: { combinator: 'XOR', groups: [] } }, /AND or OR/);
    await refused({ first: 0 }, /first/);
    await refused({ after: 'garbage!' }, /not a cursor/);
  });

  it('refuses a cursor of another sort or filter', async () => {
    const { table: page } = await table({ first: 2, sort: { field: 'words' } });
    await refused({ after: page!.pageInfo.endCursor, sort: { field: 'depth' } }, /another audit, check, sort/);
  });

  it("another organization's audit is NOT_FOUND", async () => {
    const stranger = await anOrg(t);
    const { errors } = await table({ first: 5 }, stranger.owner.cookie);
    expect(errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('export as shown', () => {
  const view = {
    columns: ['url', 'status', 'words', 'title', 'indexable'],
    sort: { field: 'words', direction: 'DESC' },
    filter: {
      combinator: 'OR',
      groups: [
        { conditions: [{ field: 'title', operator: 'contains', value: 'shoes' }] },
        { conditions: [{ field: 'depth', operator: 'eq', value: '0' }] },
      ],
    },
  };
  const restQuery = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      auditId,
      columns: view.columns.join(','),
      sort: 'words:desc',
      filter: JSON.stringify({
        combinator: 'OR',
        groups: [
          { conditions: [{ field: 'title', operator: 'contains', value: 'shoes' }] },
          { conditions: [{ field: 'depth', operator: 'eq', value: 0 }] },
        ],
      }),
      ...extra,
    }).toString();
  let key: string;
  let shown: Table;
  const get = (query: string, bearer = key) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/audit/urls/export?${query}`,
      headers: { authorization: `Bearer ${bearer}` },
    });
  /** CSV as rows of cells (no quoted cells in this fixture but the header's BOM). */
  const csvRows = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(','));
  const asText = (v: unknown) => (v === null ? '' : String(v));

  beforeAll(async () => {
    key = await anApiKey(org);
    shown = (await table({ ...view, first: 100 })).table!;
    expect(shown.rows.length).toBeGreaterThan(5);
  });

  it('CSV: the columns, filter and sort of the view', async () => {
    const res = await get(restQuery({ format: 'csv' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="urls-.*\.csv"/);
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(['URL', 'Status', 'Words', 'Title', 'Indexable']);
    expect(rows).toEqual(shown.rows.map((r) => r.values.map(asText)));
  });

  it('JSON: columns and rows keyed by field', async () => {
    const res = await get(restQuery({ format: 'json' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.columns.map((c: { key: string }) => c.key)).toEqual(view.columns);
    expect(body.rows).toEqual(shown.rows.map((r) => Object.fromEntries(view.columns.map((k, i) => [k, r.values[i]]))));
  });

  it('XLSX: a workbook whose sheet is the view', async () => {
    const res = await get(restQuery({ format: 'xlsx' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const rows = readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(['URL', 'Status', 'Words', 'Title', 'Indexable']);
    expect(rows.slice(1)).toEqual(shown.rows.map((r) => r.values.map((v) => (v === '' ? null : v))));
  });

  it('in pieces: the pieces joined are the one-piece file, for each format', async () => {
    const PIECES = `query($p: ID!, $a: ID, $format: UrlTableExportFormat!, $columns: [String!],
      $sort: UrlTableSortInput, $filter: UrlTableFilterInput, $after: String, $size: Int!) {
      audit(projectId: $p, auditId: $a) {
      urlTableExport(format: $format, columns: $columns, sort: $sort, filter: $filter, after: $after, size: $size) {
        encoding content rows nextCursor } } }`;
    for (const format of ['CSV', 'JSON', 'XLSX']) {
      const file = async (size: number) => {
        const parts: Buffer[] = [];
        let after: string | null = null;
        let pieces = 0;
        do {
          const res: { body: { data?: any; errors?: unknown } } = await gql(
            t,
            PIECES,
            { p: project.id, a: auditId, format, ...view, after, size },
            {
              cookie: org.owner.cookie,
            },
          );
          expect(res.body.errors).toBeUndefined();
          const piece = res.body.data.audit.urlTableExport as {
            content: string;
            encoding: string;
            nextCursor: string | null;
          };
          parts.push(Buffer.from(piece.content, piece.encoding === 'BASE64' ? 'base64' : 'utf8'));
          after = piece.nextCursor;
          pieces++;
        } while (after);
        return { bytes: Buffer.concat(parts), pieces };
      };
      const [whole, pieced] = [await file(1000), await file(2)];
      expect(pieced.pieces).toBeGreaterThan(2);
      if (format === 'XLSX') expect(readXlsxRows(pieced.bytes)).toEqual(readXlsxRows(whole.bytes));
      else if (format === 'JSON')
        expect({ ...JSON.parse(pieced.bytes.toString()), exportedAt: 0 }).toEqual({
          ...JSON.parse(whole.bytes.toString()),
          exportedAt: 0,
        });
      else expect(pieced.bytes.toString()).toBe(whole.bytes.toString());
    }
  });

  it('cursors: no after is the first piece; a forged, altered or borrowed cursor is BAD_USER_INPUT', async () => {
    const PIECE = `query($p: ID!, $a: ID, $format: UrlTableExportFormat!, $columns: [String!], $sort: UrlTableSortInput,
      $filter: UrlTableFilterInput, $after: String) {
      audit(projectId: $p, auditId: $a) {
      urlTableExport(format: $format, columns: $columns, sort: $sort, filter: $filter, after: $after, size: 2) {
        rows nextCursor } } }`;
    const NO_AFTER = PIECE.replace(', after: $after', '').replace(', $after: String', '');
    const piece = (vars: Record<string, unknown>, query = PIECE) =>
      gql(t, query, { p: project.id, a: auditId, ...view, ...vars }, { cookie: org.owner.cookie });
    // GraphQL without `after` (not even null): the first piece.
    // Another audit of the same project (older: the latest stays this file's audit).
    const otherAuditId = (await anAudit({ project, pages: PAGES.slice(0, 5), createdAt: new Date(Date.now() - 864e5) }))
      .id;
    const first = await piece({ format: 'XLSX' }, NO_AFTER);
    expect(first.body.errors).toBeUndefined();
    const cursor = first.body.data.audit.urlTableExport.nextCursor as string;
    expect(cursor).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect((await piece({ format: 'XLSX', after: cursor })).body.errors).toBeUndefined();

    const [payload, mac] = cursor.split('.');
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { rows: number; xlsx: object };
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forged: [string, Record<string, unknown>][] = [
      // The drill's case: the XLSX writer's state made up (it used to reach the writer: INTERNAL).
      [
        'forged XLSX state',
        { format: 'XLSX', after: b64({ ...state, xlsx: { crc: 2 ** 40, raw: -1, packed: 1e300 } }) },
      ],
      ['forged state, old MAC', { format: 'XLSX', after: `${b64({ ...state, rows: 999 })}.${mac}` }],
      ['altered MAC', { format: 'XLSX', after: `${payload}.${flip(mac, 3)}` }],
      ['altered payload', { format: 'XLSX', after: `${flip(payload, 5)}.${mac}` }],
      ['garbage', { format: 'XLSX', after: 'garbage!' }],
      ['another format', { format: 'CSV', after: cursor }],
      ['another sort', { format: 'XLSX', after: cursor, sort: { field: 'url', direction: 'ASC' } }],
      ['another filter', { format: 'XLSX', after: cursor, filter: null }],
      ['another audit', { format: 'XLSX', after: cursor, a: otherAuditId }],
    ];
    for (const [what, vars] of forged) {
      const res = await piece(vars);
      expect(res.body.errors?.[0]?.extensions?.code, what).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message, what).toMatch(/not a valid cursor of this export/);
    }
  });

  it("an issue's export: evidence flattened into columns, never JSON", async () => {
    const res = await get(
      new URLSearchParams({ auditId, checkCode: 'LINKS_INTERNAL_BROKEN', columns: 'url' }).toString(),
    );
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(['URL', 'Count', 'Links: status', 'Links: url', 'Links: anchor']);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toEqual([PAGES[1].url, '2', '404', at('gone'), 'Old offer']);
    expect(res.body).not.toMatch(/[{[]/);
  });

  it('refuses bad input with 400 and a clear message, another organization with 404', async () => {
    for (const [extra, message] of [
      [{ filter: '{not json' }, /filter must be JSON/],
      [{ filter: '{"groups":[{"conditions":[{"field":"words","operator":"regex","value":"a"}]}]}' }, /does not apply/],
      [
        { filter: '{"groups":[{"conditions":[{"field":"url","operator":"regex","value":"(("}]}]}' },
        /regular expression/,
      ],
      [{ sort: 'nope:desc' }, /not a field/],
      [{ sort: 'words:sideways' }, /:asc or :desc/],
      [{ columns: 'url,bogus' }, /"bogus" is not a field/],
    ] as const) {
      const res = await get(restQuery(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await get(restQuery({ format: 'pdf' }))).statusCode).toBe(400);
    const stranger = await anOrg(t, { plan: 'ENTERPRISE' });
    const res = await get(restQuery(), await anApiKey(stranger));
    expect(res.statusCode).toBe(404);
  });
});
