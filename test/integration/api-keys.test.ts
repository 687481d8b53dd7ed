import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anApiKey, anOrg } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('API keys', () => {
  it('a created key authenticates Surface A; the list shows its prefix and never the key', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const key = await anApiKey(org, 'ci');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ projects: [] });

    const listKeys = () => gql(t, '{ apiKeys { name prefix lastUsedAt revokedAt } }', {}, { cookie: org.owner.cookie });
    // lastUsedAt is written beside the request, not before its answer (api-key.service.ts): on a loaded box (a full
    // run) the list can be read first, so it is read until the write shows.
    await expect
      .poll(async () => (await listKeys()).body.data.apiKeys[0]?.lastUsedAt, { timeout: 5_000 })
      .toEqual(expect.any(String));
    const list = await listKeys();
    expect(list.body.data.apiKeys).toEqual([
      { name: 'ci', prefix: key.slice(0, 8), lastUsedAt: expect.any(String), revokedAt: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('createApiKey answers the key as the list reads it (same fields, same createdAt to the millisecond)', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const fields = 'id name prefix createdAt lastUsedAt revokedAt';
    const created = await gql(
      t,
      `mutation { createApiKey(name: "shape") { key apiKey { ${fields} } } }`,
      {},
      { cookie: org.owner.cookie },
    );
    const { apiKey } = created.body.data.createApiKey;
    expect(apiKey).toEqual({
      id: expect.any(String),
      name: 'shape',
      prefix: created.body.data.createApiKey.key.slice(0, 8),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastUsedAt: null,
      revokedAt: null,
    });
    const list = await gql(t, `{ apiKeys { ${fields} } }`, {}, { cookie: org.owner.cookie });
    expect(list.body.data.apiKeys).toEqual([apiKey]);
  });

  it('stores only the SHA-256 of the key', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const key = await anApiKey(org);
    const { rows } = await t.runtime.pool.query('SELECT * FROM api_key WHERE organization_id = $1', [org.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('revoked, unknown, malformed and missing keys get 401', async () => {
    const org = await anOrg(t, { plan: 'PRO' });
    const key = await anApiKey(org);
    const { body } = await gql(t, '{ apiKeys { id } }', {}, { cookie: org.owner.cookie });
    const revoke = await gql(
      t,
      'mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }',
      { id: body.data.apiKeys[0].id },
      { cookie: org.owner.cookie },
    );
    expect(revoke.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    for (const authorization of [
      `Bearer ${key}`,
      'Bearer seo_unknownkeyunknownkeyunknownkey',
      'Basic abc',
      'Bearer',
      undefined,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/projects',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', error: expect.stringMatching(/API key/) });
    }
  });

  it('a 6th active key is refused with 403 PLAN_LIMIT; revoking one frees a slot', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    for (let i = 0; i < 5; i++) await anApiKey(org, `k${i}`);
    const sixth = await gql(t, 'mutation { createApiKey(name: "k6") { key } }', {}, { cookie: org.owner.cookie });
    expect(sixth.body.errors?.[0].extensions?.code).toBe('PLAN_LIMIT');
    const { body } = await gql(t, '{ apiKeys { id } }', {}, { cookie: org.owner.cookie });
    await gql(
      t,
      'mutation($id: ID!) { revokeApiKey(id: $id) { id } }',
      { id: body.data.apiKeys[0].id },
      { cookie: org.owner.cookie },
    );
    const again = await gql(t, 'mutation { createApiKey(name: "k6") { key } }', {}, { cookie: org.owner.cookie });
    expect(again.body.data?.createApiKey.key).toMatch(/^seo_/);
  });

  it('12 concurrent creates yield exactly 5 keys', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        gql(
          t,
          'mutation($n: String!) { createApiKey(name: $n) { key } }',
          { n: `c${i}` },
          { cookie: org.owner.cookie },
        ),
      ),
    );
    const created = results.filter((r) => r.body.data?.createApiKey);
    const refused = results.filter((r) => r.body.errors?.[0].extensions?.code === 'PLAN_LIMIT');
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(7);
    const { rows } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM api_key WHERE organization_id = $1 AND revoked_at IS NULL',
      [org.id],
    );
    expect(rows[0].n).toBe(5);
  });

  it('only owners and admins manage keys; keys cannot manage keys', async () => {
    const ownerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const key = await anApiKey(ownerOrg);
    const viaKey = await gql(t, 'mutation { createApiKey(name: "x") { key } }', {}, { authorization: `Bearer ${key}` });
    expect(viaKey.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    // A plain member of the owner's organization, acting in it as their active organization.
    const memberOrg = await anOrg(t);
    await t.runtime.pool.query(
      `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'member', now())`,
      [`m-${memberOrg.owner.userId}`, ownerOrg.id, memberOrg.owner.userId],
    );
    await t.runtime.pool.query('UPDATE "session" SET "activeOrganizationId" = $1 WHERE "userId" = $2', [
      ownerOrg.id,
      memberOrg.owner.userId,
    ]);
    const viewer = await gql(t, '{ viewer { role organization { id } } }', {}, { cookie: memberOrg.owner.cookie });
    expect(viewer.body.data.viewer).toEqual({ role: 'member', organization: { id: ownerOrg.id } });
    const denied = await gql(t, 'mutation { createApiKey(name: "x") { key } }', {}, { cookie: memberOrg.owner.cookie });
    expect(denied.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const list = await gql(t, '{ apiKeys { id } }', {}, { cookie: memberOrg.owner.cookie });
    expect(list.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it("revoking another organization's key is NOT_FOUND", async () => {
    const aOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const bOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    await anApiKey(aOrg);
    const { body } = await gql(t, '{ apiKeys { id } }', {}, { cookie: aOrg.owner.cookie });
    const res = await gql(
      t,
      'mutation($id: ID!) { revokeApiKey(id: $id) { id } }',
      { id: body.data.apiKeys[0].id },
      { cookie: bOrg.owner.cookie },
    );
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
