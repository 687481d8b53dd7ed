/** Every expected failure carries one of these codes; transports map them exhaustively. */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PLAN_LIMIT',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

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

/** The one HTTP status table, shared by every transport. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  PLAN_LIMIT: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};
