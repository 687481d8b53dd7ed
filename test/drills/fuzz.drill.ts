/**
 * Fuzz drill: malformed requests over every endpoint of both REST surfaces, /graphql and better-auth's
 * /api/auth/*, with and without valid credentials. The endpoint list comes from the route tables (a new
 * route is fuzzed without editing this file); request bodies and queries are derived from each route's JSON
 * schema and then broken (wrong types, missing and extra fields, 1 MB strings, NUL and invalid UTF-8, bad
 * JSON, wrong content types, oversized bodies, bad query parameters and path ids, deep JSON, huge headers).
 *
 * Expectations: no 5xx; no stack trace or SQL in any body; every error in the documented shape of its
 * surface (REST `{ error, code }` with a documented code matching the status and `details` on every 400;
 * GraphQL `{ errors: [{ message, extensions: { code } }] }`); X-Request-Id on every response; the server
 * still healthy afterwards; no FST_ERR_REP_ALREADY_SENT or stack lines in its logs.
 *
 * The streamed routes (reports, the v1 exports, both audit comparisons) and the check catalog are in the route
 * tables too; GraphQL operations the REST routes do not replay (check settings, comparison CSV pieces, export
 * pieces, the client report) are fuzzed on /graphql with broken variables, each counted apart.
 *
 * Reproducible: FUZZ_SEED=<n> replays a run (the seed is printed). Full form 12,000 requests, quick 1,000.
 * Only 127.0.0.1 is contacted: URL-like inputs name a local fixture site (pinned with SAFE_HTTP_RESOLVE and
 * allowed with SAFE_HTTP_ALLOW), refused addresses, or names under .invalid.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { print } from 'graphql';
import { Pool } from 'undici';
import { v1Routes } from '../../facades/v1/routes.js';
import { apiRoutes } from '../../facades/api/routes.js';
import { toolRoutes } from '../../facades/api/tool-routes.js';
import { reportRoutes } from '../../facades/api/report-routes.js';
import { checkRoutes } from '../../facades/api/check-routes.js';
import { exportRoutes } from '../../facades/v1/export-routes.js';
import { comparisonRoutes as v1ComparisonRoutes } from '../../facades/v1/comparison-routes.js';
import { comparisonRoutes as apiComparisonRoutes } from '../../facades/api/comparison-routes.js';
import {
  ApiAuditComparisonCsvDocument,
  V1AuditComparisonCsvDocument,
  V1ExportFileDocument,
} from '../../facades/generated/graphql.js';
import { CHECK_CATALOG } from '../../src/seo/checks/check-catalog.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import { prng } from '../support/prng.js';
import { createApiKey, parseJson, signUp, type Door } from '../support/actors.js';

// ---------------------------------------------------------------- seeded randomness

type Rng = () => number;
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)];

// ---------------------------------------------------------------- endpoints from the route tables

type Surface = 'A' | 'B' | 'TOOLS';
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}
interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  surface: Surface;
  params: string[];
  /** Values of an enumerated path parameter (an export's kind). */
  paramEnums: Record<string, unknown[]>;
  body?: JsonSchema;
  query?: JsonSchema;
  bodyLimit: number;
  /** The GraphQL operation behind it (REST routes), replayed on /graphql with broken variables. */
  operation?: string;
}

const MiB = 1024 * 1024;
const BODY_LIMIT = MiB;

function paramEnums(schema: unknown): Record<string, unknown[]> {
  const props = (schema as JsonSchema | undefined)?.properties ?? {};
  return Object.fromEntries(Object.entries(props).flatMap(([name, p]) => (p.enum ? [[name, p.enum]] : [])));
}

function endpoints(): Endpoint[] {
  const rest = [...v1Routes, ...apiRoutes, ...toolRoutes, ...checkRoutes].map((r) => ({
    method: r.method,
    url: r.url,
    surface: r.surface as Surface,
    params: [...r.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]),
    paramEnums: paramEnums(r.schema?.params),
    body: r.schema?.body as JsonSchema | undefined,
    query: r.schema?.querystring as JsonSchema | undefined,
    bodyLimit: r.bodyLimit ?? BODY_LIMIT,
    operation: print(r.operation as never),
  }));
  const streams = [...reportRoutes, ...exportRoutes, ...v1ComparisonRoutes, ...apiComparisonRoutes].map((r) => ({
    method: r.method,
    url: r.url,
    surface: r.surface as Surface,
    params: [...r.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]),
    paramEnums: paramEnums(r.schema?.params),
    query: r.schema?.querystring as JsonSchema | undefined,
    bodyLimit: BODY_LIMIT,
  }));
  return [...rest, ...streams];
}

const CHECK_CODES: readonly string[] = CHECK_CATALOG.map((c) => c.code);

/**
 * GraphQL operations no REST route replays (the streamed routes run theirs piece by piece; check settings are GraphQL
 * only), with the schema of their `input` variable when they take one.
 */
/** A piece of the URL table's export: its cursor is signed, so a forged one is BAD_USER_INPUT (issue 61). */
const URL_TABLE_PIECE =
  'query($projectId: ID!, $auditId: ID, $format: UrlTableExportFormat!, $after: String, $size: Int!) { ' +
  'audit(projectId: $projectId, auditId: $auditId) { urlTableExport(format: $format, after: $after, size: $size) ' +
  '{ rows nextCursor } } }';

/** Export cursors nobody issued: made-up XLSX writer state (it once reached the writer: INTERNAL), a fake MAC. */
function forgedCursor(rng: Rng): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const state = pick(rng, [
    { table: 'x', rows: 0, xlsx: { crc: 2 ** 40, raw: -1, packed: 1e300 } },
    {
      table: b64(['x', 1, null, '00000000-0000-0000-0000-000000000000']),
      rows: 3,
      xlsx: { crc: 1, raw: 9, packed: 4 },
    },
    { table: '', rows: 1e308, xlsx: null },
  ]);
  return pick(rng, [b64(state), `${b64(state)}.${'A'.repeat(43)}`, `${b64(state)}.${junk(rng, 43)}`]);
}

const EXTRA_OPERATIONS: { name: string; operation: string; input?: JsonSchema }[] = [
  {
    name: 'checkSettings',
    operation: 'query($projectId: ID!) { project(id: $projectId) { checkSettings { code enabled severity } } }',
  },
  {
    name: 'setCheckSetting',
    operation:
      'mutation($projectId: ID!, $input: CheckSettingInput!) { setCheckSetting(projectId: $projectId, ' +
      'input: $input) { code enabled severity overridden } }',
    input: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        enabled: { type: 'boolean' },
        severity: { enum: ['CRITICAL', 'WARNING', 'NOTICE', null] },
      },
      required: ['code'],
    },
  },
  {
    name: 'resetCheckSetting',
    operation:
      'mutation($projectId: ID!, $code: String!) { resetCheckSetting(projectId: $projectId, code: $code) { code } }',
  },
  { name: 'exportFile', operation: print(V1ExportFileDocument as never) },
  { name: 'auditComparison csv (v1)', operation: print(V1AuditComparisonCsvDocument as never) },
  { name: 'auditComparison csv (api)', operation: print(ApiAuditComparisonCsvDocument as never) },
  {
    name: 'auditComparison issues',
    operation:
      'query($projectId: ID!, $base: ID, $head: ID, $code: String, $after: String) { auditComparison(projectId: ' +
      '$projectId, base: $base, head: $head) { issues(change: NEW, code: $code, after: $after) { totalCount ' +
      'nodes { code url } } } }',
  },
  {
    name: 'clientReport',
    operation:
      'query($projectId: ID!, $auditId: ID) { clientReport(projectId: $projectId, auditId: $auditId) { __typename } }',
  },
  { name: 'urlTableExport pieces', operation: URL_TABLE_PIECE },
];

