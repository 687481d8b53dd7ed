import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageService } from '../../src/audits/index.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { nativeTransaction } from '../../src/platform/db/native-query.js';
import { AuditPageFacets20261126 } from '../../src/platform/db/migrations/20261126-0022-audit-page-facets.js';
import { anApiKey, anAudit, anOrg, aProject, type PageRow, type Project } from '../factories.js';
import { createTestApp, gql, type TestApp, type TestUser } from '../support/app.js';

/**
 * The pages explorer (Audit.pages) over rows written directly, as the worker would: every order in both directions
 * walked page by page, each filter, bad input, and tenancy. The sorts and filters run on two audits with the same
 * rows: a COMPLETED one, whose issue counts and inlinks the completion stored (read from audit_page.issue_count and
 * inlinks), and a RUNNING one, whose counts are taken live from its occurrences and its links.
 */
let t: TestApp;
let user: TestUser;
let project: Project;
let projectId: string;
let auditId: string;

interface Seed {
  path: string;
  status: number | null;
  title: string | null;
  depth: number;
  words: number;
  ms: number | null;
  issues: number;
  /** The page's kind; null on some, as on rows written before kinds were stored. */
  kind: string | null;
}

const KINDS = ['HTML', 'REDIRECT', 'ERROR', 'FILE', 'FAILED'] as const;
const STATUS_CLASSES = ['SUCCESS', 'REDIRECT', 'CLIENT_ERROR', 'SERVER_ERROR', 'FAILED'] as const;

/**
 * 29 pages with ties and missing values on every nullable key. Text values differ only in lower-case letters and
 * digits after a shared prefix, so every collation orders them as JavaScript does.
 */
const SEEDS: Seed[] = Array.from({ length: 29 }, (_, i) => ({
  path: `p${String((i * 7) % 29).padStart(2, '0')}x${i % 3}`,
  status: i % 9 === 4 ? null : [200, 200, 301, 404, 500, 200, 302, 410][i % 8],
  title: i % 5 === 2 ? null : `title${String.fromCharCode(97 + ((i * 3) % 7))}`,
  depth: i % 4 === 3 ? -1 : i % 4,
  words: (i * 37) % 5 === 0 ? 250 : ((i * 37) % 11) * 40,
  ms: i % 6 === 1 ? null : ((i * 13) % 10) * 15,
  issues: i % 3 === 0 ? 0 : (i % 4) + 1,
  kind: i % 7 === 6 ? null : KINDS[(i * 3) % KINDS.length],
}));
// Literal LIKE wildcards in the data: a search for them must match them only.
SEEDS[3].title = 'sale 100% off';
SEEDS[4].path = 'under_score';
SEEDS[5].title = 'TitleUPPER';

const BASE = 'https://pages.example.test/';
type Row = Seed & { id: string; url: string };
let rows: Row[] = [];
/** Each seeded audit's id and rows (the rows' ids differ between the two). */
const seeded = new Map<'COMPLETED' | 'RUNNING', { auditId: string; rows: Row[] }>();

