import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheck } from '../../src/seo/checks/index.js';
import { scoreAudit, type ScoredCheck } from '../../src/seo/scoring/index.js';
import { clientReportHtml } from '../../src/reports/report-html.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anAudit, anOrg, aProject, type Org, type PageRow, type Project } from '../factories.js';

/**
 * Segments (docs/segments.md): a project's named rules (regex, path prefix, saved filter) with their checks at save,
 * tenancy, the URL table and its export narrowed to one, the per-segment scores (the audit's scoring function over
 * the segment's URLs) and the per-segment deltas of a comparison.
 */
let t: TestApp;
let org: Org;
let other: Org;
let project: Project;
let host: string;
let baseId: string;
let headId: string;

const at = (path: string) => `https://${host}${path}`;
const DAY = 86_400_000;

const pages = (paths: string[]): PageRow[] =>
  paths.map((path) =>
    path.endsWith('/old')
      ? { url: at(path), statusCode: 404, kind: 'ERROR' }
      : { url: at(path), statusCode: 200, kind: 'HTML', wordCount: path.length * 10 },
  );

/** The base audit's findings: which URLs each check found (severities are the catalog's). */
const BASE_FINDINGS: Record<string, string[]> = {
  META_TITLE_MISSING: ['/blog/a', '/shop/x'],
  CONTENT_H1_MISSING: ['/blog/b', '/'],
  LINKS_INTERNAL_BROKEN: ['/blog/a', '/blog/c'],
};
const BASE_PAGES = ['/', '/blog/a', '/blog/b', '/blog/c', '/blog/old', '/shop/x', '/shop/y'];
/** The head: /blog/c's broken link fixed, a new post /blog/d without a title. */
const HEAD_FINDINGS: Record<string, string[]> = {
  META_TITLE_MISSING: ['/blog/a', '/blog/d', '/shop/x'],
  CONTENT_H1_MISSING: ['/blog/b', '/'],
  LINKS_INTERNAL_BROKEN: ['/blog/a'],
};
const HEAD_PAGES = [...BASE_PAGES, '/blog/d'];

const issuesOf = (findings: Record<string, string[]>) =>
  Object.entries(findings).map(([code, paths]) => ({ code, occurrences: paths.map(at) }));

/** The audit's scoring function applied to a subset of the fixture, worked out here from the fixture itself. */
function expectedScores(findings: Record<string, string[]>, htmlPaths: string[]) {
  const inSubset = new Set(htmlPaths);
  const checks: ScoredCheck[] = Object.entries(findings)
    .map(([code, paths]) => ({ code, affectedPages: paths.filter((p) => inSubset.has(p)).length }))
    .filter((c) => c.affectedPages > 0)
    .map((c) => ({
      ...c,
      severity: getCheck(c.code).severity,
      category: getCheck(c.code).category,
      applicablePages: htmlPaths.length,
    }));
  const critical = new Set(
    Object.entries(findings)
      .filter(([code]) => getCheck(code).severity === 'CRITICAL')
      .flatMap(([, paths]) => paths.filter((p) => inSubset.has(p))),
  );
  return scoreAudit(checks, { pages: { html: htmlPaths.length, withCritical: critical.size } });
}

const call = async (query: string, variables: Record<string, unknown>, who: Org = org) => {
  const res = await gql(t, query, variables, { cookie: who.owner.cookie });
  return {
    data: res.body.data as Record<string, any> | null,
    errors: res.body.errors as { message: string; extensions?: { code?: string } }[] | undefined,
  };
};

const SEGMENT = 'id name kind pattern filter';
const CREATE = `mutation($p: ID!, $input: SegmentInput!) {
  createSegment(projectId: $p, input: $input) { ${SEGMENT} } }`;
const UPDATE = `mutation($p: ID!, $id: ID!, $input: SegmentInput!) {
  updateSegment(projectId: $p, id: $id, input: $input) { ${SEGMENT} } }`;
const DELETE = `mutation($p: ID!, $id: ID!) { deleteSegment(projectId: $p, id: $id) { id } }`;
const LIST = `query($p: ID!) { project(id: $p) { segments { ${SEGMENT} } } }`;

async function create(input: Record<string, unknown>, p = project.id) {
  const { data, errors } = await call(CREATE, { p, input });
  expect(errors).toBeUndefined();
  return data!.createSegment as { id: string; name: string; kind: string; pattern: string | null; filter: unknown };
}