// ---------------------------------------------------------------- values

/** Junk text: quotes, markup, control characters, RTL marks, emoji, percent signs — never a scheme (no ':'). */
const JUNK_PIECES = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  "'",
  '\\',
  '<script>',
  '{}',
  '[]',
  '%',
  '%00',
  '%zz',
  '\t',
  '\n',
  '\r\n',
  '\u202e',
  '\u00e9',
  '\u{1f600}',
  '\ufeff',
  '\u0001',
  '\u007f',
  '..',
  '/',
  '?',
  '#',
  '&',
  '=',
  ';',
  '$',
  '`',
  '\ud800',
  '\udc00',
];
function junk(rng: Rng, max = 40): string {
  let s = '';
  const n = int(rng, max + 1);
  for (let i = 0; i < n; i++) s += pick(rng, JUNK_PIECES);
  return s;
}

interface Fixture {
  port: number;
}
const PINNED = ['fuzz.test', 'www.fuzz.test', 'c1.fuzz.test', 'c2.fuzz.test', 'c3.fuzz.test'];

function urlValue(rng: Rng, fx: Fixture): string {
  const base = `http://${pick(rng, PINNED)}:${fx.port}`;
  return pick(rng, [
    () => `${base}/`,
    () => `${base}/robots.txt`,
    () => `${base}/sitemap.xml`,
    () => `${base}/page?q=${enc(junk(rng, 8))}`,
    () => `${base}/${enc(junk(rng, 20))}`,
    () => `http://127.0.0.1:${fx.port}/`,
    () => `http://nx-${int(rng, 1e6)}.invalid/`,
    () => 'http://10.0.0.1/',
    () => 'http://169.254.169.254/latest/meta-data/',
    () => 'http://[::1]/',
    () => 'http://0x7f.1/',
    () => 'http://2130706433/',
    () => `http://user:pw@fuzz.test:${fx.port}/`,
    () => 'ftp://fuzz.test/',
    () => 'javascript:alert(1)',
    () => 'file:///etc/passwd',
    () => 'http://',
    () => `${base}/${'a'.repeat(3000)}`,
    () => junk(rng, 30).replace(/:/g, ''),
  ])();
}

function domainValue(rng: Rng): string {
  return pick(rng, [
    () => pick(rng, PINNED),
    () => `nx-${int(rng, 1e6)}.invalid`,
    () => 'metadata.google.internal.invalid',
    () => '10.0.0.1',
    () => `${junk(rng, 10)} .invalid`,
    () => `http://${pick(rng, PINNED)}/path`,
    () => `${'a'.repeat(300)}.invalid`,
    () => '',
  ])();
}

/** A value of the property's own type (what a well-behaved client sends). */
function validValue(rng: Rng, name: string, schema: JsonSchema, fx: Fixture): unknown {
  if (schema.enum) return pick(rng, schema.enum);
  if (name === 'url' || name === 'testUrls')
    return schema.type === 'array' ? [urlValue(rng, fx), '/private'] : urlValue(rng, fx);
  if (name === 'domain') return domainValue(rng);
  if (name === 'code') return rng() < 0.8 ? pick(rng, CHECK_CODES) : junk(rng, 12);
  if (schema.type === 'boolean') return rng() < 0.5;
  if (name === 'content')
    return pick(rng, [
      'User-agent: *\nDisallow: /private\nSitemap: http://fuzz.test/sitemap.xml\n',
      '<?xml version="1.0"?><urlset ' +
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://fuzz.test/a</loc></url></urlset>',
      junk(rng),
    ]);
  if (name === 'html') return `<html><head><title>${junk(rng, 10)}</title></head><body>${junk(rng)}</body></html>`;
  if (schema.type === 'array')
    return Array.from({ length: 1 + int(rng, 3) }, () =>
      validValue(rng, `${name}[]`, schema.items ?? { type: 'string' }, fx),
    );
  if (name === 'country') return pick(rng, ['us', 'de', 'zz', 'U1']);
  if (name === 'language') return pick(rng, ['en', 'de', 'xx-YY']);
  return junk(rng, 20) || 'x';
}

function validBody(rng: Rng, schema: JsonSchema | undefined, fx: Fixture): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const group = schema?.anyOf ? (pick(rng, schema.anyOf).required ?? []) : [];
  for (const name of group) required.add(name);
  for (const [name, prop] of Object.entries(props)) {
    if (required.has(name) || rng() < 0.3) body[name] = validValue(rng, name, prop, fx);
  }
  return body;
}

const WRONG_TYPES: (() => unknown)[] = [
  () => 42,
  () => -1.5,
  () => true,
  () => null,
  () => [],
  () => ['x', 1],
  () => ({}),
  () => ({ nested: { deeper: 1 } }),
  () => '',
  () => 1e308,
];

// ---------------------------------------------------------------- requests

interface FuzzRequest {
  category: string;
  /** The route fuzzed (its pattern), for the coverage figure. */
  endpoint?: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Sent over a raw socket (framing the HTTP client would refuse to produce). */
  raw?: Buffer;
}

interface Principal {
  cookie: string;
  key: string;
  projectId: string;
  /** A second project: the one DELETE requests may remove (the first stays, so deeper paths stay reachable). */
  spareId: string;
  jobId: string;
  /** Two completed audits of the project (comparisons and exports have something to read). */
  auditId: string;
  headAuditId: string;
}

interface Context {
  rng: Rng;
  fx: Fixture;
  origin: string;
  orgs: Principal[];
}

const BAD_IDS = [
  'not-a-uuid',
  '%00',
  'a%00b',
  '%C3%28',
  '%FF%FE',
  '%ED%A0%80',
  'x'.repeat(300),
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%E2%80%AE',
  '%20',
  'null',
  '0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  '%27%20OR%201%3D1--',
  '%7B%7D',
  'ff'.repeat(18),
];

function pathFor(ctx: Context, ep: Endpoint, me: Principal | null, mode: 'valid' | 'bad'): string {
  const other = pick(ctx.rng, ctx.orgs);
  return ep.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (mode === 'bad') return pick(ctx.rng, BAD_IDS);
    const values = ep.paramEnums[name];
    if (values) return ctx.rng() < 0.9 ? String(pick(ctx.rng, values)) : enc(junk(ctx.rng, 8));
    if (name === 'code') return ctx.rng() < 0.8 ? pick(ctx.rng, CHECK_CODES) : enc(junk(ctx.rng, 12));
    const owner = ctx.rng() < 0.8 && me ? me : other;
    if (name === 'jobId') return owner.jobId;
    return ep.method === 'DELETE' || ctx.rng() < 0.1 ? owner.spareId : owner.projectId;
  });
}

