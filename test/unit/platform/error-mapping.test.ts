import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_CODES, type ErrorCode } from '../../../src/platform/errors.js';
import {
  GRAPHQL_PATH,
  graphQLError,
  refusalOf,
  restError,
  sendError,
  sendRefusal,
  type Refusal,
} from '../../../facades/http/error-translators.js';

/**
 * The table: every code of the vocabulary through every transport. Written out by hand (not derived from the
 * translators), so a code added to ERROR_CODES fails "covers every code" until it is given a row here too.
 */
const TABLE: Record<
  ErrorCode,
  { rest: number; graphql: number; graphqlCode?: string; headers?: Record<string, string> }
> = {
  BAD_USER_INPUT: { rest: 400, graphql: 400, graphqlCode: 'BAD_REQUEST' },
  UNAUTHENTICATED: { rest: 401, graphql: 401 },
  FORBIDDEN: { rest: 403, graphql: 403 },
  PLAN_LIMIT: { rest: 403, graphql: 403 },
  NOT_FOUND: { rest: 404, graphql: 404 },
  METHOD_NOT_ALLOWED: { rest: 405, graphql: 405, headers: { allow: 'GET, POST' } },
  REQUEST_TIMEOUT: { rest: 408, graphql: 408 },
  PAYLOAD_TOO_LARGE: { rest: 413, graphql: 413 },
  URI_TOO_LONG: { rest: 431, graphql: 431 },
  UNSUPPORTED_MEDIA_TYPE: { rest: 415, graphql: 415 },
  QUERY_TOO_COMPLEX: { rest: 400, graphql: 400 },
  RATE_LIMITED: { rest: 429, graphql: 429, headers: { 'retry-after': '7' } },
  INTERNAL: { rest: 500, graphql: 500 },
  UNAVAILABLE: { rest: 503, graphql: 503, headers: { 'retry-after': '7' } },
};

const refusal = (code: ErrorCode): Refusal => ({
  code,
  message: `refused: ${code}`,
  ...(code === 'BAD_USER_INPUT' ? { details: [{ path: 'url', message: 'is required' }] } : {}),
  ...(code === 'METHOD_NOT_ALLOWED' ? { allow: ['GET', 'POST'] } : {}),
  ...(code === 'RATE_LIMITED' || code === 'UNAVAILABLE' ? { retryAfterSeconds: 7 } : {}),
});

/** The three transports on the wire: a route of each surface that sends the refusal named in the path. */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  const handler = async (request: { params: unknown; query: unknown }, reply: never) =>
    sendRefusal(
      reply,
      refusal(((request.params as { code?: string }).code ?? (request.query as { code: string }).code) as ErrorCode),
    );
  app.get('/api/v1/refuse/:code', handler as never);
  app.get('/api/refuse/:code', handler as never);
  app.get(GRAPHQL_PATH, handler as never);
  await app.ready();
});
afterAll(() => app.close());

const TRANSPORTS = [
  ['REST /api/v1', (code: string) => `/api/v1/refuse/${code}`],
  ['REST /api', (code: string) => `/api/refuse/${code}`],
  ['GraphQL /graphql', (code: string) => `${GRAPHQL_PATH}?code=${code}`],
] as const;

describe('every error code through every transport', () => {
  it('covers every code', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...ERROR_CODES].sort());
  });

  const cases = ERROR_CODES.flatMap((code) => TRANSPORTS.map(([name, url]) => [code, name, url] as const));
  it.each(cases)('%s over %s: status, shape, headers', async (code, name, url) => {
    const row = TABLE[code];
    const res = await app.inject({ method: 'GET', url: url(code) });
    const sent = refusal(code);
    if (name.startsWith('GraphQL')) {
      expect(res.statusCode).toBe(row.graphql);
      const extensions = sent.details
        ? { code: row.graphqlCode ?? code, details: sent.details }
        : { code: row.graphqlCode ?? code };
      expect(res.json()).toEqual({ errors: [{ message: sent.message, extensions }] });
    } else {
      expect(res.statusCode).toBe(row.rest);
      expect(res.json()).toEqual({
        error: sent.message,
        code,
        ...(sent.details ? { details: sent.details } : {}),
        ...(code === 'INTERNAL' ? { requestId: res.headers['x-request-id'] ?? expect.any(String) } : {}),
      });
    }
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    for (const [header, value] of Object.entries(row.headers ?? {})) expect(res.headers[header], header).toBe(value);
    if (!row.headers?.['retry-after']) expect(res.headers['retry-after']).toBeUndefined();
    if (!row.headers?.allow) expect(res.headers.allow).toBeUndefined();
  });

  it('the translators agree with the table without a server too', () => {
    for (const code of ERROR_CODES) {
      expect(restError(refusal(code), 'r').status, code).toBe(TABLE[code].rest);
      expect(graphQLError(refusal(code)).status, code).toBe(TABLE[code].graphql);
    }
  });
});

describe('what is thrown becomes a refusal', () => {
  it('unwraps GraphQL errors and keeps details', () => {
    const wrapped = new GraphQLError('x', {
      originalError: new DomainError('BAD_USER_INPUT', 'bad', [{ path: 'url', message: 'no' }]),
    });
    expect(refusalOf(wrapped)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'bad',
      details: [{ path: 'url', message: 'no' }],
      retryAfterSeconds: undefined,
    });
    expect(restError(refusalOf(wrapped)!, 'r')).toEqual({
      status: 400,
      headers: {},
      body: { error: 'bad', code: 'BAD_USER_INPUT', details: [{ path: 'url', message: 'no' }] },
    });
  });

  it('hides unexpected errors behind a request id, on both shapes', async () => {
    expect(refusalOf(new Error('duplicate key value violates unique constraint'))).toBeNull();
    const bare = Fastify();
    bare.get('/api/boom', async (_request, reply) =>
      sendError(reply, new Error('duplicate key value violates unique constraint')),
    );
    bare.get(GRAPHQL_PATH, async (_request, reply) => sendError(reply, new TypeError('x is undefined')));
    const rest = await bare.inject({ method: 'GET', url: '/api/boom' });
    expect(rest.statusCode).toBe(500);
    expect(rest.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL', requestId: expect.any(String) });
    const graphql = await bare.inject({ method: 'GET', url: GRAPHQL_PATH });
    expect(graphql.statusCode).toBe(500);
    expect(graphql.json()).toEqual({
      errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL' } }],
    });
    await bare.close();
  });
});
