import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { anApiKey, anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';

let t: TestApp;
/** The web app's user (ENTERPRISE here only for its Surface B allowance: this file makes many requests). */
let app: Org;
let free: Org;
let pro: Org;
let appProject: Project;
let freeProject: Project;
let proProject: Project;
let auditId: string;
let bigAuditId: string;
let proKey: string;
let freeKey: string;

const EXPORT = `query($projectId: ID!, $kind: ExportKind!, $format: ExportFormat!, $auditId: ID, $after: String,
  $size: Int) {
  exportFile(projectId: $projectId, kind: $kind, format: $format, auditId: $auditId, after: $after, size: $size) {
    filename contentType content rows nextCursor
  }
}`;

interface Piece {
  filename: string;
  contentType: string;
  content: string;
  rows: number;
  nextCursor: string | null;
}

/** Asks for every piece of an export as the web app does (session on /graphql) and joins them. */
async function download(
  org: Org,
  vars: { projectId: string; kind: string; format: string; auditId?: string | null; size?: number },
): Promise<{ file: string; pieces: Piece[] }> {
  const pieces: Piece[] = [];
  let after: string | null = null;
  do {
    const res: { body: { data?: { exportFile: Piece }; errors?: unknown } } = await gql(
      t,
      EXPORT,
      { ...vars, after },
      { cookie: org.owner.cookie },
    );
    const body = res.body;
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    pieces.push(body.data.exportFile);
    after = body.data.exportFile.nextCursor;
  } while (after);
  return { file: pieces.map((p) => p.content).join(''), pieces };
}

const csvLines = (file: string) => file.replace(/^\uFEFF/, '').split('\r\n');

async function seedKeywords(project: Project): Promise<void> {
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n));
  const keyword = async (term: string, createdAt: Date) => {
    const id = newId();
    await q(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device, created_at)
       VALUES ($1, $2, $3, $3, 'us', 'en', 'desktop', $4)`,
      [id, project.id, term, createdAt],
    );
    return id;
  };
  const rank = (keywordId: string, status: 'OK' | 'FAILED', position: number | null, at: Date, error?: string) =>
    q(
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, error, checked_at)
       VALUES ($1, $2, $3, $4, $5, 'test', $6, $7)`,
      [
        newId(),
        keywordId,
        status,
        position,
        position ? `${project.url.replace(/\/$/, '')}/ranked` : null,
        error ?? null,
        at,
      ],
    );
  const climber = await keyword('seo audit tool', day(0));
  await rank(climber, 'OK', 12, day(1));
  await rank(climber, 'OK', 9, day(2));
  await rank(climber, 'OK', 4, day(3));
  const faller = await keyword('=HYPERLINK("http://evil")', day(1));
  await rank(faller, 'OK', 3, day(2));
  await rank(faller, 'OK', 7, day(3));
  await rank(faller, 'FAILED', null, day(4), 'SERP provider timed out');
  await keyword('never checked', day(2));
}

beforeAll(async () => {
  t = await createTestApp();
  app = await anOrg(t, { plan: 'ENTERPRISE' });
  free = await anOrg(t, { plan: 'FREE' });
  pro = await anOrg(t, { plan: 'PRO' });
  appProject = await aProject({ org: app, url: 'https://exports.example.com' });
  freeProject = await aProject({ org: free, url: 'https://free-exports.example.com' });
  proProject = await aProject({ org: pro, url: 'https://api-exports.example.com' });
  const audit = await anAudit({
    project: appProject,
    pages: [
      {
        url: 'https://exports.example.com/',
        title: 'Home, "quoted"',
        wordCount: 320,
        responseTimeMs: 41,
        // 12,000 links, 2,000 of them past the per-page cap: not read.
        details: { linkCount: 12_000, linksNotRead: 2_000 },
      },
      { url: 'https://exports.example.com/a', title: '-1 trick', statusCode: 404, indexable: false },
      { url: 'https://exports.example.com/b', title: null, statusCode: null, error: 'connection reset' },
    ],
    issues: [
      {
        code: 'META_TITLE_MISSING',
        occurrences: [{ url: 'https://exports.example.com/b', evidence: { snippet: '@SUM(A1)' } }],
      },
      {
        code: 'CONTENT_THIN',
        occurrences: [
          { url: 'https://exports.example.com/', evidence: { words: 320 } },
          { url: 'https://exports.example.com/a', evidence: null },
        ],
      },
    ],
  });
  auditId = audit.id;
  await seedKeywords(appProject);
  await seedKeywords(freeProject);
  await seedKeywords(proProject);
  // 4,500 occurrences: more than one piece of the REST route (2,000 rows each).
  const big = await anAudit({ project: proProject, pages: 2, issues: [{ code: 'CONTENT_THIN', affectedPages: 1 }] });
  bigAuditId = big.id;
  await t.runtime.pool.query(
    `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
     SELECT $1, 'CONTENT_THIN', 'https://api-exports.example.com/p/' || g, jsonb_build_object('n', g)
     FROM generate_series(1, 4500) AS g`,
    [bigAuditId],
  );
  proKey = await anApiKey(pro);
  freeKey = await anApiKey(free);
}, 120_000);
afterAll(() => t.close());

