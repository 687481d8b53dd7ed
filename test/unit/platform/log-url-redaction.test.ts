import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrlSecrets } from '../../../src/platform/logger.js';

describe('redactUrlSecrets', () => {
  it.each([
    ['/api/v1/projects?api_key=seo_abc123', '/api/v1/projects?api_key=[REDACTED]'],
    ['/x?a=1&token=t0k&b=2', '/x?a=1&token=[REDACTED]&b=2'],
    ['/x?access_token=a&refresh_token=b', '/x?access_token=[REDACTED]&refresh_token=[REDACTED]'],
    ['/cb?code=xyz&state=s', '/cb?code=[REDACTED]&state=s'],
    ['/x?password=hunter22&user=me', '/x?password=[REDACTED]&user=me'],
    ['/x?X-Amz-Signature=abc&sig=d&key=e', '/x?X-Amz-Signature=[REDACTED]&sig=[REDACTED]&key=[REDACTED]'],
    ['/api/auth/reset-password/abcdef0123?callbackURL=%2F', '/api/auth/reset-password/[REDACTED]?callbackURL=%2F'],
    ['/api/auth/verify-email?token=abc&callbackURL=/', '/api/auth/verify-email?token=[REDACTED]&callbackURL=/'],
    [
      'did you forget to "return reply" in "/api/v1/projects?api_key=seo_k" (GET)?',
      'did you forget to "return reply" in "/api/v1/projects?api_key=[REDACTED]" (GET)?',
    ],
  ])('%s', (input, expected) => expect(redactUrlSecrets(input)).toBe(expected));

  it('leaves ordinary URLs alone', () => {
    for (const url of [
      '/api/projects/123/keywords?days=30',
      '/api/projects?keywords=shoes&format=csv',
      '/api/tools/robots',
      '/graphql',
    ])
      expect(redactUrlSecrets(url)).toBe(url);
  });
});

describe('the logger', () => {
  it('redacts credentials in the logged request URL and in error messages and stacks', () => {
    const lines: string[] = [];
    const logger = createLogger(
      { level: 'info' },
      new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
    );
    logger.info(
      { req: { method: 'GET', url: '/api/v1/projects?api_key=seo_SECRET1', headers: {}, ip: '127.0.0.1' } },
      'incoming request',
    );
    logger.warn({ err: new Error('Reply was already sent in "/x?token=SECRET2"') }, 'oops');
    logger.warn({ err: new Error('no message of its own: "/x?password=SECRET3"') });
    logger.error(new Error('an error alone: "/x?code=SECRET4"'));
    const text = lines.join('');
    expect(text).not.toMatch(/SECRET/);
    expect(text).toContain('/api/v1/projects?api_key=[REDACTED]');
    expect(JSON.parse(lines[2]).msg).toBe('no message of its own: "/x?password=[REDACTED]"');
    expect(JSON.parse(lines[3]).msg).toBe('an error alone: "/x?code=[REDACTED]"');
    expect(JSON.parse(lines[0]).req).toEqual({
      method: 'GET',
      url: '/api/v1/projects?api_key=[REDACTED]',
      remoteAddress: '127.0.0.1',
    });
  });
});
