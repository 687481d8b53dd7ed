import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner, runAuditEngine, type AuditSink, type LabMeter } from '../../src/audits/index.js';
import { DEFAULT_CRAWL_OPTIONS, extractInline, type PageFactsExtract } from '../../src/crawler/index.js';
import { newId } from '../../src/platform/ids.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';

/** Audit.phase: what a RUNNING audit is doing, null in every other status. The runs here are in-process (no worker). */
let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let port = 0;
const host = `phases-${uniq()}.test`;

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  client = createConfiguredSafeHttpClient(t.config);
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const n = req.url === '/' ? 0 : Number(/^\/p\/(\d)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n > 3) return res.writeHead(404).end('not found');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en"><head><title>Phase fixture ` +
        `page ${n}</title></head><body><h1>Page ${n}</h1><a ` +
        `href="${n === 3 ? '/' : `/p/${n + 1}`}">next</a></body></html>`,
    );
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
  await t.close();
});

const row = async (auditId: string) =>
  (await t.runtime.pool.query('SELECT status, phase FROM audit WHERE id = $1', [auditId])).rows[0] as {
    status: string;
    phase: string | null;
  };

describe('Audit.phase', () => {
  it('the engine reports ANALYZING, MEASURING, SAVING after the crawl, in order; the lab starts before', async () => {
    const phases: string[] = [];
    const sink: AuditSink = {
      pages: async () => undefined,
      occurrences: async () => undefined,
      phase: async (p) => void phases.push(p),
    };
    const lab: LabMeter = async () => {
      phases.push('(lab)');
      return new Map();
    };
    const outcome = await runAuditEngine(
      client,
      { ...DEFAULT_CRAWL_OPTIONS, startUrl: `http://${host}:${port}/`, userAgent: 'test' },
      sink,
      lab,
    );
    expect(outcome.pagesCrawled).toBe(4);
    // The lab is started once the pages are done (the crawl still waits for other hosts' answers); MEASURING is the
    // wait for what is left of it.
    expect(phases).toEqual(['(lab)', 'ANALYZING', 'MEASURING', 'SAVING']);
  });

  it('the runner stores CRAWLING while fetching, MEASURING while the lab runs, nothing once COMPLETED', async () => {
    const projectId = (await aProject({ org, url: `http://${host}:${port}/` })).id;
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
      { p: projectId },
      { cookie: org.owner.cookie, origin: t.config.baseUrl },
    );
    const auditId = started.body.data.startAudit.auditId as string;
    expect(await row(auditId)).toEqual({ status: 'QUEUED', phase: null });

    const seen: string[] = [];
    const viaGraphql = async () => {
      const res = await gql(
        t,
        'query($p: ID!) { audit(projectId: $p) { status phase } }',
        { p: projectId },
        { cookie: org.owner.cookie },
      );
      return `${res.body.data.audit.status} ${res.body.data.audit.phase}`;
    };
    // The runner's own extension points observe the stored phase at those moments.
    const extract: PageFactsExtract = async (body, ctx) => {
      if (!seen.length) seen.push(`page: ${await viaGraphql()}`);
      return extractInline(body, ctx);
    };
    // The lab starts while the crawl waits for other hosts; it is still measuring when the runner stores MEASURING.
    const lab: LabMeter = async () => {
      const until = Date.now() + 10_000;
      let phase = await viaGraphql();
      while (phase !== 'RUNNING MEASURING' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        phase = await viaGraphql();
      }
      seen.push(`lab: ${phase}`);
      return new Map();
    };
    const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger, lab, extract);
    expect(await runner.run(auditId)).toBe('completed');
    expect(seen).toEqual(['page: RUNNING CRAWLING', 'lab: RUNNING MEASURING']);
    expect(await viaGraphql()).toBe('COMPLETED null');
  });

  it('leaving RUNNING clears the phase (retry, failure); the database refuses a phase outside RUNNING', async () => {
    const projectId = (await aProject({ org })).id;
    const auditId = newId();
    await t.runtime.pool.query(
      `INSERT INTO audit (id, project_id, status, phase, job_id, pages_crawled, max_pages, attempts, ` +
        `created_at, started_at)
       VALUES ($1::uuid, $2, 'RUNNING', 'ANALYZING', $1::text, 3, 100, 1, now(), now())`,
      [auditId, projectId],
    );
    const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
    await runner.markQueued(auditId, 'Attempt 1 failed; retrying.');
    expect(await row(auditId)).toEqual({ status: 'QUEUED', phase: null });
    await t.runtime.pool.query(`UPDATE audit SET status = 'RUNNING', phase = 'SAVING' WHERE id = $1`, [auditId]);
    await runner.markFailed(auditId, 'It broke.');
    expect(await row(auditId)).toEqual({ status: 'FAILED', phase: null });
    await expect(t.runtime.pool.query(`UPDATE audit SET phase = 'CRAWLING' WHERE id = $1`, [auditId])).rejects.toThrow(
      /audit_phase_running_only/,
    );
    await expect(t.runtime.pool.query(`UPDATE audit SET phase = 'RESTING' WHERE id = $1`, [auditId])).rejects.toThrow(
      /check constraint/,
    );
  });
});
