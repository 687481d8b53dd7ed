/**
 * The GraphQL read lane (src/platform/fast-path/graphql-read-lane.ts) against the library path it replaces (Apollo
 * Server's pipeline and graphql-js' execute), over HTTP: every query document of the web app, with every Accept
 * header a client sends, as a session and as an API key, plus requests the lane must leave to Apollo (errors,
 * mutations, odd bodies, introspection, the free tools). For each, the server with the lane and the server without it
 * answer the same status, media type, cache-control and body, byte for byte; and the lane did answer every request
 * it is meant to (a read of stored data sent a second time), so the comparison is not of Apollo with itself.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, type DefinitionNode, type FragmentDefinitionNode, visit } from 'graphql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../facades/server.js';
import { STORED_DATA_READS } from '../../facades/graphql/graphql-route.js';
import { GraphQLReadLane } from '../../src/platform/fast-path/graphql-read-lane.js';
import { newId } from '../../src/platform/ids.js';
import { anApiKey, anAudit, anOrg, aProject, type Audit, type Org, type Project } from '../factories.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let library: FastifyInstance;
let org: Org;
let project: Project;
let audit: Audit;
let apiKey: string;
const keywordIds: string[] = [];

const WEB_DOCUMENTS = join(import.meta.dirname, '../../facades/web/src');

/** Every `.graphql` file of the web app, as one list of definitions. */
function webDefinitions(): DefinitionNode[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'gql') walk(path);
      else if (entry.name.endsWith('.graphql')) files.push(path);
    }
  };
  walk(WEB_DOCUMENTS);
  return files.flatMap((file) => parse(readFileSync(file, 'utf8')).definitions);
}

/** Each query of the web app as the client sends it: the operation and the fragments it uses. */
function webQueries(): { name: string; query: string; variables: string[]; rootFields: string[] }[] {
  const definitions = webDefinitions();
  const fragments = new Map(
    definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  return definitions.flatMap((d) => {
    if (d.kind !== Kind.OPERATION_DEFINITION || d.operation !== 'query') return [];
    const used = new Map<string, FragmentDefinitionNode>();
    const collect = (node: DefinitionNode) =>
      visit(node, {
        FragmentSpread(spread) {
          const fragment = fragments.get(spread.name.value)!;
          if (!used.has(fragment.name.value)) {
            used.set(fragment.name.value, fragment);
            collect(fragment);
          }
        },
      });
    collect(d);
    return [
      {
        name: d.name!.value,
        query: [d, ...used.values()].map((n) => print(n)).join('\n\n'),
        variables: (d.variableDefinitions ?? []).map((v) => v.variable.name.value),
        rootFields: d.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])),
      },
    ];
  });
}

/** Variables by name, for this test's organization. */
function variablesFor(names: string[]): Record<string, unknown> {
  const known: Record<string, unknown> = {
    projectId: project.id,
    auditId: audit.id,
    issueId: audit.issueIds.get('META_DESCRIPTION_MISSING'),
    id: project.id,
    days: 90,
    keywordIds,
    first: 25,
    after: null,
    orderBy: 'URL',
    direction: 'ASC',
    filter: null,
    kind: 'ISSUES',
    format: 'CSV',
    url: 'http://127.0.0.1:9/',
    input: { html: '<html><head><title>Oak tables</title></head></html>' },
  };
  return Object.fromEntries(names.map((name) => [name, known[name]]));
}

const ACCEPTS = [
  undefined,
  '*/*',
  'application/json',
  'application/graphql-response+json',
  // urql's
  'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
  'application/json;q=0.5, application/graphql-response+json',
  'text/html',
];

interface Sent {
  body: unknown;
  accept?: string;
  credential: 'session' | 'key';
}

const lanesAnswered = { count: 0 };

async function send(app: FastifyInstance, sent: Sent) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (sent.accept !== undefined) headers.accept = sent.accept;
  if (sent.credential === 'session') {
    headers.cookie = org.owner.cookie;
    headers.origin = t.config.baseUrl;
  } else headers.authorization = `Bearer ${apiKey}`;
  const res = await app.inject({ method: 'POST', url: '/graphql', headers, payload: JSON.stringify(sent.body) });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    cacheControl: res.headers['cache-control'],
    retryAfter: res.headers['retry-after'],
    // The client report is stamped with the time it was made: the only value two runs of a read may differ in.
    body: res.body.replace(/"generatedAt":"[^"]*"/g, '"generatedAt":"…"'),
  };
}

