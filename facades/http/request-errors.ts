import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorDetail } from '../../src/platform/errors.js';
import { restError, sendError, sendRefusal, type Refusal } from './error-translators.js';

/**
 * Refusals of malformed HTTP requests (before any route runs: framing, content type, JSON, schema validation,
 * unknown routes and methods), as Refusals that the translator of the route asked sends: `{ error, code,
 * details? }` for REST and better-auth's routes, `{ errors: [{ message, extensions: { code } }] }` for /graphql.
 */

/** Deeper JSON is refused before any code walks it (better-auth re-serializes bodies recursively). */
export const MAX_JSON_DEPTH = 64;

class JsonTooDeepError extends Error {
  readonly code = 'JSON_TOO_DEEP';
  readonly statusCode = 400;
  constructor() {
    super(`JSON body nested too deeply (at most ${MAX_JSON_DEPTH} levels).`);
  }
}

/** Whether objects/arrays nest deeper than `max`; iterative, so no input can exhaust the stack. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child as object, depth + 1]);
    }
  }
  return false;
}

/**
 * The one JSON body parser: JSON only (`text/plain` and every other type get 415), an empty body means "no
 * body" (POST endpoints without one), and nesting is bounded.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    void parse(request, body as string, (err, value) => {
      if (err) return done(err as Error, undefined);
      if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) return done(new JsonTooDeepError(), undefined);
      done(null, value);
    });
  });
}

function validationDetails(err: FastifyError): ErrorDetail[] {
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const base = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
    if (params.additionalProperty)
      return { path: [base, params.additionalProperty].filter(Boolean).join('.'), message: 'unknown field' };
    if (params.missingProperty)
      return { path: [base, params.missingProperty].filter(Boolean).join('.'), message: 'is required' };
    return { path: base || (err.validationContext ?? ''), message: v.message ?? 'is invalid' };
  });
}

/** Fastify's own 4xx statuses as codes; any other 4xx is a BAD_USER_INPUT (its message names the problem). */
const FRAMEWORK_REFUSALS: Record<number, Refusal> = {
  405: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed.' },
  408: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large.' },
  414: { code: 'URI_TOO_LONG', message: 'Request URI too long.' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type: send Content-Type: application/json.' },
  431: { code: 'URI_TOO_LONG', message: 'Request header fields too large.' },
};

/** The refusal for an error Fastify raised before or around a handler (validation, parsing, limits), else null. */
export function frameworkRefusal(err: FastifyError): Refusal | null {
  if (err.validation) {
    const details = validationDetails(err);
    const where =
      err.validationContext === 'body' ? 'body' : err.validationContext === 'querystring' ? 'query' : 'path';
    return {
      code: 'BAD_USER_INPUT',
      message: `Invalid request ${where}: ${details.map((d) => `${d.path || where} ${d.message}`).join('; ')}`,
      details,
    };
  }
  if (err.code === 'JSON_TOO_DEEP')
    return {
      code: 'BAD_USER_INPUT',
      message: err.message,
      details: [{ path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
    };
  if (
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    err instanceof SyntaxError ||
    (err.statusCode === 400 && /JSON/i.test(err.message))
  ) {
    return {
      code: 'BAD_USER_INPUT',
      message: 'Malformed JSON body.',
      details: [{ path: 'body', message: 'is not valid JSON' }],
    };
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return FRAMEWORK_REFUSALS[415];
  const status = err.statusCode ?? 500;
  if (status < 400 || status >= 500) return null;
  // Fastify's own 4xx messages name the problem and never carry data of ours.
  return FRAMEWORK_REFUSALS[status] ?? { code: 'BAD_USER_INPUT', message: err.message };
}

/** Fastify's error handler: framework refusals and thrown errors, each through the translator of the route asked. */
export function handleRequestError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const refusal = frameworkRefusal(err);
  return refusal ? sendRefusal(reply, refusal) : sendError(reply, err);
}

const CLIENT_ERRORS: Record<string, Refusal> = {
  // Node's parser gives the same error for an oversized request line and oversized headers.
  HPE_HEADER_OVERFLOW: {
    code: 'URI_TOO_LONG',
    message: 'Request line or header fields too large (at most 16 KB in all).',
  },
  ERR_HTTP_REQUEST_TIMEOUT: FRAMEWORK_REFUSALS[408],
};

/**
 * Requests Node's HTTP parser refuses never reach Fastify (no route, no hooks): answered here through the REST
 * translator (no route, so no GraphQL shape either), with a request id, instead of Fastify's default
 * `{ error, message, statusCode }`.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Anything else is about the request's framing (bad request line, header or body length): `request` is at fault.
  const refusal: Refusal = CLIENT_ERRORS[err.code ?? ''] ?? {
    code: 'BAD_USER_INPUT',
    message: 'Malformed HTTP request.',
    details: [{ path: 'request', message: `is not valid HTTP/1.1 (${err.code ?? 'parse error'})` }],
  };
  const requestId = randomUUID();
  const { status, headers, body } = restError(refusal, requestId);
  this.log.info({ reqId: requestId, code: err.code, status }, 'client error');
  if (socket.writable) {
    const json = JSON.stringify(body);
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
        (`Content-Type: application/json; ` +
          `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\n`) +
        `${extra}Connection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Fastify route URL (`/api/projects/:id`, `/api/auth/*`) as a regular expression over request paths. */
export function routePattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The methods of every registered route, by URL: what a 405 lists in Allow. Fastify's router answers a known
 * path asked with another method as not found; the not-found handler asks this index to tell the two apart.
 */
export class RouteMethods {
  private readonly byUrl = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, method: string | string[]): void {
    let entry = this.byUrl.get(url);
    if (!entry) this.byUrl.set(url, (entry = { pattern: routePattern(url), methods: new Set() }));
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
  }

  /** The methods some route serves at this path, sorted; empty when no route has the path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: own } of this.byUrl.values())
      if (pattern.test(path)) for (const m of own) methods.add(m);
    return [...methods].sort();
  }
}
