import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Project } from '../factories.js';

/**
 * What the keywords page reads beside the latest ranking: the previous successful check (for the change), the best
 * position, a history with the failed checks as gaps, for chosen keywords; and whether a SERP provider is configured.
 * Rankings are written as the rank worker writes them (one row per check, OK or FAILED with its reason).
 */
let t: TestApp;
let project: Project;
const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

async function rank(keywordId: string, at: Date, position: number | null | 'FAILED'): Promise<void> {
  const failed = position === 'FAILED';
  await t.runtime.pool.query(
    `INSERT INTO ranking (id, keyword_id, status, position, url, provider, error, checked_at)
     VALUES ($1, $2, $3, $4, $5, 'serper', $6, $7)`,
    [
      newId(),
      keywordId,
      failed ? 'FAILED' : 'OK',
      failed ? null : position,
      failed || position === null ? null : `https://${project.domain}/p${position}`,
      failed ? 'serper answered HTTP 429' : null,
      at,
    ],
  );
}

const ask = (query: string, variables: Record<string, unknown>, cookie = project.org.owner.cookie) =>
  gql(t, query, variables, { cookie });

beforeAll(async () => {
  t = await createTestApp();
  project = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
  const added = await ask(
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id term } }',
    { p: project.id, k: ['alpha', 'beta', 'gamma'] },
  );
  for (const k of added.body.data.addKeywords as { id: string; term: string }[]) {
    ids[k.term === 'alpha' ? 'a' : k.term === 'beta' ? 'b' : 'c'] = k.id;
  }
  // alpha: found 2nd long ago, then 7th, a failed check, not found, then 4th.
  await rank(ids.a, daysAgo(10), 2);
  await rank(ids.a, daysAgo(3), 7);
  await rank(ids.a, daysAgo(2), 'FAILED');
  await rank(ids.a, daysAgo(1.5), null);
  await rank(ids.a, daysAgo(1), 4);
  // beta: 5th, then 3rd, then the latest check failed.
  await rank(ids.b, daysAgo(2), 5);
  await rank(ids.b, daysAgo(1), 3);
  await rank(ids.b, daysAgo(0.1), 'FAILED');
  // gamma: never checked.
}, 60_000);
afterAll(async () => {
  await t.close();
});

const KEYWORDS = `query($p: ID!) { keywords(projectId: $p) { term position previousPosition previousChecked
  bestPosition lastChecked lastError lastCheck { status } } }`;

describe('previous and best positions', () => {
  it('are computed from the successful checks: a failed check is skipped, "not found" is a null previous', async () => {
    const res = await ask(KEYWORDS, { p: project.id });
    expect(res.body.errors).toBeUndefined();
    const by = Object.fromEntries(
      (res.body.data.keywords as { term: string; previousChecked: string }[]).map((k) => [k.term, k]),
    );
    expect(by.alpha).toMatchObject({
      position: 4,
      previousPosition: null,
      previousChecked: expect.any(String),
      bestPosition: 2,
      lastError: null,
      lastCheck: { status: 'OK' },
    });
    // The previous successful check of alpha is the "not found" one of 1.5 days ago, not the failed one.
    expect(Math.abs(Date.parse(by.alpha.previousChecked) - daysAgo(1.5).getTime())).toBeLessThan(60_000);
    expect(by.beta).toMatchObject({
      position: 3,
      previousPosition: 5,
      bestPosition: 3,
      lastError: 'serper answered HTTP 429',
      lastCheck: { status: 'FAILED' },
    });
    expect(by.gamma).toMatchObject({
      position: null,
      previousPosition: null,
      previousChecked: null,
      bestPosition: null,
      lastChecked: null,
      lastCheck: null,
    });
  });

  it('say BACK for a keyword found again after a check without it, NEW only the first time it ranks', async () => {
    const newbie = (
      await ask('mutation($p: ID!) { addKeywords(projectId: $p, input: { keywords: ["delta"] }) { id } }', {
        p: project.id,
      })
    ).body.data.addKeywords[0].id as string;
    // delta: not found twice, then found for the first time.
    await rank(newbie, daysAgo(3), null);
    await rank(newbie, daysAgo(2), null);
    await rank(newbie, daysAgo(1), 12);
    const res = await ask(`query($p: ID!) { keywords(projectId: $p) { term change { kind delta } } }`, {
      p: project.id,
    });
    expect(res.body.errors).toBeUndefined();
    const change = Object.fromEntries(
      (res.body.data.keywords as { term: string; change: unknown }[]).map((k) => [k.term, k.change]),
    );
    expect(change).toEqual({
      // alpha: 2, 7, failed, not found, 4: it ranked before the check that missed it.
      alpha: { kind: 'BACK', delta: null },
      beta: { kind: 'MOVED', delta: 2 },
      gamma: { kind: 'NONE', delta: null },
      delta: { kind: 'NEW', delta: null },
    });
    await ask('mutation($id: ID!) { removeKeyword(id: $id) { id } }', { id: newbie });
  });

  it('leave the REST shapes as the contract has them', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/keywords`,
      headers: { cookie: project.org.owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    const beta = res.json().keywords.find((k: { term: string }) => k.term === 'beta');
    expect(Object.keys(beta).sort()).toEqual(['id', 'lastCheck', 'lastChecked', 'position', 'term', 'url']);
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.id}/keywords/rankings?days=30`,
      headers: { cookie: project.org.owner.cookie },
    });
    const alpha = history.json().rankings.find((k: { term: string }) => k.term === 'alpha');
    // Successful checks only, as before: the failed one is not a point of the REST history.
    expect(alpha.history.map((h: { position: number | null }) => h.position)).toEqual([2, 7, null, 4]);
    expect(Object.keys(alpha.history[0]).sort()).toEqual(['checkedAt', 'position', 'url']);
  });
});

