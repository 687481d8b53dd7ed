import type { FastifySchema } from 'fastify';
import type { Surface } from '../http-guard.js';
import { emptyBody } from '../route-schemas.js';
import { COMPONENT_SCHEMAS, ErrorBody, HEADERS } from './components.js';

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

const COMPONENT_NAMES = new Map<unknown, string>(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [schema, name]));
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

/** Deep copy of a schema with every shared component replaced by a reference to it. */
function withRefs(node: unknown, used: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => withRefs(n, used));
  if (!node || typeof node !== 'object') return node;
  const name = COMPONENT_NAMES.get(node);
  if (name) {
    used.add(name);
    return { $ref: `#/components/schemas/${name}` };
  }
  return definition(node, used);
}

/** A schema's own keywords, with the components it contains referenced. */
const definition = (schema: object, used: Set<string>): Json => Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, withRefs(v, used)]));

const PARAM_DESCRIPTIONS: Record<string, string> = {
  id: 'Project id.',
  projectId: 'Project id.',
  jobId: 'Job id, as returned by POST .../audit.',
};

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
    .map((segment) => segment.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')))
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

const isWrite = (method: string) => method !== 'GET';

function accessNote(route: DocumentedRoute, options: OpenApiOptions): string {
  if (route.surface === 'TOOLS') {
    return (
      `**Public**: no authentication. Limited per client IP to ${options.anonymousRate} requests per minute; ` +
      'with a session cookie the organization\'s Surface B allowance applies instead.'
    );
  }
  const plans = isWrite(route.method)
    ? '**Plans**: ENTERPRISE only (FREE and PRO get 403: PRO is read-only).'
    : '**Plans**: PRO and ENTERPRISE (FREE gets 403: free tools only).';
  const origin = route.surface === 'B' && isWrite(route.method) ? ' Cookie-authenticated writes must come from a trusted Origin.' : '';
  return `${plans}${origin} Rate limit: ${RATES[route.surface === 'A' ? 'A' : 'B']}.`;
}

function errorDescription(status: number, route: DocumentedRoute, options: OpenApiOptions): string {
  const write = isWrite(route.method);
  switch (status) {
    case 400:
      return 'Invalid input: a path, query or body value failed validation (`details` names each field), or the request was refused as invalid.';
    case 401:
      return route.surface === 'A' ? 'Missing, invalid or revoked API key.' : 'No valid session cookie: `{ "error": "Unauthorized. Please sign in.", "code": "UNAUTHENTICATED" }`.';
    case 403:
      if (route.surface === 'TOOLS') return 'A session-cookie request from an untrusted Origin (code FORBIDDEN).';
      return [
        write ? 'The plan does not allow writes (FREE, PRO), code FORBIDDEN' : 'The plan has no API access (FREE), code FORBIDDEN',
        write && route.method === 'POST' ? '; or a plan quota is reached, code PLAN_LIMIT' : '',
        route.surface === 'B' && write ? '; or the request came from an untrusted Origin' : '',
        '.',
      ].join('');
    case 404:
      return 'Not found: the resource does not exist or belongs to another organization (the two are indistinguishable).';
    case 408:
      return 'The request (its headers and body) was not received in time (code REQUEST_TIMEOUT); the connection is closed. Answered before any route runs.';
    case 413:
      return `Request body larger than ${route.bodyLimit ?? options.bodyLimit} bytes (code PAYLOAD_TOO_LARGE).`;
    case 415:
      return 'Content-Type is not application/json (code UNSUPPORTED_MEDIA_TYPE).';
    case 429:
      return 'Rate limit exceeded (code RATE_LIMITED): wait `Retry-After` seconds.';
    case 500:
      return 'Unexpected failure: a generic message and the `requestId` to quote; never internals.';
    case 503:
      return 'PostgreSQL or Redis is unreachable (code UNAVAILABLE): retry after `Retry-After` seconds. Answered within about a second; the service recovers by itself.';
    default:
      return 'Error.';
  }
}

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = { 'RateLimit-Limit': header('RateLimit-Limit'), 'RateLimit-Remaining': header('RateLimit-Remaining'), 'RateLimit-Reset': header('RateLimit-Reset') };

function responseHeaders(status: number, csv: boolean): Json {
  const headers: Json = { 'X-Request-Id': header('X-Request-Id') };
  // 401, 408, 413, 415 (and schema-invalid 400s) are answered before the rate limiter runs.
  if (![401, 408, 413, 415].includes(status)) Object.assign(headers, RATE_HEADERS);
  if (status === 429 || status === 503) headers['Retry-After'] = header('Retry-After');
  if (csv) headers['Content-Disposition'] = header('Content-Disposition');
  return headers;
}

function parameters(schema: FastifySchema | undefined, used: Set<string>): Json[] {
  const out: Json[] = [];
  for (const [where, part] of [['path', schema?.params], ['query', schema?.querystring]] as const) {
    const s = part as Json | undefined;
    for (const [name, prop] of Object.entries<Json>(s?.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || (s?.required ?? []).includes(name),
        description: description ?? (where === 'path' ? PARAM_DESCRIPTIONS[name] : undefined),
        schema: withRefs(rest, used),
      });
    }
  }
  return out;
}

