/**
 * Custom extraction and search (issue 50 item 5): Project.extractors with add/update/delete (validation with the
 * reason, unique names, at most 20, tenant isolation), then an audit of a small local site with CSS, XPath, regex
 * and search extractors: the values stored per page, shown as URL table columns that filter, sort and export.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditJobRunner } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient, type SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let client: SafeHttpClient;
let server: http.Server;
let port = 0;
const host = `extraction-${uniq()}.test`;

const PRICES = ['19.90', '5.00', '120.00', ''];

/** Four product pages in a ring: a price (none on page 3), an author, tags, and a tracking snippet on odd pages. */
beforeAll(async () => {
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  client = createConfiguredSafeHttpClient(t.config);
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
    const n = req.url === '/' ? 0 : Number(/^\/p\/(\d)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n > 3) return res.writeHead(404).end('not found');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const price = PRICES[n] ? `<span class="price" data-currency="EUR">${PRICES[n]}</span>` : '';
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product ${n}</title>` +
        `<meta name="author" content="Author ${n}"></head><body><h1>Product <em>${n}</em></h1>${price}` +
        `<ul class="tags"><li>t${n}a</li><li>t${n}b</li></ul>` +
        `${n % 2 ? '<script>gtag("config", "G-1")</script>' : ''}<p>SKU-${100 + n}</p>` +
        `<a href="${n === 3 ? '/' : `/p/${n + 1}`}">Next product</a></body></html>`,
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

const FIELDS = 'id key column name kind expression output attribute match regex ignoreCase';
const LIST = `query($id: ID!) { project(id: $id) { extractors { ${FIELDS} } } }`;
const ADD = `mutation($p: ID!, $i: CustomExtractorInput!) { addExtractor(projectId: $p, input: $i) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $i: CustomExtractorInput!) { updateExtractor(id: $id, input: $i) { ${FIELDS} } }`;
const DELETE = `mutation($id: ID!) { deleteExtractor(id: $id) { id } }`;

type Errors = { message: string; extensions?: { code?: string; details?: { path: string }[] } }[] | undefined;
const add = async (projectId: string, input: Record<string, unknown>, cookie = org.owner.cookie) => {
  const res = await gql(t, ADD, { p: projectId, i: input }, { cookie });
  return { errors: res.body.errors as Errors, extractor: res.body.data?.addExtractor };
};

describe('extractors through GraphQL', () => {
  it('adds, lists, updates and deletes; the key stays when renamed', async () => {
    const { id } = await aProject({ org });
    const { extractor, errors } = await add(id, {
      name: 'Price (EUR)',
      kind: 'CSS',
      expression: '.price',
      output: 'ATTRIBUTE',
      attribute: 'Data-Currency',
    });
    expect(errors).toBeUndefined();
    expect(extractor).toMatchObject({
      key: 'price_eur',
      column: 'extract.price_eur',
      output: 'ATTRIBUTE',
      attribute: 'data-currency',
      match: 'FIRST',
    });
    const search = await add(id, { name: 'Has gtag', kind: 'NOT_CONTAINS', expression: 'gtag\\(', regex: true });
    expect(search.extractor).toMatchObject({ key: 'has_gtag', column: 'search.has_gtag', regex: true });
    const renamed = await gql(
      t,
      UPDATE,
      { id: extractor.id, i: { name: 'Currency', kind: 'XPATH', expression: '//span/@data-currency', match: 'ALL' } },
      { cookie: org.owner.cookie },
    );
    expect(renamed.body.data.updateExtractor).toMatchObject({ key: 'price_eur', name: 'Currency', kind: 'XPATH' });
    const list = await gql(t, LIST, { id }, { cookie: org.owner.cookie });
    expect(list.body.data.project.extractors.map((e: { name: string }) => e.name)).toEqual(['Currency', 'Has gtag']);
    const deleted = await gql(t, DELETE, { id: extractor.id }, { cookie: org.owner.cookie });
    expect(deleted.body.data.deleteExtractor.id).toBe(extractor.id);
    const after = await gql(t, LIST, { id }, { cookie: org.owner.cookie });
    expect(after.body.data.project.extractors).toHaveLength(1);
  });

  it.each([
    [{ kind: 'CSS', expression: 'div[' }, 'expression', /^Invalid CSS selector/],
    [{ kind: 'XPATH', expression: '//div[@class=' }, 'expression', /^Invalid XPath/],
    [{ kind: 'REGEX', expression: '(a' }, 'expression', /^Invalid regular expression/],
    [{ kind: 'CONTAINS', expression: '[x', regex: true }, 'expression', /^Invalid regular expression/],
    [{ kind: 'REGEX', expression: '(a+)+$' }, 'expression', /^Unsafe regular expression: nested quantifiers/],
    [
      { kind: 'CONTAINS', expression: '(a|ab)*c', regex: true },
      'expression',
      /^Unsafe regular expression: a repeated group whose alternatives/,
    ],
    [{ kind: 'CSS', expression: 'a', output: 'ATTRIBUTE' }, 'attribute', /attribute/],
    [{ kind: 'CSS', expression: '' }, 'expression', /empty/],
  ])('refuses %o at save with the reason', async (input, path, reason) => {
    const { id } = await aProject({ org });
    const { errors } = await add(id, { name: 'Bad', ...input });
    expect(errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(errors?.[0].message).toMatch(reason);
    expect(errors?.[0].extensions?.details?.[0].path).toBe(path);
    const list = await gql(t, LIST, { id }, { cookie: org.owner.cookie });
    expect(list.body.data.project.extractors).toEqual([]);
  });

  it('refuses a second extractor of the same name (any case) and a 21st', async () => {
    const { id } = await aProject({ org });
    expect((await add(id, { name: 'Author', kind: 'CSS', expression: 'meta' })).errors).toBeUndefined();
    const twin = await add(id, { name: 'AUTHOR', kind: 'CSS', expression: 'h1' });
    expect(twin.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(twin.errors?.[0].message).toMatch(/name/);
    for (let i = 2; i <= 20; i++)
      expect((await add(id, { name: `E${i}`, kind: 'REGEX', expression: `x${i}` })).errors).toBeUndefined();
    const over = await add(id, { name: 'E21', kind: 'REGEX', expression: 'x' });
    expect(over.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(over.errors?.[0].message).toMatch(/at most 20/);
  });

  it("another organization's project or extractor is NOT_FOUND; a read-only key is FORBIDDEN", async () => {
    const { id } = await aProject({ org });
    const { extractor } = await add(id, { name: 'H1', kind: 'CSS', expression: 'h1' });
    const other = await anOrg(t, { plan: 'ENTERPRISE' });
    expect(
      (await add(id, { name: 'X', kind: 'CSS', expression: 'p' }, other.owner.cookie)).errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
    const update = await gql(
      t,
      UPDATE,
      { id: extractor.id, i: { name: 'X', kind: 'CSS', expression: 'p' } },
      { cookie: other.owner.cookie },
    );
    expect(update.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const del = await gql(t, DELETE, { id: extractor.id }, { cookie: other.owner.cookie });
    expect(del.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const read = await gql(t, LIST, { id }, { cookie: other.owner.cookie });
    expect(read.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const proOrg = await anOrg(t, { plan: 'PRO' });
    const proProject = await aProject({ org: proOrg });
    const key = await anApiKey(proOrg);
    const viaKey = await gql(
      t,
      ADD,
      { p: proProject.id, i: { name: 'X', kind: 'CSS', expression: 'p' } },
      { authorization: `Bearer ${key}` },
    );
    expect(viaKey.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const list = await gql(t, LIST, { id }, { cookie: org.owner.cookie });
    expect(list.body.data.project.extractors.map((e: { name: string }) => e.name)).toEqual(['H1']);
  });
});

describe('an audit with extractors', () => {
  let projectId = '';
  let auditId = '';
  const TABLE = `query($p: ID!, $a: ID, $columns: [String!], $sort: UrlTableSortInput, $filter: UrlTableFilterInput) {
    audit(projectId: $p, auditId: $a) { urlTable(first: 100, columns: $columns, sort: $sort, filter: $filter) {
      columns { key type } rows { url values } totalCount } } }`;
  const table = async (vars: Record<string, unknown>) => {
    const res = await gql(t, TABLE, { p: projectId, a: auditId, ...vars }, { cookie: org.owner.cookie });
    return { errors: res.body.errors as Errors, table: res.body.data?.audit?.urlTable };
  };
  const COLUMNS = [
    'url',
    'extract.price',
    'extract.currency',
    'extract.tags',
    'extract.heading',
    'extract.sku',
    'search.has_gtag',
    'search.no_gtag',
  ];
  const origin = () => `http://${host}:${port}`;

  beforeAll(async () => {
    ({ id: projectId } = await aProject({ org, url: `${origin()}/` }));
    const inputs = [
      { name: 'Price', kind: 'CSS', expression: 'span.price' },
      {
        name: 'Currency',
        kind: 'XPATH',
        expression: "//span[@class='price']",
        output: 'ATTRIBUTE',
        attribute: 'data-currency',
      },
      { name: 'Tags', kind: 'CSS', expression: 'ul.tags li', match: 'ALL' },
      { name: 'Heading', kind: 'XPATH', expression: '//h1', output: 'INNER_HTML' },
      { name: 'SKU', kind: 'REGEX', expression: 'SKU-(\\d+)' },
      { name: 'Has gtag', kind: 'CONTAINS', expression: 'gtag(' },
      { name: 'No gtag', kind: 'NOT_CONTAINS', expression: 'GTAG\\(', regex: true, ignoreCase: true },
    ];
    for (const input of inputs) expect((await add(projectId, input)).errors).toBeUndefined();
    const started = await gql(
      t,
      'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
      { p: projectId },
      { cookie: org.owner.cookie, origin: t.config.baseUrl },
    );
    auditId = started.body.data.startAudit.auditId as string;
    const runner = new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger);
    expect(await runner.run(auditId)).toBe('completed');
  });

  it('stores each page’s values and shows them as columns', async () => {
    const { rows } = await t.runtime.pool.query(
      'SELECT url, extraction FROM audit_page WHERE audit_id = $1 ORDER BY url',
      [auditId],
    );
    expect(rows).toHaveLength(4);
    expect(rows[0].extraction).toEqual({
      price: ['19.90'],
      currency: ['EUR'],
      tags: ['t0a', 't0b'],
      heading: ['Product <em>0</em>'],
      sku: ['100'],
      has_gtag: false,
      no_gtag: true,
    });
    const { errors, table: shown } = await table({ columns: COLUMNS, sort: { field: 'url', direction: 'ASC' } });
    expect(errors).toBeUndefined();
    expect(shown.columns.map((c: { key: string; type: string }) => `${c.key}:${c.type}`)).toEqual([
      'url:text',
      'extract.price:text',
      'extract.currency:text',
      'extract.tags:text',
      'extract.heading:text',
      'extract.sku:text',
      'search.has_gtag:bool',
      'search.no_gtag:bool',
    ]);
    expect(shown.rows.map((r: { values: unknown[] }) => r.values)).toEqual([
      [`${origin()}/`, '19.90', 'EUR', 't0a | t0b', 'Product <em>0</em>', '100', false, true],
      [`${origin()}/p/1`, '5.00', 'EUR', 't1a | t1b', 'Product <em>1</em>', '101', true, false],
      [`${origin()}/p/2`, '120.00', 'EUR', 't2a | t2b', 'Product <em>2</em>', '102', false, true],
      [`${origin()}/p/3`, null, null, 't3a | t3b', 'Product <em>3</em>', '103', true, false],
    ]);
    const fields = await gql(
      t,
      'query($a: ID) { urlTableFields(auditId: $a) { key } }',
      { a: auditId },
      {
        cookie: org.owner.cookie,
      },
    );
    const keys = fields.body.data.urlTableFields.map((f: { key: string }) => f.key);
    expect(keys).toEqual(expect.arrayContaining(COLUMNS));
  });

  it('filters and sorts on extractor columns', async () => {
    const sorted = await table({ columns: ['url', 'extract.sku'], sort: { field: 'extract.sku', direction: 'DESC' } });
    expect(sorted.table.rows.map((r: { values: unknown[] }) => r.values[1])).toEqual(['103', '102', '101', '100']);
    const withGtag = await table({
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'search.has_gtag', operator: 'eq', value: 'true' }] }] },
    });
    expect(withGtag.table.rows.map((r: { url: string }) => r.url)).toEqual([`${origin()}/p/1`, `${origin()}/p/3`]);
    const noPrice = await table({
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'extract.price', operator: 'is_empty' }] }] },
    });
    expect(noPrice.table.totalCount).toBe(1);
    const tags = await table({
      columns: ['url'],
      filter: { groups: [{ conditions: [{ field: 'extract.tags', operator: 'contains', value: 't2b' }] }] },
    });
    expect(tags.table.rows.map((r: { url: string }) => r.url)).toEqual([`${origin()}/p/2`]);
    const unknown = await table({ columns: ['extract.nope'] });
    expect(unknown.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('exports the extractor columns as shown', async () => {
    const key = await anApiKey(org);
    const query = new URLSearchParams({
      auditId,
      columns: 'url,extract.tags,search.has_gtag',
      sort: 'extract.sku:asc',
      format: 'csv',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/audit/urls/export?${query}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('URL,Tags,Has gtag');
    expect(lines.slice(1)).toEqual([
      `${origin()}/,t0a | t0b,false`,
      `${origin()}/p/1,t1a | t1b,true`,
      `${origin()}/p/2,t2a | t2b,false`,
      `${origin()}/p/3,t3a | t3b,true`,
    ]);
  });

  it('records the extractors the audit ran', async () => {
    const { rows } = await t.runtime.pool.query('SELECT extractors FROM audit WHERE id = $1', [auditId]);
    expect(rows[0].extractors.map((e: { key: string }) => e.key)).toEqual([
      'price',
      'currency',
      'tags',
      'heading',
      'sku',
      'has_gtag',
      'no_gtag',
    ]);
  });
});
