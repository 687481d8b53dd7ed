import type { FastifySchema } from 'fastify';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Surface } from '../http/http-guard.js';
import { emptyBody } from '../rest/route-schemas.js';
import { HEADERS } from './components.js';

/**
 * The options of @fastify/swagger for each surface's OpenAPI 3.1 document. The plugin derives paths,
 * parameters, request bodies, responses and components from the route schemas Fastify validates with;
 * this file adds what a route schema does not say: the prose (info, access notes, error descriptions),
 * tags and operation ids, response headers, and the 408 and 503 every operation may answer.
 */

/** What the generator needs of a route-table entry (RestRoute and StreamRoute both fit). */
export interface DocumentedRoute {
  method: string;
  url: string;
  surface: Surface;
  summary: string;
  schema?: FastifySchema;
  bodyLimit?: number;
}

export type DocumentSurface = 'A' | 'B';

export interface OpenApiOptions {
  /** Default request body limit in bytes (BODY_LIMIT_BYTES). */
  bodyLimit: number;
  /** Unauthenticated requests per client IP and minute. */
  anonymousRate: number;
}

type Json = Record<string, any>;

/** Base path of each surface: the document's server URL; paths in the document are relative to it. */
export const SURFACE_BASE: Record<DocumentSurface, string> = { A: '/api/v1', B: '/api' };
export const OPENAPI_PATHS: Record<DocumentSurface, string> = { A: '/api/v1/openapi.json', B: '/api/openapi.json' };

const SECURITY_SCHEME: Record<DocumentSurface, string> = { A: 'apiKey', B: 'sessionCookie' };

const RATES = {
  A: 'FREE 10, PRO 60, ENTERPRISE 120 requests per minute per organization',
  B: 'FREE 10, PRO 60, ENTERPRISE 300 requests per minute per organization',
};

/** Fastify's `:param` -> OpenAPI's `{param}`. */
export const toOpenApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The surface whose document lists a route: the free tools belong to Surface B's. */
export const documentSurfaceOf = (route: { surface: Surface }): DocumentSurface | null =>
  route.surface === 'A' ? 'A' : route.surface === 'B' || route.surface === 'TOOLS' ? 'B' : null;

function tagOf(url: string): string {
  if (url.includes('/tools/')) return 'Free tools';
  if (url.includes('/jobs/')) return 'Jobs';
  for (const [segment, tag] of [
    ['/audit', 'Audits'],
    ['/keywords', 'Keywords'],
    ['/competitors', 'Competitors'],
    ['/reports', 'Reports'],
    ['/technical', 'Technical'],
  ]) {
    if (url.includes(segment)) return tag;
  }
  return 'Projects';
}

function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')),
    )
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

const isWrite = (method: string) => method !== 'GET';

function accessNote(route: DocumentedRoute, options: OpenApiOptions): string {
  if (route.surface === 'TOOLS') {
    return (
      `**Public**: no authentication. Limited per client IP to ${options.anonymousRate} requests per minute; ` +
      "with a session cookie the organization's Surface B allowance applies instead."
    );
  }
  const plans = isWrite(route.method)
    ? '**Plans**: ENTERPRISE only (FREE and PRO get 403: PRO is read-only).'
    : '**Plans**: PRO and ENTERPRISE (FREE gets 403: free tools only).';
  const origin =
    route.surface === 'B' && isWrite(route.method)
      ? ' Cookie-authenticated writes must come from a trusted Origin.'
      : '';
  return `${plans}${origin} Rate limit: ${RATES[route.surface === 'A' ? 'A' : 'B']}.`;
}

