import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { DomainError } from '../../../src/platform/errors.js';
import { asUnavailable, infrastructureFailure } from '../../../src/platform/infra-errors.js';
import { SafeHttpError } from '../../../src/platform/safe-http/index.js';
import { refusalOf, restError } from '../../../facades/http/error-translators.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('infrastructure failures → UNAVAILABLE', () => {
  it.each([
    [
      'ioredis without a connection',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      'redis',
    ],
    ['ioredis command timeout', new Error('Command timed out'), 'redis'],
    ['ioredis retries exhausted', new MaxRetriesPerRequestError(2), 'redis'],
    ['ioredis closed', new Error('Connection is closed.'), 'redis'],
    ['pg terminated', new Error('Connection terminated unexpectedly'), 'postgres'],
    ['pg connect timeout', new Error('timeout exceeded when trying to connect'), 'postgres'],
    ['pg admin shutdown', withCode('terminating connection due to administrator command', '57P01'), 'postgres'],
    ['pg starting up', withCode('the database system is starting up', '57P03'), 'postgres'],
    [
      'knex pool timeout',
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
      'postgres',
    ],
    ['a bare refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'unknown'],
    [
      'wrapped in an AggregateError',
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:6379', 'ECONNREFUSED')], ''), {
        code: 'ECONNREFUSED',
      }),
      'unknown',
    ],
    [
      'wrapped in a GraphQLError',
      new GraphQLError('x', { originalError: new Error('Connection terminated') }),
      'postgres',
    ],
    ['a cause', new Error('query failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }), 'unknown'],
  ] as const)('%s', (_label, err, dependency) => {
    expect(infrastructureFailure(err)).toBe(dependency);
    const mapped = restError(refusalOf(err)!, 'r1');
    expect(mapped.status).toBe(503);
    expect(mapped.body).toEqual({ error: expect.any(String), code: 'UNAVAILABLE' });
    expect(Number(mapped.headers['retry-after'])).toBeGreaterThan(0);
  });

  it.each([
    ['a domain error', new DomainError('NOT_FOUND', 'x')],
    [
      'a user site refusing a connection (safe HTTP)',
      new SafeHttpError('CONNECTION_REFUSED' as never, 'refused', {
        cause: withCode('connect ECONNREFUSED 127.0.0.1:81', 'ECONNREFUSED'),
      }),
    ],
    ['a constraint violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('not %s', (_label, err) => {
    expect(infrastructureFailure(err)).toBeNull();
    expect(asUnavailable(err)).toBeNull();
  });
});
