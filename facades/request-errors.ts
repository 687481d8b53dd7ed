import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorDetail } from '../src/platform/errors.js';
import { sendError } from './rest-mapper.js';
import { GRAPHQL_PATH, graphQLErrorBody } from './graphql-route.js';

/**
 * Refusals of malformed HTTP requests (before any route runs: framing, content type, JSON, schema validation),
 * in the documented shape of the surface asked: `{ error, code, details? }` for REST and better-auth's
 * routes, `{ errors: [{ message, extensions: { code } }] }` for /graphql.
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
    parse(request, body as string, (err, value) => {
      if (err) return done(err as Error, undefined);
      if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) return done(new JsonTooDeepError(), undefined);
      done(null, value);
    });
  });
}

/** A refusal in the shape of the route asked. */
export function sendRequestError(request: FastifyRequest, reply: FastifyReply, status: number, code: string, error: string, details?: ErrorDetail[]): FastifyReply {
  reply.code(status);
  if (request.routeOptions?.url === GRAPHQL_PATH) {
    // A malformed HTTP request is Apollo's BAD_REQUEST (always 4xx), not a GraphQL request error (BAD_USER_INPUT).
    const graphQLCode = code === 'BAD_USER_INPUT' ? 'BAD_REQUEST' : code;
    return reply.send({ errors: [{ message: error, extensions: details ? { code: graphQLCode, details } : { code: graphQLCode } }] });
  }
  return reply.send(details ? { error, code, details } : { error, code });
}

function validationDetails(err: FastifyError): ErrorDetail[] {
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const base = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
    if (params.additionalProperty) return { path: [base, params.additionalProperty].filter(Boolean).join('.'), message: 'unknown field' };
    if (params.missingProperty) return { path: [base, params.missingProperty].filter(Boolean).join('.'), message: 'is required' };
    return { path: base || (err.validationContext ?? ''), message: v.message ?? 'is invalid' };
  });
}

/** Framework 4xx statuses and their documented codes; any other 4xx is a 400 BAD_USER_INPUT. */
const FRAMEWORK_CODES: Record<number, [string, string]> = {
  405: ['METHOD_NOT_ALLOWED', 'Method not allowed.'],
  413: ['PAYLOAD_TOO_LARGE', 'Request body too large.'],
  414: ['URI_TOO_LONG', 'Request URI too long.'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: send Content-Type: application/json.'],
  431: ['URI_TOO_LONG', 'Request header fields too large.'],
};

/** Fastify's error handler: validation, parsing and framework errors in the documented shape; the rest via sendError. */
export function handleRequestError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.validation) {
    const details = validationDetails(err);
    const where = err.validationContext === 'body' ? 'body' : err.validationContext === 'querystring' ? 'query' : 'path';
    return sendRequestError(request, reply, 400, 'BAD_USER_INPUT', `Invalid request ${where}: ${details.map((d) => `${d.path || where} ${d.message}`).join('; ')}`, details);
  }
  if (err.code === 'JSON_TOO_DEEP') return sendRequestError(request, reply, 400, 'BAD_USER_INPUT', err.message, [{ path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return sendRequestError(request, reply, 400, 'BAD_USER_INPUT', 'Malformed JSON body.', [{ path: 'body', message: 'is not valid JSON' }]);
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendRequestError(request, reply, 415, ...FRAMEWORK_CODES[415]);
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const known = FRAMEWORK_CODES[status];
    // Fastify's own 4xx messages name the problem and never carry data of ours.
    return known ? sendRequestError(request, reply, status, known[0], known[1]) : sendRequestError(request, reply, 400, 'BAD_USER_INPUT', err.message);
  }
  if (request.routeOptions?.url === GRAPHQL_PATH) {
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(graphQLErrorBody('Internal server error', 'INTERNAL'));
  }
  return sendError(reply, err);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  // Node's parser gives the same error for an oversized request line and oversized headers.
  HPE_HEADER_OVERFLOW: [431, 'URI_TOO_LONG', 'Request line or header fields too large (at most 16 KB in all).'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time.'],
};

/**
 * Requests Node's HTTP parser refuses never reach Fastify (no route, no hooks): answered here in the same
 * shape, with a request id, instead of Fastify's default `{ error, message, statusCode }`.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'BAD_USER_INPUT', 'Malformed HTTP request.'];
  const requestId = randomUUID();
  this.log.info({ reqId: requestId, code: err.code, status }, 'client error');
  if (socket.writable) {
    // A 400 here is about the request's framing (bad request line, header or body length): `request` is at fault.
    const details = status === 400 ? [{ path: 'request', message: `is not valid HTTP/1.1 (${err.code ?? 'parse error'})` }] : undefined;
    const body = JSON.stringify(details ? { error: message, code, details } : { error: message, code });
    socket.write(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
