/**
 * Where a crawl login may go (issue 47): the rules that say whether a project's current start URL and scope stay inside
 * where its login was set for, and which URLs a bound login is sent to whatever the project says.
 */
import { describe, expect, it } from 'vitest';
import {
  bindingMismatch,
  bindingOf,
  credentialTargets,
  type CrawlLoginBinding,
} from '../../../src/crawler/crawl-login-binding.js';

const bound: CrawlLoginBinding = {
  startUrl: 'https://www.example.com/shop/',
  includeSubdomains: false,
  include: ['/shop/**', '/account/**'],
  exclude: ['/shop/admin/**'],
};
const now = (change: Partial<CrawlLoginBinding>): CrawlLoginBinding => ({ ...bound, ...change });

describe('bindingMismatch', () => {
  it('keeps the login for the same or a narrower scope', () => {
    for (const same of [
      bound,
      now({ startUrl: 'https://example.com/' }),
      now({ startUrl: 'https://www.example.com/account/' }),
      now({ include: ['/shop/**'] }),
      now({ exclude: ['/shop/admin/**', '/shop/cart'] }),
    ])
      expect(bindingMismatch(bound, same), JSON.stringify(same)).toBeNull();
    expect(bindingMismatch(now({ includeSubdomains: true }), bound)).toBeNull();
    expect(bindingMismatch(now({ include: [] }), now({ include: ['/x/**'] }))).toBeNull();
    expect(bindingMismatch(now({ startUrl: 'http://example.com/' }), bound)).toBeNull();
  });

  it('suspends it for another host or port, plain http, subdomains, wider includes, a removed exclude', () => {
    const cases: [Partial<CrawlLoginBinding>, RegExp][] = [
      [{ startUrl: 'https://example.org/shop/' }, /^the project's host changed to example\.org: it was set for/],
      [{ startUrl: 'https://example.com:8443/' }, /host changed to example\.com:8443/],
      [{ startUrl: 'https://shop.example.com/' }, /host changed to shop\.example\.com/],
      [{ startUrl: 'http://example.com/shop/' }, /start URL is now plain http/],
      [{ includeSubdomains: true }, /^subdomains were added to the crawl scope/],
      [{ include: [] }, /include patterns were widened/],
      [{ include: ['/shop/**', '/blog/**'] }, /include patterns were widened/],
      [{ exclude: [] }, /the exclude pattern \/shop\/admin\/\*\* was removed/],
    ];
    for (const [change, reason] of cases)
      expect(bindingMismatch(bound, now(change)), JSON.stringify(change)).toMatch(reason);
    expect(bindingMismatch(bound, now({ includeSubdomains: true }))).toContain(
      'it was set for https://www.example.com; include /shop/**, /account/**; exclude /shop/admin/**',
    );
  });

  it('reads a project: its URL, subdomains flag and patterns', () => {
    expect(
      bindingOf({
        url: 'https://a.example/',
        settings: { crawlSubdomains: true, excludePatterns: ['/x'], maxPages: 3 },
      }),
    ).toEqual({ startUrl: 'https://a.example/', includeSubdomains: true, include: [], exclude: ['/x'] });
  });
});

describe('credentialTargets', () => {
  it("the binding's hosts only, and never a URL its exclude patterns match", () => {
    const sends = credentialTargets(now({ includeSubdomains: true }));
    const yes = ['https://example.com/shop/a', 'https://www.example.com/img/x.png', 'https://cdn.example.com/app.js'];
    const no = [
      'https://example.org/shop/a',
      'http://example.com/shop/a',
      'https://example.com:8443/shop/a',
      'https://example.com.evil.test/',
      'https://example.com/shop/admin/delete?all=1',
    ];
    for (const url of yes) expect(sends(new URL(url)), url).toBe(true);
    for (const url of no) expect(sends(new URL(url)), url).toBe(false);
  });

  it('never sends to another spelling of an excluded path (percent-encoded, other case, dot segments)', () => {
    const sends = credentialTargets(now({ exclude: ['/private/**'] }));
    for (const path of [
      '/%70rivate/x',
      '/PRIVATE/x',
      '/private%2Fx',
      '/public/../private/x',
      '/public/..%2Fprivate/x',
      '/private;a/x',
    ])
      expect(sends(new URL(`https://example.com${path}`)), path).toBe(false);
    expect(sends(new URL('https://example.com/public/x'))).toBe(true);
    // Decoded once: `%2570` is `%70`, not `p`.
    expect(sends(new URL('https://example.com/%2570rivate/x'))).toBe(true);
  });
});
