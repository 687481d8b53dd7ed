import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { DomainError, ERROR_CODES, HTTP_STATUS_BY_CODE } from '../../../src/platform/errors.js';
import { errorResponse } from '../../../facades/rest-mapper.js';

describe('the one error-code → HTTP mapping', () => {
  it.each([
    ['BAD_USER_INPUT', 400],
    ['UNAUTHENTICATED', 401],
    ['FORBIDDEN', 403],
    ['PLAN_LIMIT', 403],
    ['NOT_FOUND', 404],
    ['RATE_LIMITED', 429],
    ['INTERNAL', 500],
    ['UNAVAILABLE', 503],
  ] as const)('%s → %i', (code, status) => {
    expect(HTTP_STATUS_BY_CODE[code]).toBe(status);
    expect(errorResponse(new DomainError(code, 'm'), 'r1').status).toBe(status);
  });

  it('covers every code', () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('unwraps GraphQL errors, keeps details, and hides unexpected errors behind a request id', () => {
    const wrapped = new GraphQLError('x', { originalError: new DomainError('BAD_USER_INPUT', 'bad', [{ path: 'url', message: 'no' }]) });
    expect(errorResponse(wrapped, 'r')).toEqual({ status: 400, body: { error: 'bad', code: 'BAD_USER_INPUT', details: [{ path: 'url', message: 'no' }] }, retryAfter: undefined });
    expect(errorResponse(new Error('duplicate key value violates unique constraint'), 'req-9')).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'INTERNAL', requestId: 'req-9' },
    });
  });
});
