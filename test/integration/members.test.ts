import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';

let t: TestApp;
let ownerOrg: Org;
beforeAll(async () => {
  t = await createTestApp();
  ownerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The Settings page's members list and the header's organization read better-auth's tables. */
describe('members and the viewer organization', () => {
  it('members lists the organization’s people with their role and an ISO date', async () => {
    const { body } = await gql(
      t,
      '{ members { id userId name email role createdAt } }',
      {},
      { cookie: ownerOrg.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.members).toEqual([
      {
        id: expect.any(String),
        userId: ownerOrg.owner.userId,
        name: 'Test User',
        email: ownerOrg.owner.email,
        role: 'owner',
        createdAt: expect.stringMatching(ISO),
      },
    ]);
  });

  it('viewer.organization.createdAt is an ISO date', async () => {
    const { body } = await gql(
      t,
      '{ viewer { organization { id createdAt } } }',
      {},
      { cookie: ownerOrg.owner.cookie },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer.organization).toEqual({ id: ownerOrg.id, createdAt: expect.stringMatching(ISO) });
  });

  it('an API key reads the members of its own organization only', async () => {
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const key = await anApiKey(otherOrg);
    const { body } = await gql(t, '{ members { email } }', {}, { authorization: `Bearer ${key}` });
    expect(body.errors).toBeUndefined();
    expect(body.data.members).toEqual([{ email: otherOrg.owner.email }]);
  });
});