beforeAll(async () => {
  t = await createTestApp();
  const org = await anOrg(t, { plan: 'ENTERPRISE' });
  user = org.owner;
  project = await aProject({ org, url: 'https://pages.example.test' });
  projectId = project.id;
  // Inserted in a shuffled order: neither insertion nor physical order matches any sort.
  const order = SEEDS.map((_, i) => (i * 11) % SEEDS.length);
  const pages = order.map((i): PageRow => {
    const { path, status, depth, title, words, ms, kind } = SEEDS[i];
    const url = BASE + path;
    return {
      url,
      statusCode: status,
      depth,
      title,
      metaDescription: `About ${url}`,
      indexable: status === 200,
      wordCount: words,
      responseTimeMs: ms,
      bytes: words * 6,
      outlinks: 3,
      error: status === null ? 'The server refused the connection' : null,
      kind,
    };
  });
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  for (const status of ['RUNNING', 'COMPLETED'] as const) {
    const audit = await anAudit({ project, pages, status });
    const auditRows = SEEDS.map((s) => ({ ...s, url: BASE + s.path, id: audit.pageIds.get(BASE + s.path)! }));
    const occurrences = auditRows.flatMap((r) =>
      Array.from({ length: r.issues }, (_, k) => ({ code: `CODE_${k}`, url: r.url })),
    );
    await q(
      `INSERT INTO issue_occurrence (audit_id, code, url, evidence) SELECT $1, r.code, r.url, NULL FROM ` +
        `jsonb_to_recordset($2::jsonb) AS r(code text, url text)`,
      [audit.id, JSON.stringify(occurrences)],
    );
    // Each page's inlinks in the link graph: depth + 1 distinct linking pages (the next ones of SEEDS), the first of
    // them linking twice, and a link of the page to itself, which does not count (src/audits/inlinks.ts).
    const links = auditRows.flatMap((r, i) => [
      ...Array.from({ length: r.depth + 1 }, (_, k) => ({
        source: auditRows[(i + k + 1) % auditRows.length].url,
        target: r.url,
      })),
      ...(r.depth >= 0 ? [{ source: auditRows[(i + 1) % auditRows.length].url, target: r.url }] : []),
      { source: r.url, target: r.url },
    ]);
    await q(
      `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, internal, position)
       SELECT $1, l.source, l.target, 'a', true, 'CONTENT'
       FROM jsonb_to_recordset($2::jsonb) AS l(source text, target text)`,
      [audit.id, JSON.stringify(links)],
    );
    // The completion's own statement stores the counts; the running audit's are counted from its rows.
    if (status === 'COMPLETED')
      await nativeTransaction(t.runtime.orm.em, (tx) => new AuditResultsRepository().storePageCounts(tx, audit.id));
    seeded.set(status, { auditId: audit.id, rows: auditRows });
  }
  ({ auditId, rows } = seeded.get('COMPLETED')!);
  // An occurrence of another audit on the same URL is not this audit's.
  const { id: otherAudit } = await anAudit({
    project,
    status: 'FAILED',
    pages: 0,
    createdAt: new Date(Date.now() - 86_400_000),
  });
  await q(`INSERT INTO issue_occurrence (audit_id, code, url) VALUES ($1, 'ELSEWHERE', $2)`, [otherAudit, rows[0].url]);
});
afterAll(() => t.close());

const FIELDS =
  'id url finalUrl statusCode depth title metaDescription wordCount responseTimeMs bytes indexable inlinks ' +
  'outlinks error issueCount';
const PAGES =
  `query($p: ID!, $a: ID, $first: Int!, $after: String, $orderBy: AuditPageOrder!, $direction: ` +
  `SortDirection!, $filter: AuditPageFilter) {
  audit(projectId: $p, auditId: $a) { pages(first: $first, after: $after, orderBy: $orderBy, direction: ` +
  `$direction, filter: $filter) {
    nodes { ${FIELDS} } pageInfo { hasNextPage endCursor } totalCount } } }`;

