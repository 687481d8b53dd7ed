import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CrawlCookieJar, credentialHosts, looksLikeLogout } from '../../../src/crawler/index.js';
import { findLoginForm } from '../../../src/crawler/crawl-login-form.js';
import { WebhookSecretBox } from '../../../src/alerts/index.js';

describe('credentialHosts: where a login crawl sends credentials', () => {
  const cases: [string, boolean, string, boolean][] = [
    ['https://shop.test/', false, 'https://shop.test/a', true],
    ['https://shop.test/', false, 'https://www.shop.test/a', true],
    ['https://www.shop.test/', false, 'https://SHOP.test/a', true],
    ['https://shop.test/', false, 'http://shop.test/a', false],
    ['http://shop.test/', false, 'https://shop.test/a', true],
    ['https://shop.test/', false, 'https://shop.test:8443/a', false],
    ['https://shop.test/', false, 'https://blog.shop.test/a', false],
    ['https://shop.test/', true, 'https://blog.shop.test/a', true],
    ['https://www.shop.test/', true, 'https://a.b.shop.test/a', true],
    ['https://shop.test/', true, 'https://evilshop.test/a', false],
    ['https://shop.test/', true, 'https://shop.test.evil.test/a', false],
    ['https://shop.test/', false, 'https://other.test/a', false],
  ];
  for (const [start, subdomains, url, sent] of cases)
    it(`${start} (subdomains ${subdomains}) -> ${url}: ${sent}`, () => {
      expect(credentialHosts({ startUrl: start, includeSubdomains: subdomains })(new URL(url))).toBe(sent);
    });
});

describe('looksLikeLogout', () => {
  const logout = [
    '/logout',
    '/account/log-out',
    '/user/sign_out?x=1',
    '/wp-login.php?action=logout',
    '/SignOut',
    '/a/logoff',
  ];
  const pages = ['/blog/logging-outdoors', '/catalogue', '/signup', '/login', '/designout'];
  for (const path of logout)
    it(`${path} looks like a logout`, () => expect(looksLikeLogout(new URL(path, 'https://x.test'))).toBe(true));
  for (const path of pages)
    it(`${path} does not`, () => expect(looksLikeLogout(new URL(path, 'https://x.test'))).toBe(false));
});

describe('CrawlCookieJar', () => {
  it('keeps, replaces and removes cookies from Set-Cookie headers', () => {
    const jar = new CrawlCookieJar();
    jar.update({ 'set-cookie': ['sid=1; Path=/; HttpOnly', 'pre=a; Secure'] });
    expect(jar.header()).toBe('sid=1; pre=a');
    jar.update({ 'set-cookie': 'sid=2; Path=/' });
    jar.update({ 'set-cookie': ['pre=; Max-Age=0', 'gone=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT'] });
    expect(jar.header()).toBe('sid=2');
  });
});

describe('findLoginForm', () => {
  const page = `<form action="/search"><input name="q"></form>
    <form method="POST" action="/session?next=%2F"><input type="hidden" name="csrf" value="t&amp;1">
    <input name="email"><input type="password" name="pass"><input type="checkbox" name="remember">
    <button name="commit" value="Log in">Log in</button><input type="submit" name="second" value="no"></form>`;
  it('finds the form with the password field, its hidden inputs and its submit button', () => {
    expect(findLoginForm(page, 'https://x.test/login', 'pass')).toEqual({
      action: 'https://x.test/session?next=%2F',
      method: 'post',
      fields: [
        ['csrf', 't&1'],
        ['commit', 'Log in'],
      ],
    });
  });
  it('none when no form has that field', () =>
    expect(findLoginForm(page, 'https://x.test/login', 'password')).toBeNull());
});

describe('the shared sealing keeps webhook secrets readable', () => {
  it('a secret sealed the way webhook-secret.ts sealed it before the move still opens', () => {
    const material = 'k'.repeat(40);
    // The sealing as it was written in src/alerts/webhook-secret.ts before it moved to src/platform/secret-box.ts.
    const key = Buffer.from(hkdfSync('sha256', material, 'seo-audit-platform', 'webhook-endpoint-secret', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update('whsec_abc', 'utf8'), cipher.final()]);
    const sealed = ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    expect(new WebhookSecretBox(material).open(sealed)).toBe('whsec_abc');
  });
});