function requestBody(route: DocumentedRoute, used: Set<string>): Json | undefined {
  const body = route.schema?.body as Json | undefined;
  if (!body) return undefined;
  if (body === emptyBody) {
    return { required: false, description: 'No body (or an empty JSON object).', content: { 'application/json': { schema: { type: 'object', maxProperties: 0 } } } };
  }
  return { required: true, content: { 'application/json': { schema: withRefs(body, used) } } };
}

function responses(route: DocumentedRoute, options: OpenApiOptions, used: Set<string>): Json {
  const out: Json = {};
  const declared = (route.schema?.response ?? {}) as Record<string, Json>;
  for (const [code, schema] of Object.entries(declared).sort(([a], [b]) => a.localeCompare(b))) {
    const status = Number(code);
    if (status < 300) {
      const content = schema.content
        ? Object.fromEntries(Object.entries<Json>(schema.content).map(([type, media]) => [type, { schema: withRefs(media.schema, used) }]))
        : { 'application/json': { schema: withRefs(schema, used) } };
      out[code] = {
        description: schema.description ?? (status === 202 ? 'Accepted.' : 'Success.'),
        headers: responseHeaders(status, 'text/csv' in content),
        content,
      };
    } else {
      out[code] = {
        description: errorDescription(status, route, options),
        headers: responseHeaders(status, false),
        content: { 'application/json': { schema: withRefs(schema, used) } },
      };
    }
  }
  // Every endpoint may meet a client too slow to send its request (answered by Node's parser, before routing)...
  out['408'] ??= { description: errorDescription(408, route, options), headers: responseHeaders(408, false), content: { 'application/json': { schema: withRefs(ErrorBody, used) } } };
  // ... and an outage of PostgreSQL or Redis (the rate limiter and principals live there).
  out['503'] ??= { description: errorDescription(503, route, options), headers: responseHeaders(503, false), content: { 'application/json': { schema: withRefs(ErrorBody, used) } } };
  return out;
}

function curlExamples(surface: DocumentSurface): string {
  if (surface === 'A') {
    return [
      '```sh',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects"',
      'curl -X POST -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects/$PROJECT_ID/audit"   # 202 { message, jobId, auditId }',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/jobs/$JOB_ID"',
      'curl -H "Authorization: Bearer $API_KEY" "$BASE_URL/api/v1/projects/$PROJECT_ID/audit"',
      '```',
    ].join('\n');
  }
  return [
    '```sh',
    "curl -c cookies.txt -H 'Content-Type: application/json' -d '{\"email\":\"me@example.com\",\"password\":\"...\"}' \"$BASE_URL/api/auth/sign-in/email\"",
    'curl -b cookies.txt "$BASE_URL/api/projects"',
    "curl -b cookies.txt -H 'Content-Type: application/json' -d '{\"url\":\"https://shop.example.com\"}' \"$BASE_URL/api/projects\"",
    "curl -b cookies.txt -H 'Content-Type: application/json' -d '{\"keywords\":[\"oak dining table\"]}' \"$BASE_URL/api/projects/$PROJECT_ID/keywords\"",
    'curl -b cookies.txt -OJ "$BASE_URL/api/projects/$PROJECT_ID/reports?format=csv"',
    "curl -H 'Content-Type: application/json' -d '{\"url\":\"https://example.com\"}' \"$BASE_URL/api/tools/meta-tags\"   # no authentication",
    '```',
  ].join('\n');
}

