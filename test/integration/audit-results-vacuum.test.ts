/**
 * After an audit completes, its worker vacuums the tables its results fill (VACUUM (ANALYZE, SKIP_LOCKED)), so that
 * the first comparison of a fresh audit reads all-visible index pages; a failed vacuum changes nothing for the audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import type { NativeDb } from '../../src/platform/db/native-query.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/index.js';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let site: RunningSite;
const host = `vacuum-${uniq()}.test`;

/** The repository with its vacuum observed: the audit's status when it ran, or a failure of it. */
class ObservedRepository extends AuditResultsRepository {
  calls: (string | null)[] = [];
  constructor(
    private readonly auditStatus: () => Promise<string | null>,
    private readonly fail = false,
  ) {
    super();
  }
  override async vacuumResults(db: NativeDb): Promise<void> {
    this.calls.push(await this.auditStatus());
    if (this.fail) throw new Error('canceling statement due to lock timeout');
    return super.vacuumResults(db);
  }
}

beforeAll(async () => {
  site = await startFixtureSite({ host });
  const page = (title: string, link: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>` +
    `<p>${'words '.repeat(60)}</p><a href="${link}">next</a></body></html>`;
  site.serve({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/': { body: page('Home of the vacuum fixture', '/two') },
    '/two': { body: page('Second page of the vacuum fixture', '/') },
  });
  t = await createTestApp({ SAFE_HTTP_ALLOW: host, SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});

afterAll(async () => {
  await t?.close();
  await site?.close();
});

/** A project of the fixture site started at `path` (a URL is one project per organization), its audit queued. */
async function queuedAudit(path: string): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    payload: { url: site.url(path), name: `Vacuum ${uniq()}` },
  });
  expect(created.statusCode, created.body).toBe(200);
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${created.json().project.id}/audit`,
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
  });
  return (started.json() as { auditId: string }).auditId;
}

async function run(auditId: string, repo: AuditResultsRepository) {
  const client = createConfiguredSafeHttpClient(t.config);
  try {
    return await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger, undefined, undefined, repo).run(
      auditId,
    );
  } finally {
    await client.close();
  }
}

const statusOf = async (auditId: string) =>
  ((await t.runtime.pool.query('SELECT status FROM audit WHERE id = $1', [auditId])).rows[0]?.status as string) ?? null;

describe("a completed audit's results", () => {
  it('are vacuumed once, after the audit is COMPLETED', async () => {
    const auditId = await queuedAudit('/');
    const repo = new ObservedRepository(() => statusOf(auditId));
    expect(await run(auditId, repo)).toBe('completed');
    expect(repo.calls).toEqual(['COMPLETED']);
  });

  it('stay COMPLETED when the vacuum fails', async () => {
    const auditId = await queuedAudit('/two');
    const repo = new ObservedRepository(() => statusOf(auditId), true);
    expect(await run(auditId, repo)).toBe('completed');
    expect(repo.calls).toEqual(['COMPLETED']);
    expect(await statusOf(auditId)).toBe('COMPLETED');
  });
});
