import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { auditFieldsByKey, URL_TABLE_FIELDS } from '../../src/audits/url-table.repository.js';
import { MAX_SEGMENT_CONDITIONS } from '../../src/audits/segment-rule.js';
import { nativeTransaction } from '../../src/platform/db/native-query.js';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';

/**
 * Segments kept as members per audit (src/audits/segment-membership.ts) and the URL history behind first/last seen
 * (migrations 20261128-0730/0731): 50 segments of 200 conditions read through the names column with a statement
 * under the grid's cap; an edited segment's members written again; the segment limits refused; first/last seen
 * across three audits and a running fourth; every field of a completed audit read from its row, a stored column or
 * an index probe.
 */
let t: TestApp;
let org: Org;
let project: Project;
let host: string;
let auditId: string;

const at = (path: string) => `https://${host}${path}`;
/** Another project of the organization, on its own host; `url(path)` names its pages. */
async function anotherProject(): Promise<{ project: Project; url: (path: string) => string }> {
  const own = `members-${uniq()}.example.com`;
  return { project: await aProject({ org, url: `https://${own}/` }), url: (path) => `https://${own}${path}` };
}
const PATHS = Array.from({ length: 60 }, (_, i) => `/${['blog', 'shop', 'docs'][i % 3]}/p${i}`);

const call = async (query: string, variables: Record<string, unknown>) => {
  const res = await gql(t, query, variables, { cookie: org.owner.cookie });
  return {
    data: res.body.data as Record<string, any> | null,
    errors: res.body.errors as { message: string; extensions?: { code?: string } }[] | undefined,
  };
};

const TABLE = `query($p: ID!, $a: ID!, $segment: ID, $filter: UrlTableFilterInput, $sort: UrlTableSortInput,
  $first: Int!, $columns: [String!]) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: $first, columns: $columns, segment: $segment, filter: $filter, sort: $sort) {
      rows { url values } totalCount } } }`;

async function table(vars: Record<string, unknown>, audit = auditId) {
  const { data, errors } = await call(TABLE, { p: project.id, a: audit, first: 1000, ...vars });
  expect(errors).toBeUndefined();
  return data!.audit.urlTable as { rows: { url: string; values: unknown[] }[]; totalCount: number };
}

/** A segment row written as an older build saved it (no limit on its conditions then). */
async function legacySegment(name: string, filter: unknown): Promise<string> {
  const id = newId();
  await t.runtime.pool.query(
    `INSERT INTO segment (id, project_id, name, kind, filter) VALUES ($1, $2, $3, 'FILTER', $4::jsonb)`,
    [id, project.id, name, JSON.stringify(filter)],
  );
  return id;
}

/** 200 conditions (10 groups of 20), OR'ed: the URL contains one of 200 numbers, only `hits` of which occur. */
const wideRule = (k: number, hits: number[]) => ({
  combinator: 'OR',
  groups: Array.from({ length: 10 }, (_, g) => ({
    combinator: 'OR',
    conditions: Array.from({ length: 20 }, (_, c) => {
      const i = g * 20 + c;
      const value = i < hits.length ? `/p${hits[i]}` : `/nowhere-${k}-${i}-${'x'.repeat(40)}`;
      return { field: 'url', operator: 'contains', value };
    }),
  })),
});

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: '100000' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `members-${uniq()}.example.com`;
  project = await aProject({ org, url: at('/') });
  auditId = (await anAudit({ project, pages: PATHS.map((p) => ({ url: at(p), kind: 'HTML' })) })).id;
});
afterAll(() => t.close());

describe('segment names over kept members', () => {
  /** Segment k holds the pages whose number is k or k + 50 (contains /p<k> also holds /p<k>0...: worked out below). */
  const expected = new Map<string, string[]>();

  it('reads 50 segments of 200 conditions each in a statement under the cap, with the right names', async () => {
    const names: string[] = [];
    for (let k = 0; k < 50; k++) {
      const name = `Seg ${String(k).padStart(2, '0')}`;
      names.push(name);
      await legacySegment(name, wideRule(k, [k, (k * 7) % 60]));
    }
    for (const path of PATHS) {
      const hit = names.filter((_, k) => [`/p${k}`, `/p${(k * 7) % 60}`].some((needle) => path.includes(needle)));
      expected.set(at(path), hit);
    }
    const { rows } = await table({ columns: ['url', 'segment'], sort: { field: 'segment', direction: 'DESC' } });
    expect(rows).toHaveLength(PATHS.length);
    for (const row of rows) expect(row.values[1]).toBe(expected.get(row.url)!.join(', ') || null);
    // Sorted on the names (text, DESC, missing last).
    const values = rows.map((r) => r.values[1] as string | null);
    const present = values.filter((v) => v !== null) as string[];
    expect(present).toEqual([...present].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(values.slice(present.length).every((v) => v === null)).toBe(true);
    const { rows: kept } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM audit_segment_membership WHERE audit_id = $1',
      [auditId],
    );
    expect(kept[0].n).toBe(50);
  });

  it('filters on the names and on "in segment" from the kept members', async () => {
    const { rows: segs } = await t.runtime.pool.query(
      `SELECT id FROM segment WHERE project_id = $1 AND name = 'Seg 07'`,
      [project.id],
    );
    const inSeven = [...expected].filter(([, names]) => names.includes('Seg 07')).map(([url]) => url);
    expect(inSeven.length).toBeGreaterThan(0);
    const eq = await table({
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'segment', operator: 'eq', value: segs[0].id }] }] },
    });
    expect(eq.rows.map((r) => r.url).sort()).toEqual(inSeven.sort());
    const slice = await table({ columns: ['url'], segment: segs[0].id });
    expect(slice.rows.map((r) => r.url).sort()).toEqual(inSeven.sort());
    const empty = await table({
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'segment', operator: 'is_empty' }] }] },
    });
    expect(empty.totalCount).toBe([...expected.values()].filter((n) => !n.length).length);
  });

  it("a running audit's names carry the rules, and a monster statement is refused, not sent", async () => {
    const running = await anAudit({ project, status: 'RUNNING', pages: [{ url: at('/blog/p1'), kind: 'HTML' }] });
    const { errors } = await call(TABLE, {
      p: project.id,
      a: running.id,
      first: 10,
      columns: ['url', 'segment'],
    });
    expect(errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors![0].message).toMatch(/statement of \d+ parameters and \d+ characters \(the limits are/);
  });
});

