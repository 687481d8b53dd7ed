/**
 * Rotating the crawl-login key (`seo secrets rotate-crawl-key`): every stored login is re-sealed with the new key in
 * one transaction. A login opens with the new key after the rotation and not before; a row that the old key cannot
 * open stops the rotation with nothing changed. A login stored before bindings existed (issue 47) is bound by its
 * migration to its project's start URL and scope as they were then.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlLoginFailure } from '../../src/crawler/index.js';
import { CrawlLoginService, crawlLoginBox } from '../../src/projects/index.js';
import { MIGRATIONS } from '../../src/platform/db/migrations/index.js';
import { createOrm, dropDatabase, ensureDatabase, migrateUp } from '../../src/platform/db/orm.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';

/**
 * The key the app seals with and the one this test rotates to. Rotations here name their projects: the test database is
 * shared by test files running at once (the CLI re-seals every row; the statement is the same without the list).
 */
const OLD_KEY = 'crawl-login-test-key-0123456789abcdef';
const NEW_KEY = 'crawl-login-rotated-key-fedcba9876543210';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await createTestApp({ CRAWL_SECRET_KEY: OLD_KEY });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t?.close());

const setBearer = async (projectId: string, token: string) => {
  const res = await gql(
    t,
    'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id } }',
    { p: projectId, i: { kind: 'BEARER', token } },
    { cookie: org.owner.cookie },
  );
  expect(res.body.errors).toBeUndefined();
};

describe('seo secrets rotate-crawl-key', () => {
  it('re-seals every login: it opens with the new key after the rotation, not before', async () => {
    const a = await aProject({ org });
    const b = await aProject({ org });
    await setBearer(a.id, 'token-of-project-a');
    await setBearer(b.id, 'token-of-project-b');
    const before = new CrawlLoginService({ CRAWL_SECRET_KEY: OLD_KEY, authSecret: 'unused' });
    const after = new CrawlLoginService({ CRAWL_SECRET_KEY: NEW_KEY, authSecret: 'unused' });
    expect((await before.openForCrawl(t.runtime.orm.em, a))?.secrets.token).toBe('token-of-project-a');
    await expect(after.openForCrawl(t.runtime.orm.em, a)).rejects.toThrow(CrawlLoginFailure);
    await expect(after.openForCrawl(t.runtime.orm.em, a)).rejects.toThrow(/rotate-crawl-key/);

    const mine = { projectIds: [a.id, b.id] };
    const result = await CrawlLoginService.rotate(t.runtime.orm.em, OLD_KEY, NEW_KEY, mine);
    expect(result).toEqual({ resealed: 2, unchanged: 0 });

    expect((await after.openForCrawl(t.runtime.orm.em, a))?.secrets.token).toBe('token-of-project-a');
    expect((await after.openForCrawl(t.runtime.orm.em, b))?.secrets.token).toBe('token-of-project-b');
    await expect(before.openForCrawl(t.runtime.orm.em, b)).rejects.toThrow(CrawlLoginFailure);
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
    const stray = await aProject({ org });
    const kept = await aProject({ org });
    await setBearer(kept.id, 'token-of-kept');
    const strayBox = crawlLoginBox('some-third-key-that-nobody-gave-0000');
    await t.runtime.pool.query(
      `INSERT INTO project_crawl_login (project_id, kind, sealed, key_id, bound_to) VALUES ($1, 'BEARER', $2, $3, $4)`,
      [stray.id, strayBox.seal(JSON.stringify({ token: 'x' })), strayBox.keyId, { startUrl: stray.url }],
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

describe('migration 20261126-0024: a login stored before logins were bound', () => {
  it("is bound to its project's URL and scope at migration, suspended by a later move, re-sealed on use", async () => {
    const databaseUrl = (() => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/seo_audit_binding_${uniq()}`;
      return url.toString();
    })();
    await ensureDatabase(databaseUrl);
    const upTo = async (count: number) => {
      const orm = await createOrm({ databaseUrl, entities: [], migrations: MIGRATIONS.slice(0, count) });
      await migrateUp(orm);
      return orm;
    };
    const index = MIGRATIONS.findIndex((m) => m.name === '20261126-0024-crawl-login-binding');
    const orgId = randomUUID();
    const projectId = randomUUID();
    const startUrl = 'https://legacy.example/shop/';
    const settings = { crawlSubdomains: true, excludePatterns: ['/shop/admin/**'], maxPages: 10 };
    const box = crawlLoginBox(OLD_KEY);
    let orm = await upTo(index);
    try {
      const conn = orm.em.getConnection();
      await conn.execute(`INSERT INTO organization (id, name, slug, "createdAt") VALUES (?, 'Legacy', ?, now())`, [
        orgId,
        `legacy-${uniq()}`,
      ]);
      await conn.execute(
        'INSERT INTO project (id, organization_id, name, url, domain, settings) VALUES (?, ?, ?, ?, ?, ?::jsonb)',
        [projectId, orgId, 'Legacy', startUrl, 'legacy.example', JSON.stringify(settings)],
      );
      // As the platform sealed logins before: the secrets alone.
      await conn.execute(
        `INSERT INTO project_crawl_login (project_id, kind, sealed, key_id) VALUES (?, 'BEARER', ?, ?)`,
        [projectId, box.seal(JSON.stringify({ token: 'legacy-token' })), box.keyId],
      );
      await orm.close(true);
      orm = await upTo(MIGRATIONS.length);
      const [row] = await orm.em
        .getConnection()
        .execute('SELECT bound_to FROM project_crawl_login WHERE project_id = ?', [projectId]);
      const bound = { startUrl, includeSubdomains: true, include: [], exclude: ['/shop/admin/**'] };
      expect(row.bound_to).toEqual(bound);

      const service = new CrawlLoginService({ CRAWL_SECRET_KEY: OLD_KEY, authSecret: 'unused' });
      // The project moved to another host after the migration: the login stays bound to where it was.
      await expect(
        service.openForCrawl(orm.em, { id: projectId, url: 'https://elsewhere.example/', settings }),
      ).rejects.toThrow(/suspended: the project's host changed to elsewhere\.example/);
      // As migrated, it opens, bound, and is re-sealed with its binding inside.
      const login = await service.openForCrawl(orm.em, { id: projectId, url: startUrl, settings });
      expect(login).toMatchObject({ binding: bound, secrets: { token: 'legacy-token' } });
      const [after] = await orm.em
        .getConnection()
        .execute('SELECT sealed FROM project_crawl_login WHERE project_id = ?', [projectId]);
      expect(JSON.parse(box.open(after.sealed)!)).toEqual({
        v: 2,
        projectId,
        binding: bound,
        secrets: { token: 'legacy-token' },
      });
    } finally {
      await orm.close(true);
      await dropDatabase(databaseUrl);
    }
  });
});
