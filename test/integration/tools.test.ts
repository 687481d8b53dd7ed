import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anOrg } from '../factories.js';

/** A counting local server with fixed routes. */
function site(routes: Record<string, (res: http.ServerResponse) => void>) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const route = routes[req.url ?? '/'];
    if (route) return route(res);
    res.statusCode = 404;
    res.end('not found');
  });
  return {
    requests: () => requests,
    listen: () =>
      new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const html = (res: http.ServerResponse, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
};

const PAGE =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture page for the meta tags tool ` +
  `test</title>
<meta name="description" content="A description long enough to pass the description length check of the ` +
  `meta tags tool, yes.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="/canonical">
<meta property="og:title" content="OG title"><meta name="twitter:card" content="summary">
<link rel="alternate" hreflang="de" href="https://example.com/de"><script ` +
  `type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"X"}</script>
</head><body><h1>Hi</h1></body></html>`;

let t: TestApp; // allow-listed loopback, pinned names
let strict: TestApp; // production defaults: no private targets
let fixture: ReturnType<typeof site>;
let port: number;
const host = `tools-${uniq()}.test`;
const base = () => `http://${host}:${port}`;

beforeAll(async () => {
  fixture = site({
    '/page': (res) => html(res, PAGE, { 'x-powered-by': 'PHP/8.1.2' }),
    '/robots.txt': (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private\nAllow: /private/open\n\nSitemap: https://example.com/sitemap.xml\n');
    },
    '/sitemap.xml.gz': (res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.end(
        gzipSync(
          `<?xml version="1.0" encoding="UTF-8"?><urlset ` +
            `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base()}/a</loc><lastmod>2025-01` +
            `-02</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url></urlset>`,
        ),
      );
    },
    '/index.xml': (res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><sitemapindex ` +
          `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base()}/sitemap.xml.gz</loc><` +
          `/sitemap><sitemap><loc>${base()}/missing.xml</loc></sitemap></sitemapindex>`,
      );
    },
    '/hop1': (res) => {
      res.writeHead(301, { location: '/hop2' });
      res.end();
    },
    '/hop2': (res) => {
      res.writeHead(302, { location: '/page' });
      res.end();
    },
    '/loop': (res) => {
      res.writeHead(302, { location: '/loop2' });
      res.end();
    },
    '/loop2': (res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    },
    '/binary': (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.from([0, 1, 2, 3, 0, 255]));
    },
    '/internal-redirect': (res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    },
  });
  port = await fixture.listen();
  t = await createTestApp({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
  strict = await createTestApp({ SAFE_HTTP_RESOLVE: `${host}=127.0.0.1` });
});
afterAll(async () => {
  await t.close();
  await strict.close();
  await fixture.close();
});

let ip = 0;
/** Each call from its own client IP so the per-IP limit does not interfere (it has its own test). */
const tool = (app: TestApp, name: string, payload: unknown) =>
  app.app.inject({
    method: 'POST',
    url: `/api/tools/${name}`,
    payload: payload as object,
    remoteAddress: `198.51.100.${(ip++ % 250) + 1}`,
  });

describe('POST /api/tools/meta-tags', () => {
  it('analyzes a fetched URL: head facts, OG, Twitter, hreflang, JSON-LD and single-page issues', async () => {
    const res = await tool(t, 'meta-tags', { url: `${base()}/page` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      url: `${base()}/page`,
      title: 'Fixture page for the meta tags tool test',
      canonical: `${base()}/canonical`,
      viewport: 'width=device-width, initial-scale=1',
      lang: 'en',
      charset: 'utf-8',
      openGraph: { 'og:title': 'OG title' },
      twitter: { 'twitter:card': 'summary' },
      hreflang: [{ lang: 'de', href: 'https://example.com/de' }],
      jsonLd: [{ '@type': 'Organization', name: 'X' }],
    });
    const codes = body.issues.map((i: { code: string }) => i.code);
    expect(codes).toContain('META_HREFLANG_NO_SELF');
    expect(codes).toContain('META_HREFLANG_NO_X_DEFAULT');
    expect(codes).not.toContain('META_TITLE_MISSING');
    expect(codes).not.toContain('META_DESCRIPTION_MISSING');
    for (const issue of body.issues)
      expect(Object.keys(issue).sort()).toEqual(['category', 'code', 'severity', 'title']);
  });

  it('analyzes pasted HTML without fetching anything', async () => {
    const before = fixture.requests();
    const res = await tool(t, 'meta-tags', { html: '<html><head><title>x</title></head><body></body></html>' });
    expect(res.statusCode).toBe(200);
    expect(res.json().issues.map((i: { code: string }) => i.code)).toEqual(
      expect.arrayContaining([
        'META_TITLE_TOO_SHORT',
        'META_DESCRIPTION_MISSING',
        'META_LANG_MISSING',
        'CONTENT_H1_MISSING',
      ]),
    );
    expect(fixture.requests()).toBe(before);
  });

  it.each([
    [{ url: 'not a url' }, /absolute http\(s\) URL/],
    [{ url: 'file:///etc/passwd' }, /http or https/],
    [{ url: 'ftp://example.com/' }, /http or https/],
    [{}, /must match a schema in anyOf|url/],
    [{ url: 'https://example.com', extra: 1 }, /unknown field/],
    [{ html: 'a\u0000b' }, /binary/],
  ])('bad input %j → 400 with a clear error', async (payload, message) => {
    const res = await tool(t, 'meta-tags', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_USER_INPUT', error: expect.stringMatching(message) });
  });

  it('binary content and an endless redirect are 400', async () => {
    const bin = await tool(t, 'meta-tags', { url: `${base()}/binary` });
    expect(bin.statusCode).toBe(400);
    expect(bin.json().error).toMatch(/not return an HTML document/);
    const loop = await tool(t, 'meta-tags', { url: `${base()}/loop` });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().error).toMatch(/redirects in a loop|too many/);
  });

  it('a 10 MB body is refused (413) in the error shape', async () => {
    const res = await tool(t, 'meta-tags', { html: 'x'.repeat(10 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('SSRF: private and loopback targets are refused with zero requests reaching the server', () => {
  it.each([
    () => `http://127.0.0.1:${port}/page`,
    () => `http://[::1]:${port}/page`,
    () => `http://[::ffff:127.0.0.1]:${port}/page`,
    () => `http://2130706433:${port}/page`,
    () => `http://0x7f.1:${port}/page`,
    () => `http://10.0.0.1:${port}/page`,
    () => 'http://169.254.169.254/latest/meta-data/',
    () => `http://${host}:${port}/page`, // a name resolving to 127.0.0.1
  ])('%#', async (target) => {
    const before = fixture.requests();
    for (const name of ['meta-tags', 'headers', 'robots', 'sitemap']) {
      const res = await tool(strict, name, { url: target() });
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toMatchObject({
        code: 'BAD_USER_INPUT',
        error: expect.stringMatching(/private, loopback or reserved|not a valid URL/),
      });
    }
    expect(fixture.requests()).toBe(before);
  });

  it('URLs with credentials are refused by all four tools alike, with no request made (finding 10)', async () => {
    const before = fixture.requests();
    const answers = [];
    for (const name of ['meta-tags', 'headers', 'robots', 'sitemap']) {
      for (const url of [
        `${base()}/robots.txt`.replace('://', '://user:pw@'),
        `${base()}/`.replace('://', '://user@'),
      ]) {
        const res = await tool(t, name, { url });
        expect(res.statusCode, `${name} ${url}`).toBe(400);
        answers.push(res.json());
      }
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      error: 'url must not contain credentials (user:password@)',
      code: 'BAD_USER_INPUT',
      details: [{ path: 'url', message: 'url must not contain credentials (user:password@)' }],
    });
    expect(fixture.requests()).toBe(before);
  });

  it('a redirect to a private address is refused', async () => {
    const res = await tool(t, 'headers', { url: `${base()}/internal-redirect` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/private, loopback or reserved/);
  });
});

describe('POST /api/tools/robots', () => {
  it('validates content with groups, rules, line numbers, errors, warnings and URL tests', async () => {
    const content =
      'User-agent: Googlebot\nDisallow: /fish*\nAllow: /fish/ok$\nCrawl-delay: 5\nNoindex: /x\nDisallow: ' +
      'private\nSitemap: https://example.com/s.xml\n';
    const res = await tool(t, 'robots', {
      content,
      testUrls: ['https://example.com/fish/food', 'https://example.com/fish/ok', '/robots.txt'],
      userAgent: 'Googlebot/2.1',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      valid: false,
      source: 'content',
      groups: [
        {
          userAgents: ['Googlebot'],
          rules: [
            { type: 'disallow', path: '/fish*', line: 2 },
            { type: 'allow', path: '/fish/ok$', line: 3 },
          ],
        },
      ],
      sitemaps: ['https://example.com/s.xml'],
    });
    expect(body.errors.map((e: { line: number }) => e.line)).toContain(6); // path not starting with / or *
    // crawl-delay, noindex: ignored by Google
    expect(body.warnings.map((w: { line: number }) => w.line)).toEqual(expect.arrayContaining([4, 5]));
    expect(body.tests).toEqual([
      {
        url: 'https://example.com/fish/food',
        userAgent: 'Googlebot/2.1',
        allowed: false,
        matchedRule: { type: 'disallow', path: '/fish*', line: 2 },
      },
      {
        url: 'https://example.com/fish/ok',
        userAgent: 'Googlebot/2.1',
        allowed: true,
        matchedRule: { type: 'allow', path: '/fish/ok$', line: 3 },
      },
      { url: '/robots.txt', userAgent: 'Googlebot/2.1', allowed: true, matchedRule: null },
    ]);
  });

  it('fetches /robots.txt of a site URL and resolves path tests against it', async () => {
    const res = await tool(t, 'robots', { url: `${base()}/some/page`, testUrls: ['/private/x', '/private/open/y'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ valid: true, source: `${base()}/robots.txt` });
    expect(body.tests.map((x: { allowed: boolean }) => x.allowed)).toEqual([false, true]);
  });

  it('a site without robots.txt is a clear 400; too many test URLs is 400', async () => {
    const bare = site({});
    const barePort = await bare.listen();
    try {
      const none = await tool(t, 'robots', { url: `http://${host}:${barePort}/` });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toMatch(/answered 404.*allow everything/);
    } finally {
      await bare.close();
    }
    const many = await tool(t, 'robots', { content: 'User-agent: *', testUrls: Array(101).fill('/a') });
    expect(many.statusCode).toBe(400);
  });

  it('over 500 KiB is reported as an error of the file', async () => {
    const content = `User-agent: *\n${'Disallow: /a-long-path-segment-for-size\n'.repeat(14_000)}`;
    const res = await tool(t, 'robots', { content });
    expect(res.statusCode).toBe(200);
    expect(res.json().valid).toBe(false);
    expect(JSON.stringify(res.json().errors)).toMatch(/500 KiB|512,?000/);
  });
});

describe('POST /api/tools/headers', () => {
  it('records each redirect hop, the HTTP version, all headers and the checks', async () => {
    const res = await tool(t, 'headers', { url: `${base()}/hop1` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      url: `${base()}/hop1`,
      finalUrl: `${base()}/page`,
      status: 200,
      redirects: [
        { url: `${base()}/hop1`, status: 301 },
        { url: `${base()}/hop2`, status: 302 },
      ],
      httpVersion: '1.1',
      headers: { 'x-powered-by': 'PHP/8.1.2', 'content-type': 'text/html; charset=utf-8' },
    });
    const checks = Object.fromEntries(body.checks.map((c: { name: string; passed: boolean }) => [c.name, c.passed]));
    expect(checks).toMatchObject({
      'version-disclosure': false,
      'content-security-policy': false,
      'content-type-charset': true,
      'redirect-chain': false,
    });
    expect(body.issues.map((i: { code: string }) => i.code)).toEqual(
      expect.arrayContaining(['TECH_HTTP_PAGE', 'LINKS_REDIRECT_CHAIN']),
    );
  });

  it('an endless redirect is a 400', async () => {
    const res = await tool(t, 'headers', { url: `${base()}/loop` });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /api/tools/sitemap', () => {
  it('validates pasted content and reports protocol errors with line numbers', async () => {
    const content =
      `<?xml version="1.0"?>\n<urlset ` +
      `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://example.com/a</loc><priority>` +
      `1.5</priority></url>\n<url><loc>/relative</loc></url>\n</urlset>`;
    const res = await tool(t, 'sitemap', { content });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ valid: false, type: 'urlset', urlCount: 2 });
    expect(body.errors.map((e: { line: number }) => e.line)).toEqual(expect.arrayContaining([3, 4]));
    expect(body).not.toHaveProperty('sitemaps');
  });

  it('invalid XML is a 400 naming the line; an unescaped & is a protocol error with its line', async () => {
    const res = await tool(t, 'sitemap', {
      content:
        '<?xml version="1.0"?>\n<urlset ' +
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://e.com/</url>\n</urlset>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_USER_INPUT', error: expect.stringMatching(/line 3/) });
    const amp = await tool(t, 'sitemap', {
      content:
        '<?xml version="1.0"?>\n<urlset ' +
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://e.com/?a=1&b=2</loc></url>\n</urlset>',
    });
    expect(amp.statusCode).toBe(200);
    expect(amp.json()).toMatchObject({ valid: false, errors: [{ line: 3, message: expect.stringMatching(/&/) }] });
    const binary = await tool(t, 'sitemap', { content: '\u0000\u0001\u0002' });
    expect(binary.statusCode).toBe(400);
  });

  it('fetches gzip sitemaps and sitemap indexes (children validated within a bound)', async () => {
    const gz = await tool(t, 'sitemap', { url: `${base()}/sitemap.xml.gz` });
    expect(gz.statusCode).toBe(200);
    expect(gz.json()).toMatchObject({
      valid: true,
      type: 'urlset',
      urlCount: 1,
      sample: [{ loc: `${base()}/a`, lastmod: '2025-01-02', changefreq: 'daily', priority: 0.8 }],
    });
    const index = await tool(t, 'sitemap', { url: `${base()}/index.xml` });
    expect(index.json()).toMatchObject({
      type: 'sitemapindex',
      urlCount: 2,
      sitemaps: [
        { loc: `${base()}/sitemap.xml.gz`, valid: true, urlCount: 1, errorCount: 0, fetchError: null },
        { loc: `${base()}/missing.xml`, valid: null, fetchError: expect.stringMatching(/404/) },
      ],
    });
  });
});

describe('GraphQL and rate limits', () => {
  it('the four analyses are GraphQL queries too, without authentication', async () => {
    const r = await gql(
      t,
      `query($u: String!, $c: String!) {
        metaTags(input: { html: "<title>t</title>" }) { title }
        robotsTxt(input: { content: $c }) { valid groups { userAgents } }
        httpHeaders(url: $u) { status }
        sitemap(input: { content: "<urlset ` +
        `xmlns=\\"http://www.sitemaps.org/schemas/sitemap/0.9\\"></urlset>" }) { type urlCount }
      }`,
      { u: `${base()}/page`, c: 'User-agent: *\nDisallow:' },
    );
    expect(r.body).toEqual({
      data: {
        metaTags: { title: 't' },
        robotsTxt: { valid: true, groups: [{ userAgents: ['*'] }] },
        httpHeaders: { status: 200 },
        sitemap: { type: 'urlset', urlCount: 0 },
      },
    });
  });

  it('anonymous calls are limited per IP at the Free rate; a session raises it to its organization rate', async () => {
    const call = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/tools/robots',
        payload: { content: 'User-agent: *' },
        remoteAddress,
        headers,
      });
    const now = Date.now() % 60_000;
    if (now > 50_000) await new Promise((r) => setTimeout(r, 60_000 - now + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('203.0.113.50')).statusCode);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const limited = await call('203.0.113.50');
    expect(limited.headers['ratelimit-limit']).toBe('10');
    expect(limited.headers['retry-after']).toEqual(expect.any(String));
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });

    const org = await anOrg(t, { plan: 'PRO' });
    const withSession = await call('203.0.113.50', { cookie: org.owner.cookie });
    expect(withSession.statusCode).toBe(200);
    expect(withSession.headers['ratelimit-limit']).toBe('60');
  });
});
