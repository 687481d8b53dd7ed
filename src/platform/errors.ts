/**
 * The closed vocabulary of refusals: every expected failure, from a domain rule to a malformed HTTP request,
 * carries one of these codes (the codes docs/api.md documents). Each transport maps every code to its status and
 * body in one exhaustive `switch` (facades/http/error-translators.ts): adding a code here fails the build until
 * every transport maps it.
 *
 * - domain: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, PLAN_LIMIT, NOT_FOUND, RATE_LIMITED, INTERNAL, UNAVAILABLE;
 * - HTTP framing, decided before any domain code runs: METHOD_NOT_ALLOWED, REQUEST_TIMEOUT, PAYLOAD_TOO_LARGE,
 *   URI_TOO_LONG (request line or header fields too large), UNSUPPORTED_MEDIA_TYPE;
 * - GraphQL only: QUERY_TOO_COMPLEX (depth, cost and introspection limits of /graphql).
 */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PLAN_LIMIT',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUERY_TOO_COMPLEX',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The `default` branch of an exhaustive switch: a value left unmapped is a type error here. */
export function assertNever(value: never): never {
  throw new Error(`Unmapped value: ${String(value)}`);
}

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const badInput = (message: string, details?: ErrorDetail[]) =>
  new DomainError('BAD_USER_INPUT', message, details);

/** Seconds a client should wait before retrying while PostgreSQL or Redis is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const unavailable = (message = 'The service is temporarily unavailable. Try again shortly.') =>
  new DomainError('UNAVAILABLE', message, undefined, UNAVAILABLE_RETRY_AFTER_SECONDS);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