describe('an edited segment', () => {
  it('has its members written again under its new rule', async () => {
    const { project: other, url } = await anotherProject();
    const audit = await anAudit({
      project: other,
      pages: ['/blog/a', '/blog/b', '/shop/x'].map((p) => ({ url: url(p), kind: 'HTML' })),
    });
    const CREATE = `mutation($p: ID!, $input: SegmentInput!) { createSegment(projectId: $p, input: $input) { id } }`;
    const UPDATE = `mutation($p: ID!, $id: ID!, $input: SegmentInput!) {
      updateSegment(projectId: $p, id: $id, input: $input) { id } }`;
    const made = await call(CREATE, { p: other.id, input: { name: 'Part', kind: 'PATH', pattern: '/blog/' } });
    const id = made.data!.createSegment.id as string;
    const read = async () => {
      const { data, errors } = await call(TABLE, {
        p: other.id,
        a: audit.id,
        first: 10,
        columns: ['url', 'segment'],
        sort: { field: 'url' },
      });
      expect(errors).toBeUndefined();
      const sliced = await call(TABLE, { p: other.id, a: audit.id, first: 10, columns: ['url'], segment: id });
      return {
        names: (data!.audit.urlTable.rows as { url: string; values: unknown[] }[]).map((r) => r.values[1]),
        slice: (sliced.data!.audit.urlTable.rows as { url: string }[]).map((r) => r.url),
      };
    };
    expect(await read()).toEqual({ names: ['Part', 'Part', null], slice: [url('/blog/a'), url('/blog/b')] });
    const updated = await call(UPDATE, {
      p: other.id,
      id,
      input: { name: 'Part', kind: 'PATH', pattern: '/shop/' },
    });
    expect(updated.errors).toBeUndefined();
    expect(await read()).toEqual({ names: [null, null, 'Part'], slice: [url('/shop/x')] });
    const { rows } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM audit_segment_member WHERE audit_id = $1 AND segment_id = $2',
      [audit.id, id],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('segment limits', () => {
  it(`refuses a FILTER rule of more than ${MAX_SEGMENT_CONDITIONS} conditions with BAD_USER_INPUT`, async () => {
    const CREATE = `mutation($p: ID!, $input: SegmentInput!) { createSegment(projectId: $p, input: $input) { id } }`;
    const { project: other } = await anotherProject();
    const filter = (n: number) => ({
      combinator: 'OR',
      groups: [0, 1].map((g) => ({
        conditions: Array.from({ length: n / 2 }, (_, i) => ({
          field: 'url',
          operator: 'contains',
          value: `/x${g}-${i}`,
        })),
      })),
    });
    const over = await call(CREATE, {
      p: other.id,
      input: { name: 'Too wide', kind: 'FILTER', filter: filter(MAX_SEGMENT_CONDITIONS + 2) },
    });
    expect(over.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(over.errors![0].message).toBe(
      `input.filter: a segment's rule has at most ${MAX_SEGMENT_CONDITIONS} conditions over all its groups ` +
        `(this one has ${MAX_SEGMENT_CONDITIONS + 2}): split it into several segments or use a REGEX segment`,
    );
    const fits = await call(CREATE, {
      p: other.id,
      input: { name: 'Wide enough', kind: 'FILTER', filter: filter(MAX_SEGMENT_CONDITIONS) },
    });
    expect(fits.errors).toBeUndefined();
  });
});

describe('first and last seen', () => {
  it('stay right across three audits and a running fourth', async () => {
    const { project: hist, url } = await anotherProject();
    const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));
    const iso = (n: number) => day(n).toISOString().replace('.000Z', 'Z');
    const crawl = async (n: number, paths: string[], status: 'COMPLETED' | 'RUNNING' = 'COMPLETED') => {
      const audit = await anAudit({
        project: hist,
        status,
        createdAt: day(n),
        pages: paths.map((p) => ({ url: url(p), kind: 'HTML' })),
      });
      if (status === 'COMPLETED')
        await nativeTransaction(t.runtime.orm.em, (tx) => new AuditResultsRepository().mergeUrlHistory(tx, audit.id));
      return audit.id;
    };
    const a1 = await crawl(1, ['/a', '/b']);
    const a2 = await crawl(2, ['/b', '/c']);
    const a3 = await crawl(3, ['/a', '/c']);
    const a4 = await crawl(4, ['/a', '/d'], 'RUNNING');
    const seen = async (audit: string) => {
      const { data, errors } = await call(TABLE, {
        p: hist.id,
        a: audit,
        first: 10,
        columns: ['url', 'first_seen', 'last_seen'],
        sort: { field: 'last_seen', direction: 'DESC' },
      });
      expect(errors).toBeUndefined();
      return (data!.audit.urlTable.rows as { url: string; values: unknown[] }[]).map((r) => [
        r.url.slice(url('').length),
        r.values[1],
        r.values[2],
      ]);
    };
    expect(await seen(a1)).toEqual([
      ['/a', iso(1), iso(3)],
      ['/b', iso(1), iso(2)],
    ]);
    expect(await seen(a2)).toEqual([
      ['/c', iso(2), iso(3)],
      ['/b', iso(1), iso(2)],
    ]);
    // Ties in the sort go by row id, in the sort's direction.
    expect(await seen(a3)).toEqual([
      ['/c', iso(2), iso(3)],
      ['/a', iso(1), iso(3)],
    ]);
    // A running audit is merged when it completes; it counts for its own rows meanwhile.
    expect(await seen(a4)).toEqual([
      ['/d', iso(4), iso(4)],
      ['/a', iso(1), iso(4)],
    ]);
    const filtered = await call(TABLE, {
      p: hist.id,
      a: a3,
      first: 10,
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'first_seen', operator: 'contains', value: iso(2) }] }] },
    });
    expect((filtered.data!.audit.urlTable.rows as { url: string }[]).map((r) => r.url)).toEqual([url('/c')]);
  });
});

