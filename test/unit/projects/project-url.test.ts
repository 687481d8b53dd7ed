import { describe, expect, it } from 'vitest';
import {
  normalizeProjectUrl,
  parseProjectUrl,
  resolveBareUrl,
  type ProbeOutcome,
} from '../../../src/projects/project-url.js';
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

describe('parseProjectUrl', () => {
  it.each([
    ['example.com', 'https://example.com/', false],
    ['example.com:8080/shop', 'https://example.com:8080/shop', false],
    ['localhost:3000', 'https://localhost:3000/', false],
    ['127.0.0.1:8080', 'https://127.0.0.1:8080/', false],
    ['http://example.com', 'http://example.com/', true],
    ['HTTPS://example.com:8443', 'https://example.com:8443/', true],
  ])('%s → %s (scheme given: %s)', (input, url, schemeGiven) => {
    expect(parseProjectUrl(input)).toMatchObject({ url, schemeGiven });
  });

  it('still refuses a scheme that is not http(s), even with a number after it', () => {
    expect(() => parseProjectUrl('javascript:alert(1)')).toThrow(DomainError);
    expect(() => parseProjectUrl('ftp://example.com:21/')).toThrow(DomainError);
  });
});

describe('resolveBareUrl', () => {
  const answers =
    (outcomes: Record<string, ProbeOutcome>, tried: string[] = []) =>
    (url: string) => {
      tried.push(url);
      return Promise.resolve(outcomes[url] ?? { ok: false, refused: false, reason: 'connection refused' });
    };

  it('takes https when it answers, without trying http', async () => {
    const tried: string[] = [];
    const url = await resolveBareUrl('https://a.example/x', answers({ 'https://a.example/x': { ok: true } }, tried));
    expect(url).toBe('https://a.example/x');
    expect(tried).toEqual(['https://a.example/x']);
  });

  it('falls back to http when https fails (e.g. a TLS error) and http answers', async () => {
    const tried: string[] = [];
    const probe = answers(
      {
        'https://a.example:8080/': { ok: false, refused: false, reason: 'the TLS connection failed' },
        'http://a.example:8080/': { ok: true },
      },
      tried,
    );
    expect(await resolveBareUrl('https://a.example:8080/', probe)).toBe('http://a.example:8080/');
    expect(tried).toEqual(['https://a.example:8080/', 'http://a.example:8080/']);
  });

  it('refuses when neither answers, naming both reasons, and at once on a refused address', async () => {
    await expect(resolveBareUrl('https://a.example/', answers({}))).rejects.toThrow(
      /^a\.example did not answer over https \(connection refused\) or http \(connection refused\)/,
    );
    const tried: string[] = [];
    const refused = answers({ 'https://a.example/': { ok: false, refused: true, reason: 'private address' } }, tried);
    await expect(resolveBareUrl('https://a.example/', refused)).rejects.toThrow('private address');
    expect(tried).toEqual(['https://a.example/']);
  });
});