const RANKINGS = `query($p: ID!, $d: Int!, $ids: [ID!], $f: Boolean) {
  keywordRankings(projectId: $p, days: $d, keywordIds: $ids, includeFailed: $f) {
    keywordId term history { status position url error checkedAt } } }`;

describe('keywordRankings', () => {
  it('lists failed checks as points without a position when asked, oldest first', async () => {
    const res = await ask(RANKINGS, { p: project.id, d: 30, ids: [ids.a], f: true });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.keywordRankings).toHaveLength(1);
    const [alpha] = res.body.data.keywordRankings;
    expect(alpha.keywordId).toBe(ids.a);
    expect(alpha.history.map((h: { status: string; position: number | null }) => [h.status, h.position])).toEqual([
      ['OK', 2],
      ['OK', 7],
      ['FAILED', null],
      ['OK', null],
      ['OK', 4],
    ]);
    expect(alpha.history[2]).toMatchObject({ url: null, error: 'serper answered HTTP 429' });
    expect(alpha.history[4]).toMatchObject({ url: `https://${project.domain}/p4`, error: null });
    const times = alpha.history.map((h: { checkedAt: string }) => Date.parse(h.checkedAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
  });

  it('without includeFailed keeps successful checks only, within the days asked', async () => {
    const res = await ask(RANKINGS, { p: project.id, d: 5 });
    const list = res.body.data.keywordRankings as { term: string; history: { status: string; position: number }[] }[];
    expect(list.map((k) => k.term)).toEqual(['alpha', 'beta', 'gamma']);
    expect(list[0].history.map((h) => h.position)).toEqual([7, null, 4]);
    expect(list[1].history.map((h) => h.status)).toEqual(['OK', 'OK']);
    expect(list[2].history).toEqual([]);
  });

  it('filters by keyword ids of the project only; rejects bad and too many ids', async () => {
    const two = await ask(RANKINGS, { p: project.id, d: 30, ids: [ids.b, ids.c] });
    expect(two.body.data.keywordRankings.map((k: { term: string }) => k.term)).toEqual(['beta', 'gamma']);

    const other = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
    // Another project's keyword ids match nothing in this project; another organization's project is NOT_FOUND.
    const foreign = await ask(RANKINGS, { p: other.id, d: 30, ids: [ids.a] }, other.org.owner.cookie);
    expect(foreign.body.data.keywordRankings).toEqual([]);
    const stranger = await ask(RANKINGS, { p: project.id, d: 30 }, other.org.owner.cookie);
    expect(stranger.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const bad = await ask(RANKINGS, { p: project.id, d: 30, ids: ['not-an-id'] });
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors?.[0].message).toMatch(/keywordIds\.0/);
    const many = await ask(RANKINGS, { p: project.id, d: 30, ids: Array.from({ length: 1001 }, () => newId()) });
    expect(many.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const days = await ask(RANKINGS, { p: project.id, d: 366 });
    expect(days.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('checkRankings', () => {
  it('queues one check per project per minute and says when a click found it already queued', async () => {
    const CHECK = 'mutation($p: ID!) { checkRankings(projectId: $p) { jobId keywords queued message } }';
    const first = await ask(CHECK, { p: project.id });
    expect(first.body.data.checkRankings).toMatchObject({ keywords: 3, queued: true });
    const second = await ask(CHECK, { p: project.id });
    // Unless the minute turned between the two calls, the second finds the first's job.
    if (second.body.data.checkRankings.jobId === first.body.data.checkRankings.jobId) {
      expect(second.body.data.checkRankings).toMatchObject({ queued: false, message: /already queued/ });
    } else {
      expect(second.body.data.checkRankings.queued).toBe(true);
    }
  });
});

describe('rankTracking', () => {
  const QUERY = '{ rankTracking { providerConfigured provider } }';

  it('says when no SERP provider is configured; needs a signed-in caller', async () => {
    const res = await ask(QUERY, {});
    expect(res.body.data.rankTracking).toEqual({ providerConfigured: false, provider: null });
    const anonymous = await gql(t, QUERY, {});
    expect(anonymous.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('names the configured provider, and nothing of its settings', async () => {
    const configured = await createTestApp({
      SERP_PROVIDER: 'serper',
      SERP_API_KEY: 'secret-serp-key',
      SERP_BASE_URL: 'http://127.0.0.1:9/',
    });
    try {
      const org = await anOrg(configured);
      const res = await gql(configured, QUERY, {}, { cookie: org.owner.cookie });
      expect(res.body.data.rankTracking).toEqual({ providerConfigured: true, provider: 'serper' });
      expect(JSON.stringify(res.body)).not.toContain('secret-serp-key');
    } finally {
      await configured.close();
    }
  });
});
