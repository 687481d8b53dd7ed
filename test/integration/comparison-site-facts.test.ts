/**
 * Site facts compared as site facts (issue 62, part 7): a check defined with `siteFact` is one fact of the site, so
 * the comparison of two audits gives it one row, never one per URL. Issue 62 saw "Uncompressed response" listed as
 * fixed on a page whose text had shrunk below the compression threshold, though the server still did not compress.
 * Real audits of a fixture site served by a test server that compresses or not: the fact persists while the server
 * does not compress, whatever pages carry it; it is fixed once when compression is turned on, and new once when it
 * is turned off again.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { CHECK_CATALOG } from '../../src/seo/checks/index.js';
import { CHECK_THRESHOLDS } from '../../src/seo/checks/check-thresholds.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let origin = '';
const host = `site-facts-${uniq()}.test`;

const COMPRESSION = 'PERF_NO_COMPRESSION';
const THRESHOLD = CHECK_THRESHOLDS.compressionMinBytes;

/** What the test server answers: each path's body, and whether it gzips responses for clients that accept it. */
let site: { pages: Record<string, string>; gzip: boolean } = { pages: {}, gzip: false };

/** An HTML page whose body is about `bytes` long (text of that many characters, in ASCII). */
const page = (name: string, bytes: number) => {
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site facts fixture, page ${name}</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>' +
    `<h1>Page ${name}</h1><a href="/">Home</a> <a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a><p>`;
  const tail = '</p></body></html>';
  const words = `Words of page ${name} of the site facts fixture. `;
  return head + words.repeat(Math.max(1, Math.ceil((bytes - head.length - tail.length) / words.length))) + tail;
};
const WIDE = THRESHOLD * 3;
const SHRUNK = Math.floor(THRESHOLD / 3);
/** Every page well over the compression threshold. */
const BEFORE = { '/': page('home', WIDE), '/a': page('A', WIDE), '/b': page('B', WIDE), '/c': page('C', WIDE) };
/** /b's text shrank below the threshold: it is too small to be judged; the others still are. */
const SHRANK = { ...BEFORE, '/b': page('B', SHRUNK) };

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  client = createConfiguredSafeHttpClient(t.config);
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const body = site.pages[req.url ?? ''];
    if (body === undefined) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (site.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.setHeader('content-encoding', 'gzip');
      return res.end(gzipSync(body));
    }
    res.end(body);
  });
  const port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
  origin = `http://${host}:${port}`;
}, 60_000);
afterAll(async () => {
  await client?.close();
  await new Promise((r) => server.close(r));
  await t?.close();
});

/** Audits the project as the worker does; the audit's id and the URLs each code occurred on. */
async function runAudit(projectId: string): Promise<{ id: string; urlsOf: (code: string) => string[] }> {
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
    { p: projectId },
    { cookie: org.owner.cookie, origin: t.config.baseUrl },
  );
  const id = started.body.data.startAudit.auditId as string;
  const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
  expect(await runner.run(id)).toBe('completed');
  const { rows } = await t.runtime.pool.query<{ code: string; url: string }>(
    'SELECT DISTINCT code, url FROM issue_occurrence WHERE audit_id = $1 ORDER BY code, url',
    [id],
  );
  return { id, urlsOf: (code) => rows.filter((r) => r.code === code).map((r) => r.url.slice(origin.length)) };
}

const TABS = ['NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED', 'PERSISTING'] as const;
type Tab = (typeof TABS)[number];
const TOTAL: Record<Tab, string> = {
  NEW: 'newIssues',
  FIXED: 'fixedIssues',
  GONE: 'goneIssues',
  NOT_CHECKED: 'notCheckedIssues',
  NEWLY_CHECKED: 'newlyCheckedIssues',
  PERSISTING: 'persistingIssues',
};
const URLS: Record<Tab, string> = {
  NEW: 'newUrls',
  FIXED: 'fixedUrls',
  GONE: 'goneUrls',
  NOT_CHECKED: 'notCheckedUrls',
  NEWLY_CHECKED: 'newlyCheckedUrls',
  PERSISTING: 'persistingUrls',
};
const COMPARISON = `query($p: ID!, $b: ID, $h: ID, $u: String!) { auditComparison(projectId: $p, base: $b, head: $h) {
  totals { newIssues fixedIssues goneIssues notCheckedIssues newlyCheckedIssues persistingIssues }
  codes { code siteFact newUrls fixedUrls goneUrls notCheckedUrls newlyCheckedUrls persistingUrls }
  ${TABS.map((tab) => `${tab}: issues(change: ${tab}, first: 100) { totalCount nodes { code url } }`).join('\n  ')}
  url(url: $u) { issues { code change siteFact } }
} }`;

type Node = { code: string; url: string };

