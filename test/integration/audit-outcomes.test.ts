/**
 * Truthful audit outcomes (issue 18, point 1 and findings 1-2): an audit whose start URL cannot be audited ends
 * FAILED with a reason that names the URL and the cause, and no scores, on /api/v1, /api and GraphQL, with its
 * BullMQ job failed once (not retried); a completed audit with pages that failed says how many and which.
 * Every site is a local fixture server that records the requests it receives.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp, reportQueueError } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';
import { createQueue, QUEUES } from '../../src/platform/queues.js';
import { AuditFailedError, AuditJobRunner } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestCertificate } from '../fixtures/sites/index.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A fixture site on 127.0.0.1 that records the method and path of every request it receives. */
async function recordingSite(handler: Handler) {
  const requests: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    requests,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const page = (title: string, body = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="A ` +
  `fixture page of the audit outcome tests, long enough to ` +
  `pass."></head><body><h1>${title}</h1>${body}</body></html>`;

/** A port nothing listens on: a server is bound, its port noted, and closed again. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const id = uniq();
const HOSTS = {
  refused: `refused-${id}.test`,
  status500: `error500-${id}.test`,
  status404: `missing-${id}.test`,
  all500: `all500-${id}.test`,
  redirect: `redirect-${id}.test`,
  robots: `robots-${id}.test`,
  partial: `partial-${id}.test`,
  silent: `silent-${id}.test`,
  tls: `tls-${id}.test`,
};
/** Resolves to a private address the allow-list does not admit: refused at connect time, nothing is sent. */
const PRIVATE_NAME = `private-${id}.test`;
const UNRESOLVABLE = `nowhere-${id}.invalid`;

let t: TestApp;
let env: Record<string, string>;
let org: Org;
let key: string;

beforeAll(async () => {
  env = {
    REDIS_PREFIX: `outcomes-${id}`,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: [...Object.values(HOSTS).map((h) => `${h}=127.0.0.1`), `${PRIVATE_NAME}=10.0.0.1`].join(','),
    WORKER_LOCK_MS: '5000',
    WORKER_CONCURRENCY: '2',
  };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
});
afterAll(() => t?.close());

const bearer = () => ({ authorization: `Bearer ${key}` });
const session = () => ({ cookie: org.owner.cookie, origin: t.config.baseUrl });

async function newProject(url: string, settings?: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: session(),
    payload: { url, name: `p-${uniq()}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  const projectId = res.json().project.id as string;
  if (settings) {
    const r = await gql(
      t,
      'mutation($id: ID!, $s: ProjectSettingsInput!) { updateProject(id: $id, input: { settings: $s }) { id } }',
      { id: projectId, s: settings },
      session(),
    );
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  }
  return projectId;
}

const SCORE_FIELDS = [
  'overallScore',
  'metaScore',
  'contentScore',
  'linksScore',
  'technicalScore',
  'performanceScore',
] as const;

/** The audit as every surface reports it; all three must agree. */
async function auditEverywhere(projectId: string) {
  const v1 = await t.app.inject({ method: 'GET', url: `/api/v1/projects/${projectId}/audit`, headers: bearer() });
  const b = await t.app.inject({
    method: 'GET',
    url: `/api/projects/${projectId}/audit`,
    headers: { cookie: org.owner.cookie },
  });
  const g = await gql(
    t,
    `query($p: ID!) { audit(projectId: $p) { id status error pagesCrawled ` +
      `pagesFailed ${SCORE_FIELDS.join(' ')} issues { code affectedPages occurrences(first: 20) { nodes { ` +
      `url evidence } } } } }`,
    { p: projectId },
    bearer(),
  );
  expect(v1.statusCode).toBe(200);
  expect(b.statusCode).toBe(200);
  expect(g.body.errors).toBeUndefined();
  return { v1: v1.json().audit, b: b.json().audit, g: g.body.data.audit };
}

async function expectFailedEverywhere(projectId: string, jobId: string, error: RegExp) {
  const { v1, b, g } = await auditEverywhere(projectId);
  for (const [surface, audit] of Object.entries({ v1, b, g })) {
    expect(audit.status, surface).toBe('FAILED');
    expect(audit.error, surface).toMatch(error);
    for (const field of SCORE_FIELDS) expect(audit[field], `${surface} ${field}`).toBeNull();
    expect(audit.issues, surface).toEqual([]);
  }
  expect(v1).toEqual(b);
  const job = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: bearer() });
  expect(job.json().job).toMatchObject({ id: jobId, state: 'failed', error: v1.error });
  const jobB = await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: { cookie: org.owner.cookie } });
  expect(jobB.json()).toEqual(job.json());
  return v1;
}

async function startAudit(projectId: string): Promise<{ auditId: string; jobId: string }> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/projects/${projectId}/audit`, headers: bearer() });
  expect(res.statusCode).toBe(202);
  return res.json();
}

async function settled(auditId: string): Promise<{ status: string; attempts: number }> {
  return waitFor(
    `audit ${auditId} to settle`,
    async () => {
      const row = (await t.runtime.pool.query('SELECT status, attempts FROM audit WHERE id = $1', [auditId])).rows[0];
      return row && !['QUEUED', 'RUNNING'].includes(row.status) ? row : null;
    },
    60_000,
  );
}

describe('an audit whose start URL cannot be audited ends FAILED with the reason, on every surface', () => {
  it(
    'refused, unresolvable, refused address (by name, by redirect, a stored literal), 500, 404, robots.txt: ' +
      'FAILED once, never retried',
    async () => {
      const sites = {
        status500: await recordingSite((req, res) => {
          res.statusCode = req.url === '/robots.txt' ? 404 : 500;
          res.end('boom');
        }),
        all500: await recordingSite((_req, res) => {
          res.statusCode = 500;
          res.end('boom');
        }),
        status404: await recordingSite((_req, res) => {
          res.statusCode = 404;
          res.end('nothing here');
        }),
        redirect: await recordingSite((req, res) => {
          if (req.url === '/robots.txt') {
            res.statusCode = 404;
            return res.end();
          }
          res.statusCode = 302;
          res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
          res.end();
        }),
        robots: await recordingSite((req, res) => {
          if (req.url === '/robots.txt') return res.end('User-agent: *\nDisallow: /\n\nSitemap: /sitemap.xml\n');
          res.setHeader('content-type', 'text/html');
          res.end(page('Should never be fetched'));
        }),
      };
      // An https site whose certificate no one trusts (self-signed): the TLS handshake fails.
      const certificate = createTestCertificate([HOSTS.tls]);
      const tlsRequests: string[] = [];
      const tls = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
        tlsRequests.push(`${req.method} ${req.url}`);
        res.end('never');
      });
      await new Promise<void>((r) => tls.listen(0, '127.0.0.1', () => r()));
      const tlsPort = (tls.address() as AddressInfo).port;
      const refusedPort = await closedPort();
      const cases: { name: string; url: string; error: RegExp; literal?: string }[] = [
        {
          name: 'connection refused',
          url: `http://${HOSTS.refused}:${refusedPort}/`,
          error: new RegExp(`^Could not connect to http://${HOSTS.refused}:${refusedPort}/: connection refused$`),
        },
        {
          name: 'DNS failure',
          url: `http://${UNRESOLVABLE}/`,
          error: new RegExp(
            `^Could not resolve the host of http://${UNRESOLVABLE}/: could not resolve host ${UNRESOLVABLE}$`,
          ),
        },
        {
          name: 'a name resolving to a private address',
          url: `http://${PRIVATE_NAME}/`,
          error: new RegExp(
            `^Refused to fetch http://${PRIVATE_NAME}/: ${PRIVATE_NAME} resolves to an address that is not ` +
              `allowed \\(private, loopback or reserved\\); only public sites`,
          ),
        },
        // A project stored before creation refused literal addresses.
        {
          name: 'a stored literal metadata address',
          url: `http://${HOSTS.refused}/`,
          literal: 'http://169.254.169.254/',
          error: new RegExp(
            String.raw`^Refused to fetch http:\/\/169\.254\.169\.254\/: 169\.254\.169\.254 is a link-local addres` +
              String.raw`s; only public sites`,
          ),
        },
        {
          name: 'an untrusted TLS certificate',
          url: `https://${HOSTS.tls}:${tlsPort}/`,
          error: new RegExp(
            `^Could not connect to https://${HOSTS.tls}:${tlsPort}/: the TLS connection failed ` +
              `\\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIG` +
              `NATURE)\\)$`,
          ),
        },
        {
          name: '500 on the start page',
          url: `http://${HOSTS.status500}:${sites.status500.port}/`,
          error: new RegExp(
            `^http://${HOSTS.status500}:${sites.status500.port}/ answered HTTP 500 \\(Internal Server Error\\)$`,
          ),
        },
        {
          // robots.txt answers 500 too: RFC 9309 makes the whole site disallowed, so not even the start page is
          // requested.
          name: '500 on every page',
          url: `http://${HOSTS.all500}:${sites.all500.port}/`,
          error: new RegExp(
            `^robots\\.txt of http://${HOSTS.all500}:${sites.all500.port} answered HTTP 500; an unreachable ` +
              `robots\\.txt disallows the whole site \\(RFC 9309\\), so ` +
              `http://${HOSTS.all500}:${sites.all500.port}/ was not crawled$`,
          ),
        },
        {
          name: '404 on the start page',
          url: `http://${HOSTS.status404}:${sites.status404.port}/`,
          error: new RegExp(`^http://${HOSTS.status404}:${sites.status404.port}/ answered HTTP 404 \\(Not Found\\)$`),
        },
        {
          name: 'a start URL redirecting to a refused address',
          url: `http://${HOSTS.redirect}:${sites.redirect.port}/`,
          error: new RegExp(
            `^Refused to fetch http://${HOSTS.redirect}:${sites.redirect.port}/ \\(it redirects to ` +
              `http://169\\.254\\.169\\.254/latest/meta-data/\\): 169\\.254\\.169\\.254 is a ` +
              `link-local address`,
          ),
        },
        {
          name: 'robots.txt disallowing the start URL',
          url: `http://${HOSTS.robots}:${sites.robots.port}/`,
          error: new RegExp(
            `^robots\\.txt of http://${HOSTS.robots}:${sites.robots.port} disallows ` +
              `http://${HOSTS.robots}:${sites.robots.port}/ for the crawler's user agent`,
          ),
        },
      ];
      const worker = startWorker('audit.worker', env);
      const queue = createQueue(QUEUES.audit, t.runtime.redis, env.REDIS_PREFIX, reportQueueError);
      try {
        const started = [];
        for (const c of cases) {
          const projectId = await newProject(c.url);
          if (c.literal)
            await t.runtime.pool.query('UPDATE project SET url = $1, domain = $2 WHERE id = $3', [
              c.literal,
              new URL(c.literal).hostname,
              projectId,
            ]);
          started.push({ ...c, projectId, ...(await startAudit(projectId)) });
        }
        for (const c of started) {
          const row = await settled(c.auditId);
          expect(row, `${c.name}\n${worker.output.join('').slice(-3000)}`).toEqual({ status: 'FAILED', attempts: 1 });
          const audit = await expectFailedEverywhere(c.projectId, c.jobId, c.error);
          // The BullMQ job failed for good on its first attempt: a deterministic failure is not retried.
          const job = await queue.getJob(c.jobId);
          expect(await job?.getState(), c.name).toBe('failed');
          expect(job?.attemptsMade, c.name).toBe(1);
          expect(job?.failedReason, c.name).toBe(audit.error);
        }
        // The start page that answered is kept as the audit's one page, with its status.
        const error500 = started.find((c) => c.name === '500 on the start page')!;
        const pages = await t.runtime.pool.query('SELECT url, status_code FROM audit_page WHERE audit_id = $1', [
          error500.auditId,
        ]);
        expect(pages.rows).toEqual([{ url: error500.url, status_code: 500 }]);
        // Nothing but robots.txt and the start page (no favicon, llms.txt, link or sitemap requests) on the sites that
        // failed at the start.
        expect(
          sites.status500.requests.filter((r) => !r.endsWith('/robots.txt') && !r.endsWith('/sitemap.xml')),
        ).toEqual(['GET /']);
        // RFC 9309: with Disallow: / nothing but robots.txt itself is requested — not /, not /favicon.ico, /llms.txt or
        // the sitemap.
        expect(sites.robots.requests).toEqual(['GET /robots.txt']);
        expect(tlsRequests).toEqual([]);
        expect(sites.all500.requests).toEqual(['GET /robots.txt']);
      } finally {
        await worker.stop();
        await queue.close();
        await new Promise<void>((r) => tls.close(() => r()));
        for (const s of Object.values(sites)) await s.close();
      }
    },
    120_000,
  );

  it('a server that never answers: FAILED after the configured timeout, naming the URL and the timeout', async () => {
    // Accepts connections and reads requests, never answers.
    const silent = await recordingSite(() => undefined);
    const client = createConfiguredSafeHttpClient(t.config, { headersTimeoutMs: 300, totalTimeoutMs: 600 });
    try {
      const projectId = await newProject(`http://${HOSTS.silent}:${silent.port}/`);
      const { auditId, jobId } = await startAudit(projectId);
      const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
      const started = Date.now();
      const err = await runner.run(auditId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuditFailedError);
      expect(Date.now() - started).toBeLessThan(10_000);
      await expectFailedEverywhere(
        projectId,
        jobId,
        new RegExp(
          `^http://${HOSTS.silent}:${silent.port}/robots\\.txt did not answer in time: the server did not ` +
            `send response headers within 300 ms; an unreachable robots\\.txt disallows the whole site ` +
            `\\(RFC 9309\\), so http://${HOSTS.silent}:${silent.port}/ was not crawled$`,
        ),
      );
      expect(silent.requests).toEqual(['GET /robots.txt']);
    } finally {
      await client.close();
      await silent.close();
    }
  }, 30_000);

  it('robots.txt Disallow: / is ignored only for a project that opted out of robots.txt', async () => {
    const site = await recordingSite((req, res) => {
      if (req.url === '/robots.txt') return res.end('User-agent: *\nDisallow: /\n');
      res.setHeader('content-type', 'text/html');
      res.end(page('A page of a site that asks not to be crawled'));
    });
    const client = createConfiguredSafeHttpClient(t.config);
    try {
      const projectId = await newProject(`http://${HOSTS.robots}:${site.port}/`, { respectRobots: false });
      const { auditId } = await startAudit(projectId);
      expect(await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(auditId)).toBe(
        'completed',
      );
      const { v1 } = await auditEverywhere(projectId);
      expect(v1).toMatchObject({ status: 'COMPLETED', error: null, pagesCrawled: 1, pagesFailed: 0 });
      expect(v1.overallScore).toBeLessThanOrEqual(50);
      expect(v1.issues.map((i: { code: string }) => i.code)).toContain('TECH_ROBOTS_BLOCKS_ALL');
      expect(site.requests).toContain('GET /');
    } finally {
      await client.close();
      await site.close();
    }
  });
});