type Auth = 'none' | 'valid' | 'junk';
function authHeaders(ctx: Context, ep: Endpoint | null, auth: Auth, me: Principal): Record<string, string> {
  const { rng } = ctx;
  if (auth === 'none') return {};
  if (auth === 'valid') {
    if (ep?.surface === 'A') return { authorization: `Bearer ${me.key}` };
    if (ep === null && rng() < 0.5) return { authorization: `Bearer ${me.key}` };
    return { cookie: me.cookie, origin: ctx.origin };
  }
  return pick(rng, [
    () => ({ authorization: 'Bearer' }),
    () => ({ authorization: `Bearer seo_${junk(rng, 20).replace(/[^\x21-\x7e]/g, 'x')}` }),
    () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
    () => ({ authorization: `Bearer ${'k'.repeat(4000)}` }),
    () => ({ authorization: `Bearer ${me.key}x` }),
    () => ({ cookie: 'better-auth.session-token=forged.signature' }),
    () => ({ cookie: `better-auth.session-token=${'c'.repeat(4000)}` }),
    () => ({ cookie: ';;;=;=' }),
    () => ({ cookie: me.cookie, origin: 'https://evil.example' }),
    () => ({ authorization: `Bearer ${me.key}`, cookie: 'better-auth.session-token=x' }),
  ])();
}

const json = (value: unknown) => JSON.stringify(value);
/** Percent-encoding that survives lone surrogates (sent as %ED%A0%80-style invalid UTF-8 on purpose). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  }
}

function deepJson(rng: Rng): string {
  const n = pick(rng, [100, 1_000, 10_000]);
  return rng() < 0.5 ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
}

/**
 * Some of a route's query parameters with values it takes (an enum's, an audit of the project or of another
 * organization, junk otherwise), so that the broken part of a request is not always refused first by a missing one.
 */
function validQuery(ctx: Context, ep: Endpoint, me: Principal): string {
  const { rng } = ctx;
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(ep.query?.properties ?? {})) {
    if (rng() < 0.5) continue;
    let value: string;
    if (schema.enum) value = String(pick(rng, schema.enum));
    else if (name === 'auditId' || name === 'base' || name === 'head') {
      const owner = rng() < 0.85 ? me : pick(rng, ctx.orgs);
      value = pick(rng, [owner.auditId, owner.headAuditId]);
    } else value = enc(String(validValue(rng, name, schema, ctx.fx)));
    parts.push(`${name}=${value}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** One malformed request for a REST endpoint, in the given category. */
function restRequest(ctx: Context, ep: Endpoint, category: string): FuzzRequest {
  const { rng, fx } = ctx;
  const me = pick(rng, ctx.orgs);
  const auth: Auth = pick(rng, ['valid', 'valid', 'none', 'junk'] as const);
  const headers: Record<string, string> = { ...authHeaders(ctx, ep, auth, me) };
  let path = pathFor(ctx, ep, me, category === 'bad-path-ids' ? 'bad' : 'valid');
  if (ep.method === 'GET' && category !== 'nul-utf8') path += validQuery(ctx, ep, me);
  const method = ep.method;
  const hasBody = method === 'POST';
  let body: string | Buffer | undefined;
  const base = validBody(rng, ep.body, fx);
  const setJson = (value: unknown) => {
    headers['content-type'] = 'application/json';
    body = json(value);
  };
  const props = Object.keys(ep.body?.properties ?? {});
  const someProp = () => (props.length ? pick(rng, props) : pick(rng, ['url', 'id', 'name']));

  switch (category) {
    case 'wrong-types': {
      if (rng() < 0.3) setJson(pick(rng, WRONG_TYPES)());
      else setJson({ ...base, [someProp()]: pick(rng, WRONG_TYPES)() });
      break;
    }
    case 'missing-fields': {
      const copy = { ...base };
      for (const name of ep.body?.required ?? Object.keys(copy)) if (rng() < 0.7) delete copy[name];
      setJson(rng() < 0.3 ? {} : copy);
      break;
    }
    case 'extra-fields': {
      const extras: Record<string, unknown> = {
        [junk(rng, 6) || 'extra']: junk(rng, 6),
        owner: 'x',
        organizationId: me.projectId,
        id: me.projectId,
      };
      const roll = rng();
      if (roll < 0.25) {
        headers['content-type'] = 'application/json';
        body = `{"__proto__":{"polluted":true},${json(base).slice(1)}`.replace(',}', '}');
      } else if (roll < 0.5) {
        headers['content-type'] = 'application/json';
        body =
          `{"constructor":{"prototype":{"polluted":true}` +
          `}${Object.keys(base).length ? ',' : ''}${json(base).slice(1)}`;
      } else setJson({ ...base, ...extras });
      break;
    }
    case 'huge-strings': {
      const size = pick(rng, [64 * 1024, MiB - 200, MiB, MiB + 1]);
      setJson({ ...base, [someProp()]: 'x'.repeat(size) });
      break;
    }
    case 'nul-utf8': {
      const variant = int(rng, 4);
      if (variant === 0) setJson({ ...base, [someProp()]: `a\u0000b${junk(rng, 4)}` });
      else if (variant === 1) setJson({ ...base, [someProp()]: '\ud800\udfff\ud800' });
      else if (variant === 2) {
        headers['content-type'] = 'application/json';
        const text = json({ ...base, [someProp()]: 'XX' });
        const at = text.indexOf('XX');
        body = Buffer.concat([
          Buffer.from(text.slice(0, at)),
          Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
          Buffer.from(text.slice(at + 2)),
        ]);
      } else {
        const sep = path.includes('?') ? '&' : '?';
        const name = pick(rng, Object.keys(ep.query?.properties ?? { auditId: {} }));
        path += `${sep}${name}=${pick(rng, ['%00', 'a%00b', '%C3%28', '%FF', '%ED%A0%80'])}`;
        if (hasBody) setJson(base);
      }
      break;
    }
    case 'bad-json': {
      headers['content-type'] = pick(rng, [
        'application/json',
        'application/json; charset=utf-8',
        'application/json;charset=latin1',
      ]);
      const text = json(base);
      body = pick(rng, [
        () => text.slice(0, Math.max(1, int(rng, text.length))),
        () => `${text}garbage`,
        () => text.replace(/"/g, "'"),
        () => '{"a":NaN}',
        () => '\ufeff' + text,
        () => 'null',
        () => '"just a string"',
        () => '12345678901234567890123',
        () => '{"a":1,"a":2}',
        () => '{,}',
        () => ' ',
        () => '[',
        () => `{"url":"\\u00"}`,
      ])();
      break;
    }
    case 'content-types': {
      const value = json(base);
      const type = pick(rng, [
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'text/html',
        'application/octet-stream',
        'application/jsonx',
        'application/graphql',
        'json',
        '*/*',
        '',
        'application/json, text/plain',
      ]);
      if (type) headers['content-type'] = type;
      body = type.startsWith('application/x-www') ? 'url=http%3A%2F%2Ffuzz.test%2F' : value;
      break;
    }
    case 'oversized-bodies': {
      headers['content-type'] = 'application/json';
      const limit = Math.min(ep.bodyLimit, 3 * MiB);
      const payload = Buffer.from(json({ ...base, pad: 'y'.repeat(limit + 1024) }));
      // Over a raw socket: the server answers 413 and may close before the upload ends (the client sees EPIPE
      // writing), so the answer is read from whatever arrived rather than through an HTTP client.
      const head = Object.entries({
        ...headers,
        host: '127.0.0.1',
        'content-length': String(payload.length),
        connection: 'close',
      })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      return {
        category,
        endpoint: `${ep.method} ${ep.url}`,
        method,
        path,
        headers,
        raw: Buffer.concat([Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n`), payload]),
      };
    }
    case 'bad-query': {
      const names = Object.keys(ep.query?.properties ?? {});
      const name =
        names.length && rng() < 0.7
          ? pick(rng, names)
          : pick(rng, ['unknown', 'days', 'auditId', 'format', 'limit', 'first']);
      const value = pick(rng, [
        '',
        '-1',
        '0',
        '99999',
        'abc',
        '1.5',
        '1e3',
        'csv',
        'xml',
        'JSON',
        enc(junk(rng, 10)),
        'x'.repeat(5000),
        '%zz',
        '%',
        '[]',
        'true',
      ]);
      const extra = pick(rng, [
        `${name}=${value}`,
        `${name}=${value}&${name}=1`,
        `${name}[]=1&${name}[]=2`,
        `${name}[a]=1`,
        `&&&=&${name}`,
        `${name}`,
        `${name}=1;${name}=2`,
      ]);
      path += `${path.includes('?') ? '&' : '?'}${extra}`;
      if (hasBody) setJson(base);
      break;
    }
    case 'bad-path-ids': {
      if (hasBody) setJson(base);
      break;
    }
    case 'deep-json': {
      headers['content-type'] = 'application/json';
      body =
        rng() < 0.5
          ? deepJson(rng)
          : `{${Object.keys(base).length ? json(base).slice(1, -1) + ',' : ''}"deep":${deepJson(rng)}}`;
      break;
    }
    case 'bad-headers': {
      Object.assign(
        headers,
        pick(rng, [
          () => ({ 'x-request-id': junk(rng, 80).replace(/[^\x20-\x7e]/g, '_') || '_' }),
          () => ({ 'x-request-id': 'r'.repeat(200) }),
          () => ({
            accept: pick(rng, ['text/html', 'application/xml', '*/*;q=0', 'image/png', 'application/json;q=0']),
          }),
          () => ({ 'x-forwarded-for': '1.2.3.4, ::1' }),
          () => ({ 'accept-encoding': 'gzip;q=1, br;q=0.5, zstd' }),
          () =>
            Object.fromEntries(
              Array.from({ length: 90 }, (_, i) => [`x-fuzz-${i}`, junk(rng, 20).replace(/[^\x20-\x7e]/g, '_')]),
            ),
        ])(),
      );
      if (hasBody) setJson(base);
      break;
    }
    case 'wrong-method': {
      const wrong = pick(rng, ['PUT', 'PATCH', method === 'GET' ? 'DELETE' : 'GET', 'OPTIONS']);
      // A DELETE on a GET path may be a real route (DELETE /api/projects/:id): it goes to the spare project, so that
      // the project the later probes read stays (as pathFor does for DELETE endpoints).
      if (wrong === 'DELETE') for (const o of ctx.orgs) path = path.replaceAll(o.projectId, o.spareId);
      return {
        category,
        endpoint: `${ep.method} ${ep.url}`,
        method: wrong,
        path,
        headers: { ...headers, 'content-type': 'application/json' },
        body: json(base),
      };
    }
    default:
      throw new Error(`unknown category ${category}`);
  }
  // Bodies sent on GET would be ignored by clients and servers alike; send them only where a body belongs.
  if (method === 'GET' && category !== 'bad-headers') body = undefined;
  return { category, endpoint: `${ep.method} ${ep.url}`, method, path, headers, body };
}