/** The comparison of two audits, with its counts checked against its rows; `shrunk`: one URL's before and after. */
async function compare(projectId: string, base: string, head: string, shrunk = '/b') {
  const res = await gql(
    t,
    COMPARISON,
    { p: projectId, b: base, h: head, u: `${origin}${shrunk}` },
    { cookie: org.owner.cookie },
  );
  expect(res.body.errors).toBeUndefined();
  const c = res.body.data.auditComparison;
  for (const tab of TABS) {
    expect(c[tab].nodes).toHaveLength(c.totals[TOTAL[tab]]);
    expect(c[tab].totalCount).toBe(c.totals[TOTAL[tab]]);
    expect(c.codes.reduce((n: number, r: Record<string, number>) => n + r[URLS[tab]], 0)).toBe(c.totals[TOTAL[tab]]);
  }
  /** The rows of one code in a tab, by path. */
  const rows = (tab: Tab, code: string) =>
    (c[tab].nodes as Node[]).filter((n) => n.code === code).map((n) => n.url.slice(origin.length));
  const counts = (code: string) => c.codes.find((r: { code: string }) => r.code === code) ?? null;
  const onUrl = (code: string) =>
    (c.url?.issues as { code: string; change: string; siteFact: boolean }[] | undefined)?.filter(
      (i) => i.code === code,
    ) ?? [];
  return { c, rows, counts, onUrl };
}

describe('a site fact in the comparison of two audits', () => {
  it("is one of the catalog's site facts (the premise)", () => {
    expect(CHECK_CATALOG.find((c) => c.code === COMPRESSION)?.siteFact).toBe(true);
    expect(CHECK_CATALOG.find((c) => c.code === 'TECH_HTTP_PAGE')?.siteFact).toBe(true);
  });

  // Persists while the server does not compress, though a page shrank below the threshold; fixed once when it
  // compresses; new once when it stops.
  it('persists while the server does not compress; fixed once when it does; new once when it stops', async () => {
    const { id: projectId } = await aProject({ org, url: `${origin}/` });
    site = { pages: BEFORE, gzip: false };
    const first = await runAudit(projectId);
    site = { pages: SHRANK, gzip: false };
    const second = await runAudit(projectId);
    site = { pages: SHRANK, gzip: true };
    const third = await runAudit(projectId);

    // The premise: uncompressed, every page carries the fact; after /b shrank, every page but /b; compressed, none.
    expect(first.urlsOf(COMPRESSION)).toEqual(['/', '/a', '/b', '/c']);
    expect(second.urlsOf(COMPRESSION)).toEqual(['/', '/a', '/c']);
    expect(third.urlsOf(COMPRESSION)).toEqual([]);
    // Over http both ways: "No HTTPS", another site fact, on every page of every audit.
    expect(third.urlsOf('TECH_HTTP_PAGE')).toEqual(['/', '/a', '/b', '/c']);

    // The server still does not compress: one persisting row for the site, nothing fixed, on /b neither.
    const shrank = await compare(projectId, first.id, second.id);
    expect(shrank.rows('PERSISTING', COMPRESSION)).toEqual(['/']);
    for (const tab of ['NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED'] as const)
      expect(shrank.rows(tab, COMPRESSION)).toEqual([]);
    expect(shrank.counts(COMPRESSION)).toMatchObject({
      siteFact: true,
      persistingUrls: 1,
      fixedUrls: 0,
      newUrls: 0,
      goneUrls: 0,
    });
    // A page check is not (the fixture's pages have no meta description).
    expect(shrank.counts('META_DESCRIPTION_MISSING')).toMatchObject({ siteFact: false, persistingUrls: 4 });
    // /b, which no longer carries it, shows what became of it on the site, said to be the site's.
    expect(shrank.onUrl(COMPRESSION)).toEqual([{ code: COMPRESSION, change: 'PERSISTING', siteFact: true }]);
    expect(shrank.rows('PERSISTING', 'TECH_HTTP_PAGE')).toEqual(['/']);
    expect(shrank.c.FIXED.nodes).toEqual([]);
    // REST says the same, with the flag.
    const rest = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/audit/compare?base=${first.id}&head=${second.id}`,
      headers: { cookie: org.owner.cookie },
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().comparison.codes.find((r: { code: string }) => r.code === COMPRESSION)).toMatchObject({
      siteFact: true,
      persistingUrls: 1,
      fixedUrls: 0,
    });

    // Compression turned on: fixed, once, at the first URL that carried it; no longer persisting.
    const compressed = await compare(projectId, second.id, third.id);
    expect(compressed.rows('FIXED', COMPRESSION)).toEqual(['/']);
    expect(compressed.counts(COMPRESSION)).toMatchObject({ fixedUrls: 1, persistingUrls: 0, goneUrls: 0 });
    expect(compressed.rows('PERSISTING', COMPRESSION)).toEqual([]);
    expect(compressed.c.totals.fixedIssues).toBe(1);
    // "No HTTPS" still holds: one persisting row, not one per page.
    expect(compressed.rows('PERSISTING', 'TECH_HTTP_PAGE')).toEqual(['/']);
    expect(compressed.counts('TECH_HTTP_PAGE')).toMatchObject({ persistingUrls: 1 });

    // The other way round (compression turned off): new, once, at the first URL that carries it.
    const uncompressed = await compare(projectId, third.id, second.id);
    expect(uncompressed.rows('NEW', COMPRESSION)).toEqual(['/']);
    expect(uncompressed.counts(COMPRESSION)).toMatchObject({ newUrls: 1, persistingUrls: 0 });
  }, 120_000);
});
