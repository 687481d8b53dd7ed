/**
 * Extracted values compared between audits: a local site audited twice with a CSS extractor and a search, whose
 * values change between the audits on some pages (changed, appeared, disappeared, a search flipped), and a page only
 * the head audit crawled (never counted). AuditComparison.extractions counts per extractor, extractionPages lists
 * the URLs with the value before and after (paged), bad keys and cursors are refused, another organization gets
 * NOT_FOUND.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let port = 0;
let projectId = '';
const host = `extraction-compare-${uniq()}.test`;
const origin = () => `http://${host}:${port}`;

/** The site as each audit sees it: round 0 (base) then round 1 (head). Page 4 exists in round 1 only. */
let round = 0;
const PRICES = [
  ['10.00', '20.00', '30.00', '', ''],
  ['10.00', '25.00', '', '40.00', '99.00'],
];
/** The page that says "SALE" in each round. */
const SALE = [1, 0];

beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  client = createConfiguredSafeHttpClient(t.config);
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const last = round === 0 ? 3 : 4;
    const n = req.url === '/' ? 0 : Number(/^\/p\/(\d)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n > last) return res.writeHead(404).end('not found');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const price = PRICES[round][n];
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product ${n}</title></head><body>` +
        `<h1>Product ${n}</h1>${price ? `<span class="price">${price}</span>` : ''}` +
        `${SALE[round] === n ? '<p>SALE today</p>' : ''}` +
        `<a href="${n === last ? '/' : `/p/${n + 1}`}">Next product</a></body></html>`,
    );
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
  ({ id: projectId } = await aProject({ org, url: `${origin()}/` }));
  const add = 'mutation($p: ID!, $i: CustomExtractorInput!) { addExtractor(projectId: $p, input: $i) { id } }';
  for (const i of [
    { name: 'Price', kind: 'CSS', expression: 'span.price' },
    { name: 'On sale', kind: 'CONTAINS', expression: 'SALE' },
  ]) {
    const res = await gql(t, add, { p: projectId, i }, { cookie: org.owner.cookie });
    expect(res.body.errors).toBeUndefined();
  }
  const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
  for (const r of [0, 1]) {
    round = r;
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
      { p: projectId },
      { cookie: org.owner.cookie, origin: t.config.baseUrl },
    );
    expect(await runner.run(started.body.data.startAudit.auditId as string)).toBe('completed');
  }
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
  await t.close();
});

const COMPARE = `query($p: ID!, $k: String!, $c: [ExtractionChange!], $f: Int, $a: String) {
  auditComparison(projectId: $p) {
    extractions { key name kind column inBase inHead changed appeared disappeared }
    extractionPages(key: $k, changes: $c, first: $f, after: $a) {
      totalCount pageInfo { hasNextPage endCursor } nodes { url change before after }
    }
  }
}`;
const ask = (variables: Record<string, unknown>, cookie = org.owner.cookie): Promise<any> =>
  gql(t, COMPARE, { p: projectId, ...variables }, { cookie }).then((r) => r.body);

describe('extracted values between audits', () => {
  it('counts per extractor the URLs whose value changed, appeared or disappeared', async () => {
    const body = await ask({ k: 'price' });
    expect(body.errors).toBeUndefined();
    const c = body.data.auditComparison;
    expect(c.extractions).toEqual([
      {
        key: 'price',
        name: 'Price',
        kind: 'CSS',
        column: 'extract.price',
        inBase: true,
        inHead: true,
        changed: 1,
        appeared: 1,
        disappeared: 1,
      },
      {
        key: 'on_sale',
        name: 'On sale',
        kind: 'CONTAINS',
        column: 'search.on_sale',
        inBase: true,
        inHead: true,
        changed: 2,
        appeared: 0,
        disappeared: 0,
      },
    ]);
    // Base first, head second: swapped, every before/after and APPEARED/DISAPPEARED would be the other way round.
    // /p/4 (head only) is no change of a value: it is an added page.
    expect(c.extractionPages).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
      nodes: [
        { url: `${origin()}/p/1`, change: 'CHANGED', before: '20.00', after: '25.00' },
        { url: `${origin()}/p/2`, change: 'DISAPPEARED', before: '30.00', after: null },
        { url: `${origin()}/p/3`, change: 'APPEARED', before: null, after: '40.00' },
      ],
    });
    const sale = await ask({ k: 'on_sale' });
    expect(sale.data.auditComparison.extractionPages.nodes).toEqual([
      { url: `${origin()}/`, change: 'CHANGED', before: 'no', after: 'yes' },
      { url: `${origin()}/p/1`, change: 'CHANGED', before: 'yes', after: 'no' },
    ]);
  });

  it('pages with a cursor and filters by change', async () => {
    const first = await ask({ k: 'price', f: 2 });
    const page1 = first.data.auditComparison.extractionPages;
    expect(page1.nodes.map((n: { url: string }) => n.url)).toEqual([`${origin()}/p/1`, `${origin()}/p/2`]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const next = await ask({ k: 'price', f: 2, a: page1.pageInfo.endCursor });
    expect(next.data.auditComparison.extractionPages.nodes.map((n: { url: string }) => n.url)).toEqual([
      `${origin()}/p/3`,
    ]);
    const appeared = await ask({ k: 'price', c: ['APPEARED'] });
    expect(appeared.data.auditComparison.extractionPages).toMatchObject({
      totalCount: 1,
      nodes: [{ url: `${origin()}/p/3`, change: 'APPEARED' }],
    });
    // A cursor of another filter is refused, not misread.
    const mixed = await ask({ k: 'price', c: ['APPEARED'], a: page1.pageInfo.endCursor });
    expect(mixed.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a key neither audit ran and bad sizes; another organization gets NOT_FOUND', async () => {
    const unknown = await ask({ k: 'nope' });
    expect(unknown.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(unknown.errors[0].message).toContain('nope');
    const big = await ask({ k: 'price', f: 501 });
    expect(big.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    const foreign = await ask({ k: 'price' }, other.owner.cookie);
    expect(foreign.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(foreign.data).toBeNull();
  });
});
