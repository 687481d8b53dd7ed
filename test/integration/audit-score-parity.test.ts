/**
 * One scoring path (issue 18, point 4): `seo audit` and the server audit the same site to the same numbers. The CLI
 * runs as a process (`seo audit --json`, in-thread parsing); the server path is a real audit worker process (page
 * parsing on its thread pool, results through PostgreSQL) read back over GraphQL. Every score, the page counts and
 * every issue's affected and applicable pages must be equal. The site is larger than the page budget, with links in
 * an order that responses arriving in any order must not change (the crawl goes in sorted breadth-first waves).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const PAGES = 60;
const MAX_PAGES = 40;

/** A site with issues of many kinds and no timing in it: every response is immediate, in random order. */
async function paritySite(closedPort: number) {
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const origin = `http://${req.headers.host}`;
    // Responses leave in a random order: the crawl's result must not depend on it.
    setTimeout(
      () => {
        if (path === '/robots.txt')
          return res.end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
        if (path === '/sitemap.xml') {
          res.setHeader('content-type', 'application/xml');
          const urls = ['/', '/p/3', '/orphan', '/private/x']
            .map((p) => `<url><loc>${origin}${p}</loc></url>`)
            .join('');
          return res.end(
            `<?xml version="1.0" encoding="UTF-8"?><urlset ` +
              `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
          );
        }
        if (path === '/moved') {
          res.statusCode = 301;
          res.setHeader('location', '/p/1');
          return res.end();
        }
        if (path === '/loop-a' || path === '/loop-b') {
          res.statusCode = 302;
          res.setHeader('location', path === '/loop-a' ? '/loop-b' : '/loop-a');
          return res.end();
        }
        const m = /^\/(?:p\/([1-9]\d*)|orphan)?$/.exec(path);
        const n = path === '/orphan' ? 999 : m ? Number(m[1] ?? 0) : -1;
        if (n < 0 || (n >= PAGES && n !== 999)) {
          res.statusCode = 404;
          return res.end('not found');
        }
        const href = (k: number) => (k % PAGES === 0 ? '/' : `/p/${k % PAGES}`);
        const links = [n + 1, 2 * n + 1, 2 * n + 2].map((k) => `<a href="${href(k)}">Page ${k % PAGES}</a>`);
        if (n % 10 === 0) links.push('<a href="/missing">Gone</a>');
        if (n % 15 === 0) links.push('<a href="/loop-a">Loop</a>');
        if (n % 20 === 0) links.push(`<a href="http://down.test:${closedPort}/">Down</a>`);
        if (n % 8 === 0) links.push('<a href="/private/secret">Private</a>');
        if (n % 9 === 0) links.push('<a href="/moved">Moved</a>');
        const title =
          n % 7 === 0
            ? ''
            : n % 5 === 0
              ? '<title>The same title on several pages of this site</title>'
              : `<title>Page number ${n} of the parity fixture site</title>`;
        const description =
          n % 3 === 0
            ? ''
            : `<meta name="description" content="Page ${n} of the parity fixture: a description long enough ` +
              `for the length check to pass.">`;
        const words = 'word '.repeat(n % 4 === 0 ? 40 : 260);
        const image = n % 6 === 0 ? '<img src="/img.png" width="10" height="10">' : '';
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><html lang="en"><head>${title}${description}<meta name="viewport" ` +
            `content="width=device-width, ` +
            `initial-scale=1"></head><body><h1>Page ${n}</h1>${image}<p>${words}</p>${links.join(' ')}</b` +
            `ody></html>`,
        );
      },
      Math.floor(Math.random() * 15),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const host = `parity-${uniq()}.test`;
let t: TestApp;
let env: Record<string, string>;
let org: Org;
let key: string;

beforeAll(async () => {
  env = {
    REDIS_PREFIX: `parity-${uniq()}`,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1,down.test=127.0.0.1`,
    WORKER_CONCURRENCY: '1',
  };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
});
afterAll(() => t?.close());

describe('seo audit and the server compute the same scores over the same facts', () => {
  it('every score, page count and issue count agrees between the CLI and the worker', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const site = await paritySite(closedPort);
    const url = `http://${host}:${site.port}/`;
    const worker = startWorker('audit.worker', env);
    try {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', url, '--max-pages', String(MAX_PAGES), '--json'],
        {
          cwd: root,
          env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
        },
      );
      const cli = JSON.parse(stdout);

      const created = await gql(
        t,
        'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
        { u: url },
        { cookie: org.owner.cookie },
      );
      const projectId = created.body.data.createProject.id;
      const settings = await gql(
        t,
        'mutation($id: ID!, $n: Int!) { updateProject(id: $id, input: { settings: { maxPages: $n } }) { id } }',
        { id: projectId, n: MAX_PAGES },
        { cookie: org.owner.cookie },
      );
      expect(settings.body.errors).toBeUndefined();
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: { authorization: `Bearer ${key}` },
      });
      const { auditId } = started.json();
      await waitFor('the server audit to complete', async () => {
        const row = (await t.runtime.pool.query('SELECT status FROM audit WHERE id = $1', [auditId])).rows[0];
        if (row?.status === 'FAILED') throw new Error(`audit failed\n${worker.output.join('')}`);
        return row?.status === 'COMPLETED';
      });
      const g = await gql(
        t,
        `query($p: ID!) { audit(projectId: $p) { status pagesCrawled pagesFailed overallScore metaScore ` +
          `contentScore linksScore technicalScore performanceScore
           scoreBreakdown { health htmlPages pagesWithCritical checksApplied checksPassed labPerformance cappedFrom
             blockers indexability { indexable noindex canonicalOtherHost canonicalSameHost }
             costs { code category severity scope affectedPages points fixes { count places listed { cause pages } } } }
           counts { urlsCrawled htmlPages indexablePages externalLinks { found checked couldNotCheck notTried
             refusedByPolicy addressCap noAnswer overCap outOfTime noNetwork fromCache pending workerStopped }
             resources { found checked } labPages { measured eligible } links { found read notRead pagesOverCap } }
           issues { code affectedPages applicablePages } } }`,
        { p: projectId },
        { authorization: `Bearer ${key}` },
      );
      const server = g.body.data.audit;

      expect(cli.status).toBe('COMPLETED');
      expect(cli.pagesCrawled).toBe(MAX_PAGES);
      expect({ pagesCrawled: server.pagesCrawled, pagesFailed: server.pagesFailed }).toEqual({
        pagesCrawled: cli.pagesCrawled,
        pagesFailed: cli.pagesFailed,
      });
      expect({
        overall: server.overallScore,
        meta: server.metaScore,
        content: server.contentScore,
        links: server.linksScore,
        technical: server.technicalScore,
        performance: server.performanceScore,
      }).toEqual(cli.scores);
      // Why: the same breakdown, stored with the scores and read back over GraphQL (GraphQL says "no fixes" as null).
      const costs = server.scoreBreakdown.costs.map(({ fixes, ...cost }: { fixes: unknown }) =>
        fixes === null ? cost : { ...cost, fixes },
      );
      expect({ ...server.scoreBreakdown, costs }).toEqual(cli.scoreBreakdown);
      // A fix-grouped issue is charged by its fixes: the broken targets, each with the pages linking to it.
      expect(costs.find((c: { code: string }) => c.code === 'LINKS_INTERNAL_BROKEN')).toMatchObject({
        fixes: { count: 2, listed: [{ pages: 4 }, { pages: 3 }] },
      });
      // The counts every surface shows: the same record from the same engine.
      expect(server.counts).toEqual(cli.counts);
      expect(server.scoreBreakdown.costs.length).toBeGreaterThan(0);
      const counts = (issues: { code: string; affectedPages: number; applicablePages: number }[]) =>
        Object.fromEntries(issues.map((i) => [i.code, [i.affectedPages, i.applicablePages]]).sort());
      expect(counts(server.issues)).toEqual(counts(cli.issues));
      // The fixture is built to trip these: the comparison covers a real spread of checks, not an empty list.
      expect(Object.keys(counts(cli.issues))).toEqual(
        expect.arrayContaining([
          'META_TITLE_MISSING',
          'META_TITLE_DUPLICATE',
          'CONTENT_THIN',
          'LINKS_INTERNAL_BROKEN',
          'LINKS_DEPTH_HIGH',
          'PAGE_FETCH_FAILED',
        ]),
      );
      // The fixes and the failing URLs charged as a fix, the same on REST as on GraphQL.
      const rest = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/audit?auditId=${auditId}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(rest.statusCode).toBe(200);
      type RestIssue = { code: string; fixes: { count: number; summary: string } | null; chargedElsewhere: number };
      const restIssues: RestIssue[] = rest.json().audit.issues;
      const broken = restIssues.find((i) => i.code === 'LINKS_INTERNAL_BROKEN');
      expect(broken?.fixes).toMatchObject({ count: 2, summary: '2 targets, the widest linked from 4 pages' });
      expect(restIssues.find((i) => i.code === 'META_TITLE_MISSING')?.fixes).toBeNull();
      expect(restIssues.find((i) => i.code === 'TECH_STATUS_4XX')?.chargedElsewhere).toBeGreaterThan(0);

      // Every external link checked, said as N of M: the down host's refused connection is a verdict.
      expect(server.counts.externalLinks).toMatchObject({ found: 1, checked: 1, notTried: 0, fromCache: 0 });

      // The project's next audit within the day reuses that verdict (the worker's cache, per project).
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/audit`,
        headers: { authorization: `Bearer ${key}` },
      });
      const second = again.json().auditId;
      await waitFor('the second server audit to complete', async () => {
        const row = (await t.runtime.pool.query('SELECT status FROM audit WHERE id = $1', [second])).rows[0];
        if (row?.status === 'FAILED') throw new Error(`audit failed\n${worker.output.join('')}`);
        return row?.status === 'COMPLETED';
      });
      const g2 = await gql(
        t,
        'query($p: ID!) { audit(projectId: $p) { id counts { externalLinks { found checked fromCache } } } }',
        { p: projectId },
        { authorization: `Bearer ${key}` },
      );
      expect(g2.body.data.audit.id).toBe(second);
      expect(g2.body.data.audit.counts.externalLinks).toEqual({ found: 1, checked: 1, fromCache: 1 });
    } finally {
      await worker.stop();
      await site.close();
    }
  }, 120_000);
});
