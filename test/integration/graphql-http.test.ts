import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { getIntrospectionQuery } from 'graphql';
import { createTestApp, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';

let t: TestApp; // defaults, listening: the audit suite talks HTTP to it
let small: TestApp; // GRAPHQL_MAX_DEPTH=4, GRAPHQL_MAX_COST=200
let closed: TestApp; // GRAPHQL_INTROSPECTION=false
let org: Org;
let url: string;

beforeAll(async () => {
  // The audits are anonymous requests from one IP: a test-only anonymous rate keeps them under the limit.
  t = await createTestApp({ ANONYMOUS_RATE_PER_MINUTE: '100000' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
  small = await createTestApp({ GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_COST: '200' });
  closed = await createTestApp({ GRAPHQL_INTROSPECTION: 'false' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(async () => {
  await t.close();
  await small.close();
  await closed.close();
});

let ip = 0;
const JSON_ACCEPT = 'application/json';
const GRAPHQL_ACCEPT = 'application/graphql-response+json';
function post(
  app: TestApp,
  query: string,
  opts: { accept?: string; variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
) {
  return app.app.inject({
    method: 'POST',
    url: '/graphql',
    remoteAddress: `198.18.0.${(ip++ % 250) + 1}`,
    headers: { 'content-type': 'application/json', accept: opts.accept ?? JSON_ACCEPT, ...opts.headers },
    payload: { query, variables: opts.variables },
  });
}

describe('GraphQL over HTTP (graphql-http server audits)', () => {
  it('passes every MUST and SHOULD audit against the running server', async () => {
    const results: { id: string; name: string; status: string; reason?: string }[] = [];
    for (const audit of serverAudits({ url, fetchFn: fetch })) {
      const result = await audit.fn();
      results.push({
        id: audit.id,
        name: audit.name,
        status: result.status,
        reason: 'reason' in result ? result.reason : undefined,
      });
    }
    const failed = (level: string) =>
      results.filter((r) => r.name.startsWith(level) && r.status !== 'ok').map((r) => `${r.id} ${r.name}: ${r.reason}`);
    const summary = ['MUST', 'SHOULD', 'MAY'].map((level) => {
      const mine = results.filter((r) => r.name.startsWith(`${level} `));
      return `${level}: ${mine.filter((r) => r.status === 'ok').length}/${mine.length} ok`;
    });
    console.log(
      `graphql-http audits: ${summary.join(', ')}` +
        `${failed('MAY').length ? `; MAY not met: ${failed('MAY').join('; ')}` : ''}`,
    );
    expect(results.length).toBeGreaterThan(30);
    expect(failed('MUST')).toEqual([]);
    expect(failed('SHOULD')).toEqual([]);
  }, 60_000);

  it('answers are never cacheable (Cache-Control: no-store), for data and for errors', async () => {
    const data = await post(t, '{ projects { id } }', {
      headers: { cookie: org.owner.cookie, 'apollo-require-preflight': '1' },
    });
    expect(data.json().data.projects).toEqual([]);
    expect(data.headers['cache-control']).toBe('no-store');
    const error = await post(t, '{ nope }', { accept: GRAPHQL_ACCEPT });
    expect(error.statusCode).toBe(400);
    expect(error.headers['cache-control']).toBe('no-store');
  });

  it('GET runs queries (not mutations); a cookie needs a preflight-forcing header (CSRF)', async () => {
    const get = (query: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/graphql?query=${encodeURIComponent(query)}`,
        remoteAddress: '198.18.1.1',
        headers: { accept: JSON_ACCEPT, ...headers },
      });
    const plain = await get('{ __typename }');
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ data: { __typename: 'Query' } });
    const mutation = await get('mutation { deleteProject(id: "x") { success } }');
    expect(mutation.statusCode).toBe(405);
    const withCookie = await get('{ viewer { via } }', { cookie: org.owner.cookie });
    expect(withCookie.statusCode).toBe(400);
    expect(withCookie.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/Cross-Site Request Forgery/),
      extensions: { code: 'BAD_REQUEST' },
    });
    const preflighted = await get('{ viewer { via } }', {
      cookie: org.owner.cookie,
      'apollo-require-preflight': 'true',
    });
    expect(preflighted.json()).toEqual({ data: { viewer: { via: 'SESSION' } } });
    // A simple content type on POST (what a cross-site form can send) is not JSON: refused before anything runs.
    const form = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie: org.owner.cookie, 'content-type': 'text/plain' },
      payload: '{"query":"{ __typename }"}',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('request errors: 400 with application/graphql-response+json, 200 with legacy application/json', async () => {
    for (const [query, code] of [
      ['{ projects { id', 'GRAPHQL_PARSE_FAILED'],
      ['{ noSuchField }', 'GRAPHQL_VALIDATION_FAILED'],
    ]) {
      const modern = await post(t, query, { accept: GRAPHQL_ACCEPT });
      expect(modern.statusCode, query).toBe(400);
      expect(modern.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
      expect(modern.json().errors[0].extensions.code).toBe(code);
      const legacy = await post(t, query);
      expect(legacy.statusCode, query).toBe(200);
      expect(legacy.json()).not.toHaveProperty('data');
      expect(legacy.json().errors[0].extensions.code).toBe(code);
    }
    // A subscription (this API has none) is refused at validation, saying so, not executed into an internal error.
    for (const query of ['subscription { projects { id } }', 'subscription S { __typename }']) {
      const refused = await post(t, query, { accept: GRAPHQL_ACCEPT });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().errors).toEqual([
        {
          message: 'This API has no subscription operations: send a query or a mutation.',
          locations: [{ line: 1, column: 1 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ]);
    }
    // Malformed HTTP requests stay 4xx whatever the client accepts.
    const noQuery = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { variables: {} },
    });
    expect(noQuery.statusCode).toBe(400);
  });

  it('a browser GET of /graphql gets a page pointing at the local explorer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('/graphql/explorer');
    expect(res.body).not.toMatch(/https?:\/\//);
  });
});

const deep = '{ projects { latestAudit { issues { occurrences(first: 5) { nodes { url } } } } } }'; // depth 6
const deepByFragments = `query { ...P }
fragment P on Query { projects { ...A } }
fragment A on Project { latestAudit { issues { ...O } } }
fragment O on Issue { occurrences(first: 5) { nodes { url } } }`;

describe('depth and cost limits', () => {
  it.each([
    ['nested fields', deep],
    ['fragments', deepByFragments],
  ])('a query deeper than GRAPHQL_MAX_DEPTH is refused before execution (%s)', async (_name, query) => {
    const res = await post(small, query, { accept: GRAPHQL_ACCEPT });
    expect(res.statusCode).toBe(400);
    const [error] = res.json().errors;
    expect(error).toMatchObject({
      message: expect.stringMatching(/depth 6 exceeds the maximum of 4 \(GRAPHQL_MAX_DEPTH\)/),
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth', measured: 6, maximum: 4 },
    });
    expect(res.json()).not.toHaveProperty('data');
  });

  it('a query within the depth limit reaches the resolvers (here: authentication)', async () => {
    const res = await post(small, '{ projects { latestAudit { id } } }');
    expect(res.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('cost counts list sizes from first/limit, variable and schema defaults', async () => {
    // projects (10) x latestAudit x issues (10) x occurrences(first: 500) x 2 fields: far above 5,000.
    const expensive = '{ projects { latestAudit { issues { occurrences(first: 500) { nodes { url evidence } } } } } }';
    const res = await post(t, expensive, { accept: GRAPHQL_ACCEPT });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/Query cost \d+ exceeds the maximum of 5000 \(GRAPHQL_MAX_COST\)/),
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'cost' },
    });
    const measured = res.json().errors[0].extensions.measured;
    // 10 projects x (1 + 1 latestAudit + 10 issues x (1 + 1 occurrences x 500 nodes x (1 + url + evidence) + ...)).
    expect(measured).toBeGreaterThan(100_000);
    const viaVariable = await post(
      t,
      'query($n: Int = 500) { projects { latestAudit { issues { occurrences(first: $n) { nodes { url ' +
        'evidence } } } } } }',
      { accept: GRAPHQL_ACCEPT },
    );
    expect(viaVariable.json().errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', measured });
    // The schema default of occurrences(first) is 50: the same query without `first` costs less but is still refused at
    // 200.
    const defaults = await post(small, '{ projects { latestAudit { issues { id } } } }');
    expect(defaults.json().errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    // An evidence view is one value built from its occurrence's row: it costs what the raw evidence costs.
    const viewed = await post(
      t,
      '{ projects { latestAudit { issues { occurrences(first: 500) { nodes { url details { kind facts { label ' +
        'value { text url } } tables { caption columns rows { text url } omitted } } } } } } } }',
      { accept: GRAPHQL_ACCEPT },
    );
    expect(viewed.json().errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', measured });
    const cheap = await post(small, '{ projects { id name } }');
    expect(cheap.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // Legacy JSON clients get the same error with status 200.
    expect((await post(t, expensive)).statusCode).toBe(200);
  });

  it('the standard introspection query passes even under tight limits; recursive introspection does not', async () => {
    const standard = await post(
      small,
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        inputValueDeprecation: true,
      }),
    );
    expect(standard.statusCode).toBe(200);
    expect(standard.json().data.__schema.types.length).toBeGreaterThan(20);
    const recursive = await post(t, '{ __schema { types { fields { type { fields { type { name } } } } } } }', {
      accept: GRAPHQL_ACCEPT,
    });
    expect(recursive.statusCode).toBe(400);
    expect(recursive.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/Introspection query refused/),
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'introspection' },
    });
  });

  it('fragment cycles are reported, not looped over', async () => {
    const res = await post(t, '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }', {
      accept: GRAPHQL_ACCEPT,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/Cannot spread fragment "A" within itself/);
  });
});

describe('introspection setting', () => {
  it('GRAPHQL_INTROSPECTION=false refuses introspection; __typename still works', async () => {
    const refused = await post(closed, '{ __schema { types { name } } }', { accept: GRAPHQL_ACCEPT });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/introspection/i),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const type = await post(closed, '{ __type(name: "Project") { name } }', { accept: GRAPHQL_ACCEPT });
    expect(type.statusCode).toBe(400);
    const typename = await post(closed, '{ __typename }');
    expect(typename.json()).toEqual({ data: { __typename: 'Query' } });
    const open = await post(t, '{ __schema { queryType { name } } }');
    expect(open.json()).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('without introspection, errors suggest no names ("Did you mean …?"); with it, they do', async () => {
    const probes: [string, Record<string, unknown> | undefined][] = [
      ['{ projectz { id } }', undefined], // unknown field
      ['{ robotsTxt(inpt: { content: "x" }) { valid } }', undefined], // unknown argument
      // variable coercion
      ['query($i: RobotsInput!) { robotsTxt(input: $i) { valid } }', { i: { contnt: 'User-agent: *' } }],
      ['query($i: RobotsInpt!) { robotsTxt(input: $i) { valid } }', { i: {} }], // unknown type
    ];
    for (const [query, variables] of probes) {
      const hidden = await post(closed, query, { variables });
      expect(hidden.json().errors.length, query).toBeGreaterThan(0);
      for (const error of hidden.json().errors) expect(error.message, query).not.toMatch(/Did you mean/);
      const shown = await post(t, query, { variables });
      expect(
        shown
          .json()
          .errors.map((e: { message: string }) => e.message)
          .join(' '),
        query,
      ).toMatch(/Did you mean/);
    }
  });
});

describe('GET requests are GraphQL requests, never the landing page', () => {
  it.each([
    ['a repeated query parameter', '/graphql?query=%7B__typename%7D&query=%7B__typename%7D', /only be specified once/],
    ['an empty query parameter', '/graphql?query=', /query/],
    ['variables without a query', '/graphql?variables=%7B%7D', /query/],
  ])('%s with Accept: text/html → 400 in GraphQL shape', async (_name, url, message) => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      remoteAddress: '198.18.2.1',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json()).toEqual({
      errors: [{ message: expect.stringMatching(message), extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('a browser GET with a query runs it; without one it gets the landing page', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const run = await t.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      remoteAddress: '198.18.2.2',
      headers: browser,
    });
    expect(run.json()).toEqual({ data: { __typename: 'Query' } });
    const page = await t.app.inject({ method: 'GET', url: '/graphql', headers: browser });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
  });
});
