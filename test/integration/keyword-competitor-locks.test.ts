import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { KeywordRepository } from '../../src/keywords/index.js';
import { CompetitorRepository } from '../../src/competitors/competitor.repository.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Project } from '../factories.js';

/**
 * Adding keywords and competitors runs the quota and duplicate rules under a lock on the project row
 * (KeywordRepository.insertLocked, CompetitorRepository.insertLocked): concurrent adds to one project are
 * serialized, so each sees the rows the others wrote.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t.close();
});

const addKeywords = (project: Project, keywords: string[]) =>
  gql(
    t,
    'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
    { p: project.id, k: keywords },
    { cookie: project.org.owner.cookie },
  );
const addCompetitor = (project: Project, domain: string) =>
  gql(
    t,
    'mutation($p: ID!, $d: String!) { addCompetitor(projectId: $p, domain: $d) { id domain } }',
    { p: project.id, d: domain },
    { cookie: project.org.owner.cookie },
  );
const rowsOf = async (table: 'keyword' | 'competitor', projectId: string) =>
  (await t.runtime.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId])).rows[0]
    .n as number;
const codesOf = (results: { body: { errors?: { extensions?: { code?: string } }[] } }[]) =>
  results.map((r) => r.body.errors?.[0]?.extensions?.code ?? 'OK').sort();

describe('the keyword quota under concurrent adds', () => {
  it('five adds of 3 new terms each on a FREE project (10 keywords): three land, two are PLAN_LIMIT', async () => {
    const project = await aProject({ org: await anOrg(t, { plan: 'FREE' }) });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => addKeywords(project, [`a${i}`, `b${i}`, `c${i}`])),
    );
    expect(codesOf(results)).toEqual(['OK', 'OK', 'OK', 'PLAN_LIMIT', 'PLAN_LIMIT']);
    expect(await rowsOf('keyword', project.id)).toBe(9);
  });
});

describe('the competitor quota and duplicate rule under concurrent adds', () => {
  it('three adds of different domains on a FREE project (1 competitor): one lands, two are PLAN_LIMIT', async () => {
    const project = await aProject({ org: await anOrg(t, { plan: 'FREE' }) });
    const results = await Promise.all(
      Array.from({ length: 3 }, (_, i) => addCompetitor(project, `rival-${i}-${uniq()}.example.com`)),
    );
    expect(codesOf(results)).toEqual(['OK', 'PLAN_LIMIT', 'PLAN_LIMIT']);
    expect(await rowsOf('competitor', project.id)).toBe(1);
  });

  it('three adds of the same domain: one lands, two are BAD_USER_INPUT (already tracked)', async () => {
    const project = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
    const domain = `rival-${uniq()}.example.com`;
    const results = await Promise.all(Array.from({ length: 3 }, () => addCompetitor(project, domain)));
    expect(codesOf(results)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT', 'OK']);
    expect(results.flatMap((r) => r.body.errors ?? []).map((e: { message: string }) => e.message)).toEqual([
      `${domain} is already tracked as a competitor.`,
      `${domain} is already tracked as a competitor.`,
    ]);
    expect(await rowsOf('competitor', project.id)).toBe(1);
  });
});

describe('a project deleted before the lock', () => {
  it('the repositories report it without calling the rule or writing anything', async () => {
    const gone = newId();
    const db = t.runtime.orm.em.fork();
    let called = false;
    const keywords = await new KeywordRepository().insertLocked(
      db,
      gone,
      { country: 'us', language: 'en', device: 'desktop' },
      () => {
        called = true;
        return [{ id: newId(), term: 'x', key: 'x' }];
      },
    );
    const competitor = await new CompetitorRepository().insertLocked(
      db,
      { id: newId(), projectId: gone, domain: 'x.example.com' },
      () => {
        called = true;
      },
    );
    expect({ keywords, competitor, called }).toEqual({ keywords: null, competitor: false, called: false });
  });
});

describe('what the keyword rule is given under the lock', () => {
  it(
    "the project's keyword count (every target) and the keys tracked for the requested target; its throw " +
      'reaches the caller',
    async () => {
      const project = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }) });
      expect((await addKeywords(project, ['Shoes'])).body.errors).toBeUndefined();
      const mobile = await gql(
        t,
        'mutation($p: ID!) { addKeywords(projectId: $p, input: { keywords: ["Boots"], device: "mobile" }) { id } }',
        { p: project.id },
        { cookie: project.org.owner.cookie },
      );
      expect(mobile.body.errors).toBeUndefined();
      const refusal = new Error('refused by the rule');
      let seen: unknown;
      await expect(
        new KeywordRepository().insertLocked(
          t.runtime.orm.em.fork(),
          project.id,
          { country: 'us', language: 'en', device: 'desktop' },
          ({ count, existingKeys }) => {
            seen = { count, existingKeys: [...existingKeys] };
            throw refusal;
          },
        ),
      ).rejects.toBe(refusal);
      expect(seen).toEqual({ count: 2, existingKeys: ['shoes'] });
      expect(await rowsOf('keyword', project.id)).toBe(2);
    },
  );
});