/** The request twice to the server with the lane (which compiles a document when it sees it again), once without. */
async function compare(sent: Sent): Promise<{ laneAnswered: boolean; status: number; body: string }> {
  await send(t.app, sent);
  const before = lanesAnswered.count;
  const withLane = await send(t.app, sent);
  const laneAnswered = lanesAnswered.count > before;
  const withoutLane = await send(library, sent);
  expect(withLane, JSON.stringify(sent)).toEqual(withoutLane);
  return { laneAnswered, status: withLane.status, body: withLane.body };
}

beforeAll(async () => {
  // Counts the lane's own answers: documents it returned a compiled query for, whose result had no error.
  const operation = GraphQLReadLane.prototype.operation;
  vi.spyOn(GraphQLReadLane.prototype, 'operation').mockImplementation(function (this: GraphQLReadLane, ...args) {
    const compiled = operation.apply(this, args);
    if (!compiled) return compiled;
    return {
      ...compiled,
      query: async (...queryArgs: Parameters<typeof compiled.query>) => {
        const result = await compiled.query(...queryArgs);
        if (!result.errors?.length) lanesAnswered.count++;
        return result;
      },
    };
  });
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32' });
  // Thousands of requests with one key: the plan's 120 a minute would answer most of them 429 on both sides.
  const rateLimitFor = t.runtime.rateLimitFor.bind(t.runtime);
  t.runtime.rateLimitFor = (principal) => ({ ...rateLimitFor(principal), limit: 1_000_000 });
  const view = await t.runtime.withFastPaths({ graphqlReadLane: false });
  view.rateLimitFor = t.runtime.rateLimitFor;
  library = await buildServer(view);
  await library.ready();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  apiKey = await anApiKey(org);
  project = await aProject({ org, url: 'https://lane.example.com/' });
  audit = await anAudit({
    project,
    pages: [
      { url: 'https://lane.example.com/', title: 'Home' },
      { url: 'https://lane.example.com/tables', title: 'Oak tables', statusCode: 404 },
    ],
    issues: [
      {
        code: 'META_DESCRIPTION_MISSING',
        description: 'No description',
        occurrences: [{ url: 'https://lane.example.com/', evidence: { tag: null } }],
      },
      {
        code: 'META_TITLE_TOO_SHORT',
        description: 'Short title',
        occurrences: [
          { url: 'https://lane.example.com/tables', evidence: { length: 10, quoted: '"é\u2028</script>' } },
        ],
      },
    ],
  });
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  for (const [i, term] of ['oak tables', 'walnut desk', 'never checked'].entries()) {
    const id = newId();
    keywordIds.push(id);
    await q(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       VALUES ($1, $2, $3, $3, 'us', 'en', 'desktop')`,
      [id, project.id, term],
    );
    if (i < 2)
      for (const [day, position] of [
        [3, 12],
        [2, null],
        [1, 4 + i],
      ] as const)
        await q(
          `INSERT INTO ranking (id, keyword_id, status, position, url, provider, error, checked_at)
           VALUES ($1, $2, $3, $4, $5, 'test', $6, now() - make_interval(days => $7))`,
          [
            newId(),
            id,
            position === null ? 'FAILED' : 'OK',
            position,
            position === null ? null : 'https://lane.example.com/tables',
            position === null ? 'provider timed out' : null,
            day,
          ],
        );
  }
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await library?.close();
  await t?.close();
});

describe('the GraphQL read lane answers as Apollo does', () => {
  it('for every query of the web app, with every Accept header, as a session and as an API key', async () => {
    const queries = webQueries();
    expect(queries.length).toBeGreaterThanOrEqual(20);
    const laneRuns: string[] = [];
    for (const { name, query, variables, rootFields } of queries) {
      const reads = rootFields.every((f) => STORED_DATA_READS.has(f));
      for (const credential of ['session', 'key'] as const)
        for (const accept of ACCEPTS) {
          const body = { query, operationName: name, variables: variablesFor(variables) };
          const { laneAnswered, status, body: answer } = await compare({ body, accept, credential });
          if (laneAnswered) laneRuns.push(`${name} ${credential} ${accept}`);
          // Only reads of stored data, and only what Apollo answers 200 without an error, come from the lane.
          if (laneAnswered) expect(reads && status === 200 && !answer.includes('"errors"')).toBe(true);
          // A read that Apollo answers without error is answered by the lane, for the media types it negotiates.
          if (reads && status === 200 && !answer.includes('"errors"') && accept !== 'text/html')
            expect(laneAnswered, `${name} ${credential} ${accept}`).toBe(true);
        }
    }
    // The web app's reads (all but the free tools, the PDF and the export file) came from the lane.
    const laneQueries = new Set(laneRuns.map((r) => r.split(' ')[0]));
    expect(laneQueries.size).toBeGreaterThanOrEqual(15);
    expect([...laneQueries]).toEqual(
      expect.arrayContaining(['DashboardProjects', 'AuditIssues', 'AuditIssueList', 'KeywordsPage', 'KeywordList']),
    );
    // Every query of the web app, twice per Accept header and credential: a few hundred requests, which on a loaded
    // 2-core machine take longer than the default 30 seconds.
  }, 180_000);

  it('leaves every other request to Apollo, which answers it as without the lane', async () => {
    const list = '{ projects { id name domain createdAt counts { audits keywords competitors } } }';
    const cases: { name: string; body: unknown }[] = [
      {
        name: 'a project of nobody',
        body: { query: 'query($id: ID!) { project(id: $id) { id } }', variables: { id: 'nope' } },
      },
      {
        name: 'a variable of the wrong type',
        body: { query: 'query($id: ID!) { project(id: $id) { id } }', variables: { id: 5 } },
      },
      { name: 'a missing variable', body: { query: 'query($id: ID!) { project(id: $id) { id } }' } },
      { name: 'variables as a string', body: { query: list, variables: '{}' } },
      { name: 'variables as an array', body: { query: list, variables: [] } },
      { name: 'null variables', body: { query: list, variables: null } },
      { name: 'extensions', body: { query: list, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } } },
      { name: 'empty extensions', body: { query: list, extensions: {} } },
      { name: 'an operation name of another type', body: { query: list, operationName: 7 } },
      { name: 'an unknown operation name', body: { query: list, operationName: 'Nope' } },
      { name: 'two operations, no name', body: { query: `query A ${list} query B ${list}` } },
      {
        name: 'two operations, one named',
        body: { query: `query A ${list} query B { viewer { user { id } } }`, operationName: 'B' },
      },
      { name: 'a syntax error', body: { query: '{ projects { id ' } },
      { name: 'an unknown field', body: { query: '{ projects { id nope } }' } },
      { name: 'introspection', body: { query: '{ __schema { queryType { name } } }' } },
      { name: '__type', body: { query: '{ __type(name: "Project") { name } }' } },
      { name: 'a root fragment', body: { query: '{ ...F } fragment F on Query { projects { id } }' } },
      { name: '__typename at the root', body: { query: '{ __typename projects { id } }' } },
      {
        name: 'too deep',
        body: { query: `{ projects { ${'lastAudit { project { '.repeat(6)} id ${'} } '.repeat(6)} } }` },
      },
      { name: 'a free tool', body: { query: '{ metaTags(input: { html: "<title>x</title>" }) { title { value } } }' } },
      { name: 'a mutation', body: { query: 'mutation { createApiKey(input: { name: "lane" }) { key { name } } }' } },
      { name: 'no query', body: { variables: {} } },
      { name: 'an empty query', body: { query: '' } },
      { name: 'a query that is not a string', body: { query: { kind: 'Document' } } },
      { name: 'an empty body', body: {} },
      { name: 'a JSON array', body: [{ query: list }] },
      { name: 'a document over 20,000 characters', body: { query: `${list}${' '.repeat(20_000)}` } },
    ];
    for (const { name, body } of cases) {
      const { laneAnswered } = await compare({ body, credential: 'key' });
      if (name === 'null variables' || name === '__typename at the root') expect(laneAnswered, name).toBe(true);
      else if (name !== 'two operations, one named') expect(laneAnswered, name).toBe(false);
    }
  });

  it('names only fields the schema has as stored-data reads, and none of the fetching or rendering ones', () => {
    const fields = t.runtime.schema.getQueryType()!.getFields();
    expect([...STORED_DATA_READS].filter((name) => !fields[name])).toEqual([]);
    for (const outbound of ['metaTags', 'robotsTxt', 'httpHeaders', 'sitemap', 'clientReportPdf', 'exportFile'])
      expect(STORED_DATA_READS.has(outbound), outbound).toBe(false);
  });

  it('runs a document only from its second request, and compiles a bounded number', async () => {
    const lane = new GraphQLReadLane({
      schema: t.runtime.schema,
      validationRules: [],
      readFields: STORED_DATA_READS,
      capacity: 3,
    });
    const doc = (i: number) => `{ projects { id } p${i}: projects { name } }`;
    expect(lane.operation(doc(0), undefined)).toBeNull();
    expect(lane.operation(doc(0), undefined)).not.toBeNull();
    // Four more documents, each twice: the first is forgotten (least recently used) and is new again.
    for (let i = 1; i <= 4; i++) {
      lane.operation(doc(i), undefined);
      expect(lane.operation(doc(i), undefined)).not.toBeNull();
    }
    expect(lane.operation(doc(0), undefined)).toBeNull();
    expect(lane.operation(doc(4), undefined)).not.toBeNull();
  });
});