describe('a completed audit with pages that failed says how many and which', () => {
  it('pagesFailed and a PAGE_FETCH_FAILED issue listing failed pages with the cause, on every surface', async () => {
    const site = await recordingSite((req, res) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
      if (path === '/loop-a' || path === '/loop-b') {
        res.statusCode = 302;
        res.setHeader('location', path === '/loop-a' ? '/loop-b' : '/loop-a');
        return res.end();
      }
      if (path === '/to-metadata') {
        res.statusCode = 301;
        res.setHeader('location', 'http://169.254.169.254/');
        return res.end();
      }
      res.setHeader('content-type', 'text/html');
      if (path === '/')
        return res.end(
          page(
            'Home page of the partial fixture',
            '<a href="/about">About</a> <a href="/loop-a">Loop</a> <a href="/to-metadata">Meta</a>',
          ),
        );
      if (path === '/about') return res.end(page('About page of the partial fixture', '<a href="/">Home</a>'));
      res.statusCode = 404;
      res.end();
    });
    const worker = startWorker('audit.worker', env);
    try {
      const origin = `http://${HOSTS.partial}:${site.port}`;
      const projectId = await newProject(`${origin}/`);
      const { auditId } = await startAudit(projectId);
      expect(await settled(auditId)).toEqual({ status: 'COMPLETED', attempts: 1 });
      const { v1, b, g } = await auditEverywhere(projectId);
      for (const [surface, audit] of Object.entries({ v1, b, g })) {
        expect(audit, surface).toMatchObject({ status: 'COMPLETED', error: null, pagesCrawled: 4, pagesFailed: 2 });
        for (const field of SCORE_FIELDS) expect(audit[field], `${surface} ${field}`).toEqual(expect.any(Number));
        const failed = audit.issues.find((i: { code: string }) => i.code === 'PAGE_FETCH_FAILED');
        expect(failed, surface).toMatchObject({ affectedPages: 2 });
      }
      expect(v1).toEqual(b);
      const issue = v1.issues.find((i: { code: string }) => i.code === 'PAGE_FETCH_FAILED');
      expect(issue).toMatchObject({
        severity: 'CRITICAL',
        category: 'TECHNICAL',
        title: 'Page could not be fetched',
      });
      const occurrences = g.issues.find((i: { code: string }) => i.code === 'PAGE_FETCH_FAILED').occurrences.nodes;
      expect(occurrences.map((o: { url: string }) => o.url).sort()).toEqual([
        `${origin}/loop-a`,
        `${origin}/to-metadata`,
      ]);
      expect(occurrences.find((o: { url: string }) => o.url.endsWith('/to-metadata')).evidence.error).toMatch(
        /169\.254\.169\.254 is a link-local address/,
      );
      expect(occurrences.find((o: { url: string }) => o.url.endsWith('/loop-a')).evidence.error).toMatch(
        /Redirect loop/,
      );
    } finally {
      await worker.stop();
      await site.close();
    }
  }, 90_000);
});

