/**
 * An issue's evidence shape (its URL table's evidence columns) is gathered by the worker while the occurrences
 * stream out and stored with the issue (src/audits/evidence-shape.ts); audits stored before read it from their
 * occurrences in SQL. Both must give the same shape: here on the stored evidence of every check in the check
 * snapshot, on evidence of every JSON form, and on a real audit through the worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { EvidenceShapes, type EvidenceKeyShape } from '../../src/audits/evidence-shape.js';
import { UrlTableRepository } from '../../src/audits/url-table.repository.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/index.js';
import { readCheckSnapshot, snapshotOccurrences } from '../unit/seo/check-snapshot.js';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type IssueRow, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let site: RunningSite;
const host = `shape-${uniq()}.test`;
const repo = new UrlTableRepository();

beforeAll(async () => {
  site = await startFixtureSite({ host });
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>Shapes</h1>` +
    `<p>${'words '.repeat(60)}</p>${body}</body></html>`;
  site.serve({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/': { body: page('Same title', '<a href="/two">two</a> <a href="/gone">gone</a> <img src="/a.png">') },
    '/two': { body: page('Same title', '<a href="/">home</a> <a href="/missing">missing</a> <img src="/b.png">') },
    '/a.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    '/b.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
  });
  t = await createTestApp({ SAFE_HTTP_ALLOW: host, SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});

afterAll(async () => {
  await t?.close();
  await site?.close();
});

/** The shape of every code of the audit, read from its occurrences in SQL. */
async function scannedShapes(auditId: string, codes: readonly string[]): Promise<Record<string, EvidenceKeyShape[]>> {
  const db = t.runtime.orm.em.fork();
  return Object.fromEntries(
    await Promise.all(codes.map(async (code) => [code, await repo.evidenceShapeOfOccurrences(db, auditId, code)])),
  );
}

function gatheredShapes(
  occurrences: readonly { code: string; url: string; evidence: unknown }[],
  codes: readonly string[],
) {
  const shapes = new EvidenceShapes();
  for (const o of occurrences) shapes.add(o.code, o.evidence, o.url);
  return Object.fromEntries(codes.map((code) => [code, shapes.shapeOf(code)]));
}

async function storedAudit(occurrences: readonly { code: string; url: string; evidence: unknown }[]) {
  const project = await aProject({ org });
  const byCode = new Map<string, IssueRow>();
  for (const o of occurrences) {
    const issue = byCode.get(o.code) ?? { code: o.code, occurrences: [] };
    issue.occurrences!.push({ url: o.url, evidence: o.evidence });
    byCode.set(o.code, issue);
  }
  return anAudit({ project, issues: [...byCode.values()] });
}

describe('evidence shapes: gathered by the worker = read from the occurrences', () => {
  it('on the stored evidence of every check in the check snapshot', async () => {
    const occurrences = snapshotOccurrences(readCheckSnapshot());
    const codes = [...new Set(occurrences.map((o) => o.code))];
    expect(codes.length).toBeGreaterThan(50);
    const audit = await storedAudit(occurrences);
    const scanned = await scannedShapes(audit.id, codes);
    expect(gatheredShapes(occurrences, codes)).toEqual(scanned);
    // The snapshot holds lists of objects and of scalars: the comparison covers both.
    const all = Object.values(scanned).flat();
    expect(all.some((s) => s.itemTypes.includes('object') && s.subKeys.length > 0)).toBe(true);
    expect(all.some((s) => s.itemTypes.includes('string'))).toBe(true);
  });

  it('on evidence of every JSON form (mixed types, empty and nested lists, null, not an object)', async () => {
    const code = 'LINKS_INTERNAL_BROKEN';
    const forms: unknown[] = [
      {
        links: [
          { url: 'https://x.test/a', status: 404 },
          { url: 'https://x.test/b', status: null },
        ],
        count: 2,
        self: 'https://x.test/0',
      },
      { links: [], count: 0, extra: { deep: { deeper: 1 }, flag: true } },
      { links: ['https://x.test/c', 7, null, [1, 2]], count: '3', extra: null },
      {
        links: [{ url: 'https://x.test/d', status: '500', note: [1] }],
        extra: { flag: 'yes' },
        self: 'https://x.test/3',
      },
      // The occurrence's own URL in `self` above; here `other` is it once and another URL once.
      { other: 'https://x.test/4' },
      { other: 'https://x.test/0' },
      null,
      ['not', 'an', 'object'],
      'text',
      { 'ünïcode key': 1, Zed: 2, alpha: 3, _under: 4 },
    ];
    const occurrences = forms.map((evidence, i) => ({ code, url: `https://x.test/${i}`, evidence }));
    const audit = await storedAudit(occurrences);
    const scanned = await scannedShapes(audit.id, [code]);
    expect(gatheredShapes(occurrences, [code])).toEqual(scanned);
    expect(scanned[code].map((s) => s.key)).toEqual([
      'Zed',
      '_under',
      'alpha',
      'count',
      'extra',
      'links',
      'other',
      'self',
      'ünïcode key',
    ]);
    // `self` is each occurrence's own URL wherever it stands; `other` is not always.
    expect(scanned[code].filter((s) => s.ownUrl).map((s) => s.key)).toEqual(['self']);
  });

  it('a real audit stores each issue with its shape, the same as its occurrences give', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      payload: { url: site.url('/'), name: `Shapes ${uniq()}` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${created.json().project.id}/audit`,
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    });
    const { auditId } = started.json() as { auditId: string };
    const client = createConfiguredSafeHttpClient(t.config);
    try {
      expect(await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(auditId)).toBe(
        'completed',
      );
    } finally {
      await client.close();
    }
    const { rows } = await t.runtime.pool.query<{ code: string; shape: unknown }>(
      'SELECT code, evidence_shape AS shape FROM audit_issue WHERE audit_id = $1 ORDER BY code',
      [auditId],
    );
    const codes = rows.map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['LINKS_INTERNAL_BROKEN', 'META_TITLE_DUPLICATE']));
    expect(rows.every((r) => Array.isArray(r.shape))).toBe(true);
    expect(Object.fromEntries(rows.map((r) => [r.code, r.shape]))).toEqual(await scannedShapes(auditId, codes));
    // The stored shape is what the table reads.
    const broken = rows.find((r) => r.code === 'LINKS_INTERNAL_BROKEN')!;
    expect(await repo.evidenceShape(t.runtime.orm.em.fork(), auditId, broken.code)).toEqual(broken.shape);
  });
});
