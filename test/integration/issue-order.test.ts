import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';

/**
 * The order of an audit's issues (Audit.issues, src/audits/issue-order.ts; the issues page keeps it): the more severe
 * first, and within a severity the larger priority. Issue 62: tracking keywords lifted the notice "Missing Twitter
 * card" above warnings, and a warning above a critical issue, because the list was sorted by priority alone. Here one
 * page ranks for many top-3 keywords: its warning and its notice get ranking terms that put their priorities above
 * an unranked critical issue and an unranked warning, and the list still reads by severity first; within a severity
 * the ranked issue comes before a wider unranked one.
 */
let t: TestApp;
let org: Org;
let project: Project;
let auditId: string;
let host: string;

const at = (path: string) => `https://${host}${path}`;
/** Top-3 keywords the home page ranks for: what lifts the priorities of its issues. */
const KEYWORDS = 12;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  host = `order-${uniq()}.example.com`;
  project = await aProject({ org, url: `https://${host}/` });
  const added = await gql(
    t,
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
    { p: project.id, k: Array.from({ length: KEYWORDS }, (_, i) => `oak furniture ${i}`) },
    { cookie: org.owner.cookie },
  );
  expect(added.body.errors).toBeUndefined();
  for (const { id } of added.body.data.addKeywords as { id: string }[])
    await t.runtime.pool.query(
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
       VALUES ($1, $2, 'OK', 1, $3, 'serper', now())`,
      [newId(), id, at('/')],
    );
  const pages = [{ url: at('/') }, ...Array.from({ length: 19 }, (_, i) => ({ url: at(`/p${i}`) }))];
  auditId = (
    await anAudit({
      project,
      pages,
      issues: [
        // Unranked CRITICAL on one page.
        { code: 'META_TITLE_MISSING', severity: 'CRITICAL', occurrences: [at('/p1')], applicablePages: 20 },
        // WARNING on the ranking page, and a wider one on pages that rank for nothing.
        { code: 'CONTENT_H1_MISSING', severity: 'WARNING', occurrences: [at('/')], applicablePages: 20 },
        { code: 'CONTENT_THIN', severity: 'WARNING', occurrences: [at('/p2'), at('/p3')], applicablePages: 20 },
        // NOTICE on the ranking page, and a wider one on pages that rank for nothing.
        { code: 'META_TWITTER_CARD_MISSING', severity: 'NOTICE', occurrences: [at('/')], applicablePages: 20 },
        {
          code: 'CONTENT_H1_MULTIPLE',
          severity: 'NOTICE',
          occurrences: [at('/p4'), at('/p5'), at('/p6'), at('/p7'), at('/p8')],
          applicablePages: 20,
        },
      ],
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Row = { code: string; severity: string; affectedPages: number; priority: number; rankingPages: number };

async function issues(fields = 'code severity affectedPages priority rankingPages'): Promise<Row[]> {
  const res = await gql(
    t,
    `query($p: ID!, $a: ID!) { audit(projectId: $p, auditId: $a) { issues { ${fields} } } }`,
    { p: project.id, a: auditId },
    { cookie: org.owner.cookie },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.audit.issues as Row[];
}

describe("an audit's issues", () => {
  it('come most severe first, whatever the ranking term adds to a less severe one', async () => {
    const list = await issues();
    const p = Object.fromEntries(list.map((i) => [i.code, i.priority]));
    // The premise: the ranking term puts the ranked warning above the critical issue, and the ranked notice above
    // the unranked warning (sorted by priority alone, the list would read warning, critical, notice, warning...).
    expect(list.find((i) => i.code === 'CONTENT_H1_MISSING')!.rankingPages).toBe(1);
    expect(list.find((i) => i.code === 'META_TWITTER_CARD_MISSING')!.rankingPages).toBe(1);
    expect(p.CONTENT_H1_MISSING).toBeGreaterThan(p.META_TITLE_MISSING);
    expect(p.META_TWITTER_CARD_MISSING).toBeGreaterThan(p.CONTENT_THIN);
    const byPriorityAlone = [...list].sort((a, b) => b.priority - a.priority).map((i) => i.code);
    expect(byPriorityAlone.indexOf('CONTENT_H1_MISSING')).toBeLessThan(byPriorityAlone.indexOf('META_TITLE_MISSING'));
    expect(byPriorityAlone.indexOf('META_TWITTER_CARD_MISSING')).toBeLessThan(byPriorityAlone.indexOf('CONTENT_THIN'));

    // The order: severity first; within a severity the ranked issue before the wider unranked one.
    expect(list.map((i) => [i.severity, i.code])).toEqual([
      ['CRITICAL', 'META_TITLE_MISSING'],
      ['WARNING', 'CONTENT_H1_MISSING'],
      ['WARNING', 'CONTENT_THIN'],
      ['NOTICE', 'META_TWITTER_CARD_MISSING'],
      ['NOTICE', 'CONTENT_H1_MULTIPLE'],
    ]);
    // Within a severity it is the ranking term that orders: the first of each pair affects fewer pages.
    expect(p.CONTENT_H1_MISSING).toBeGreaterThan(p.CONTENT_THIN);
    expect(list.find((i) => i.code === 'CONTENT_THIN')!.affectedPages).toBeGreaterThan(1);
    expect(p.META_TWITTER_CARD_MISSING).toBeGreaterThan(p.CONTENT_H1_MULTIPLE);
    expect(list.find((i) => i.code === 'CONTENT_H1_MULTIPLE')!.affectedPages).toBeGreaterThan(1);
  });

  it('come in the same order when priority is not asked for', async () => {
    const withPriority = (await issues()).map((i) => i.code);
    const without = (await issues('code')).map((i) => i.code);
    expect(without).toEqual(withPriority);
  });
});
