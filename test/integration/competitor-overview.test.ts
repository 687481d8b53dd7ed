import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RankCheckRunner } from '../../src/keywords/index.js';
import type { SerpProvider, SerpQuery, SerpResult } from '../../src/serp/index.js';
import { createTestApp, gql, uniq, type TestApp, type TestUser } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

/**
 * The project against its competitors, from real rank checks: the rank runner stores the SERP snapshots a
 * provider answers (here one that answers from a table, with the check's date set per test), and the overview
 * reads them back, current metrics in the service and the per-day history in PostgreSQL.
 */
const mine = `mine-${uniq()}.test`;
const rival = `rival-${uniq()}.test`;
const DAY = 86_400_000;

let answers: Record<string, string[]> = {};
let fetchedAt = new Date();
const provider: SerpProvider = {
  name: 'searxng',
  async search(query: SerpQuery) {
    const urls = answers[query.keyword] ?? [];
    const results: SerpResult[] = urls.map((url, i) => ({
      position: i + 1,
      url,
      domain: new URL(url).hostname,
      title: null,
    }));
    return { provider: 'searxng', query, results, requests: 1, fetchedAt };
  },
};

let t: TestApp;
let org: Org;
let projectId: string;
let runner: RankCheckRunner;
const keywordIds: Record<string, string> = {};

const q = (query: string, variables: Record<string, unknown>, who: TestUser = org.owner) =>
  gql(t, query, variables, { cookie: who.cookie });
const OVERVIEW = `query($p: ID!, $d: Int) { competitorOverview(projectId: $p, days: $d) {
  serpProvider keywordsTracked keywordsChecked
  project { domain visibility keywordsInTop10 averagePosition positions { term position url } }
  competitors { domain visibility keywordsInTop10 averagePosition positions { term position } }
  history { day domain visibility keywordsChecked } } }`;

/** Fills with unrelated results so positions are real ranks among ten. */
const serp = (...top: (string | null)[]) =>
  Array.from({ length: 10 }, (_, i) => top[i] ?? `https://filler-${i}.example/${i}`);

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${rival}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  const created = await q('mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }', {
    i: { url: `https://${mine}/` },
  });
  projectId = created.body.data.createProject.id;
  const added = await q(
    'mutation($p: ID!, $i: AddKeywordsInput!) { addKeywords(projectId: $p, input: $i) { id term } }',
    { p: projectId, i: { keywords: ['alpha', 'beta'] } },
  );
  for (const k of added.body.data.addKeywords) keywordIds[k.term] = k.id;
  const competitor = await q('mutation($p: ID!, $d: String!) { addCompetitor(projectId: $p, domain: $d) { id } }', {
    p: projectId,
    d: `https://www.${rival}/pricing`,
  });
  expect(competitor.body.errors).toBeUndefined();
  runner = new RankCheckRunner(
    t.runtime.orm,
    null as never,
    provider,
    { depth: 10, snapshotSize: 10, retryDelayMs: 100 },
    t.runtime.logger,
  );
}, 60_000);
afterAll(() => t.close());

const check = async (at: Date, table: Record<string, string[]>) => {
  fetchedAt = at;
  answers = table;
  for (const id of Object.values(keywordIds)) await runner.checkKeyword(id, true);
};

describe('competitorOverview', () => {
  it('is honest before any check: no provider, nothing checked, no history, no visibility invented', async () => {
    const { body } = await q(OVERVIEW, { p: projectId });
    expect(body.errors).toBeUndefined();
    expect(body.data.competitorOverview).toMatchObject({
      serpProvider: null,
      keywordsTracked: 2,
      keywordsChecked: 0,
      project: { domain: mine, visibility: 0, keywordsInTop10: 0, averagePosition: null, positions: [] },
      competitors: [{ domain: rival, visibility: 0, keywordsInTop10: 0, averagePosition: null, positions: [] }],
      history: [],
    });
  });

  it('measures the project and each competitor by one rule, now and per day (computed in PostgreSQL)', async () => {
    const now = new Date();
    // Two days ago: the rival leads both keywords; the project is third for alpha.
    await check(new Date(now.getTime() - 2 * DAY), {
      alpha: serp(`https://${rival}/a`, null, `https://${mine}/alpha`),
      beta: serp(null, `https://www.${rival}/b`),
    });
    // Today: the project leads; only a subdomain of the rival ranks (a competitor's subdomains count), and a
    // subdomain of the project above it does not count (rankIncludeSubdomains is off by default).
    await check(now, {
      alpha: serp(`https://www.${mine}/alpha`, null, null, `https://blog.${rival}/x`),
      beta: serp(`https://blog.${mine}/b`, `https://${mine}/beta`),
    });

    const { body } = await q(OVERVIEW, { p: projectId });
    expect(body.errors).toBeUndefined();
    const o = body.data.competitorOverview;
    expect(o.keywordsChecked).toBe(2);
    // CTR curve: #1 0.28, #2 0.15, #3 0.11, #4 0.08; share of ranking first for both keywords (0.56).
    expect(o.project).toEqual({
      domain: mine,
      visibility: 76.8,
      keywordsInTop10: 2,
      averagePosition: 1.5,
      positions: expect.arrayContaining([
        { term: 'alpha', position: 1, url: `https://www.${mine}/alpha` },
        { term: 'beta', position: 2, url: `https://${mine}/beta` },
      ]),
    });
    expect(o.competitors).toEqual([
      {
        domain: rival,
        visibility: 14.3,
        keywordsInTop10: 1,
        averagePosition: 4,
        positions: expect.arrayContaining([
          { term: 'alpha', position: 4 },
          { term: 'beta', position: null },
        ]),
      },
    ]);
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const twoDaysAgo = new Date(today.getTime() - 2 * DAY);
    expect(o.history).toEqual([
      { day: twoDaysAgo.toISOString(), domain: mine, visibility: 19.6, keywordsChecked: 2 },
      { day: twoDaysAgo.toISOString(), domain: rival, visibility: 76.8, keywordsChecked: 2 },
      { day: today.toISOString(), domain: mine, visibility: 76.8, keywordsChecked: 2 },
      { day: today.toISOString(), domain: rival, visibility: 14.3, keywordsChecked: 2 },
    ]);
    // The SQL history and the service's current figures agree on today's snapshots.
    expect(o.history.at(-2).visibility).toBe(o.project.visibility);
    expect(o.history.at(-1).visibility).toBe(o.competitors[0].visibility);

    // The project's position agrees with its keyword table (the rank check's own verdict).
    const kw = await q('query($p: ID!) { keywords(projectId: $p) { term position } }', { p: projectId });
    expect(kw.body.data.keywords).toEqual(
      expect.arrayContaining([
        { term: 'alpha', position: 1 },
        { term: 'beta', position: 2 },
      ]),
    );

    // A shorter window leaves the older day out; the latest snapshot of a day is the one counted.
    await check(new Date(now.getTime() - 1000), { alpha: serp(), beta: serp() });
    const short = (await q(OVERVIEW, { p: projectId, d: 1 })).body.data.competitorOverview;
    expect(short.history.map((h: { day: string }) => h.day)).toEqual([today.toISOString(), today.toISOString()]);
  });

  it('refuses a bad window and hides another organization’s project', async () => {
    const bad = await q(OVERVIEW, { p: projectId, d: 366 });
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const strangerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const hidden = await q(OVERVIEW, { p: projectId }, strangerOrg.owner);
    expect(hidden.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