/** A request line or header block over Node's 16 KB limit, or HTTP framing a client library would not send. */
function rawRequest(ctx: Context, ep: Endpoint): FuzzRequest {
  const { rng } = ctx;
  const me = pick(rng, ctx.orgs);
  const path = pathFor(ctx, ep, me, 'valid');
  const variant = int(rng, 6);
  const head = (line: string, headers: string[]) =>
    `${line}\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
  let raw: Buffer;
  if (variant === 0)
    raw = Buffer.from(head(`${ep.method} ${path}?q=${'a'.repeat(17_000)} HTTP/1.1`, ['Connection: close']));
  else if (variant === 1)
    raw = Buffer.from(head(`${ep.method} ${path} HTTP/1.1`, [`Cookie: ${'c'.repeat(17_000)}`, 'Connection: close']));
  else if (variant === 2)
    raw = Buffer.from(
      head(
        `${ep.method} ${path} HTTP/1.1`,
        Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(50)}`).concat('Connection: close'),
      ),
    );
  else if (variant === 3)
    raw = Buffer.concat([
      Buffer.from(`${ep.method} /api/`),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    ]);
  else if (variant === 4)
    raw = Buffer.from(
      head(`POST ${path} HTTP/1.1`, [
        'Content-Type: application/json',
        'Content-Length: 5',
        'Content-Length: 7',
        'Connection: close',
      ]) + '{"a":1}',
    );
  else
    raw = Buffer.from(
      head(`POST ${path} HTTP/1.1`, [
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Connection: close',
      ]) + 'zz\r\nnot-hex\r\n0\r\n\r\n',
    );
  return {
    category: 'huge-headers-raw',
    endpoint: `${ep.method} ${ep.url}`,
    method: ep.method,
    path,
    headers: {},
    raw,
  };
}

const GRAPHQL_DOCS = [
  '{ projects { id',
  '{ projectz { id } }',
  '{ __schema { types { name } } }',
  'query { ...F } fragment F on Query { ...F }',
  `{ ${'a: __typename '.repeat(2000)} }`,
  `{ ${'projects { '.repeat(60)}id${' }'.repeat(60)} }`,
  '{'.repeat(5000) + '}'.repeat(5000),
  'mutation { deleteProject(id: "x") { success } }',
  'subscription { x }',
  `{ __typename ${'@include(if: true) '.repeat(500)}}`,
  'query($v: Int!) { __typename }',
  '',
  '#'.repeat(1000),
  `{ project(id: "${'\\u0000'}") { id } }`,
];

