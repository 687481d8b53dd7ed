import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import { DomainError, assertNever, type ErrorCode, type ErrorDetail } from '../../src/platform/errors.js';
import { asUnavailable } from '../../src/platform/infra-errors.js';

/**
 * The one place where a refusal becomes an HTTP response: one exhaustive `switch` over ErrorCode gives the status
 * (`statusOf`: a code added to src/platform/errors.ts and not mapped here fails the build), and one translator per
 * transport gives the body.
 *
 * - REST, both surfaces (`/api/v1` and `/api`, the free tools and the operations endpoints):
 *   `{ error, code }` (+ `details`, + `requestId` on INTERNAL), as docs/api.md documents.
 * - `/graphql`: GraphQL over HTTP, `{ errors: [{ message, extensions: { code } }] }`.
 *
 * better-auth's `/api/auth/*` answers in its own shape (its client reads it); only the refusals made before
 * better-auth runs (body limit, content type, malformed JSON, the sign-in rate limit) come from here.
 */

export const GRAPHQL_PATH = '/graphql';

declare module 'fastify' {
  interface FastifyInstance {
    /** Told about every 503, so that it probes PostgreSQL and Redis and logs the change of state once. */
    dependencyMonitor?: { check(): Promise<void> };
  }
}

/** A refusal, whatever refused: a domain rule, the HTTP framework, a limit. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  /** The fields at fault (on BAD_USER_INPUT). */
  details?: ErrorDetail[];
  /** Seconds to wait (RATE_LIMITED, UNAVAILABLE): sent as Retry-After. */
  retryAfterSeconds?: number;
  /** The methods the path accepts (METHOD_NOT_ALLOWED): sent as Allow. */
  allow?: readonly string[];
}

export interface HttpError<Body> {
  status: number;
  headers: Record<string, string>;
  body: Body;
}

export interface RestErrorBody {
  error: string;
  code: ErrorCode;
  details?: ErrorDetail[];
  requestId?: string;
}

export interface GraphQLErrorEntry {
  message: string;
  extensions: { code: string; details?: ErrorDetail[] };
}
export interface GraphQLErrorBody {
  errors: GraphQLErrorEntry[];
}

const retryAfter = (r: Refusal): Record<string, string> =>
  r.retryAfterSeconds === undefined ? {} : { 'retry-after': String(r.retryAfterSeconds) };
const allow = (r: Refusal): Record<string, string> => (r.allow?.length ? { allow: r.allow.join(', ') } : {});
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The HTTP status of every code, the same on every transport (an exhaustive switch: a new code fails the build here).
 * URI_TOO_LONG: Node's parser reports an oversized request line and oversized headers alike, so 431 for both
 * (docs/api.md). QUERY_TOO_COMPLEX: a GraphQL request error (REST routes run fixed documents the limits never refuse).
 */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'BAD_USER_INPUT':
    case 'QUERY_TOO_COMPLEX':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
    case 'PLAN_LIMIT':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'REQUEST_TIMEOUT':
      return 408;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'URI_TOO_LONG':
      return 431;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'UNAVAILABLE':
      return 503;
    default:
      return assertNever(code);
  }
}

/** The headers a refusal carries on every transport: Allow on a 405, Retry-After on a 429 or 503. */
function headersOf(r: Refusal): Record<string, string> {
  if (r.code === 'METHOD_NOT_ALLOWED') return allow(r);
  if (r.code === 'RATE_LIMITED' || r.code === 'UNAVAILABLE') return retryAfter(r);
  return NO_HEADERS;
}

/** REST (`/api/v1`, `/api`): status, headers and `{ error, code, details?, requestId? }` of every code. */
export function restError(r: Refusal, requestId: string): HttpError<RestErrorBody> {
  const body: RestErrorBody = { error: r.message, code: r.code };
  if (r.details?.length) body.details = r.details;
  if (r.code === 'INTERNAL') body.requestId = requestId;
  return { status: statusOf(r.code), headers: headersOf(r), body };
}

/** The `extensions` of a GraphQL error carrying a domain code (field errors of an executed operation). */
export const graphQLExtensions = (code: string, details?: ErrorDetail[]): GraphQLErrorEntry['extensions'] =>
  details?.length ? { code, details } : { code };

/**
 * `/graphql` refusals answered without executing an operation, in GraphQL-over-HTTP shape. A request refused as
 * malformed HTTP is Apollo's BAD_REQUEST (always 4xx), not the BAD_USER_INPUT of a GraphQL field error. A
 * QUERY_TOO_COMPLEX 400 is sent as application/graphql-response+json (legacy JSON clients get 200, see graphql-route).
 */
export function graphQLError(r: Refusal): HttpError<GraphQLErrorBody> {
  const code = r.code === 'BAD_USER_INPUT' ? 'BAD_REQUEST' : r.code;
  return {
    status: statusOf(r.code),
    headers: headersOf(r),
    body: { errors: [{ message: r.message, extensions: graphQLExtensions(code, r.details) }] },
  };
}

export type Transport = 'REST' | 'GRAPHQL';

/** The transport a request is answered in: `/graphql` in GraphQL's shape, every other route in REST's. */
export const transportOf = (request: FastifyRequest): Transport =>
  request.routeOptions?.url === GRAPHQL_PATH ? 'GRAPHQL' : 'REST';

export function translate(
  transport: Transport,
  r: Refusal,
  requestId: string,
): HttpError<RestErrorBody | GraphQLErrorBody> {
  return transport === 'GRAPHQL' ? graphQLError(r) : restError(r, requestId);
}

/** Sends a refusal in the shape of the route asked (or of `transport`); a 503 has the dependency monitor probe. */
export function sendRefusal(
  reply: FastifyReply,
  r: Refusal,
  transport: Transport = transportOf(reply.request),
): FastifyReply {
  const { status, headers, body } = translate(transport, r, String(reply.request.id));
  // An outage is logged once per change of state by the monitor, not once per refused request.
  if (status === 503) void reply.server.dependencyMonitor?.check();
  for (const name in headers) reply.header(name, headers[name]);
  return reply.code(status).send(body);
}

/** The refusal for anything thrown: a DomainError as it is, PostgreSQL or Redis out of reach as UNAVAILABLE. */
export function refusalOf(err: unknown): Refusal | null {
  const original = err instanceof DomainError ? err : (err as GraphQLError | undefined)?.originalError;
  const domain = original instanceof DomainError ? original : asUnavailable(err);
  if (!domain) return null;
  return {
    code: domain.code,
    message: domain.message,
    details: domain.details,
    retryAfterSeconds: domain.retryAfterSeconds,
  };
}

export const INTERNAL_REFUSAL: Refusal = Object.freeze({ code: 'INTERNAL', message: 'Internal server error' });

/**
 * Sends whatever was thrown: an expected failure as its code, anything else as a 500 with a generic message and
 * the request id (logged; never a stack trace or SQL on the wire).
 */
export function sendError(
  reply: FastifyReply,
  err: unknown,
  transport: Transport = transportOf(reply.request),
): FastifyReply {
  const refusal = refusalOf(err);
  if (!refusal || refusal.code === 'INTERNAL')
    reply.request.log.error({ err: (err as GraphQLError)?.originalError ?? err }, 'request failed');
  return sendRefusal(reply, refusal ?? INTERNAL_REFUSAL, transport);
}
