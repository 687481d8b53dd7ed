/**
 * A crawl login's secret values never reach a log line: not while it is set through the API (the request log), not
 * while an audit signs in with it or fails to, and not when code logs the opened login by mistake (the logger's
 * redaction of its fields).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { CrawlLoginService } from '../../src/projects/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { formLoginFor, startMemberSite, startOtherHost, type LoginHost } from '../support/crawl-login-site.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

const SECRETS = {
  username: 'log-user-4f3e2d',
  password: 'log-pass-9a8b7c6d',
  extra: 'log-extra-1a2b3c',
  token: 'logtoken0a1b2c3d4e5f',
  cookie: 'logcookie7e6f5a',
  header: 'log-header-value-8c9d',
};

let t: TestApp;
let org: Org;
let site: Awaited<ReturnType<typeof startMemberSite>>;
let other: LoginHost;
let projectId: string;

beforeAll(async () => {
  const memberHost = `logs-${uniq()}.test`;
  const otherHost = `logs-other-${uniq()}.test`;
  other = await startOtherHost(otherHost);
  site = await startMemberSite(memberHost, () => other.origin);
  t = await createTestApp({
    LOG_LEVEL: 'debug',
    SAFE_HTTP_ALLOW: `${memberHost},${otherHost}`,
    SAFE_HTTP_RESOLVE: `${memberHost}=127.0.0.1,${otherHost}=127.0.0.1`,
    CRAWL_SECRET_KEY: 'crawl-login-test-key-0123456789abcdef',
  });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    payload: { url: `${site.origin}/` },
  });
  projectId = created.json().project.id as string;
});

afterAll(async () => {
  await t?.close();
  await site?.close();
  await other?.close();
});

async function audit(): Promise<string> {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/audit`,
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
  });
  const client = createConfiguredSafeHttpClient(t.config);
  try {
    return await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(started.json().auditId);
  } catch (err) {
    t.runtime.logger.error({ err }, 'audit failed');
    return 'failed';
  } finally {
    await client.close();
  }
}

const setLogin = (input: Record<string, unknown>) =>
  gql(
    t,
    'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id } }',
    { p: projectId, i: input },
    { cookie: org.owner.cookie },
  );

describe('crawl login secrets and the logs', () => {
  it('appear in no log line: set, used, failed, and logged by mistake', async () => {
    const form = {
      ...formLoginFor(site, SECRETS.username, SECRETS.password),
      extraFields: [{ name: 'tenant', value: SECRETS.extra }],
    };
    expect((await setLogin(form)).body.errors).toBeUndefined();
    expect(await audit()).toBe('completed');
    site.setAuth({ kind: 'FORM', username: SECRETS.username, password: 'not-this-one' });
    expect(await audit()).toBe('failed');
    // A refused input (the request and its error are logged): the values it carried are not.
    expect((await setLogin({ ...form, loginUrl: 'ftp://nowhere/login' })).body.errors).toBeDefined();
    for (const input of [
      { kind: 'BEARER', token: SECRETS.token },
      { kind: 'COOKIE', cookies: `session=${SECRETS.cookie}` },
      { kind: 'HEADER', headerName: 'X-Preview', headerValue: SECRETS.header },
    ])
      expect((await setLogin(input)).body.errors).toBeUndefined();

    // Code that logs an opened login, its input or a request's headers by mistake still writes no value.
    const service = new CrawlLoginService(t.config);
    const login = await service.openForCrawl(t.runtime.orm.em, { id: projectId, url: `${site.origin}/` });
    t.runtime.logger.info({ login, input: { ...form, cookies: `a=${SECRETS.cookie}` } }, 'login (mistake)');
    t.runtime.logger.info({ request: { headers: { cookie: `s=${SECRETS.cookie}` } } }, 'headers (mistake)');
    t.runtime.logger.info({ input: { headerValue: SECRETS.header, token: SECRETS.token } }, 'header (mistake)');

    const logs = t.logs.join('');
    expect(logs).toContain('login (mistake)');
    for (const value of Object.values(SECRETS))
      expect(t.logs.filter((l) => l.includes(value)).join(''), value).toBe('');
  });
});