let blogId: string;
let shopId: string;
let wordyId: string;

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: '100000' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  other = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `segments-${uniq()}.example.com`;
  project = await aProject({ org, url: at('/') });
  const now = Date.now();
  baseId = (
    await anAudit({
      project,
      pages: pages(BASE_PAGES),
      issues: issuesOf(BASE_FINDINGS),
      createdAt: new Date(now - 2 * DAY),
    })
  ).id;
  headId = (
    await anAudit({
      project,
      pages: pages(HEAD_PAGES),
      issues: issuesOf(HEAD_FINDINGS),
      createdAt: new Date(now - DAY),
    })
  ).id;
  blogId = (await create({ name: 'Blog', kind: 'PATH', pattern: '/blog/' })).id;
  shopId = (await create({ name: 'Shop', kind: 'REGEX', pattern: '/shop/[a-z]$' })).id;
  wordyId = (
    await create({
      name: 'Wordy pages',
      kind: 'FILTER',
      filter: { groups: [{ conditions: [{ field: 'words', operator: 'gte', value: '70' }] }] },
    })
  ).id;
});
afterAll(() => t.close());

describe('segment CRUD', () => {
  it('lists the project’s segments by name with their rules', async () => {
    const { data } = await call(LIST, { p: project.id });
    const list = data!.project.segments as { name: string; kind: string; pattern: string | null; filter: any }[];
    expect(list.map((s) => [s.name, s.kind, s.pattern])).toEqual([
      ['Blog', 'PATH', '/blog/'],
      ['Shop', 'REGEX', '/shop/[a-z]$'],
      ['Wordy pages', 'FILTER', null],
    ]);
    expect(list[2].filter).toEqual({
      combinator: 'AND',
      groups: [{ combinator: 'AND', conditions: [{ field: 'words', operator: 'gte', value: '70' }] }],
    });
  });

  it('changes and deletes a segment', async () => {
    const made = await create({ name: 'Temp', kind: 'PATH', pattern: '/tmp/' });
    const { data, errors } = await call(UPDATE, {
      p: project.id,
      id: made.id,
      input: { name: 'Docs', kind: 'REGEX', pattern: '^https://[^/]+/docs/' },
    });
    expect(errors).toBeUndefined();
    expect(data!.updateSegment).toMatchObject({ id: made.id, name: 'Docs', kind: 'REGEX' });
    const removed = await call(DELETE, { p: project.id, id: made.id });
    expect(removed.data!.deleteSegment.id).toBe(made.id);
    const again = await call(DELETE, { p: project.id, id: made.id });
    expect(again.errors![0].extensions?.code).toBe('NOT_FOUND');
    const { data: listed } = await call(LIST, { p: project.id });
    expect((listed!.project.segments as { name: string }[]).map((s) => s.name)).not.toContain('Docs');
  });

  it.each([
    [{ name: '', kind: 'PATH', pattern: '/a/' }, 'input.name'],
    [{ name: 'x'.repeat(81), kind: 'PATH', pattern: '/a/' }, 'input.name'],
    [{ name: 'blog', kind: 'PATH', pattern: '/a/' }, 'input.name'],
    [{ name: 'No slash', kind: 'PATH', pattern: 'blog/' }, 'input.pattern'],
    [{ name: 'Broken', kind: 'REGEX', pattern: '(unclosed' }, 'input.pattern'],
    // JavaScript accepts a named group, PostgreSQL does not; PostgreSQL's \y word boundary is no JavaScript escape.
    [{ name: 'Named group', kind: 'REGEX', pattern: '(?<slug>[a-z]+)' }, 'input.pattern'],
    [{ name: 'PG only', kind: 'REGEX', pattern: '\\yblog\\y' }, 'input.pattern'],
    [{ name: 'No filter', kind: 'FILTER' }, 'input.filter'],
    [{ name: 'Pattern and filter', kind: 'REGEX', pattern: 'a', filter: { groups: [] } }, 'input.filter'],
    [
      {
        name: 'Unknown field',
        kind: 'FILTER',
        filter: { groups: [{ conditions: [{ field: 'nope', operator: 'eq', value: '1' }] }] },
      },
      'input.filter.groups[0].conditions[0].field',
    ],
    [{ name: 'Empty filter', kind: 'FILTER', filter: { groups: [{ conditions: [] }] } }, 'input.filter.groups'],
  ])('refuses %j with BAD_USER_INPUT on %s', async (input, path) => {
    const { errors } = await call(CREATE, { p: project.id, input });
    expect(errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors![0].message).toContain(path);
  });

  it("refuses a filter naming a segment (a segment's rule names none)", async () => {
    const { errors } = await call(CREATE, {
      p: project.id,
      input: {
        name: 'Nested',
        kind: 'FILTER',
        filter: { groups: [{ conditions: [{ field: 'segment', operator: 'eq', value: blogId }] }] },
      },
    });
    expect(errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors![0].message).toMatch(/cannot name a segment/);
  });

  it('holds at most 50 segments per project', async () => {
    const full = await aProject({ org, url: `https://full-${uniq()}.example.com/` });
    for (let i = 0; i < 50; i++) await create({ name: `S${i}`, kind: 'PATH', pattern: `/s${i}/` }, full.id);
    const { errors } = await call(CREATE, { p: full.id, input: { name: 'S50', kind: 'PATH', pattern: '/s50/' } });
    expect(errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors![0].message).toMatch(/at most 50 segments/);
  });

  it("another organization's project and segments are NOT_FOUND", async () => {
    const input = { name: 'Intruder', kind: 'PATH', pattern: '/x/' };
    const tries = [
      await call(LIST, { p: project.id }, other),
      await call(CREATE, { p: project.id, input }, other),
      await call(UPDATE, { p: project.id, id: blogId, input }, other),
      await call(DELETE, { p: project.id, id: blogId }, other),
    ];
    for (const { errors } of tries) expect(errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // The other organization's own project does not reach this project's segment either.
    const theirs = await aProject({ org: other, url: `https://theirs-${uniq()}.example.com/` });
    const viaOwn = await call(DELETE, { p: theirs.id, id: blogId }, other);
    expect(viaOwn.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const { data } = await call(LIST, { p: project.id });
    expect((data!.project.segments as { id: string }[]).map((s) => s.id)).toContain(blogId);
  });
});

const TABLE = `query($p: ID!, $a: ID, $segment: ID, $filter: UrlTableFilterInput) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: 100, columns: ["url"], segment: $segment, filter: $filter) { rows { url } totalCount } } }`;

describe('the URL table by segment', () => {
  const urls = async (vars: Record<string, unknown>) => {
    const { data, errors } = await call(TABLE, { p: project.id, a: baseId, ...vars });
    expect(errors).toBeUndefined();
    return (data!.audit.urlTable.rows as { url: string }[]).map((r) => r.url.replace(at(''), ''));
  };

  it("lists only the segment's URLs: a path prefix, a regex, a saved filter", async () => {
    expect(await urls({ segment: blogId })).toEqual(['/blog/a', '/blog/b', '/blog/c', '/blog/old']);
    expect(await urls({ segment: shopId })).toEqual(['/shop/x', '/shop/y']);
    // words = 10 x the path's length: 70 and more are the paths of 7 characters and more.
    expect(await urls({ segment: wordyId })).toEqual(['/blog/a', '/blog/b', '/blog/c', '/shop/x', '/shop/y']);
  });

  it('filters on the field "segment": in one, not in another', async () => {
    const filter = {
      groups: [
        {
          conditions: [
            { field: 'segment', operator: 'eq', value: wordyId },
            { field: 'segment', operator: 'neq', value: blogId },
          ],
        },
      ],
    };
    expect(await urls({ filter })).toEqual(['/shop/x', '/shop/y']);
  });

  it("another project's segment is NOT_FOUND as the argument, BAD_USER_INPUT in a filter", async () => {
    const elsewhere = await aProject({ org, url: `https://elsewhere-${uniq()}.example.com/` });
    const theirs = await create({ name: 'Elsewhere', kind: 'PATH', pattern: '/' }, elsewhere.id);
    const asArgument = await call(TABLE, { p: project.id, a: baseId, segment: theirs.id });
    expect(asArgument.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const filter = { groups: [{ conditions: [{ field: 'segment', operator: 'eq', value: theirs.id }] }] };
    const inFilter = await call(TABLE, { p: project.id, a: baseId, filter });
    expect(inFilter.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('the column "segment" names the segments each URL is in, sorted; filterable by name', async () => {
    const COLUMN = `query($p: ID!, $a: ID, $filter: UrlTableFilterInput) { audit(projectId: $p, auditId: $a) {
      urlTable(first: 100, columns: ["url", "segment"], filter: $filter) {
        columns { key label } rows { url values } } } }`;
    const read = async (filter?: unknown) => {
      const { data, errors } = await call(COLUMN, { p: project.id, a: baseId, filter });
      expect(errors).toBeUndefined();
      return Object.fromEntries(
        (data!.audit.urlTable.rows as { url: string; values: unknown[] }[]).map((r) => [
          r.url.replace(at(''), ''),
          r.values[1],
        ]),
      );
    };
    expect(await read()).toEqual({
      '/': null,
      '/blog/a': 'Blog, Wordy pages',
      '/blog/b': 'Blog, Wordy pages',
      '/blog/c': 'Blog, Wordy pages',
      '/blog/old': 'Blog',
      '/shop/x': 'Shop, Wordy pages',
      '/shop/y': 'Shop, Wordy pages',
    });
    const contains = { groups: [{ conditions: [{ field: 'segment', operator: 'contains', value: 'wordy' }] }] };
    expect(Object.keys(await read(contains))).toEqual(['/blog/a', '/blog/b', '/blog/c', '/shop/x', '/shop/y']);
    const none = { groups: [{ conditions: [{ field: 'segment', operator: 'is_empty' }] }] };
    expect(Object.keys(await read(none))).toEqual(['/']);
    const fields = await call('{ urlTableFields { key operators } }', {});
    expect(
      (fields.data!.urlTableFields as { key: string; operators: string[] }[]).find((f) => f.key === 'segment'),
    ).toEqual({ key: 'segment', operators: ['contains', 'not_contains', 'is_empty', 'is_not_empty'] });
    const bad = { groups: [{ conditions: [{ field: 'segment', operator: 'gt', value: '1' }] }] };
    const refused = await call(COLUMN, { p: project.id, a: baseId, filter: bad });
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('exports the column "segment" as shown', async () => {
    const key = await anApiKey(org);
    const res = await t.app.inject({
      method: 'GET',
      url:
        `/api/v1/projects/${project.id}/audit/urls/export?auditId=${baseId}&format=csv&columns=url,segment` +
        `&segment=${shopId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('URL,Segments');
    expect(lines.slice(1)).toEqual([`${at('/shop/x')},"Shop, Wordy pages"`, `${at('/shop/y')},"Shop, Wordy pages"`]);
  });

  it('exports the segment on REST (segment=)', async () => {
    const key = await anApiKey(org);
    const EXPORT = `/api/v1/projects/${project.id}/audit/urls/export`;
    const res = await t.app.inject({
      method: 'GET',
      url: `${EXPORT}?auditId=${baseId}&format=json&columns=url&segment=${shopId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as { rows: { url: string }[] };
    expect(body.rows.map((r) => r.url)).toEqual([at('/shop/x'), at('/shop/y')]);
    const missing = await t.app.inject({
      method: 'GET',
      url: `${EXPORT}?auditId=${baseId}&segment=00000000-0000-4000-8000-000000000000`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(missing.statusCode).toBe(404);
  });
});

const RESULTS = `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) {
  segments { segment { id name } urls htmlPages scores { overall meta content links technical performance } health
    issueCounts { critical warning notice } } } }`;

describe('per-segment results', () => {
  it("scores each segment with the audit's scoring function over its URLs", async () => {
    const { data, errors } = await call(RESULTS, { p: project.id, a: baseId });
    expect(errors).toBeUndefined();
    const byName = new Map((data!.audit.segments as any[]).map((s) => [s.segment.name, s]));
    const blog = byName.get('Blog');
    const expected = expectedScores(BASE_FINDINGS, ['/blog/a', '/blog/b', '/blog/c']);
    expect(blog).toMatchObject({ urls: 4, htmlPages: 3, scores: expected.scores, health: expected.breakdown.health });
    // Blog: a broken link, a missing title and a missing h1, each counted once at its catalog severity.
    const severities = ['META_TITLE_MISSING', 'CONTENT_H1_MISSING', 'LINKS_INTERNAL_BROKEN'].map(
      (code) => getCheck(code).severity,
    );
    const count = (sev: string) => severities.filter((s) => s === sev).length;
    expect(blog.issueCounts).toEqual({
      critical: count('CRITICAL'),
      warning: count('WARNING'),
      notice: count('NOTICE'),
    });
    const shop = byName.get('Shop');
    const shopExpected = expectedScores(BASE_FINDINGS, ['/shop/x', '/shop/y']);
    expect(shop).toMatchObject({ urls: 2, htmlPages: 2, scores: shopExpected.scores });
    expect(shop.health).toBe(shopExpected.breakdown.health);
    // The segments differ from each other and from the whole audit: the score is the subset's, not a copy.
    expect(blog.scores.overall).not.toBe(shop.scores.overall);
  });

  it('one segment of the audit; NOT_FOUND for another organization', async () => {
    const ONE = `query($p: ID!, $a: ID, $s: ID!) { audit(projectId: $p, auditId: $a) { segment(id: $s) { urls } } }`;
    const { data } = await call(ONE, { p: project.id, a: baseId, s: shopId });
    expect(data!.audit.segment.urls).toBe(2);
    const { errors } = await call(ONE, { p: project.id, a: baseId, s: shopId }, other);
    expect(errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it("keeps a completed audit's facts, counts again when the rule changes, keeps none of a ranking rule", async () => {
    const ONE = `query($p: ID!, $a: ID, $s: ID!) { audit(projectId: $p, auditId: $a) { segment(id: $s) { urls } } }`;
    const urlsOf = async (s: string) => {
      const { data, errors } = await call(ONE, { p: project.id, a: baseId, s });
      expect(errors).toBeUndefined();
      return data!.audit.segment.urls as number;
    };
    const kept = async (s: string) =>
      (
        await t.runtime.pool.query('SELECT facts FROM audit_segment_facts WHERE audit_id = $1 AND segment_id = $2', [
          baseId,
          s,
        ])
      ).rows as { facts: { urls: number } }[];
    const ab = await create({ name: 'Blog a and b', kind: 'REGEX', pattern: '/blog/[ab]$' });
    expect(await urlsOf(ab.id)).toBe(2);
    expect((await kept(ab.id)).map((r) => r.facts.urls)).toEqual([2]);
    // Read from the kept row: a planted count shows.
    await t.runtime.pool.query(
      `UPDATE audit_segment_facts SET facts = jsonb_set(facts, '{urls}', '99') WHERE audit_id = $1 AND segment_id = $2`,
      [baseId, ab.id],
    );
    expect(await urlsOf(ab.id)).toBe(99);
    // The URL table of the segment alone takes its count from there too; with a filter it counts.
    const totalOf = async (filter: unknown) => {
      const { data, errors } = await call(TABLE, { p: project.id, a: baseId, segment: ab.id, filter });
      expect(errors).toBeUndefined();
      return [data!.audit.urlTable.rows.length, data!.audit.urlTable.totalCount];
    };
    expect(await totalOf(null)).toEqual([2, 99]);
    expect(
      await totalOf({ groups: [{ conditions: [{ field: 'url', operator: 'contains', value: '/blog/' }] }] }),
    ).toEqual([2, 2]);
    // Another rule is counted again.
    const { errors } = await call(UPDATE, {
      p: project.id,
      id: ab.id,
      input: { name: 'Blog a to c', kind: 'REGEX', pattern: '/blog/[abc]$' },
    });
    expect(errors).toBeUndefined();
    expect(await urlsOf(ab.id)).toBe(3);
    // Rankings change after the audit: such a rule is counted on every read.
    const ranked = await create({
      name: 'Ranking',
      kind: 'FILTER',
      filter: { groups: [{ conditions: [{ field: 'ranking_keywords', operator: 'gte', value: '0' }] }] },
    });
    await urlsOf(ranked.id);
    expect(await kept(ranked.id)).toEqual([]);
    for (const id of [ab.id, ranked.id]) expect((await call(DELETE, { p: project.id, id })).errors).toBeUndefined();
    expect(await kept(ab.id)).toEqual([]);
  });

  it('the comparison gives each segment in both audits and the deltas', async () => {
    const COMPARE = `query($p: ID!, $b: ID, $h: ID) { auditComparison(projectId: $p, base: $b, head: $h) {
      segments { base { segment { name } urls scores { overall } health }
        head { urls scores { overall } health }
        urlsDelta overallDelta healthDelta criticalDelta warningDelta noticeDelta } } }`;
    const { data, errors } = await call(COMPARE, { p: project.id, b: baseId, h: headId });
    expect(errors).toBeUndefined();
    const blog = (data!.auditComparison.segments as any[]).find((s) => s.base.segment.name === 'Blog');
    const before = expectedScores(BASE_FINDINGS, ['/blog/a', '/blog/b', '/blog/c']);
    const after = expectedScores(HEAD_FINDINGS, ['/blog/a', '/blog/b', '/blog/c', '/blog/d']);
    expect(blog.base).toMatchObject({ urls: 4, scores: { overall: before.scores.overall } });
    expect(blog.head).toMatchObject({ urls: 5, scores: { overall: after.scores.overall } });
    expect(blog.urlsDelta).toBe(1);
    expect(blog.overallDelta).toBe(after.scores.overall - before.scores.overall);
    expect(blog.healthDelta).toBeCloseTo(after.breakdown.health - before.breakdown.health, 1);
    expect(blog.criticalDelta).toBe(0);
    // The new post lacks a title (CRITICAL): health falls (1 of 3 pages critical, then 2 of 4); the fixed broken link
    // is a WARNING on its page (its target is what is out of search), so it never made /blog/c critical.
    expect(blog.healthDelta).toBeLessThan(0);
  });
});

describe('the issues list narrowed to a segment', () => {
  const ISSUES = `query($p: ID!, $a: ID, $s: ID) { audit(projectId: $p, auditId: $a) {
    issues(segment: $s) { code affectedPages segmentOccurrences } } }`;
  const issues = async (s?: string) => {
    const { data, errors } = await call(ISSUES, { p: project.id, a: baseId, s });
    expect(errors).toBeUndefined();
    return Object.fromEntries(
      (data!.audit.issues as { code: string; affectedPages: number; segmentOccurrences: number | null }[]).map((i) => [
        i.code,
        [i.affectedPages, i.segmentOccurrences],
      ]),
    );
  };

  it("lists only the checks found on the segment's URLs, counted there", async () => {
    expect(await issues()).toEqual({
      META_TITLE_MISSING: [2, null],
      CONTENT_H1_MISSING: [2, null],
      LINKS_INTERNAL_BROKEN: [2, null],
    });
    expect(await issues(blogId)).toEqual({
      META_TITLE_MISSING: [1, 1],
      CONTENT_H1_MISSING: [1, 1],
      LINKS_INTERNAL_BROKEN: [2, 2],
    });
    // The shop has a missing title only: the other checks are hidden.
    expect(await issues(shopId)).toEqual({ META_TITLE_MISSING: [1, 1] });
  });

  it("another project's segment is NOT_FOUND; another organization's audit too", async () => {
    const elsewhere = await aProject({ org, url: `https://elsewhere-${uniq()}.example.com/` });
    const theirs = await create({ name: 'Elsewhere', kind: 'PATH', pattern: '/' }, elsewhere.id);
    const wrong = await call(ISSUES, { p: project.id, a: baseId, s: theirs.id });
    expect(wrong.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const garbage = await call(ISSUES, { p: project.id, a: baseId, s: 'not-an-id' });
    expect(garbage.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const stranger = await call(ISSUES, { p: project.id, a: baseId, s: blogId }, other);
    expect(stranger.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('the client report', () => {
  it('has a table of the segments with their counts', async () => {
    const REPORT = `query($p: ID!, $a: ID) { clientReport(projectId: $p, auditId: $a) {
      projectId projectName domain url generatedAt pdfAvailable
      audit { id status createdAt completedAt pagesCrawled scores { overall meta content links technical performance }
        issueCounts { critical warning notice } blockers { code message } }
      categories { category score critical warning notice } topIssues { code title severity category description
        affectedPages scope urls fix { summary steps source } }
      vitals { url device source } keywordGains { term } keywordLosses { term }
      segments { segment { id name kind pattern filter createdAt updatedAt } urls htmlPages health
        scores { overall meta content links technical performance } issueCounts { critical warning notice } } } }`;
    const { data, errors } = await call(REPORT, { p: project.id, a: headId });
    expect(errors).toBeUndefined();
    const report = data!.clientReport;
    const blog = (report.segments as { segment: { name: string }; urls: number }[]).find(
      (s) => s.segment.name === 'Blog',
    );
    expect(blog?.urls).toBe(5);
    const html = clientReportHtml(report);
    expect(html).toContain('<h2>Segments</h2>');
    expect(html).toMatch(/<tr><td>Blog<\/td><td class="num">5<\/td>/);
  });
});