describe('exportFile over GraphQL with the session (the web app, every plan)', () => {
  it('issues CSV: one row per occurrence, RFC 4180 with a BOM, the same file in any piece size', async () => {
    const { file, pieces } = await download(app, { projectId: appProject.id, kind: 'ISSUES', format: 'CSV', auditId });
    expect(file.startsWith('\uFEFF')).toBe(true);
    expect(pieces[0].contentType).toBe('text/csv; charset=utf-8');
    expect(pieces[0].filename).toMatch(
      new RegExp(`^exports\\.example\\.com-audit-${auditId.slice(0, 8)}-issues-\\d{4}-\\d\\d-\\d\\d\\.csv$`),
    );
    const lines = csvLines(file);
    expect(lines[0]).toBe('code,title,severity,category,url,scope,evidence');
    expect(lines).toHaveLength(5); // header, 3 occurrences, trailing empty
    expect(lines).toContain(
      `META_TITLE_MISSING,Missing title,CRITICAL,META,https://exports.example.com/b,page,"{""snippet"":""@SUM(A1)""}"`,
    );
    expect(lines.at(-1)).toBe('');

    // One row per piece: the same bytes.
    const small = await download(app, { projectId: appProject.id, kind: 'ISSUES', format: 'CSV', auditId, size: 1 });
    expect(small.pieces).toHaveLength(3);
    expect(small.pieces.map((p) => p.rows)).toEqual([1, 1, 1]);
    expect(small.file).toBe(file);
  });

  it('issues JSON: the audit and one object per occurrence, valid in any piece size', async () => {
    const { file } = await download(app, { projectId: appProject.id, kind: 'ISSUES', format: 'JSON', auditId });
    const doc = JSON.parse(file);
    expect(doc).toMatchObject({
      kind: 'issues',
      project: { id: appProject.id, name: 'exports.example.com', domain: 'exports.example.com' },
      audit: { id: auditId, status: 'COMPLETED' },
    });
    expect(doc.rows).toHaveLength(3);
    expect(doc.rows[0]).toEqual({
      code: 'META_TITLE_MISSING',
      title: 'Missing title',
      severity: 'CRITICAL',
      category: 'META',
      url: 'https://exports.example.com/b',
      scope: 'page',
      evidence: { snippet: '@SUM(A1)' },
    });
    const small = await download(app, { projectId: appProject.id, kind: 'ISSUES', format: 'JSON', auditId, size: 2 });
    expect(JSON.parse(small.file).rows).toEqual(doc.rows);
  });

  it('pages CSV and JSON: one row per crawled page with its issue count; quoting and injection-safe', async () => {
    const csv = await download(app, { projectId: appProject.id, kind: 'PAGES', format: 'CSV', auditId });
    const lines = csvLines(csv.file);
    expect(lines[0]).toBe(
      'url,finalUrl,statusCode,depth,title,metaDescription,kind,indexable,wordCount,responseTimeMs,bytes,inlinks,' +
        'outlinks,linkCount,linksNotRead,issueCount,error',
    );
    expect(lines[1]).toBe(
      'https://exports.example.com/,https://exports.example.com/,200,0,"Home, ""quoted""",,,true,320,41,0,0,0,' +
        '12000,2000,1,',
    );
    // Not an analysed HTML page: no link count, none not read.
    expect(lines[2]).toBe(
      "https://exports.example.com/a,https://exports.example.com/a,404,0,'-1 trick,,,false,0,,0,0,0,,0,1,",
    );
    expect(lines[3]).toMatch(/^https:\/\/exports\.example\.com\/b,.*,1,connection reset$/);
    const json = JSON.parse(
      (await download(app, { projectId: appProject.id, kind: 'PAGES', format: 'JSON', auditId })).file,
    );
    expect(json.rows.map((r: { url: string; issueCount: number }) => [r.url, r.issueCount])).toEqual([
      ['https://exports.example.com/', 1],
      ['https://exports.example.com/a', 1],
      ['https://exports.example.com/b', 1],
    ]);
    expect(json.rows[1].title).toBe('-1 trick'); // JSON keeps the value as it is
  });

  it('issues and pages default to the latest completed audit', async () => {
    const { pieces } = await download(app, { projectId: appProject.id, kind: 'PAGES', format: 'CSV' });
    expect(pieces[0].filename).toContain(`audit-${auditId.slice(0, 8)}-pages`);
  });

  it('keywords CSV and JSON: position, previous, change, best, last check and its error', async () => {
    const { file, pieces } = await download(app, { projectId: appProject.id, kind: 'KEYWORDS', format: 'CSV' });
    expect(pieces[0].filename).toMatch(/^exports\.example\.com-keywords-\d{4}-\d\d-\d\d\.csv$/);
    const lines = csvLines(file);
    expect(lines[0]).toBe(
      'term,country,language,device,position,previousPosition,change,bestPosition,url,lastChecked,lastCheckStatus,' +
        'lastError',
    );
    expect(lines[1]).toBe(
      'seo audit tool,us,en,desktop,4,9,5,4,https://exports.example.com/ranked,2026-11-04T00:00:00.000Z,OK,',
    );
    expect(lines[2]).toBe(
      `"'=HYPERLINK(""http://evil"")",us,en,desktop,7,3,-4,3,https://exports.example.com/ranked,` +
        '2026-11-04T00:00:00.000Z,FAILED,SERP provider timed out',
    );
    expect(lines[3]).toBe('never checked,us,en,desktop,,,,,,,,');
    const small = await download(app, { projectId: appProject.id, kind: 'KEYWORDS', format: 'JSON', size: 1 });
    const doc = JSON.parse(small.file);
    expect(small.pieces).toHaveLength(3);
    expect(doc.kind).toBe('keywords');
    expect(doc.audit).toBeNull();
    expect(doc.rows.map((r: { term: string; change: number | null }) => [r.term, r.change])).toEqual([
      ['seo audit tool', 5],
      ['=HYPERLINK("http://evil")', -4],
      ['never checked', null],
    ]);
  });

  it("another organization's project or audit is not found; bad input is refused", async () => {
    const ask = async (vars: Record<string, unknown>, org = pro) =>
      (await gql(t, EXPORT, vars, { cookie: org.owner.cookie })).body.errors?.[0]?.extensions?.code;
    expect(await ask({ projectId: appProject.id, kind: 'ISSUES', format: 'CSV', auditId })).toBe('NOT_FOUND');
    expect(await ask({ projectId: appProject.id, kind: 'KEYWORDS', format: 'CSV' })).toBe('NOT_FOUND');
    // An audit of another project, asked through one's own project.
    expect(await ask({ projectId: proProject.id, kind: 'PAGES', format: 'CSV', auditId })).toBe('NOT_FOUND');
    expect(await ask({ projectId: proProject.id, kind: 'PAGES', format: 'CSV', auditId: 'nope' })).toBe('NOT_FOUND');
    expect(await ask({ projectId: proProject.id, kind: 'ISSUES', format: 'CSV', after: 'garbage!' })).toBe(
      'BAD_USER_INPUT',
    );
    expect(await ask({ projectId: proProject.id, kind: 'ISSUES', format: 'CSV', size: 0 })).toBe('BAD_USER_INPUT');
    // A cursor of another export (CSV cursor used for JSON).
    const { body } = await gql<{ exportFile: Piece }>(
      t,
      EXPORT,
      { projectId: appProject.id, kind: 'ISSUES', format: 'CSV', auditId, size: 1 },
      { cookie: app.owner.cookie },
    );
    const after = body.data!.exportFile.nextCursor;
    expect(await ask({ projectId: appProject.id, kind: 'ISSUES', format: 'JSON', auditId, after, size: 1 }, app)).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('a project without a completed audit has nothing to export for issues', async () => {
    const empty = await aProject({ org: app });
    const { body } = await gql(
      t,
      EXPORT,
      { projectId: empty.id, kind: 'ISSUES', format: 'CSV' },
      { cookie: app.owner.cookie },
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(body.errors?.[0]?.message).toMatch(/no completed audit/);
  });

  it('a FREE organization exports from the web app (a session on /graphql is not plan-gated)', async () => {
    const { file } = await download(free, { projectId: freeProject.id, kind: 'KEYWORDS', format: 'CSV' });
    expect(csvLines(file)[1]).toMatch(/^seo audit tool,us,en,desktop,4,9,5,4,/);
  });

  it('an API key on /graphql gets the same exports (plan-gated: PRO reads, FREE is refused)', async () => {
    const ok = await gql<{ exportFile: Piece }>(
      t,
      EXPORT,
      { projectId: proProject.id, kind: 'KEYWORDS', format: 'CSV' },
      { authorization: `Bearer ${proKey}`, origin: '' },
    );
    expect(ok.body.data?.exportFile.content).toContain('seo audit tool');
    const refused = await gql(
      t,
      EXPORT,
      { projectId: freeProject.id, kind: 'KEYWORDS', format: 'CSV' },
      { authorization: `Bearer ${freeKey}`, origin: '' },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('GET /api/v1/projects/:projectId/exports/:kind (API key)', () => {
  const get = (url: string, key = proKey) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('streams a large issues CSV piece by piece as an attachment', async () => {
    const res = await get(`/api/v1/projects/${proProject.id}/exports/issues?format=csv&auditId=${bigAuditId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="api-exports\\.example\\.com-audit-${bigAuditId.slice(0, 8)}-issues-`),
    );
    const lines = csvLines(res.body);
    expect(lines[0]).toBe('code,title,severity,category,url,scope,evidence');
    expect(lines).toHaveLength(4502);
    expect(new Set(lines.slice(1, -1)).size).toBe(4500);
    expect(lines[4500]).toContain('https://api-exports.example.com/p/4500,');
  });

  it('JSON of pages and keywords; csv is the default format', async () => {
    const pages = await get(`/api/v1/projects/${proProject.id}/exports/pages?format=json&auditId=${bigAuditId}`);
    expect(pages.statusCode).toBe(200);
    expect(pages.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(pages.json()).toMatchObject({ kind: 'pages', audit: { id: bigAuditId }, rows: [] });
    const big = await get(`/api/v1/projects/${proProject.id}/exports/issues?format=json`);
    expect(big.json().rows).toHaveLength(4500);
    const keywords = await get(`/api/v1/projects/${proProject.id}/exports/keywords`);
    expect(keywords.statusCode).toBe(200);
    expect(keywords.headers['content-disposition']).toMatch(/api-exports\.example\.com-keywords-.*\.csv"$/);
    expect(csvLines(keywords.body)).toHaveLength(5);
  });

  it("refuses: another organization's project 404, FREE key 403, no key 401, unknown kind or format 400", async () => {
    expect((await get(`/api/v1/projects/${freeProject.id}/exports/issues`)).statusCode).toBe(404);
    expect((await get(`/api/v1/projects/${proProject.id}/exports/issues?auditId=${auditId}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/projects/${freeProject.id}/exports/keywords`, freeKey)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/projects/${proProject.id}/exports/keywords` })).statusCode,
    ).toBe(401);
    const badKind = await get(`/api/v1/projects/${proProject.id}/exports/competitors`);
    expect(badKind.statusCode).toBe(400);
    expect((await get(`/api/v1/projects/${proProject.id}/exports/issues?format=xlsx`)).statusCode).toBe(400);
  });
});
