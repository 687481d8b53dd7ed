import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { anAudit, anOrg, aProject, type Project } from '../factories.js';
import { createProject, createTestApp, signUp, type TestApp, type TestUser } from '../support/app.js';

let t: TestApp;
let user: TestUser;
let projectId: string;
let auditId: string;
let bigAuditId: string;

/**
 * A completed audit with two issues on 3 pages, and `occurrences` occurrences of them alternating between the two
 * codes, all with hostile text in their evidence (written here: the factory writes an issue's occurrences together).
 */
async function seedAudit(project: Project, occurrences: number): Promise<string> {
  const issues = [{ code: 'META_TITLE_MISSING' }, { code: 'CONTENT_THIN' }].map((i) => ({
    ...i,
    description: 'd',
    affectedPages: 1,
  }));
  const { id } = await anAudit({ project, pages: 3, issues });
  await t.runtime.pool.query(
    `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
     SELECT $1, CASE WHEN g % 2 = 0 THEN 'META_TITLE_MISSING' ELSE 'CONTENT_THIN' END,
            'https://example.com/p/' || g, jsonb_build_object('snippet', '=cmd|'' /C calc''!A0', 'n', g)
     FROM generate_series(1, $2) AS g`,
    [id, occurrences],
  );
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  const org = await anOrg(t, { plan: 'PRO' });
  user = org.owner;
  const project = await aProject({ org, url: 'https://reports.example.com' });
  projectId = project.id;
  auditId = await seedAudit(project, 3);
  bigAuditId = await seedAudit(project, 100_000);
}, 120_000);
afterAll(() => t.close());