function errorDescription(status: number, route: DocumentedRoute, options: OpenApiOptions): string {
  const write = isWrite(route.method);
  switch (status) {
    case 400:
      return (
        'Invalid input: a path, query or body value failed validation (`details` names each field), or the ' +
        'request was refused as invalid.'
      );
    case 401:
      return route.surface === 'A'
        ? 'Missing, invalid or revoked API key.'
        : 'No valid session cookie: `{ "error": "Unauthorized. Please sign in.", "code": "UNAUTHENTICATED" }`.';
    case 403:
      if (route.surface === 'TOOLS') return 'A session-cookie request from an untrusted Origin (code FORBIDDEN).';
      return [
        write
          ? 'The plan does not allow writes (FREE, PRO), code FORBIDDEN'
          : 'The plan has no API access (FREE), code FORBIDDEN',
        write && route.method === 'POST' ? '; or a plan quota is reached, code PLAN_LIMIT' : '',
        route.surface === 'B' && write ? '; or the request came from an untrusted Origin' : '',
        '.',
      ].join('');
    case 404:
      return (
        'Not found: the resource does not exist or belongs to another organization (the two are ' +
        'indistinguishable).'
      );
    case 408:
      return (
        'The request (its headers and body) was not received in time (code REQUEST_TIMEOUT); the connection is ' +
        'closed. Answered before any route runs.'
      );
    case 413:
      return `Request body larger than ${route.bodyLimit ?? options.bodyLimit} bytes (code PAYLOAD_TOO_LARGE).`;
    case 415:
      return 'Content-Type is not application/json (code UNSUPPORTED_MEDIA_TYPE).';
    case 429:
      return 'Rate limit exceeded (code RATE_LIMITED): wait `Retry-After` seconds.';
    case 500:
      return 'Unexpected failure: a generic message and the `requestId` to quote; never internals.';
    case 503:
      return (
        'PostgreSQL or Redis is unreachable (code UNAVAILABLE): retry after `Retry-After` seconds. Answered ' +
        'within about a second; the service recovers by itself.'
      );
    default:
      return 'Error.';
  }
}

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = {
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};

function responseHeaders(status: number, csv: boolean): Json {
  const headers: Json = { 'X-Request-Id': header('X-Request-Id') };
  // 401, 408, 413, 415 (and schema-invalid 400s) are answered before the rate limiter runs.
  if (![401, 408, 413, 415].includes(status)) Object.assign(headers, RATE_HEADERS);
  if (status === 429 || status === 503) headers['Retry-After'] = header('Retry-After');
  if (csv) headers['Content-Disposition'] = header('Content-Disposition');
  return headers;
}

function curlExamples(surface: DocumentSurface): string {
  if (surface === 'A') {
    return [
      '```sh',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects"',
      'curl -X POST -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects/$PROJECT_ID/audit"   # ' +
        '202 { message, jobId, auditId }',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/jobs/$JOB_ID"',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects/$PROJECT_ID/audit"',
      '```',
    ].join('\n');
  }
  return [
    '```sh',
    "curl -c cookies.txt -H 'Content-Type: application/json' -d " +
      '\'{"email":"me@example.com","password":"..."}\' "$BASE_URL/api/auth/sign-in/email"',
    'curl -b cookies.txt "$BASE_URL/api/projects"',
    'curl -b cookies.txt -H \'Content-Type: application/json\' -d \'{"url":"https://shop.example.com"}\' ' +
      '"$BASE_URL/api/projects"',
    'curl -b cookies.txt -H \'Content-Type: application/json\' -d \'{"keywords":["oak dining table"]}\' ' +
      '"$BASE_URL/api/projects/$PROJECT_ID/keywords"',
    'curl -b cookies.txt -OJ "$BASE_URL/api/projects/$PROJECT_ID/reports?format=csv"',
    'curl -H \'Content-Type: application/json\' -d \'{"url":"https://example.com"}\' ' +
      '"$BASE_URL/api/tools/meta-tags"   # no authentication',
    '```',
  ].join('\n');
}

