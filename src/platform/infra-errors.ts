import { DomainError, unavailable } from './errors.js';

/** Which backing service an infrastructure failure points at ('unknown': a socket error that names neither). */
export type Dependency = 'postgres' | 'redis';

/** Socket-level failures of a connection to PostgreSQL or Redis. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL SQLSTATEs of a server that cannot serve: connection exceptions (class 08), shutdown, start-up, too many
 * connections.
 */
const PG_UNAVAILABLE_STATES = /^(08\w{3}|57P0[123]|53300)$/;
const REDIS_MESSAGES = [
  /enableOfflineQueue options is false/,
  /^Command timed out/,
  /^Connection is closed/,
  /max retries per request limit/i,
];
const PG_MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Timeout acquiring a connection/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery|not yet accepting)/i,
  /terminating connection due to administrator command/i,
];
const REDIS_NAMES = new Set(['MaxRetriesPerRequestError']);
const PG_NAMES = new Set(['ConnectionException', 'KnexTimeoutError']);

/** The error, its causes and wrapped originals (GraphQL, MikroORM, AggregateError), nearest first. */
function* chain(err: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length) {
    const e = stack.shift();
    if (!e || typeof e !== 'object' || seen.has(e) || seen.size > 16) continue;
    seen.add(e);
    const o = e as Record<string, unknown>;
    yield o;
    stack.push(o.originalError, o.cause, o.previous);
    if (Array.isArray(o.errors)) stack.push(...o.errors);
  }
}

/**
 * The one recognition of "PostgreSQL or Redis cannot be reached" (connection refused, reset or timed out, ioredis
 * refusing a command while disconnected or timing it out, node-postgres' terminated connections, pool timeouts,
 * a server shutting down or starting). Returns the dependency it points at, 'unknown' for a bare socket error, or
 * null when the error is anything else. Outbound HTTP errors (SafeHttpError) and domain errors are never
 * infrastructure.
 */
export function infrastructureFailure(err: unknown): Dependency | 'unknown' | null {
  let socket = false;
  for (const e of chain(err)) {
    const name = typeof e.name === 'string' ? e.name : '';
    if (e instanceof DomainError || name === 'SafeHttpError' || name === 'DomainError') return null;
    const message = typeof e.message === 'string' ? e.message : '';
    const code = typeof e.code === 'string' ? e.code : '';
    if (REDIS_NAMES.has(name) || REDIS_MESSAGES.some((re) => re.test(message))) return 'redis';
    if (PG_NAMES.has(name) || PG_UNAVAILABLE_STATES.test(code) || PG_MESSAGES.some((re) => re.test(message)))
      return 'postgres';
    if (SOCKET_CODES.has(code)) socket = true;
  }
  return socket ? 'unknown' : null;
}

export const isInfrastructureFailure = (err: unknown): boolean => infrastructureFailure(err) !== null;

/**
 * The domain error a transport answers for an infrastructure failure (UNAVAILABLE, 503 with Retry-After), else null.
 */
export function asUnavailable(err: unknown): DomainError | null {
  return isInfrastructureFailure(err) ? unavailable() : null;
}
