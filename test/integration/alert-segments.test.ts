/**
 * Alert rules that watch a segment (docs/alerts.md): SCORE_DROP and NEW_ISSUES evaluated on the segment's figures
 * (its scores by the audit's formula over its URLs, the issues new on its URLs) instead of the whole site's; the
 * payload names the segment; another organization's segment is NOT_FOUND; a watched segment cannot be deleted.
 * Facts read as the alert worker reads them (AlertFactsReader), rules as stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertFactsReader, evaluateAuditRules, type AlertDraft } from '../../src/alerts/index.js';
import { AlertRuleRepository } from '../../src/alerts/alert-rule.repository.js';
import { AUDIT_RULE_KINDS } from '../../src/alerts/alert-rules.js';
import { alertPayload } from '../../src/alerts/alert-payload.js';
import { VITAL_BANDS } from '../../src/technical/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';

let t: TestApp;
let org: Org;
let other: Org;
const reader = () => new AlertFactsReader(VITAL_BANDS);
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: '100000' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  other = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const call = async (query: string, variables: Record<string, unknown>, who: Org = org) => {
  const res = await gql(t, query, variables, { cookie: who.owner.cookie });
  return {
    data: res.body.data as Record<string, any> | null,
    errors: res.body.errors as { message: string; extensions?: { code?: string } }[] | undefined,
  };
};

const CREATE_SEGMENT = `mutation($p: ID!, $i: SegmentInput!) { createSegment(projectId: $p, input: $i) { id } }`;
const DELETE_SEGMENT = `mutation($p: ID!, $id: ID!) { deleteSegment(projectId: $p, id: $id) { id } }`;
const CREATE_RULE = `mutation($p: ID!, $i: AlertRuleInput!) { createAlertRule(projectId: $p, input: $i) {
  id kind segmentId segmentName description } }`;
const DELETE_RULE = `mutation($id: ID!) { deleteAlertRule(id: $id) { id } }`;

/** A project with the segments Blog (/blog/) and Shop (/shop/) and four rules: site-wide and Blog, each kind. */
async function setUp() {
  const host = `alert-seg-${uniq()}.example.com`;
  const project = await aProject({ org, url: `https://${host}/` });
  const segment = async (name: string, pattern: string) => {
    const { data, errors } = await call(CREATE_SEGMENT, { p: project.id, i: { name, kind: 'PATH', pattern } });
    expect(errors).toBeUndefined();
    return data!.createSegment.id as string;
  };
  const blog = await segment('Blog', '/blog/');
  const shop = await segment('Shop', '/shop/');
  const rule = async (input: Record<string, unknown>) => {
    const { data, errors } = await call(CREATE_RULE, { p: project.id, i: { channels: ['WEBHOOK'], ...input } });
    expect(errors).toBeUndefined();
    return data!.createAlertRule as { id: string; segmentId: string | null; segmentName: string | null };
  };
  const rules = {
    siteDrop: await rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 10 }),
    blogDrop: await rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 10, segmentId: blog }),
    siteNew: await rule({ kind: 'NEW_ISSUES', minSeverity: 'CRITICAL' }),
    shopNew: await rule({ kind: 'NEW_ISSUES', minSeverity: 'CRITICAL', segmentId: shop }),
  };
  const at = (path: string) => `https://${host}${path}`;
  const pages = ['/', '/blog/a', '/blog/b', '/shop/x', '/shop/y'].map((p) => ({ url: at(p) }));
  return { project, blog, shop, rules, at, pages };
}

/** The alerts the head audit raises, as the worker evaluates them. */
async function alertsOf(project: Project, headId: string): Promise<AlertDraft[]> {
  const facts = await reader().auditFacts(t.runtime.orm.em, headId);
  expect(facts).not.toBeNull();
  const rules = await new AlertRuleRepository().activeRules(t.runtime.orm.em, project.id, AUDIT_RULE_KINDS);
  return evaluateAuditRules(rules, facts!);
}