function graphqlRequest(ctx: Context, eps: Endpoint[]): FuzzRequest {
  const { rng } = ctx;
  const me = pick(rng, ctx.orgs);
  const auth: Auth = pick(rng, ['valid', 'none', 'junk'] as const);
  const headers: Record<string, string> = { ...authHeaders(ctx, null, auth, me) };
  const ops = eps.filter((e) => e.operation);
  // The operations no REST route replays are picked often enough that each gets its share in the full form.
  const extra = rng() < 0.4 ? pick(rng, EXTRA_OPERATIONS) : null;
  const op = extra ? { operation: extra.operation, body: extra.input } : pick(rng, ops);
  const tag = extra ? `/graphql ${extra.name}` : undefined;
  const other = pick(rng, ctx.orgs);
  const variables = () => {
    const v: Record<string, unknown> = {
      projectId: pick(rng, [me.projectId, junk(rng, 10), 'a\u0000b', 42, null]),
      // A deletion gets the spare project: the one the later probes read stays (as pathFor does for DELETE routes).
      id: pick(rng, [
        me.jobId,
        /^\s*mutation\b.*\bdelete/is.test(op.operation!) ? me.spareId : me.projectId,
        junk(rng, 5),
        ['x'],
      ]),
    };
    if (rng() < 0.5)
      v.input = pick(rng, [
        validBody(rng, op.body, ctx.fx),
        pick(rng, WRONG_TYPES)(),
        { ...validBody(rng, op.body, ctx.fx), extra: 1 },
      ]);
    if (rng() < 0.2) v.auditId = pick(rng, ['\u0000', me.auditId, 7]);
    if (rng() < 0.1) v.days = pick(rng, [-1, 1e9, '30', 1.5]);
    if (extra) {
      const audit = () => pick(rng, [me.auditId, me.headAuditId, other.headAuditId, junk(rng, 6), null, 7]);
      Object.assign(v, {
        projectId: rng() < 0.7 ? me.projectId : v.projectId,
        code: pick(rng, [pick(rng, CHECK_CODES), pick(rng, CHECK_CODES), junk(rng, 8), 42, null]),
        base: audit(),
        head: audit(),
        auditId: rng() < 0.5 ? audit() : v.auditId,
        kind: pick(rng, ['ISSUES', 'PAGES', 'KEYWORDS', 'NOPE', 1]),
        format: pick(rng, ['CSV', 'JSON', 'XLSX', 'XML', null]),
        rows: pick(rng, ['ISSUES', 'PAGES', 'x']),
        after: pick(rng, [
          null,
          null,
          junk(rng, 12),
          Buffer.from(junk(rng, 20)).toString('base64url'),
          forgedCursor(rng),
        ]),
        size: pick(rng, [1, 2, 2000, 5000, 5001, 0, -1, 1e9, 1.5]),
      });
    }
    return v;
  };
  const variant = int(rng, 8);
  if (variant <= 1) {
    headers['content-type'] = 'application/json';
    return {
      category: 'graphql',
      endpoint: tag,
      method: 'POST',
      path: '/graphql',
      headers,
      body: json({ query: op.operation, variables: variables() }),
    };
  }
  if (variant === 2) {
    headers['content-type'] = 'application/json';
    return {
      category: 'graphql',
      method: 'POST',
      path: '/graphql',
      headers,
      body: json({
        query: pick(rng, GRAPHQL_DOCS),
        variables: rng() < 0.5 ? variables() : pick(rng, ['str', 1, [], null]),
      }),
    };
  }
  if (variant === 3) {
    headers['content-type'] = pick(rng, [
      'application/json',
      'text/plain',
      'application/graphql',
      'application/x-www-form-urlencoded',
    ]);
    return {
      category: 'graphql',
      method: 'POST',
      path: '/graphql',
      headers,
      body: pick(rng, [
        () => json([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
        () => json({ query: 42 }),
        () => json({}),
        () => json({ query: '{ __typename }', operationName: junk(rng, 5) }),
        () => '{"query":',
        () => deepJson(rng),
        () => json({ query: `{ __typename }${' '.repeat(MiB)}` }),
      ])(),
    };
  }
  if (variant === 4) {
    const q = enc(rng() < 0.5 ? op.operation! : pick(rng, GRAPHQL_DOCS));
    const path = pick(rng, [
      `/graphql?query=${q}&query=${q}`,
      `/graphql?query=${q}&variables=${enc(junk(rng, 10))}`,
      `/graphql?query=${q}&variables=${enc(json(variables()))}`,
      '/graphql?query=',
      `/graphql?variables=%7B%7D`,
      `/graphql?query=%00`,
      `/graphql?query=%C3%28`,
      `/graphql?query[]=1`,
      `/graphql?extensions=${enc('{"persistedQuery":{"version":1,"sha256Hash":"00"}}')}`,
    ]);
    if (rng() < 0.5)
      headers.accept = pick(rng, [
        'text/html,application/xhtml+xml,*/*;q=0.8',
        'application/graphql-response+json',
        'application/json',
        'image/png',
      ]);
    if (auth === 'valid' && headers.cookie && rng() < 0.5) headers['apollo-require-preflight'] = 'true';
    return { category: 'graphql', method: 'GET', path, headers };
  }
  if (variant === 5) {
    headers['content-type'] = 'application/json';
    return {
      category: 'graphql',
      endpoint: tag,
      method: 'POST',
      path: '/graphql',
      headers,
      body: json({
        query: op.operation,
        variables: { ...variables(), [junk(rng, 5) || 'x']: 'x'.repeat(pick(rng, [10, 100_000])) },
      }),
    };
  }
  if (variant === 6) {
    headers['content-type'] = 'application/json';
    return {
      category: 'graphql',
      method: pick(rng, ['PUT', 'DELETE', 'PATCH']),
      path: '/graphql',
      headers,
      body: json({ query: '{ __typename }' }),
    };
  }
  headers['content-type'] = 'application/json';
  const text = json({ query: op.operation, variables: { projectId: 'XX' } });
  return {
    category: 'graphql',
    endpoint: tag,
    method: 'POST',
    path: '/graphql',
    headers,
    body: Buffer.concat([
      Buffer.from(text.slice(0, text.indexOf('XX'))),
      Buffer.from([0x00, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from(text.slice(text.indexOf('XX') + 2)),
    ]),
  };
}

const AUTH_PATHS = [
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/get-session',
  '/api/auth/sign-out',
  '/api/auth/nothing-here',
  '/api/auth/organization/list',
];
function authRequest(ctx: Context): FuzzRequest {
  const { rng } = ctx;
  const path = pick(rng, AUTH_PATHS);
  const headers: Record<string, string> = { origin: pick(rng, [ctx.origin, ctx.origin, 'https://evil.example']) };
  if (rng() < 0.3)
    headers.cookie = pick(rng, [
      'better-auth.session-token=forged',
      pick(rng, ctx.orgs).cookie,
      `x=${'c'.repeat(3000)}`,
    ]);
  const method = path === '/api/auth/get-session' || rng() < 0.1 ? 'GET' : 'POST';
  if (method === 'GET') return { category: 'auth', method, path: `${path}?${enc(junk(rng, 10))}=1`, headers };
  headers['content-type'] = pick(rng, [
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
  ]);
  const body = pick(rng, [
    () => json({ email: `${junk(rng, 10)}@example.test`, password: junk(rng, 12), name: junk(rng, 8) }),
    () => json({ email: 'a\u0000@example.test', password: 'p\u0000assword-123', name: '\u0000' }),
    () => json({ email: 42, password: [], name: {} }),
    () => json({ email: 'x'.repeat(100_000) + '@example.test', password: 'y'.repeat(100_000) }),
    () => deepJson(rng),
    () => '{"email":',
    () =>
      json({
        email: `fuzz-${int(rng, 1e9)}@example.test`,
        password: 'correct-horse-battery',
        name: 'F',
        callbackURL: 'javascript:alert(1)',
        extra: { a: 1 },
      }),
  ])();
  return { category: 'auth', method, path, headers, body };
}

// ---------------------------------------------------------------- expectations per response

const REST_CODES: Record<number, string[]> = {
  400: ['BAD_USER_INPUT'],
  401: ['UNAUTHENTICATED'],
  403: ['FORBIDDEN', 'PLAN_LIMIT'],
  404: ['NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  408: ['REQUEST_TIMEOUT'],
  413: ['PAYLOAD_TOO_LARGE'],
  414: ['URI_TOO_LONG'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  431: ['URI_TOO_LONG'],
};
/** Stack frames, source paths and PostgreSQL error text: none may reach a client. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\n\s+at \S|\bat (?:async )?[\w.$<>[\]]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/],
  ['source path', /\.(?:ts|js|mjs|cjs):\d+|node_modules|\/work\/|\/dist\//],
  [
    'SQL',
    new RegExp(
      String.raw`syntax error at or near|invalid input syntax|invalid message format|` +
        String.raw`violates [\w ]*constraint|relation "[^"]*" does not exist|column "[^"]*" does not exist|` +
        String.raw`\bSELECT\b[^"]{0,200}\bFROM\b|\bINSERT INTO\b|duplicate key value|` +
        String.raw`invalid byte sequence`,
      'i',
    ),
  ],
  ['internal error text', /Maximum call stack|RangeError|TypeError|FST_ERR|ECONNREFUSED|MikroORM|Knex/],
];

interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function checkResponse(req: FuzzRequest, res: Outcome): string[] {
  const problems: string[] = [];
  const where = `${req.category} ${req.method} ${req.path.slice(0, 120)}`;
  if (res.status >= 500) problems.push(`${where}: ${res.status} ${res.body.slice(0, 200)}`);
  if (!res.headers['x-request-id']) problems.push(`${where}: no X-Request-Id (${res.status})`);
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const accepted = String(req.headers?.['accept-encoding'] ?? '').toLowerCase();
  if (encoding && encoding !== 'identity' && !accepted.split(',').some((a) => a.split(';')[0].trim() === encoding))
    problems.push(`${where}: content-encoding ${encoding}, which the request did not accept (${accepted || 'none'})`);
  for (const [what, re] of LEAKS)
    if (re.test(res.body)) problems.push(`${where}: ${what} in body: ${res.body.slice(0, 300)}`);
  const type = String(res.headers['content-type'] ?? '');
  const surface = req.path.startsWith('/graphql') ? 'graphql' : req.path.startsWith('/api/auth/') ? 'auth' : 'rest';
  if (surface === 'auth') {
    if (res.body && type.includes('json')) {
      try {
        JSON.parse(res.body);
      } catch {
        problems.push(`${where}: unparseable JSON`);
      }
    }
    return problems;
  }
  if (res.status < 400) {
    if (type.includes('json')) {
      try {
        const parsed = JSON.parse(res.body) as { errors?: { extensions?: { code?: string } }[] } | null;
        // A field error is answered 200 in GraphQL; an INTERNAL one is a 500 in all but name.
        if (surface === 'graphql' && parsed?.errors?.some((e) => e?.extensions?.code === 'INTERNAL'))
          problems.push(`${where}: ${res.status} with an INTERNAL GraphQL error: ${res.body.slice(0, 200)}`);
      } catch {
        problems.push(`${where}: ${res.status} with unparseable JSON`);
      }
    }
    if (
      surface === 'graphql' &&
      type.startsWith('text/html') &&
      req.method === 'GET' &&
      /[?&](query|variables|operationName|extensions)(=|&|$)/.test(req.path)
    ) {
      problems.push(`${where}: a GraphQL GET answered with HTML`);
    }
    return problems;
  }
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    problems.push(`${where}: ${res.status} error body is not JSON: ${JSON.stringify(res.body.slice(0, 400))}`);
    return problems;
  }
  // Refused by Node's HTTP parser before any routing (request line or headers over 16 KB): one shape for all paths.
  if (surface === 'graphql' && res.status !== 431) {
    const errors = body?.errors;
    if (
      !Array.isArray(errors) ||
      !errors.length ||
      !errors.every((e: any) => typeof e?.message === 'string' && typeof e?.extensions?.code === 'string')
    ) {
      problems.push(`${where}: ${res.status} not in GraphQL error shape: ${res.body.slice(0, 160)}`);
    }
    return problems;
  }
  const codes = REST_CODES[res.status];
  if (typeof body?.error !== 'string' || typeof body?.code !== 'string')
    problems.push(`${where}: ${res.status} not in { error, code } shape: ${res.body.slice(0, 160)}`);
  else if (!codes?.includes(body.code))
    problems.push(`${where}: ${res.status} with code ${body.code} (documented: ${codes?.join('/') ?? 'none'})`);
  if (
    res.status === 400 &&
    !(
      Array.isArray(body?.details) &&
      body.details.length &&
      body.details.every((d: any) => typeof d?.path === 'string' && typeof d?.message === 'string')
    )
  ) {
    problems.push(`${where}: 400 without details: ${res.body.slice(0, 160)}`);
  }
  return problems;
}

// ---------------------------------------------------------------- transport

/** A raw request's parsed answer, or (outcome null) what happened instead, for the failure message. */
type RawResult = { outcome: Outcome; what?: undefined } | { outcome: null; what: string };

/**
 * A chunked body's data (bytes as latin1 text): each chunk's size line and the CRLF after its data dropped, up to the
 * last chunk. (Dropping size lines alone left a CRLF wherever a chunk ended: inside a JSON string, the body no longer
 * parsed.)
 */
function unchunked(text: string): string {
  let data = '';
  for (let at = 0; ;) {
    const eol = text.indexOf('\r\n', at);
    const size = eol < 0 ? 0 : parseInt(text.slice(at, eol).split(';')[0], 16);
    if (!(size > 0)) return data;
    data += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

function sendRaw(port: number, raw: Buffer): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    let timedOut = false;
    let error: string | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, 10_000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!match) {
        const what =
          `${text.length} bytes back (${JSON.stringify(text.slice(0, 40))}), ` +
          `${socket.bytesWritten} of ${raw.length} sent` +
          (error ? `, socket error ${error}` : '') +
          (timedOut ? ', no close within 10 s' : '');
        return resolve({ outcome: null, what });
      }
      const headers: Record<string, string> = {};
      for (const line of match[2].split('\r\n')) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      // The first response only: bytes the request sent past its end are a second request, with its own answer.
      const length = Number(headers['content-length'] ?? Number.NaN);
      const rest = Number.isInteger(length) ? match[3].slice(0, length) : match[3];
      const bytes = /chunked/i.test(headers['transfer-encoding'] ?? '') ? unchunked(rest) : rest;
      resolve({ outcome: { status: Number(match[1]), headers, body: Buffer.from(bytes, 'latin1').toString('utf8') } });
    });
  });
}

/**
 * A response body as text, decoded as a browser would: JSON over 1 KB is compressed when the request accepts it (the
 * bad-headers category sends Accept-Encoding), and undici's Pool hands the bytes over as they came. An encoding this
 * cannot decode stays raw, and checkResponse reports an encoding the request did not accept.
 */
function decodedBody(headers: Outcome['headers'], bytes: Buffer): string {
  const encoding = String(headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  try {
    if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
    if (encoding === 'deflate') return inflateSync(bytes).toString('utf8');
  } catch {
    // Not what the header says: left raw, and its checks fail on it.
  }
  return bytes.toString('utf8');
}

// ---------------------------------------------------------------- setup

function fixtureSite(): Promise<{ port: number; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const url = req.url ?? '/';
    if (url.startsWith('/robots.txt'))
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n');
    if (url.startsWith('/sitemap'))
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          '<?xml version="1.0"?><urlset ' +
            'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://fuzz.test/a</loc></url></urlset>',
        );
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html lang="en"><head><title>Fuzz fixture</title><meta name="description" content="A ' +
          'page."></head><body><h1>Hi</h1><a href="/a">a</a></body></html>',
      );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        requests: () => requests,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

async function createPrincipal(pool: Pool, origin: string, fx: Fixture, n: number): Promise<Principal> {
  const call = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      headers: { origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return { json: JSON.parse(text || 'null'), headers: res.headers };
  };
  const email = `fuzz-${n}-${Date.now()}@example.test`;
  // Sign-up and key through the shared actors (support/actors.ts), over this pool.
  const door: Door = {
    origin,
    async post(path, body, headers = {}) {
      const res = await pool.request({
        method: 'POST',
        path,
        headers: { origin, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      return { status: res.statusCode, text, json: parseJson(text), setCookies };
    },
  };
  const { cookie } = await signUp(door, { email, password: 'correct-horse-battery-staple', name: `Fuzz ${n}` });
  const { key } = await createApiKey(door, { cookie }, 'fuzz');
  const project = (
    await call(
      'POST',
      '/api/projects',
      { cookie },
      { url: `http://${PINNED[n % PINNED.length]}:${fx.port}/`, name: `Fuzz ${n}` },
    )
  ).json.project;
  const spare = (
    await call(
      'POST',
      '/api/projects',
      { cookie },
      { url: `http://c${(n % 3) + 1}.fuzz.test:${fx.port}/`, name: `Spare ${n}` },
    )
  ).json.project;
  await call('POST', `/api/projects/${project.id}/keywords`, { cookie }, { keywords: [`fuzz ${n}`] });
  // Two completed audits, one after the other (a start while one runs answers the running one).
  const audit = async () => {
    const started = (await call('POST', `/api/v1/projects/${project.id}/audit`, { authorization: `Bearer ${key}` }))
      .json;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      const { audit: state } = (
        await call('GET', `/api/v1/projects/${project.id}/audit?auditId=${started.auditId}`, {
          authorization: `Bearer ${key}`,
        })
      ).json;
      if (state?.status === 'COMPLETED') return started as { jobId: string; auditId: string };
      if (['FAILED', 'CANCELLED'].includes(state?.status)) throw new Error(`fuzz ${n}: audit ${state.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`fuzz ${n}: the audit did not complete within 120 s`);
  };
  const first = await audit();
  const second = await audit();
  return {
    cookie,
    key,
    projectId: project.id,
    spareId: spare.id,
    jobId: second.jobId,
    auditId: first.auditId,
    headAuditId: second.auditId,
  };
}

/**
 * Forged export cursors, sent on purpose rather than by chance: made-up XLSX state, a real cursor altered, a real
 * cursor for another format or audit. Each must be BAD_USER_INPUT naming the cursor, with X-Request-Id, never INTERNAL.
 */
async function forgedCursorProbe(pool: Pool, me: Principal): Promise<{ sent: number; failures: string[] }> {
  const ask = async (variables: Record<string, unknown>) => {
    const res = await pool.request({
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${me.key}` },
      body: JSON.stringify({
        query: URL_TABLE_PIECE,
        variables: { projectId: me.projectId, auditId: me.auditId, format: 'XLSX', size: 1, ...variables },
      }),
    });
    const text = await res.body.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      // reported below
    }
    return { status: res.statusCode, requestId: res.headers['x-request-id'], body, text };
  };
  const failures: string[] = [];
  const first = await ask({});
  const cursor: string | undefined = first.body?.data?.audit?.urlTableExport?.nextCursor ?? undefined;
  if (!cursor) return { sent: 1, failures: [`the first piece (no after) gave no cursor: ${first.text.slice(0, 200)}`] };
  const [payload, mac] = cursor.split('.');
  const flip = (t: string, at: number) => t.slice(0, at) + (t[at] === 'A' ? 'B' : 'A') + t.slice(at + 1);
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const cases: [string, Record<string, unknown>][] = [
    ['made-up XLSX state', { after: b64({ table: 'x', rows: 0, xlsx: { crc: 2 ** 40, raw: -1, packed: 1e300 } }) }],
    [
      'made-up state, real MAC',
      { after: `${b64({ table: 'x', rows: 5, xlsx: { crc: 1, raw: 2, packed: 3 } })}.${mac}` },
    ],
    ['altered payload', { after: `${flip(payload, 2)}.${mac}` }],
    ['altered MAC', { after: `${payload}.${flip(mac, 0)}` }],
    ['another format', { after: cursor, format: 'CSV' }],
    ['another audit', { after: cursor, auditId: me.headAuditId }],
  ];
  for (const [what, vars] of cases) {
    const res = await ask(vars);
    const error = res.body?.errors?.[0];
    if (res.status >= 500 || !res.requestId || error?.extensions?.code !== 'BAD_USER_INPUT')
      failures.push(`${what}: ${res.status}, X-Request-Id ${res.requestId ?? 'none'}, ${res.text.slice(0, 200)}`);
    else if (!/not a valid cursor/.test(error.message)) failures.push(`${what}: unclear message "${error.message}"`);
  }
  return { sent: cases.length + 1, failures };
}

// ---------------------------------------------------------------- the drill

const CATEGORIES = [
  'wrong-types',
  'missing-fields',
  'extra-fields',
  'huge-strings',
  'nul-utf8',
  'bad-json',
  'content-types',
  'oversized-bodies',
  'bad-query',
  'bad-path-ids',
  'deep-json',
  'bad-headers',
  'wrong-method',
] as const;
/** Relative weights: the expensive ones (1 MB bodies, raw sockets) are rarer. */
const WEIGHTS: Record<string, number> = {
  'huge-strings': 2,
  'oversized-bodies': 1,
  'deep-json': 3,
  'huge-headers-raw': 2,
  graphql: 14,
  auth: 6,
};

export const drill: Drill = {
  description:
    '≥10,000 malformed requests over every REST endpoint, /graphql and /api/auth: 0 5xx, 0 leaks, documented shapes',
  async run({ quick, log }) {
    const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const total = Number(process.env.FUZZ_REQUESTS ?? (quick ? 1_000 : 12_000));
    const rng = prng(seed);
    log(`seed ${seed} (FUZZ_SEED=${seed} replays this run), ${total} requests`);
    const site = await fixtureSite();
    const fx: Fixture = { port: site.port };
    // A worker group for the set-up only (the audits comparisons and exports read), stopped before the fuzzing.
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        LOG_LEVEL: 'warn',
        DEFAULT_PLAN: 'ENTERPRISE',
        // Every request from this one IP: per-IP limits high enough that validation, not the limiter, answers.
        ANONYMOUS_RATE_PER_MINUTE: '1000000',
        AUTH_FAILURES_PER_MINUTE: '1000000',
        SAFE_HTTP_ALLOW: '127.0.0.1/32',
        SAFE_HTTP_RESOLVE: PINNED.map((h) => `${h}=127.0.0.1`).join(','),
      },
    });
    const { expect, result } = expectations();
    const api = platform.apis[0];
    const port = Number(new URL(api.baseUrl).port);
    const pool = new Pool(api.baseUrl, { connections: 8, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const started = Date.now();
    try {
      const orgs = await Promise.all(
        Array.from({ length: quick ? 3 : 12 }, (_, i) => createPrincipal(pool, api.baseUrl, fx, i)),
      );
      await platform.workers[0].stop();
      const eps = endpoints();
      log(
        `${eps.length} REST endpoints from the route tables ` +
          `(${eps.map((e) => `${e.method} ${e.url}`).join(', ')}), /graphql, /api/auth/*; ${orgs.length} ` +
          `organizations`,
      );
      const ctx: Context = { rng, fx, origin: api.baseUrl, orgs };

      // Build the whole request list first: the sequence depends on the seed only, not on response timing.
      const kinds: [string, number][] = [
        ...CATEGORIES.map((c) => [c, WEIGHTS[c] ?? 8] as [string, number]),
        ['huge-headers-raw', WEIGHTS['huge-headers-raw']],
        ['graphql', WEIGHTS.graphql],
        ['auth', WEIGHTS.auth],
      ];
      const weightSum = kinds.reduce((s, [, w]) => s + w, 0);
      const requests: FuzzRequest[] = [];
      for (let i = 0; i < total; i++) {
        let r = rng() * weightSum;
        const kind = kinds.find(([, w]) => (r -= w) < 0)?.[0] ?? 'bad-json';
        if (kind === 'graphql') requests.push(graphqlRequest(ctx, eps));
        else if (kind === 'auth') requests.push(authRequest(ctx));
        else if (kind === 'huge-headers-raw') requests.push(rawRequest(ctx, pick(rng, eps)));
        else requests.push(restRequest(ctx, pick(rng, eps), kind));
      }

      const byCategory: Record<string, number> = {};
      const statuses: Record<string, number> = {};
      const byEndpoint: Record<string, number> = {};
      const failures: string[] = [];
      let networkErrors = 0;
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const req = requests[next++];
          byCategory[req.category] = (byCategory[req.category] ?? 0) + 1;
          const key = req.endpoint ?? (req.path.startsWith('/graphql') ? '/graphql' : '/api/auth/*');
          let outcome: Outcome | null;
          let rawWhat = '';
          if (req.raw) {
            const sent = await sendRaw(port, req.raw);
            outcome = sent.outcome;
            rawWhat = sent.what ?? '';
          } else {
            outcome = await pool
              .request({ method: req.method as never, path: req.path, headers: req.headers, body: req.body })
              .then(async (res) => ({
                status: res.statusCode,
                headers: res.headers,
                body: decodedBody(res.headers, Buffer.from(await res.body.arrayBuffer())),
              }))
              .catch((err: Error) => {
                // A server may close the connection after answering an oversized upload; the answer is still checked
                // when it came.
                failures.push(`${req.category} ${req.method} ${req.path.slice(0, 100)}: no response (${err.message})`);
                networkErrors++;
                return null;
              });
          }
          if (!outcome) {
            if (req.raw)
              failures.push(
                `${req.category}: no parseable response to a raw request ` +
                  `(${req.raw.subarray(0, 60).toString('latin1')}…): ${rawWhat}`,
              );
            statuses['none'] = (statuses['none'] ?? 0) + 1;
            continue;
          }
          statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
          byEndpoint[key] = (byEndpoint[key] ?? 0) + 1;
          failures.push(...checkResponse(req, outcome));
        }
      };
      let lastReport = Date.now();
      const progress = setInterval(() => {
        if (Date.now() - lastReport > 5_000) {
          lastReport = Date.now();
          log(`${next}/${requests.length} sent`);
        }
      }, 1_000);
      await Promise.all(Array.from({ length: 8 }, worker));
      clearInterval(progress);
      const seconds = (Date.now() - started) / 1000;

      const forged = await forgedCursorProbe(pool, orgs[0]);
      expect(
        forged.failures.length === 0,
        `every forged export cursor refused as BAD_USER_INPUT with X-Request-Id, never INTERNAL (${forged.sent} ` +
          `sent; ${forged.failures.slice(0, 3).join(' | ')})`,
      );
      const health = await fetch(`${api.baseUrl}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      await new Promise((r) => setTimeout(r, 500));
      const logs = platform.logs();
      const alreadySent = (logs.match(/FST_ERR_REP_ALREADY_SENT|Reply was already sent/g) ?? []).length;
      const stackLines = (logs.match(/\\n\s+at |\n\s+at \S/g) ?? []).length;
      if (process.env.FUZZ_LOG_FILE) writeFileSync(process.env.FUZZ_LOG_FILE, logs);
      // better-auth logs its own refusals (untrusted Origin, callbackURL) at error level, without a stack: expected
      // here.
      const errorLines = logs
        .split('\n')
        .filter(
          (l) => /"level":(50|60)/.test(l) && !/"component":"better-auth","msg":"Invalid (origin|callbackURL)/.test(l),
        );

      const fiveHundreds = Object.entries(statuses)
        .filter(([s]) => Number(s) >= 500)
        .reduce((n, [, c]) => n + c, 0);
      expect(
        requests.length >= (quick ? 1_000 : 10_000),
        `at least ${quick ? '1,000' : '10,000'} requests sent (sent ${requests.length})`,
      );
      expect(fiveHundreds === 0, `0 responses 5xx (got ${fiveHundreds})`);
      expect(
        failures.length === 0,
        `every response in its documented shape, with X-Request-Id and no leak (${failures.length} did ` +
          `not; first: ${failures.slice(0, 5).join(' | ')})`,
      );
      expect(health === 200, `the server stays up (/healthz after the run: ${health})`);
      expect(api.alive(), 'the API process is still running');
      expect(alreadySent === 0, `no FST_ERR_REP_ALREADY_SENT in the server logs (found ${alreadySent})`);
      expect(stackLines === 0, `no stack lines in the server logs (found ${stackLines})`);
      expect(
        errorLines.length === 0,
        `no error-level log lines (found ${errorLines.length}; first: ${errorLines[0]?.slice(0, 300)})`,
      );
      const unfuzzed = eps.map((e) => `${e.method} ${e.url}`).filter((e) => (byEndpoint[e] ?? 0) < (quick ? 5 : 100));
      expect(
        unfuzzed.length === 0,
        `every endpoint of the route tables fuzzed (${quick ? 5 : 100}+ requests each); too ` +
          `few: ${unfuzzed.join(', ')}`,
      );

      if (!quick) {
        const rare = EXTRA_OPERATIONS.filter((o) => (byEndpoint[`/graphql ${o.name}`] ?? 0) < 20).map((o) => o.name);
        expect(
          rare.length === 0,
          `every GraphQL operation no route replays fuzzed (20+ requests each); too few: ${rare.join(', ')}`,
        );
      }

      const uniqueFailures = [...new Set(failures.map((f) => f.replace(/[0-9a-f-]{36}/g, ':id')))];
      for (const f of uniqueFailures.slice(0, 30)) log(`  ✗ ${f.slice(0, 400)}`);
      log(`sent ${requests.length} in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(statuses)}`);
      return result({
        seed,
        requests: requests.length,
        seconds: Number(seconds.toFixed(1)),
        endpoints: eps.length + 1 + AUTH_PATHS.length,
        extraGraphqlOperations: EXTRA_OPERATIONS.length,
        forgedExportCursors: forged.sent - 1,
        organizations: orgs.length,
        byCategory,
        byEndpoint,
        statuses,
        failures: failures.length,
        networkErrors,
        fixtureRequests: site.requests(),
        logLines: logs.split('\n').length,
        alreadySentWarnings: alreadySent,
        stackLinesInLogs: stackLines,
        firstFailures: uniqueFailures.slice(0, 10),
      });
    } finally {
      await pool.close().catch(() => undefined);
      await platform.stop();
      await site.close();
    }
  },
};