describe('every field of a completed audit reads its row, a stored column or an index', () => {
  const HISTORY_PROBE = new RegExp(
    String.raw`FROM url_history h WHERE h\.project_id = \(SELECT a3\.project_id FROM audit a3 ` +
      String.raw`WHERE a3\.id = \$1\)\s+AND h\.url = p\.url`,
  );
  /** Fields whose SQL has a subquery, and what serves it: a probe of an index's key, or the row's own JSON. */
  const SERVED: Record<string, RegExp> = {
    meta_robots: /^\(SELECT string_agg\(v, ', '\) FROM jsonb_array_elements_text\(COALESCE\(p\.details->/,
    x_robots_tag: /^\(SELECT string_agg\(v, ', '\) FROM jsonb_array_elements_text\(COALESCE\(p\.details->/,
    structured_data_types: /^\(SELECT string_agg\(v, ', '\) FROM jsonb_array_elements_text\(COALESCE\(p\.details->/,
    lab_lcp: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    lab_cls: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    lab_tbt: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    lab_fcp: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    lab_ttfb: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    lab_score: /FROM technical_snapshot s WHERE s\.audit_id = \$1 AND s\.url = p\.url/,
    first_seen: HISTORY_PROBE,
    last_seen: HISTORY_PROBE,
  };

  it('names what serves each subquery, and no field aggregates other rows per row', () => {
    const fields = [...auditFieldsByKey([], true).values()];
    expect(fields.map((f) => f.key).sort()).toEqual(URL_TABLE_FIELDS.map((f) => f.key).sort());
    const withSubquery = fields.filter((f) => /\bSELECT\b/i.test(f.sql)).map((f) => f.key);
    expect(withSubquery.sort()).toEqual(Object.keys(SERVED).sort());
    for (const key of withSubquery) expect(fields.find((f) => f.key === key)!.sql).toMatch(SERVED[key]);
    for (const f of fields) {
      expect(f.sql, f.key).not.toMatch(/\b(count|min|max|sum)\(/i);
      expect(f.sql, f.key).not.toMatch(/FROM audit_page|JOIN audit_page|issue_occurrence|audit_link/);
    }
  });

  it('has the indexes those probes read', async () => {
    const { rows } = await t.runtime.pool.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN
         ('technical_snapshot_audit_url_idx', 'url_history_pkey', 'audit_segment_member_pkey')`,
    );
    const defs = new Map(rows.map((r: { indexname: string; indexdef: string }) => [r.indexname, r.indexdef]));
    expect(defs.get('technical_snapshot_audit_url_idx')).toMatch(/\(audit_id, url\)/);
    expect(defs.get('url_history_pkey')).toMatch(/\(project_id, url\)/);
    expect(defs.get('audit_segment_member_pkey')).toMatch(/\(audit_id, page_id, segment_id\)/);
  });
});