interface PageNode {
  id: string;
  url: string;
  statusCode: number | null;
  title: string | null;
  depth: number;
  wordCount: number;
  responseTimeMs: number | null;
  issueCount: number;
}
interface Connection {
  nodes: PageNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

async function page(vars: Record<string, unknown>, headers: Record<string, string> = { cookie: user.cookie }) {
  const res = await gql(
    t,
    PAGES,
    { p: projectId, a: auditId, first: 50, orderBy: 'URL', direction: 'ASC', ...vars },
    headers,
  );
  return { errors: res.body.errors, connection: res.body.data?.audit.pages as Connection | undefined };
}

/** Every page of a listing, following endCursor. */
async function walk(
  vars: Record<string, unknown>,
  first: number,
): Promise<{ nodes: PageNode[]; totals: number[]; pages: number }> {
  const nodes: PageNode[] = [];
  const totals: number[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const { errors, connection } = await page({ ...vars, first, after });
    expect(errors).toBeUndefined();
    nodes.push(...connection!.nodes);
    totals.push(connection!.totalCount);
    pages++;
    expect(connection!.nodes.length).toBeLessThanOrEqual(first);
    if (!connection!.pageInfo.hasNextPage) {
      if (nodes.length)
        expect(connection!.nodes.length, 'a last page is not empty (unless the list is)').toBeGreaterThan(0);
      return { nodes, totals, pages };
    }
    after = connection!.pageInfo.endCursor;
    expect(after).toEqual(expect.any(String));
  }
}

const VALUE: Record<string, (r: Row) => string | number | null> = {
  URL: (r) => r.url,
  STATUS: (r) => r.status,
  TITLE: (r) => r.title,
  DEPTH: (r) => r.depth,
  WORD_COUNT: (r) => r.words,
  RESPONSE_TIME: (r) => r.ms,
  ISSUES: (r) => r.issues,
};

/** The documented order: by the value (missing values last in both directions), ties by id in the same direction. */
function expected(order: string, direction: 'ASC' | 'DESC', subset: Row[] = rows): string[] {
  const sign = direction === 'ASC' ? 1 : -1;
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return [...subset]
    .sort((a, b) => {
      const [va, vb] = [VALUE[order](a), VALUE[order](b)];
      if (va === null || vb === null) {
        if (va !== vb) return va === null ? 1 : -1;
      } else if (va !== vb) return sign * cmp(va, vb);
      return sign * (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    })
    .map((r) => r.url);
}

describe.each(['COMPLETED', 'RUNNING'] as const)('Audit.pages of a %s audit', (status) => {
  beforeAll(() => {
    ({ auditId, rows } = seeded.get(status)!);
  });
  afterAll(() => {
    ({ auditId, rows } = seeded.get('COMPLETED')!);
  });

  describe('sorting and cursors', () => {
    it('every order, both directions, walked 4 at a time: each row exactly once, in the documented order', async () => {
      for (const orderBy of Object.keys(VALUE)) {
        for (const direction of ['ASC', 'DESC'] as const) {
          const { nodes, totals, pages } = await walk({ orderBy, direction }, 4);
          const label = `${orderBy} ${direction}`;
          expect(
            nodes.map((n) => n.url),
            label,
          ).toEqual(expected(orderBy, direction));
          expect(new Set(nodes.map((n) => n.id)).size, label).toBe(rows.length);
          expect(
            totals.every((n) => n === rows.length),
            label,
          ).toBe(true);
          expect(pages, label).toBe(Math.ceil(rows.length / 4));
        }
      }
    });

    it('returns each field as stored, with the issue count of the URL in this audit', async () => {
      const { connection } = await page({ orderBy: 'URL', first: 100 });
      expect(connection!.nodes).toHaveLength(rows.length);
      const byUrl = new Map(connection!.nodes.map((n) => [n.url, n]));
      for (const r of rows) {
        expect(byUrl.get(r.url)).toEqual({
          id: r.id,
          url: r.url,
          finalUrl: r.url,
          statusCode: r.status,
          depth: r.depth,
          title: r.title,
          metaDescription: `About ${r.url}`,
          wordCount: r.words,
          responseTimeMs: r.ms,
          bytes: r.words * 6,
          indexable: r.status === 200,
          inlinks: r.depth + 1,
          outlinks: 3,
          error: r.status === null ? 'The server refused the connection' : null,
          issueCount: r.issues,
        });
      }
    });

    it('defaults: 50 by URL ascending', async () => {
      const res = await gql(
        t,
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { pages { nodes { url } pageInfo { ' +
          'hasNextPage } totalCount } } }',
        { p: projectId, a: auditId },
        { cookie: user.cookie },
      );
      expect(res.body.data.audit.pages).toEqual({
        nodes: expected('URL', 'ASC').map((url) => ({ url })),
        pageInfo: { hasNextPage: false },
        totalCount: rows.length,
      });
    });
  });

  describe('filters', () => {
    const urls = (predicate: (r: Row) => boolean) => expected('URL', 'ASC', rows.filter(predicate));
    const cases: [string, Record<string, unknown>, (r: Row) => boolean][] = [
      ['2xx', { statusClass: ['SUCCESS'] }, (r) => r.status !== null && r.status >= 200 && r.status < 300],
      ['3xx', { statusClass: ['REDIRECT'] }, (r) => r.status !== null && r.status >= 300 && r.status < 400],
      ['4xx', { statusClass: ['CLIENT_ERROR'] }, (r) => r.status !== null && r.status >= 400 && r.status < 500],
      ['5xx', { statusClass: ['SERVER_ERROR'] }, (r) => r.status !== null && r.status >= 500],
      ['no response', { statusClass: ['FAILED'] }, (r) => r.status === null],
      [
        '4xx or no response',
        { statusClass: ['CLIENT_ERROR', 'FAILED', 'FAILED'] },
        (r) => r.status === null || (r.status >= 400 && r.status < 500),
      ],
      ['an empty class list does not filter', { statusClass: [] }, () => true],
      ['with issues', { hasIssues: true }, (r) => r.issues > 0],
      ['without issues', { hasIssues: false }, (r) => r.issues === 0],
      ['search in the URL', { search: 'P0' }, (r) => r.path.startsWith('p0')],
      ['search in the title, any case', { search: 'titleUp' }, (r) => r.title === 'TitleUPPER'],
      ['search: % is literal', { search: '%' }, (r) => !!r.title?.includes('%')],
      ['search: _ is literal', { search: '_' }, (r) => r.url.includes('_')],
      ['search: surrounding spaces are ignored', { search: '  X2 ' }, (r) => r.path.includes('x2')],
      [
        'all together',
        { statusClass: ['SUCCESS', 'FAILED'], hasIssues: true, search: 'x1' },
        (r) => (r.status === null || r.status === 200) && r.issues > 0 && r.path.includes('x1'),
      ],
    ];

    it('each filter, alone and combined, walked 3 at a time with its totalCount', async () => {
      for (const [name, filter, predicate] of cases) {
        const want = urls(predicate);
        expect(want.length, `${name}: the seed has rows for it`).toBeGreaterThan(0);
        const { nodes, totals } = await walk({ filter, orderBy: 'URL', direction: 'ASC' }, 3);
        expect(
          nodes.map((n) => n.url),
          name,
        ).toEqual(want);
        expect(
          totals.every((n) => n === want.length),
          name,
        ).toBe(true);
      }
    });

    it('generated filters: each total is the rows the filter keeps, from stored facets or counted', async () => {
      const classOf = (code: number | null) =>
        code === null
          ? 'FAILED'
          : code >= 200 && code < 300
            ? 'SUCCESS'
            : code >= 300 && code < 400
              ? 'REDIRECT'
              : code >= 400 && code < 500
                ? 'CLIENT_ERROR'
                : code >= 500 && code < 600
                  ? 'SERVER_ERROR'
                  : null;
      const FILTER = fc.record({
        statusClass: fc.subarray([...STATUS_CLASSES]),
        kind: fc.subarray([...KINDS]),
        hasIssues: fc.constantFrom(null, true, false),
      });
      const keeps = (f: { statusClass: string[]; kind: string[]; hasIssues: boolean | null }) => (r: Row) =>
        (!f.statusClass.length || f.statusClass.includes(classOf(r.status) ?? '')) &&
        (!f.kind.length || (r.kind !== null && f.kind.includes(r.kind))) &&
        (f.hasIssues === null || r.issues > 0 === f.hasIssues);
      const totalOf = async (filter: Record<string, unknown>) => {
        const { errors, connection } = await page({ filter, first: 1 });
        expect(errors).toBeUndefined();
        return connection!.totalCount;
      };
      const facets = async () =>
        (await t.runtime.pool.query('SELECT page_facets FROM audit WHERE id = $1', [auditId])).rows[0].page_facets;
      // The completion stored them: a running audit has none.
      if (status === 'RUNNING') expect(await facets()).toBeNull();
      else expect(await facets()).toEqual(expect.arrayContaining([expect.any(Array)]));
      const check = () =>
        fc.assert(
          fc.asyncProperty(FILTER, async (filter) => {
            expect(await totalOf(filter)).toBe(rows.filter(keeps(filter)).length);
          }),
          { numRuns: 60 },
        );
      await check();
      if (status === 'RUNNING') return;
      // An audit completed before facets were stored has none: its totals are counted, and agree.
      const stored = await facets();
      await t.runtime.pool.query('UPDATE audit SET page_facets = NULL WHERE id = $1', [auditId]);
      try {
        await check();
      } finally {
        await t.runtime.pool.query('UPDATE audit SET page_facets = $2 WHERE id = $1', [
          auditId,
          JSON.stringify(stored),
        ]);
      }
    });

    it.runIf(status === 'COMPLETED')("the migration's backfill stores the facets the completion stores", async () => {
      const orm = t.runtime.orm;
      const migration = new AuditPageFacets20261126(orm.em.getDriver(), orm.config);
      await migration.up();
      const backfill = migration.getQueries().find((q) => typeof q === 'string' && /^update "audit"/.test(q));
      expect(backfill).toEqual(expect.any(String));
      const client = await t.runtime.pool.connect();
      try {
        // Inside a transaction that is rolled back: the backfill visits every completed audit of the database.
        await client.query('BEGIN');
        const before = (await client.query('SELECT page_facets FROM audit WHERE id = $1', [auditId])).rows[0];
        await client.query('UPDATE audit SET page_facets = NULL WHERE id = $1', [auditId]);
        await client.query(backfill as string);
        const after = (await client.query('SELECT page_facets FROM audit WHERE id = $1', [auditId])).rows[0];
        const sorted = (f: unknown[][]) => [...f].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        expect(sorted(after.page_facets)).toEqual(sorted(before.page_facets));
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });

    it('a filter that matches nothing: no nodes, no cursor', async () => {
      const { connection } = await page({ filter: { search: 'nothing-matches-this' } });
      expect(connection).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 });
    });

    it('a filter with a sort on issues, walked backwards', async () => {
      const { nodes } = await walk({ filter: { statusClass: ['SUCCESS'] }, orderBy: 'ISSUES', direction: 'DESC' }, 2);
      expect(nodes.map((n) => n.url)).toEqual(
        expected(
          'ISSUES',
          'DESC',
          rows.filter((r) => r.status === 200),
        ),
      );
    });
  });
});

describe('Audit.pages: bad input and tenancy', () => {
  const code = (errors: { extensions?: { code?: string } }[] | undefined) => errors?.[0]?.extensions?.code;

  it('first outside 1..100, a long search: BAD_USER_INPUT with a clear message', async () => {
    for (const first of [0, -1, 101]) {
      const { errors } = await page({ first });
      expect(code(errors), String(first)).toBe('BAD_USER_INPUT');
      expect(errors![0].message).toMatch(/first must be between 1 and 100/);
    }
    const long = await page({ filter: { search: 'x'.repeat(201) } });
    expect(code(long.errors)).toBe('BAD_USER_INPUT');
    expect(long.errors![0].message).toMatch(/200 characters/);
    expect((await page({ filter: { search: 'x'.repeat(200) } })).errors).toBeUndefined();
  });

  it('malformed and foreign cursors: BAD_USER_INPUT, never a 500', async () => {
    const { connection } = await page({ orderBy: 'STATUS', first: 3 });
    const good = connection!.pageInfo.endCursor!;
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    const bad = [
      'not a cursor!',
      '',
      good.slice(0, -3),
      b64('not json'),
      b64({ a: 1 }),
      b64([auditId, 'STATUS', 'ASC', 200]),
      b64([auditId, 'STATUS', 'ASC', 'two hundred', '5']),
      b64([auditId, 'STATUS', 'ASC', 200, 'x5']),
      b64([auditId, 'STATUS', 'ASC', 200, '99999999999999999999999']),
      b64([auditId, 'STATUS', 'ASC', 1e12, '5']),
      b64([auditId, 'URL', 'ASC', null, '5']),
      b64([auditId, 'STATUS', 'SIDEWAYS', 200, '5']),
    ];
    for (const after of bad) {
      const { errors } = await page({ orderBy: 'STATUS', after });
      // '' is "no cursor": the first page.
      if (after === '') expect(errors).toBeUndefined();
      else expect(code(errors), after).toBe('BAD_USER_INPUT');
    }
    // A cursor of another ordering, direction or audit.
    for (const vars of [{ orderBy: 'URL' }, { orderBy: 'STATUS', direction: 'DESC' }]) {
      const { errors } = await page({ ...vars, after: good });
      expect(code(errors), JSON.stringify(vars)).toBe('BAD_USER_INPUT');
      expect(errors![0].message).toMatch(/another list/);
    }
    const { id: otherAudit } = await anAudit({
      project,
      status: 'FAILED',
      pages: 0,
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });
    const foreign = await page({ a: otherAudit, orderBy: 'STATUS', after: good });
    expect(code(foreign.errors)).toBe('BAD_USER_INPUT');
    expect((await page({ a: otherAudit })).connection).toEqual({
      nodes: [],
      pageInfo: { hasNextPage: false, endCursor: null },
      totalCount: 0,
    });
  });

  it("another organization's audit: NOT_FOUND, by session, by key, and at the service itself", async () => {
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const otherKey = await anApiKey(other);
    for (const headers of [{ cookie: other.owner.cookie }, { authorization: `Bearer ${otherKey}` }] as Record<
      string,
      string
    >[]) {
      const { errors, connection } = await page({}, headers);
      expect(code(errors)).toBe('NOT_FOUND');
      expect(connection).toBeUndefined();
    }
    // The audit of another organization named with the caller's own project: still NOT_FOUND.
    const own = await aProject({ org: other });
    const res = await gql(
      t,
      PAGES,
      { p: own.id, a: auditId, first: 5, orderBy: 'URL', direction: 'ASC' },
      { cookie: other.owner.cookie },
    );
    expect(code(res.body.errors)).toBe('NOT_FOUND');
    // The service checks the audit's organization too, so no other path to an Audit can expose its pages.
    const service = new AuditPageService();
    const principal = {
      organizationId: other.id,
      plan: 'ENTERPRISE' as const,
      role: 'owner' as const,
      via: 'SESSION' as const,
      channel: 'GRAPHQL' as const,
    };
    await expect(
      service.list(t.runtime.orm.em, principal, auditId, { first: 5, orderBy: 'URL', direction: 'ASC' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const owner = { ...principal, organizationId: user.organizationId };
    expect(
      (await service.list(t.runtime.orm.em, owner, auditId, { first: 5, orderBy: 'URL', direction: 'ASC' })).totalCount,
    ).toBe(rows.length);
  });

  it('the /graphql cost limit accepts 100 pages with every field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', cookie: user.cookie, origin: t.config.baseUrl },
      payload: {
        query:
          `query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { id pages(first: 100) { nodes ` +
          `{ ${FIELDS} } pageInfo { hasNextPage endCursor } totalCount } } }`,
        variables: { p: projectId, a: auditId },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toBeUndefined();
    expect(res.json().data.audit.pages.nodes).toHaveLength(rows.length);
  });
});