const get = (url: string, cookie = user.cookie) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('GET /api/projects/:id/reports', () => {
  it('JSON by default: one entry per audit with scores, counts and export links', async () => {
    const res = await get(`/api/projects/${projectId}/reports`);
    expect(res.statusCode).toBe(200);
    const { reports } = res.json();
    expect(reports).toHaveLength(2);
    expect(reports.find((r: { auditId: string }) => r.auditId === auditId)).toEqual({
      auditId,
      status: 'COMPLETED',
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      scores: { overall: 80, meta: 70, content: 60, links: 90, technical: 85, performance: 95 },
      pagesCrawled: 3,
      issueCounts: { critical: 1, warning: 1, notice: 0 },
      exports: {
        json: `/api/projects/${projectId}/reports?auditId=${auditId}&format=json`,
        csv: `/api/projects/${projectId}/reports?auditId=${auditId}&format=csv`,
      },
    });
  });

  it('CSV: one row per audit, RFC 4180, attachment with a sensible name', async () => {
    const res = await get(`/api/projects/${projectId}/reports?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="reports\.example\.com-audits-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'auditId,status,createdAt,completedAt,overall,meta,content,links,technical,performance,pagesCrawled,cri' +
        'tical,warning,notice',
    );
    expect(lines).toHaveLength(4); // header, 2 audits, trailing empty
    expect(lines.find((l) => l.startsWith(auditId))).toMatch(/,COMPLETED,.*,80,70,60,90,85,95,3,1,1,0$/);
  });

  it('CSV with auditId: one row per issue occurrence, formula injection neutralized', async () => {
    const res = await get(`/api/projects/${projectId}/reports?auditId=${auditId}&format=csv`);
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('code,title,severity,category,url,evidence');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      `CONTENT_THIN,Thin content,WARNING,CONTENT,https://example.com/p/1,"{""n"":1,""snippet"":""=cmd|' ` +
        `/C calc'!A0""}"`,
    );
    // A text cell that starts a formula is neutralized.
    await t.runtime.pool.query(
      `UPDATE issue_occurrence SET url = '=HYPERLINK("http://evil")' WHERE audit_id = $1 AND url = ` +
        `'https://example.com/p/3'`,
      [auditId],
    );
    const hostile = await get(`/api/projects/${projectId}/reports?auditId=${auditId}&format=csv`);
    expect(hostile.body).toContain(`,"'=HYPERLINK(""http://evil"")",`);
    await t.runtime.pool.query(
      `UPDATE issue_occurrence SET url = 'https://example.com/p/3' WHERE audit_id = $1 AND url LIKE '=HYPERLINK%'`,
      [auditId],
    );
  });

  it('JSON with auditId: the report with its occurrences', async () => {
    const res = await get(`/api/projects/${projectId}/reports?auditId=${auditId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.reports).toHaveLength(1);
    expect(body.reports[0].occurrences).toEqual([
      {
        code: 'CONTENT_THIN',
        title: 'Thin content',
        severity: 'WARNING',
        category: 'CONTENT',
        url: 'https://example.com/p/1',
        evidence: { n: 1, snippet: "=cmd|' /C calc'!A0" },
      },
      {
        code: 'META_TITLE_MISSING',
        title: 'Missing title',
        severity: 'CRITICAL',
        category: 'META',
        url: 'https://example.com/p/2',
        evidence: { n: 2, snippet: "=cmd|' /C calc'!A0" },
      },
      {
        code: 'CONTENT_THIN',
        title: 'Thin content',
        severity: 'WARNING',
        category: 'CONTENT',
        url: 'https://example.com/p/3',
        evidence: { n: 3, snippet: "=cmd|' /C calc'!A0" },
      },
    ]);
  });

  it('100,000 occurrences stream as CSV with flat memory', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as { port: number }).port;
    // Retained memory: heap after a full GC, sampled while the export streams (vitest runs with --expose-gc).
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'tests run with --expose-gc').toBeTypeOf('function');
    gc!();
    const before = process.memoryUsage().heapUsed;
    let peakRetained = before;
    let sinceGc = 0;
    let bytes = 0;
    let rows = 0;
    let tail = '';
    await new Promise<void>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/projects/${projectId}/reports?auditId=${bigAuditId}&format=csv`,
            headers: { cookie: user.cookie },
          },
          (res) => {
            expect(res.statusCode).toBe(200);
            expect(res.headers['transfer-encoding']).toBe('chunked');
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              bytes += chunk.length;
              const text = tail + chunk;
              const parts = text.split('\r\n');
              tail = parts.pop() ?? '';
              rows += parts.length;
              sinceGc += parts.length;
              if (sinceGc >= 10_000) {
                sinceGc = 0;
                gc!();
                peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed);
              }
            });
            res.on('end', resolve);
            res.on('error', reject);
          },
        )
        .on('error', reject);
    });
    expect(rows).toBe(100_001); // header + every occurrence
    const growthMb = (peakRetained - before) / 1024 / 1024;
    console.log(
      `CSV export: ${rows - 1} occurrences, ${(bytes / 1e6).toFixed(1)} MB streamed, peak retained heap ` +
        `growth ${growthMb.toFixed(1)} MB`,
    );
    // The CSV is ~12 MB and 100,000 row objects far more; streaming keeps one 1,000-row page alive.
    expect(growthMb).toBeLessThan(15);
    expect(bytes).toBeGreaterThan(10_000_000);
  }, 120_000);
});

describe('report access', () => {
  it('FREE is 403, another organization is 404, unknown audit is 404, bad format is 400', async () => {
    const other = await signUp(t, { plan: 'ENTERPRISE' });
    expect((await get(`/api/projects/${projectId}/reports`, other.cookie)).statusCode).toBe(404);
    expect(
      (await get(`/api/projects/${projectId}/reports?auditId=${auditId}&format=csv`, other.cookie)).statusCode,
    ).toBe(404);
    const free = await signUp(t);
    const freeProject = (await createProject(t, free)).id;
    expect((await get(`/api/projects/${freeProject}/reports`, free.cookie)).statusCode).toBe(403);
    expect((await get(`/api/projects/${projectId}/reports?auditId=${newId()}&format=csv`)).statusCode).toBe(404);
    expect((await get(`/api/projects/${projectId}/reports?format=xlsx`)).statusCode).toBe(400);
  });
});
