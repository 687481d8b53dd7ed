/**
 * Credentials a client puts in a URL never reach the API's log (the secrets drill found the API key of
 * `?api_key=` and better-auth's reset and verification tokens in every request line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { anApiKey, anOrg } from '../factories.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'debug' });
});
afterAll(() => t?.close());

describe('request logs and credentials in URLs', () => {
  it('a key in the query string, a reset token in the path and a verification token are redacted', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const key = await anApiKey(org);
    const token = 'c0ffee'.repeat(6);
    const urls = [
      `/api/v1/projects?api_key=${key}`,
      `/api/v1/projects?token=${token}`,
      `/api/auth/reset-password/${token}?callbackURL=%2F`,
      `/api/auth/verify-email?token=${token}&callbackURL=%2F`,
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url });
    await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { authorization: `Bearer ${key}` } });
    const logs = t.logs.join('');
    expect(logs).toContain('/api/v1/projects?api_key=[REDACTED]');
    expect(logs).toContain('/api/auth/reset-password/[REDACTED]');
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(8));
    expect(logs).not.toContain(token);
  });
});
