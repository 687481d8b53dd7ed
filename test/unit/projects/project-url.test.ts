import { describe, expect, it } from 'vitest';
import { normalizeProjectUrl } from '../../../src/projects/project-url.js';
import { DomainError } from '../../../src/platform/errors.js';

describe('normalizeProjectUrl', () => {
  it.each([
    ['https://Example.COM', 'https://example.com/', 'example.com'],
    ['example.com/blog?x=1#top', 'https://example.com/blog?x=1', 'example.com'],
    ['http://www.example.com:80/', 'http://www.example.com/', 'www.example.com'],
    ['https://example.com:8443/a', 'https://example.com:8443/a', 'example.com'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
    ['  https://example.com.  ', 'https://example.com./', 'example.com'],
    // An IPv6 literal names a host (whether it may be audited is the address policy's call).
    ['http://[2001:4860::8888]:8080/x', 'http://[2001:4860::8888]:8080/x', '[2001:4860::8888]'],
  ])('%s → %s', (input, url, domain) => {
    expect(normalizeProjectUrl(input)).toEqual({ url, domain });
  });

  it.each([
    '',
    'ftp://example.com',
    'javascript:alert(1)',
    'https://user:pw@example.com',
    'http://',
    'https://nodot',
    `https://e.com/${'a'.repeat(2100)}`,
  ])('refuses %j with BAD_USER_INPUT on url', (input) => {
    try {
      normalizeProjectUrl(input);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('BAD_USER_INPUT');
      expect((err as DomainError).details?.[0].path).toBe('url');
    }
  });
});