describe('project and competitor targets are checked against the safe client address policy when created', () => {
  it.each([
    ['http://169.254.169.254/', 'Refused: 169.254.169.254 is a link-local address'],
    ['http://10.0.0.1/', 'Refused: 10.0.0.1 is a private network address'],
    // Short, hex and octal forms arrive normalized by the URL parser (this app allows 127.0.0.1 only).
    ['http://0x7f.0.0.2/', 'Refused: 127.0.0.2 is a loopback address'],
    ['http://0251.0376.0251.0376/', 'Refused: 169.254.169.254 is a link-local address'],
    ['http://2852039166/', 'Refused: 169.254.169.254 is a link-local address'],
    [
      'http://metadata.google.internal/computeMetadata/v1/',
      'Refused: metadata.google.internal is an internal-only name',
    ],
    ['http://printer.local/', 'Refused: printer.local is an internal-only name'],
    // IPv6 literals name a host: the address policy decides (the SSRF drill found them refused as "no host").
    ['http://[::1]/', 'Refused: [::1] is a loopback address'],
    ['http://[::ffff:127.0.0.2]/', 'Refused: [::ffff:7f00:2] is a loopback address'],
    ['http://[fd00:ec2::254]/', 'Refused: [fd00:ec2::254] is a unique-local (private) IPv6 address'],
  ])('createProject refuses %s with 400 BAD_USER_INPUT on both surfaces and GraphQL', async (url, detail) => {
    const projects = async () =>
      (await t.runtime.pool.query('SELECT count(*)::int AS n FROM project WHERE organization_id = $1', [org.id]))
        .rows[0].n;
    const before = await projects();
    const message = 'The URL points to a private, loopback or reserved address; only public sites can be analyzed.';
    const b = await t.app.inject({ method: 'POST', url: '/api/projects', headers: session(), payload: { url } });
    expect(b.statusCode).toBe(400);
    expect(b.json()).toMatchObject({
      code: 'BAD_USER_INPUT',
      error: message,
      details: [{ path: 'url', message: expect.stringContaining(detail) }],
    });
    const g = await gql(t, 'mutation($u: String!) { createProject(input: { url: $u }) { id } }', { u: url }, session());
    expect(g.body.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
    expect(await projects()).toBe(before);
  });

  it('the message is the one the free tools give for the same URL', async () => {
    const tool = await t.app.inject({
      method: 'POST',
      url: '/api/tools/meta-tags',
      payload: { url: 'http://169.254.169.254/' },
    });
    const project = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: session(),
      payload: { url: 'http://169.254.169.254/' },
    });
    expect(tool.statusCode).toBe(400);
    expect(project.json().error).toBe(tool.json().error);
  });

  it('a loopback literal is accepted only if SAFE_HTTP_ALLOW admits it; ordinary names are not resolved', async () => {
    // This app's SAFE_HTTP_ALLOW is 127.0.0.1/32.
    const allowed = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: session(),
      payload: { url: `http://127.0.0.1:9/${uniq()}` },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: session(),
      payload: { url: 'http://127.0.0.2/' },
    });
    expect(other.statusCode).toBe(400);
    // A name is stored without a lookup: one resolving to a private address fails when audited (above).
    const name = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: session(),
      payload: { url: `http://${UNRESOLVABLE}/${uniq()}` },
    });
    expect(name.statusCode).toBe(200);
  });

  it('addCompetitor refuses metadata.google.internal and the like with 400 on the domain field', async () => {
    const projectId = await newProject(`https://shop-${uniq()}.example/`);
    for (const domain of ['metadata.google.internal', 'https://instance-data.ec2.internal/', 'router.home.arpa']) {
      const r = await gql(
        t,
        'mutation($p: ID!, $d: String!) { addCompetitor(projectId: $p, domain: $d) { id } }',
        { p: projectId, d: domain },
        session(),
      );
      expect(r.body.errors?.[0], domain).toMatchObject({
        message: 'The domain points to a private, loopback or reserved address; only public sites can be analyzed.',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    const ok = await gql(
      t,
      'mutation($p: ID!, $d: String!) { addCompetitor(projectId: $p, domain: $d) { id domain } }',
      { p: projectId, d: 'rival.example' },
      session(),
    );
    expect(ok.body.errors).toBeUndefined();
  });
});
