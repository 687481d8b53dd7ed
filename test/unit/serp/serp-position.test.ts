import { describe, expect, it } from 'vitest';
import { findPosition, normalizeDomain } from '../../../src/serp/index.js';
import type { SerpResult } from '../../../src/serp/index.js';

describe('normalizeDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['www.example.com', 'example.com'],
    ['WWW.Example.com.', 'example.com'],
    ['https://www.example.com/path?q=1#x', 'example.com'],
    ['http://example.com:8080/', 'example.com'],
    ['example.com/some/page', 'example.com'],
    ['//cdn.example.com/x.js', 'cdn.example.com'],
    ['  blog.example.com  ', 'blog.example.com'],
    ['www2.example.com', 'www2.example.com'],
    ['wwwexample.com', 'wwwexample.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['https://www.bücher.de/', 'xn--bcher-kva.de'],
    ['', ''],
    ['http://', ''],
    ['not a host', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });
});

function results(...urls: string[]): SerpResult[] {
  return urls.map((url, i) => ({ position: i + 1, url, domain: new URL(url).hostname, title: null }));
}

describe('findPosition', () => {
  const serp = results(
    'https://other.test/',
    'https://blog.example.com/post',
    'https://notexample.com/',
    'https://www.example.com/page',
    'https://example.com/second',
    'https://example.com.evil.test/',
  );

  it.each([
    ['example.com', false, 4],
    ['www.example.com', false, 4],
    ['https://example.com/', false, 4],
    ['EXAMPLE.com', false, 4],
    ['example.com', true, 2],
    ['blog.example.com', false, 2],
    ['blog.example.com', true, 2],
    ['shop.example.com', true, null],
    ['ample.com', true, null],
    ['evil.test', false, null],
    ['evil.test', true, 6],
    ['missing.test', true, null],
    ['', true, null],
  ])('%s (includeSubdomains %s) -> %s', (domain, includeSubdomains, position) => {
    expect(findPosition(serp, domain, { includeSubdomains })?.position ?? null).toBe(position);
  });

  it('returns the whole result, best rank first even if the array is unordered', () => {
    const unordered = [...serp].reverse();
    expect(findPosition(unordered, 'example.com')).toEqual(serp[3]);
  });

  it('matches a www result against a bare project domain and vice versa', () => {
    expect(findPosition(results('https://example.com/'), 'www.example.com')?.position).toBe(1);
    expect(findPosition(results('https://www.example.com/'), 'example.com')?.position).toBe(1);
  });

  it('matches IDN domains whatever their spelling', () => {
    const idn = results('https://xn--mnchen-3ya.de/stadt');
    expect(findPosition(idn, 'münchen.de')?.position).toBe(1);
    expect(findPosition(idn, 'https://www.münchen.de')?.position).toBe(1);
  });

  it('returns null on an empty SERP', () => {
    expect(findPosition([], 'example.com')).toBeNull();
  });
});