function infoDescription(surface: DocumentSurface, options: OpenApiOptions): string {
  const auth =
    surface === 'A'
      ? '**Authentication**: every request sends `Authorization: Bearer <API_KEY>`. Owners and admins create keys in the web application\'s Settings (or with the GraphQL mutation `createApiKey`); at most 5 active keys per organization. A key has the permissions of its organization\'s plan. Keep keys secret: never in client-side code or public repositories.'
      : '**Authentication**: the session cookie `better-auth.session-token` issued by the web application\'s sign-in (`POST /api/auth/sign-in/email` with `{ email, password }`; sign-up: `POST /api/auth/sign-up/email`). Browsers send it automatically; scripts send `Cookie: better-auth.session-token=<SESSION_TOKEN>` and `Content-Type: application/json`. Cookie-authenticated requests that change state must come from a trusted Origin (CSRF protection). The four `/api/tools/*` endpoints need no authentication. For scripts and integrations prefer Surface A (`/api/v1`, API keys).';
  const rates =
    surface === 'A'
      ? `Surface A: ${RATES.A}.`
      : `Surface B: ${RATES.B}; unauthenticated tool calls ${options.anonymousRate} per minute per client IP.`;
  return [
    surface === 'A'
      ? 'Surface A of the SEO audit platform: programmatic access with an API key. Versioned by the `/api/v1` path prefix.'
      : 'Surface B of the SEO audit platform: the session-cookie API used by the web application (no version segment), plus the free SEO tools.',
    '',
    auth,
    '',
    '**Plans**: FREE = free tools only (every project endpoint answers 403); PRO = read-only (GET; any write answers 403); ENTERPRISE = full access. Quotas per plan (projects, keywords and competitors per project, pages per audit) answer 403 with code `PLAN_LIMIT` when reached.',
    '',
    `**Rate limits**: fixed one-minute windows shared by every API process. ${rates} Failed authentication is limited per client IP. Every limited response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 adds \`Retry-After\` (seconds).`,
    '',
    '**Errors**: one shape, `{ "error": "<message>", "code": "<CODE>" }`, plus `details: [{ path, message }]` on validation errors and `requestId` on 500, for every refusal, the server framework\'s own included. Unknown JSON fields in request bodies are rejected (400). A path asked with a method it does not list answers 405 `METHOD_NOT_ALLOWED` with an `Allow` header naming its methods; a request line and headers over 16 KB answer 431 `URI_TOO_LONG`. Every response carries `X-Request-Id`.',
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

/** The OpenAPI 3.1 document of one surface, generated from the route table. */
export function buildOpenApiDocument(surface: DocumentSurface, routes: readonly DocumentedRoute[], options: OpenApiOptions): Json {
  const used = new Set<string>();
  const base = SURFACE_BASE[surface];
  const paths: Json = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (documentSurfaceOf(route) !== surface) continue;
    if (!route.url.startsWith(`${base}/`)) throw new Error(`Route ${route.method} ${route.url} is outside ${base}`);
    const path = toOpenApiPath(route.url.slice(base.length));
    const tag = tagOf(path);
    tags.add(tag);
    const operation: Json = {
      tags: [tag],
      summary: route.summary,
      description: accessNote(route, options),
      operationId: operationId(route.method, path),
    };
    const params = parameters(route.schema, used);
    if (params.length) operation.parameters = params;
    const body = requestBody(route, used);
    if (body) operation.requestBody = body;
    operation.responses = responses(route, options, used);
    if (route.surface === 'TOOLS') operation.security = [];
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  // Components referenced from other components are collected until none is new.
  const schemas: Json = {};
  for (let pending = [...used]; pending.length; pending = [...used].filter((n) => !(n in schemas))) {
    for (const name of pending) schemas[name] = definition(COMPONENT_SCHEMAS[name] as object, used);
  }
  const sortedSchemas = Object.fromEntries(Object.keys(schemas).sort().map((n) => [n, schemas[n]]));

  return {
    openapi: '3.1.0',
    info: {
      title: surface === 'A' ? 'SEO Audit Platform API — Surface A (API key)' : 'SEO Audit Platform API — Surface B (session) and free tools',
      version: '1.0.0',
      description: infoDescription(surface, options),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: base, description: surface === 'A' ? 'Surface A on this server' : 'Surface B on this server' }],
    security: [{ [SECURITY_SCHEME[surface]]: [] }],
    tags: [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      schemas: sortedSchemas,
      headers: HEADERS,
      securitySchemes:
        surface === 'A'
          ? { apiKey: { type: 'http', scheme: 'bearer', description: 'API key: `Authorization: Bearer <API_KEY>`.' } }
          : { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'better-auth.session-token', description: 'Session cookie set by `POST /api/auth/sign-in/email`.' } },
    },
  };
}