function infoDescription(surface: DocumentSurface, options: OpenApiOptions): string {
  const auth =
    surface === 'A'
      ? '**Authentication**: every request sends `Authorization: Bearer <API_KEY>`. Owners and admins create ' +
        "keys in the web application's Settings (or with the GraphQL mutation `createApiKey`); at most 5 " +
        "active keys per organization. A key has the permissions of its organization's plan. Keep keys secret: " +
        'never in client-side code or public repositories.'
      : "**Authentication**: the session cookie `better-auth.session-token` issued by the web application's " +
        'sign-in (`POST /api/auth/sign-in/email` with `{ email, password }`; sign-up: `POST ' +
        '/api/auth/sign-up/email`). Browsers send it automatically; scripts send `Cookie: ' +
        'better-auth.session-token=<SESSION_TOKEN>` and `Content-Type: application/json`. Cookie-authenticated ' +
        'requests that change state must come from a trusted Origin (CSRF protection). The four `/api/tools/*` ' +
        'endpoints need no authentication. For scripts and integrations prefer Surface A (`/api/v1`, API keys).';
  const rates =
    surface === 'A'
      ? `Surface A: ${RATES.A}.`
      : `Surface B: ${RATES.B}; unauthenticated tool calls ${options.anonymousRate} per minute per client IP.`;
  return [
    surface === 'A'
      ? 'Surface A of the SEO audit platform: programmatic access with an API key. Versioned by the `/api/v1` ' +
        'path prefix.'
      : 'Surface B of the SEO audit platform: the session-cookie API used by the web application (no version ' +
        'segment), plus the free SEO tools.',
    '',
    auth,
    '',
    '**Plans**: FREE = free tools only (every project endpoint answers 403); PRO = read-only (GET; any write ' +
      'answers 403); ENTERPRISE = full access. Quotas per plan (projects, keywords and competitors per ' +
      'project, pages per audit) answer 403 with code `PLAN_LIMIT` when reached.',
    '',
    `**Rate limits**: fixed one-minute windows shared by every API process. ${rates} Failed ` +
      `authentication is limited per client IP. Every limited response carries \`RateLimit-Limit\`, ` +
      `\`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 adds \`Retry-After\` (seconds).`,
    '',
    '**Errors**: one shape, `{ "error": "<message>", "code": "<CODE>" }`, plus `details: [{ path, message ' +
      "}]` on validation errors and `requestId` on 500, for every refusal, the server framework's own " +
      'included. Unknown JSON fields in request bodies are rejected (400). A path asked with a method it does ' +
      'not list answers 405 `METHOD_NOT_ALLOWED` with an `Allow` header naming its methods; a request line and ' +
      'headers over 16 KB answer 431 `URI_TOO_LONG`. Every response carries `X-Request-Id`.',
    '',
    '**GraphQL**: the same domain API (and more) at `/graphql`; interactive explorer at `/graphql/explorer`.',
    '',
    '**Examples**',
    '',
    curlExamples(surface),
  ].join('\n');
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Projects: 'Websites tracked by the organization.',
  Audits: 'SEO audits: crawl, checks and scores; fix suggestions for their issues.',
  Jobs: 'Progress of queued audits.',
  Keywords: 'Tracked keywords and their ranking history.',
  Competitors: 'Competitor profiles and positions.',
  Reports: 'Audit reports and JSON/CSV exports.',
  Technical: 'Site facts and Core Web Vitals history.',
  'Free tools': 'Public SEO tools: meta tags, robots.txt, HTTP headers, XML sitemaps.',
};

const SCHEMA_PREFIX = '#/components/schemas/';

/** The component schemas the document refers to (directly or through other components), sorted by name. */
function usedSchemas(document: Json): Json {
  const all: Json = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_PREFIX)) {
        const name = v.slice(SCHEMA_PREFIX.length);
        if (!used.has(name)) {
          used.add(name);
          visit(all[name]);
        }
      } else visit(v);
    }
  };
  visit(document.paths);
  return Object.fromEntries([...used].sort().map((name) => [name, all[name]]));
}

