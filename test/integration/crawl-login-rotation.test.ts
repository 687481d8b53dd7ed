/**
 * Rotating the crawl-login key (`seo secrets rotate-crawl-key`): every stored login is re-sealed with the new key in
 * one transaction. A login opens with the new key after the rotation and not before; a row that the old key cannot
 * open stops the rotation with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlLoginFailure, CrawlLoginService, crawlLoginBox } from '../../src/crawler/index.js';
import { createProject, createTestApp, gql, signUp, type TestApp, type TestUser } from '../support/app.js';

/**
 * The key the app seals with and the one this test rotates to. Rotations here name their projects: the test database is
 * shared by test files running at once (the CLI re-seals every row; the statement is the same without the list).
 */
const OLD_KEY = 'crawl-login-test-key-0123456789abcdef';
const NEW_KEY = 'crawl-login-rotated-key-fedcba9876543210';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ CRAWL_SECRET_KEY: OLD_KEY });
  user = await signUp(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t?.close());

const setBearer = async (projectId: string, token: string) => {
  const res = await gql(
    t,
    'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id } }',
    { p: projectId, i: { kind: 'BEARER', token } },
    { cookie: user.cookie },
  );
  expect(res.body.errors).toBeUndefined();
};

describe('seo secrets rotate-crawl-key', () => {
  it('re-seals every login: it opens with the new key after the rotation, not before', async () => {
    const a = await createProject(t, user);
    const b = await createProject(t, user);
    await setBearer(a.id, 'token-of-project-a');
    await setBearer(b.id, 'token-of-project-b');
    const before = new CrawlLoginService({ CRAWL_SECRET_KEY: OLD_KEY, authSecret: 'unused' });
    const after = new CrawlLoginService({ CRAWL_SECRET_KEY: NEW_KEY, authSecret: 'unused' });
    expect((await before.openForCrawl(t.runtime.orm.em, a.id))?.secrets.token).toBe('token-of-project-a');
    await expect(after.openForCrawl(t.runtime.orm.em, a.id)).rejects.toThrow(CrawlLoginFailure);
    await expect(after.openForCrawl(t.runtime.orm.em, a.id)).rejects.toThrow(/rotate-crawl-key/);

    const mine = { projectIds: [a.id, b.id] };
    const result = await CrawlLoginService.rotate(t.runtime.orm.em, OLD_KEY, NEW_KEY, mine);
    expect(result).toEqual({ resealed: 2, unchanged: 0 });

    expect((await after.openForCrawl(t.runtime.orm.em, a.id))?.secrets.token).toBe('token-of-project-a');
    expect((await after.openForCrawl(t.runtime.orm.em, b.id))?.secrets.token).toBe('token-of-project-b');
    await expect(before.openForCrawl(t.runtime.orm.em, b.id)).rejects.toThrow(CrawlLoginFailure);
    const { rows } = await t.runtime.pool.query(
      'SELECT DISTINCT key_id FROM project_crawl_login WHERE project_id = ANY($1::uuid[])',
      [[a.id, b.id]],
    );
    expect(rows).toEqual([{ key_id: crawlLoginBox(NEW_KEY).keyId }]);
    // Run again: the rows already sealed with the new key are left alone.
    expect(await CrawlLoginService.rotate(t.runtime.orm.em, OLD_KEY, NEW_KEY, mine)).toEqual({
      resealed: 0,
      unchanged: 2,
    });
  });

  it('a login sealed with neither key stops the rotation and nothing is changed', async () => {
    const stray = await createProject(t, user);
    const kept = await createProject(t, user);
    await setBearer(kept.id, 'token-of-kept');
    const strayBox = crawlLoginBox('some-third-key-that-nobody-gave-0000');
    await t.runtime.pool.query(
      `INSERT INTO project_crawl_login (project_id, kind, sealed, key_id) VALUES ($1, 'BEARER', $2, $3)`,
      [stray.id, strayBox.seal(JSON.stringify({ token: 'x' })), strayBox.keyId],
    );
    try {
      const sealedBefore = await t.runtime.pool.query('SELECT sealed FROM project_crawl_login WHERE project_id = $1', [
        kept.id,
      ]);
      await expect(
        CrawlLoginService.rotate(t.runtime.orm.em, OLD_KEY, NEW_KEY, { projectIds: [kept.id, stray.id] }),
      ).rejects.toThrow(new RegExp(`project ${stray.id} was not sealed with the --from key`));
      const sealedAfter = await t.runtime.pool.query('SELECT sealed FROM project_crawl_login WHERE project_id = $1', [
        kept.id,
      ]);
      expect(sealedAfter.rows).toEqual(sealedBefore.rows);
    } finally {
      await t.runtime.pool.query('DELETE FROM project_crawl_login WHERE project_id = $1', [stray.id]);
    }
  });
});
