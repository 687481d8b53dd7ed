import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, sessionCookie, uniq, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const signUpRequest = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: t.config.baseUrl },
    payload: { email, password: 'correct-horse-battery', name: 'Concurrent' },
  });

/** Users among these e-mails that lack an organization they own (membership included). */
async function usersWithoutOrganization(emails: string[]): Promise<string[]> {
  const { rows } = await t.runtime.pool.query<{ email: string }>(
    `SELECT u.email FROM "user" u
      WHERE u.email = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM "member" m JOIN "organization" o ON o.id = m."organizationId"
                         WHERE m."userId" = u.id AND m.role = 'owner')`,
    [emails],
  );
  return rows.map((r) => r.email);
}

describe('sign-up makes the user, their organization and membership together', () => {
  it('50 concurrent sign-ups: no 500, every user has an organization and is its owner', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `burst-${i}-${uniq()}@example.test`);
    const responses = await Promise.all(emails.map((email) => signUpRequest(email)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toEqual(Array(50).fill(200));
    const { rows } = await t.runtime.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM "user" WHERE email = ANY($1)`,
      [emails],
    );
    expect(Number(rows[0].n)).toBe(50);
    expect(await usersWithoutOrganization(emails)).toEqual([]);
    // Each has exactly one organization, and the session works on it.
    const { rows: counts } = await t.runtime.pool.query<{ n: string }>(
      `SELECT count(m.id) AS n FROM "user" u LEFT JOIN "member" m ON m."userId" = u.id
        WHERE u.email = ANY($1) GROUP BY u.id`,
      [emails],
    );
    expect(counts.map((c) => Number(c.n))).toEqual(Array(50).fill(1));
    const viewer = await gql(t, '{ viewer { organization { id } } }', {}, { cookie: sessionCookie(responses[0]) });
    expect(viewer.body.data).toBeTruthy();
  }, 120_000);

  it('the same e-mail signed up twice at once: one account, the other answer a 4xx, never a 500', async () => {
    const email = `twice-${uniq()}@example.test`;
    const statuses = (await Promise.all([signUpRequest(email), signUpRequest(email)])).map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(await usersWithoutOrganization([email])).toEqual([]);
  });

  it('a half-made account (a user without organization) is repaired at its next sign-in', async () => {
    const email = `half-${uniq()}@example.test`;
    const made = await signUpRequest(email);
    expect(made.statusCode).toBe(200);
    const userId = made.json().user.id as string;
    // What an interrupted sign-up of an earlier version could leave: the user without their organization.
    await t.runtime.pool.query(
      `DELETE FROM "organization" WHERE id IN (SELECT "organizationId" FROM "member" WHERE "userId" = $1)`,
      [userId],
    );
    expect(await usersWithoutOrganization([email])).toEqual([email]);
    // With no membership, the old session is no principal.
    const before = await gql(t, '{ viewer { organization { id } } }', {}, { cookie: sessionCookie(made) });
    expect(before.body.data?.viewer ?? null).toBeNull();
    expect(before.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: t.config.baseUrl },
      payload: { email, password: 'correct-horse-battery' },
    });
    expect(signIn.statusCode).toBe(200);
    expect(await usersWithoutOrganization([email])).toEqual([]);
    const { rows } = await t.runtime.pool.query<{ plan: string; name: string }>(
      `SELECT o.plan, o.name FROM "organization" o JOIN "member" m ON m."organizationId" = o.id WHERE m."userId" = $1`,
      [userId],
    );
    expect(rows).toEqual([{ plan: t.config.DEFAULT_PLAN, name: "Concurrent's organization" }]);
    const after = await gql<{ viewer: { organization: { id: string } } }>(
      t,
      '{ viewer { organization { id } } }',
      {},
      { cookie: sessionCookie(signIn) },
    );
    expect(after.status).toBe(200);
    expect(after.body.data?.viewer.organization.id).toEqual(expect.any(String));
  });
});