describe('an alert rule watching a segment', () => {
  it("fires on a drop inside the segment, the site-wide rule quiet; new issues on the segment's URLs", async () => {
    const { project, blog, rules, at, pages } = await setUp();
    await anAudit({ project, pages, issues: [], scores: { overall: 80 }, createdAt: new Date(Date.now() - HOUR) });
    // The blog's two pages lose their title (CRITICAL): the blog's score falls; the site's stored score does not.
    const head = await anAudit({
      project,
      pages,
      issues: [{ code: 'META_TITLE_MISSING', occurrences: [at('/blog/a'), at('/blog/b')] }],
      scores: { overall: 80 },
    });
    const alerts = await alertsOf(project, head.id);
    const byRule = new Map(alerts.map((a) => [a.ruleId, a]));
    expect(byRule.has(rules.siteDrop.id)).toBe(false);
    const drop = byRule.get(rules.blogDrop.id)!;
    expect(drop).toBeDefined();
    expect(drop.title).toMatch(/^Segment “Blog”: Overall score dropped \d+ points \(100 → \d+\)$/);
    expect(drop.details).toMatchObject({ kind: 'SCORE_DROP', before: 100, segment: { id: blog, name: 'Blog' } });
    // New issues: on the blog only, so the site-wide rule fires and the shop's does not.
    expect(byRule.has(rules.siteNew.id)).toBe(true);
    expect(byRule.has(rules.shopNew.id)).toBe(false);
    // The payload (webhook body, e-mail) names the segment.
    const rule = (await new AlertRuleRepository().activeRules(t.runtime.orm.em, project.id, AUDIT_RULE_KINDS)).find(
      (r) => r.id === rules.blogDrop.id,
    )!;
    const payload = alertPayload(
      { id: 'e1', createdAt: new Date() },
      { id: project.id, organizationId: org.id, name: 'P', url: project.url, domain: '' },
      rule,
      drop,
      'http://localhost',
    );
    expect(payload.rule).toMatchObject({ segment: { id: blog, name: 'Blog' } });
    expect(payload.rule!.description).toContain('in the segment “Blog”');
  });

  it('stays quiet on a site-wide drop outside the segment, where the site-wide rule fires', async () => {
    const { project, rules, at, pages } = await setUp();
    await anAudit({ project, pages, issues: [], scores: { overall: 80 }, createdAt: new Date(Date.now() - HOUR) });
    // The shop's pages lose their title; the site's score falls 20 points; the blog is untouched.
    const head = await anAudit({
      project,
      pages,
      issues: [{ code: 'META_TITLE_MISSING', occurrences: [at('/shop/x'), at('/shop/y')] }],
      scores: { overall: 60 },
    });
    const byRule = new Map((await alertsOf(project, head.id)).map((a) => [a.ruleId, a]));
    expect(byRule.get(rules.siteDrop.id)?.title).toBe('Overall score dropped 20 points (80 → 60)');
    expect(byRule.has(rules.blogDrop.id)).toBe(false);
    const shopNew = byRule.get(rules.shopNew.id)!;
    expect(shopNew.title).toBe('Segment “Shop”: 1 new issue since the previous audit');
    expect(shopNew.details).toMatchObject({ kind: 'NEW_ISSUES', issues: [{ code: 'META_TITLE_MISSING', urls: 2 }] });
  });

  it("refuses another organization's segment, a segment on other kinds, and deleting a watched segment", async () => {
    const { project, blog, rules } = await setUp();
    const theirs = await aProject({ org: other, url: `https://theirs-${uniq()}.example.com/` });
    const { data } = await call(CREATE_SEGMENT, { p: theirs.id, i: { name: 'X', kind: 'PATH', pattern: '/' } }, other);
    const foreign = await call(CREATE_RULE, {
      p: project.id,
      i: { kind: 'SCORE_DROP', points: 5, channels: ['WEBHOOK'], segmentId: data!.createSegment.id },
    });
    expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const wrongKind = await call(CREATE_RULE, {
      p: project.id,
      i: { kind: 'PAGE_REGRESSION', channels: ['WEBHOOK'], segmentId: blog },
    });
    expect(wrongKind.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(wrongKind.errors?.[0].message).toContain('segmentId');
    expect(rules.blogDrop).toMatchObject({ segmentId: blog, segmentName: 'Blog' });
    const refused = await call(DELETE_SEGMENT, { p: project.id, id: blog });
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0].message).toContain('alert rule');
    expect((await call(DELETE_RULE, { id: rules.blogDrop.id })).errors).toBeUndefined();
    expect((await call(DELETE_SEGMENT, { p: project.id, id: blog })).errors).toBeUndefined();
  });
});
