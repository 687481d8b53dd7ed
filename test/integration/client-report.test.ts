import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { CHROMIUM } from '../support/chromium.js';

let t: TestApp;
let bare: TestApp;
let org: Org;
let other: Org;
let project: Project;
let auditId: string;

const REPORT = `query($projectId: ID!, $auditId: ID) {
  clientReport(projectId: $projectId, auditId: $auditId) {
    projectName domain url generatedAt pdfAvailable
    audit {
      id pagesCrawled scores { overall meta content links technical performance }
      issueCounts { critical warning notice }
    }
    categories { category score critical warning notice }
    topIssues { code title severity affectedPages urls fix { summary steps source } }
    vitals { url device source lcpMs cls inpMs }
    keywordGains { term position previousPosition change }
    keywordLosses { term position previousPosition change }
  }
}`;
const PDF = `query($projectId: ID!) { clientReportPdf(projectId: $projectId) { filename contentType base64 } }`;

async function seed(p: Project): Promise<string> {
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  // An older audit: the report is about the latest completed one.
  await anAudit({ project: p, scores: { overall: 11 }, createdAt: new Date(Date.now() - 86_400_000) });
  const audit = await anAudit({
    project: p,
    scores: { overall: 73, meta: 64, content: 81, links: 90, technical: 58, performance: 77 },
    pages: 4,
    issues: [
      {
        code: 'META_TITLE_MISSING',
        occurrences: ['https://report.example.com/', 'https://report.example.com/about'],
      },
      { code: 'CONTENT_THIN', title: 'Thin <b>content</b> & "more"', occurrences: ['https://report.example.com/x'] },
    ],
  });
  await q(
    `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source, lcp_ms, cls, inp_ms)
     VALUES ($1, $2, $3, 'https://report.example.com/', now() - interval '1 day', 'desktop', 'LAB', 9000, 0.5, 900),
            ($4, $2, $3, 'https://report.example.com/', now(), 'desktop', 'LAB', 1800, 0.02, 120)`,
    [newId(), p.id, audit.id, newId()],
  );
  const keyword = async (term: string, positions: number[]) => {
    const id = newId();
    await q(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       VALUES ($1, $2, $3, $3, 'us', 'en', 'desktop')`,
      [id, p.id, term],
    );
    for (const [i, position] of positions.entries())
      await q(
        `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
         VALUES ($1, $2, 'OK', $3, 'https://report.example.com/', 'test', now() - make_interval(days => $4))`,
        [newId(), id, position, positions.length - i],
      );
  };
  await keyword('oak tables', [30, 14, 6]);
  await keyword('walnut chairs', [2, 9]);
  await keyword('pine shelves', [5, 5]);
  return audit.id;
}

beforeAll(async () => {
  t = await createTestApp({ CHROMIUM_PATH: CHROMIUM });
  bare = await createTestApp({ CHROMIUM_PATH: '' });
  org = await anOrg(t, { plan: 'FREE' });
  other = await anOrg(t, { plan: 'ENTERPRISE' });
  project = await aProject({ org, url: 'https://report.example.com' });
  auditId = await seed(project);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

describe('clientReport', () => {
  it('assembles scores, categories, top issues with URLs and fixes, latest vitals and keyword movers', async () => {
    const { body } = await gql(t, REPORT, { projectId: project.id }, { cookie: org.owner.cookie });
    const r = body.data!.clientReport;
    expect(r.projectName).toBe('report.example.com');
    expect(r.pdfAvailable).toBe(true);
    expect(r.audit).toMatchObject({ id: auditId, pagesCrawled: 4, scores: { overall: 73, technical: 58 } });
    expect(r.categories).toContainEqual({ category: 'META', score: 64, critical: 1, warning: 0, notice: 0 });
    expect(r.topIssues[0]).toMatchObject({
      code: 'META_TITLE_MISSING',
      severity: 'CRITICAL',
      affectedPages: 2,
      urls: ['https://report.example.com/', 'https://report.example.com/about'],
      fix: { source: 'RULES', summary: expect.any(String) },
    });
    expect(r.topIssues[0].fix.steps.length).toBeGreaterThan(0);
    // Latest per page: the newer measurement.
    expect(r.vitals).toEqual([
      { url: 'https://report.example.com/', device: 'desktop', source: 'LAB', lcpMs: 1800, cls: 0.02, inpMs: 120 },
    ]);
    expect(r.keywordGains).toEqual([{ term: 'oak tables', position: 6, previousPosition: 14, change: 8 }]);
    expect(r.keywordLosses).toEqual([{ term: 'walnut chairs', position: 9, previousPosition: 2, change: -7 }]);
  });

  it("another organization's project is not found; so is an audit of another project", async () => {
    const { body } = await gql(t, REPORT, { projectId: project.id }, { cookie: other.owner.cookie });
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const own = await aProject({ org: other });
    const cross = await gql(t, REPORT, { projectId: own.id, auditId }, { cookie: other.owner.cookie });
    expect(cross.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const pdf = await gql(t, PDF, { projectId: project.id }, { cookie: other.owner.cookie });
    expect(pdf.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('a project without a completed audit still gets a report (no audit yet)', async () => {
    const own = await aProject({ org: other });
    const { body } = await gql(t, REPORT, { projectId: own.id }, { cookie: other.owner.cookie });
    expect(body.data!.clientReport).toMatchObject({ audit: null, categories: [], topIssues: [] });
  });
});

describe('clientReportPdf', () => {
  it('renders a real PDF with headless Chromium whose text has the project, the scores and a top issue', async () => {
    const { body } = await gql(t, PDF, { projectId: project.id }, { cookie: org.owner.cookie });
    expect(body.errors).toBeUndefined();
    const file = body.data!.clientReportPdf;
    expect(file.contentType).toBe('application/pdf');
    expect(file.filename).toMatch(/^report\.example\.com-report-\d{4}-\d\d-\d\d\.pdf$/);
    const bytes = Buffer.from(file.base64, 'base64');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
    try {
      writeFileSync(join(dir, 'r.pdf'), bytes);
      const text = execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
      expect(text).toContain('SEO report: report.example.com');
      expect(text).toContain('overall score 73/100');
      expect(text).toMatch(/Technical\s+58\s+0\s+0\s+0/);
      expect(text).toMatch(/Meta\s+64\s+1\s+0\s+0/);
      expect(text).toContain('Missing title');
      expect(text).toContain('https://report.example.com/about');
      // Crawled text is escaped, shown as written.
      expect(text).toContain('Thin <b>content</b> & "more"');
      expect(text).toContain('oak tables');
      expect(text).toContain('walnut chairs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('without CHROMIUM_PATH: pdfAvailable is false and the PDF is refused with how to enable it', async () => {
    const user = await anOrg(bare, { plan: 'FREE' });
    const own = await aProject({ org: user });
    const report = await gql(bare, REPORT, { projectId: own.id }, { cookie: user.owner.cookie });
    expect(report.body.data!.clientReport.pdfAvailable).toBe(false);
    const { body } = await gql(bare, PDF, { projectId: own.id }, { cookie: user.owner.cookie });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    expect(body.errors?.[0]?.message).toMatch(/CHROMIUM_PATH/);
  });
});