const errorResponse = (status: number, route: DocumentedRoute, options: OpenApiOptions): Json => ({
  description: errorDescription(status, route, options),
  headers: responseHeaders(status, false),
  content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}Error` } } },
});

/** What the route schema cannot say about an operation: descriptions and headers of its responses, 408 and 503. */
function completeOperation(operation: Json, route: DocumentedRoute, options: OpenApiOptions): void {
  const responses: Json = operation.responses;
  for (const [code, response] of Object.entries<Json>(responses)) {
    const status = Number(code);
    if (status >= 300) {
      responses[code] = errorResponse(status, route, options);
      continue;
    }
    if (response.description === 'Default Response') response.description = status === 202 ? 'Accepted.' : 'Success.';
    response.headers = responseHeaders(status, 'text/csv' in (response.content ?? {}));
  }
  // Every endpoint may meet a client too slow to send its request (answered by Node's parser, before routing)...
  responses['408'] ??= errorResponse(408, route, options);
  // ... and an outage of PostgreSQL or Redis (the rate limiter and principals live there).
  responses['503'] ??= errorResponse(503, route, options);
  // Path parameters first (the plugin lists the query string's first).
  operation.parameters?.sort((a: Json, b: Json) => Number(a.in !== 'path') - Number(b.in !== 'path'));
  operation.responses = Object.fromEntries(
    Object.keys(responses)
      .sort()
      .map((code) => [code, responses[code]]),
  );
  // "No body" is a body the client may leave out (the plugin marks every body schema required).
  if (route.schema?.body === emptyBody) {
    operation.requestBody = {
      required: false,
      description: 'No body (or an empty JSON object).',
      content: { 'application/json': { schema: { type: 'object', maxProperties: 0 } } },
    };
  }
}

const routeKey = (method: string, url: string) => `${method} ${url}`;

/** @fastify/swagger's options for one surface's document; `routes` are the route tables (summaries, surfaces). */
export function swaggerOptions(
  surface: DocumentSurface,
  routes: readonly DocumentedRoute[],
  options: OpenApiOptions,
): FastifyDynamicSwaggerOptions {
  const base = SURFACE_BASE[surface];
  const mine = new Map(
    routes.filter((r) => documentSurfaceOf(r) === surface).map((r) => [routeKey(r.method, r.url), r]),
  );
  const tags = new Set<string>();
  return {
    // Both documents are generated by the same plugin registered twice: each under its own decorator.
    decorator: surface === 'A' ? 'openapiA' : 'openapiB',
    // Shared schemas are published under their $id (components.ts), not as def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title:
          surface === 'A'
            ? 'SEO Audit Platform API — Surface A (API key)'
            : 'SEO Audit Platform API — Surface B (session) and free tools',
        version: '1.0.0',
        description: infoDescription(surface, options),
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: base, description: surface === 'A' ? 'Surface A on this server' : 'Surface B on this server' }],
      security: [{ [SECURITY_SCHEME[surface]]: [] }],
      components: {
        headers: HEADERS as Json,
        securitySchemes:
          surface === 'A'
            ? { apiKey: { type: 'http', scheme: 'bearer', description: 'API key: `Authorization: Bearer <API_KEY>`.' } }
            : {
                sessionCookie: {
                  type: 'apiKey',
                  in: 'cookie',
                  name: 'better-auth.session-token',
                  description: 'Session cookie set by `POST /api/auth/sign-in/email`.',
                },
              },
      },
    },
    // Every route of the server reaches the plugin: the other surface's, GraphQL, auth and ops routes are hidden.
    transform: ({ schema, url, route }) => {
      const methods = ([] as string[]).concat(route.method);
      const own = methods.length === 1 ? mine.get(routeKey(methods[0], url)) : undefined;
      if (!own) return { schema: { hide: true } as FastifySchema, url };
      const path = toOpenApiPath(url.slice(base.length));
      const tag = tagOf(path);
      tags.add(tag);
      return {
        url,
        schema: {
          ...schema,
          summary: own.summary,
          tags: [tag],
          description: accessNote(own, options),
          operationId: operationId(own.method, path),
          ...(own.surface === 'TOOLS' ? { security: [] } : {}),
        } as FastifySchema,
      };
    },
    transformObject: (generated) => {
      const document = ('openapiObject' in generated ? generated.openapiObject : {}) as Json;
      for (const [path, operations] of Object.entries<Json>(document.paths)) {
        for (const [method, operation] of Object.entries<Json>(operations)) {
          completeOperation(
            operation,
            mine.get(routeKey(method.toUpperCase(), `${base}${path.replace(/\{(\w+)\}/g, ':$1')}`))!,
            options,
          );
        }
      }
      return {
        openapi: document.openapi,
        info: document.info,
        servers: document.servers,
        security: document.security,
        tags: [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
        paths: document.paths,
        components: {
          schemas: usedSchemas(document),
          headers: document.components.headers,
          securitySchemes: document.components.securitySchemes,
        },
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Surface A's OpenAPI document (@fastify/swagger, decorator of swaggerOptions('A')). */
    openapiA(): unknown;
    /** Surface B's OpenAPI document. */
    openapiB(): unknown;
  }
}
