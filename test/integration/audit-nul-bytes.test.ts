/**
 * A page with NUL characters (binary served as HTML; the bounded-resources drill's gzip bomb of zeros) must not
 * fail the audit: PostgreSQL cannot store U+0000 in text or jsonb, so it used to reject the page and occurrence
 * rows ("unsupported Unicode escape sequence"), and the audit ended FAILED after three attempts with no error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { CompetitorProfileRunner } from '../../src/competitors/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/index.js';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let site: RunningSite;
const host = `nul-${uniq()}.test`;

beforeAll(async () => {
  site = await startFixtureSite({ host });
  const nul = '\u0000';
  site.serve({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/': {
      body:
        `<!doctype html><html><head><title>Zeros${nul}here</title><meta name="description" ` +
        `content="a${nul}b"></head><body><h1>${nul.repeat(20)}</h1><p>${'text '.repeat(50)}${nul}</p><a ` +
        `href="/z${nul}">a link</a> <a href="/two">two</a></body></html>`,
    },
    '/two': {
      body: Buffer.concat([
        Buffer.from('<html><head><title>two</title></head><body>'),
        Buffer.alloc(64 * 1024),
        Buffer.from('</body></html>'),
      ]),
    },
  });
  t = await createTestApp({
    SAFE_HTTP_ALLOW: host,
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    REDIS_PREFIX: `nul-${uniq()}`,
  });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});

afterAll(async () => {
  await t?.close();
  await site?.close();
});

describe('an audit of pages containing NUL characters', () => {
  it('completes, with the NULs stored as U+FFFD', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      payload: { url: site.url('/') },
    });
    expect(created.statusCode, created.body).toBe(200);
    const projectId = created.json().project.id as string;
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/audit`,
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    });
    const { auditId } = started.json() as { auditId: string };
    const client = createConfiguredSafeHttpClient(t.config);
    try {
      const outcome = await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(auditId);
      expect(outcome).toBe('completed');
    } finally {
      await client.close();
    }
    const { rows: audits } = await t.runtime.pool.query(
      'SELECT status, error, pages_crawled FROM audit WHERE id = $1',
      [auditId],
    );
    expect(audits[0]).toMatchObject({ status: 'COMPLETED', error: null });
    expect(audits[0].pages_crawled).toBeGreaterThanOrEqual(2);
    const { rows: pages } = await t.runtime.pool.query(
      'SELECT title FROM audit_page WHERE audit_id = $1 ORDER BY url',
      [auditId],
    );
    expect(pages.map((p) => p.title)).toContain('Zeros\uFFFDhere');
    const { rows: occurrences } = await t.runtime.pool.query(
      'SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1',
      [auditId],
    );
    expect(occurrences[0].n).toBeGreaterThan(0);
  });

  it('a competitor whose homepage carries NUL characters gets its profile stored', async () => {
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      payload: { url: `https://other-${uniq()}.example/` },
    });
    const projectId = owner.json().project.id as string;
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/competitors`,
      headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
      payload: { domain: site.url('/') },
    });
    expect(added.statusCode, added.body).toBe(200);
    const client = createConfiguredSafeHttpClient(t.config);
    try {
      expect(await new CompetitorProfileRunner(t.runtime.orm, client).run(added.json().competitor.id)).toBe('done');
    } finally {
      await client.close();
    }
    const { rows } = await t.runtime.pool.query('SELECT profile FROM competitor WHERE id = $1', [
      added.json().competitor.id,
    ]);
    expect(rows[0].profile).toMatchObject({ status: 200, title: 'Zeros\uFFFDhere', error: null });
  });
});
