import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createProject, createTestApp, gql, signUp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UPDATE =
  'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { name settings { ' +
  'maxPages maxDepth crawlDelayMs respectRobots rankCountry rankDevice rankIncludeSubdomains } } }';

describe('updateProject', () => {
  it('renames and changes crawl and rank settings; null clears one; audits use maxPages', async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const { id } = await createProject(t, user);
    const res = await gql(
      t,
      UPDATE,
      {
        id,
        i: {
          name: 'Shop',
          settings: {
            maxPages: 50,
            maxDepth: 3,
            crawlDelayMs: 250,
            respectRobots: false,
            rankCountry: 'DE',
            rankDevice: 'mobile',
            rankIncludeSubdomains: true,
          },
        },
      },
      { cookie: user.cookie },
    );
    expect(res.body.data.updateProject).toEqual({
      name: 'Shop',
      settings: {
        maxPages: 50,
        maxDepth: 3,
        crawlDelayMs: 250,
        respectRobots: false,
        rankCountry: 'de',
        rankDevice: 'mobile',
        rankIncludeSubdomains: true,
      },
    });
    const cleared = await gql(t, UPDATE, { id, i: { settings: { maxDepth: null } } }, { cookie: user.cookie });
    expect(cleared.body.data.updateProject.settings).toMatchObject({ maxPages: 50, maxDepth: null });
    const key = await createApiKey(t, user);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${id}/audit`,
      headers: { authorization: `Bearer ${key}` },
    });
    const { rows } = await t.runtime.pool.query('SELECT max_pages FROM audit WHERE id = $1', [started.json().auditId]);
    expect(rows[0].max_pages).toBe(50);
  });

  it.each([
    [{ maxPages: 0 }, 'BAD_USER_INPUT'],
    [{ maxDepth: 99 }, 'BAD_USER_INPUT'],
    [{ crawlDelayMs: -1 }, 'BAD_USER_INPUT'],
    [{ rankCountry: 'usa' }, 'BAD_USER_INPUT'],
    [{ rankDevice: 'tablet' }, 'BAD_USER_INPUT'],
    [{ userAgent: 'a\nb' }, 'BAD_USER_INPUT'],
    [{ maxPages: 10_001 }, 'PLAN_LIMIT'],
  ])('refuses %j with %s', async (settings, code) => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const { id } = await createProject(t, user);
    const res = await gql(t, UPDATE, { id, i: { settings } }, { cookie: user.cookie });
    expect(res.body.errors?.[0].extensions?.code).toBe(code);
  });

  it("PRO keys cannot change projects; another organization's project is NOT_FOUND", async () => {
    const user = await signUp(t, { plan: 'ENTERPRISE' });
    const { id } = await createProject(t, user);
    const key = await createApiKey(t, user);
    await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['PRO', user.organizationId]);
    const pro = await gql(t, UPDATE, { id, i: { name: 'x' } }, { authorization: `Bearer ${key}` });
    expect(pro.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const other = await signUp(t, { plan: 'ENTERPRISE' });
    const res = await gql(t, UPDATE, { id, i: { name: 'x' } }, { cookie: other.cookie });
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
