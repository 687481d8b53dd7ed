import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createTestApp, gql, signUp, type TestApp, type TestUser } from '../support/app.js';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The Settings page's members list and the header's organization read better-auth's tables. */
describe('members and the viewer organization', () => {
  it('members lists the organization’s people with their role and an ISO date', async () => {
    const { body } = await gql(t, '{ members { id userId name email role createdAt } }', {}, { cookie: owner.cookie });
    expect(body.errors).toBeUndefined();
    expect(body.data.members).toEqual([
      {
        id: expect.any(String),
        userId: owner.userId,
        name: 'Test User',
        email: owner.email,
        role: 'owner',
        createdAt: expect.stringMatching(ISO),
      },
    ]);
  });

  it('viewer.organization.createdAt is an ISO date', async () => {
    const { body } = await gql(t, '{ viewer { organization { id createdAt } } }', {}, { cookie: owner.cookie });
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer.organization).toEqual({ id: owner.organizationId, createdAt: expect.stringMatching(ISO) });
  });

  it('an API key reads the members of its own organization only', async () => {
    const other = await signUp(t, { plan: 'ENTERPRISE' });
    const key = await createApiKey(t, other);
    const { body } = await gql(t, '{ members { email } }', {}, { authorization: `Bearer ${key}` });
    expect(body.errors).toBeUndefined();
    expect(body.data.members).toEqual([{ email: other.email }]);
  });
});
