import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anAudit, anOrg, aProject, type Org } from '../factories.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;
const OCCURRENCES = 2_000;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  const project = await aProject({ org, url: 'https://compressed.example.com' });
  projectId = project.id;
  const { id } = await anAudit({
    project,
    pages: 3,
    issues: [{ code: 'CONTENT_THIN', description: 'd', affectedPages: 1 }],
  });
  auditId = id;
  await t.runtime.pool.query(
    `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
     SELECT $1, 'CONTENT_THIN', 'https://compressed.example.com/p/' || g, jsonb_build_object('n', g)
     FROM generate_series(1, $2) AS g`,
    [id, OCCURRENCES],
  );
}, 120_000);
afterAll(() => t.close());

const graphql = (query: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { query },
  });
const BIG = '{ __schema { types { name description fields { name description } } } }';

describe('responses over 1 KB are compressed when the client accepts it (@fastify/compress)', () => {
  it('a big JSON answer: gzip with Accept-Encoding: gzip, br when preferred, identity without the header', async () => {
    const gz = await graphql(BIG, { 'accept-encoding': 'gzip' });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    const body = JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'));
    expect(body.data.__schema.types.length).toBeGreaterThan(10);
    const plainLength = Buffer.byteLength(JSON.stringify(body));
    expect(plainLength).toBeGreaterThan(1024);
    expect(gz.rawPayload.length).toBeLessThan(plainLength / 2);

    const br = await graphql(BIG, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(body);

    const plain = await graphql(BIG);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(body);
  });

  it('a small JSON answer is sent as it is', async () => {
    const small = await graphql('{ __typename }', { 'accept-encoding': 'gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('errors keep their shapes (REST and GraphQL), compressed or not', async () => {
    const rest = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: 'Bearer seo_nope', 'accept-encoding': 'gzip' },
    });
    expect(rest.statusCode).toBe(401);
    expect(rest.json()).toEqual({ error: expect.any(String), code: 'UNAUTHENTICATED' });
    const gql = await graphql('{ nope }', {
      'accept-encoding': 'gzip',
      accept: 'application/graphql-response+json',
    });
    expect(gql.statusCode).toBe(400);
    expect(gql.json()).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })],
    });
  });

  it('the streamed CSV export is compressed whole, every row in it', async () => {
    const url = `/api/projects/${projectId}/reports?auditId=${auditId}&format=csv`;
    const gz = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: org.owner.cookie, 'accept-encoding': 'gzip' },
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const csv = gunzipSync(gz.rawPayload).toString('utf8');
    const rows = csv.split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(OCCURRENCES + 1);
    const plain = await t.app.inject({ method: 'GET', url, headers: { cookie: org.owner.cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(csv);
  });
});
