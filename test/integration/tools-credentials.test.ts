/**
 * Every free tool refuses a URL with embedded credentials the same way (the SSRF drill found the robots tool
 * answering 200 for http://user:pw@allowed-host/: it rebuilt /robots.txt from the origin, dropping them).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';

let t: TestApp;
let server: http.Server;
let requests = 0;
let port: number;
const host = `creds-${uniq()}.test`;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: *\nAllow: /\n');
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
  t = await createTestApp({
    SAFE_HTTP_ALLOW: host,
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    ANONYMOUS_RATE_PER_MINUTE: '1000',
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('free tools and URLs with credentials', () => {
  it.each(['meta-tags', 'robots', 'headers', 'sitemap'])(
    '%s refuses user:password@ with a 400 and fetches nothing',
    async (tool) => {
      const before = requests;
      for (const url of [`http://user:pw@${host}:${port}/`, `http://user@${host}:${port}/robots.txt`]) {
        const res = await t.app.inject({ method: 'POST', url: `/api/tools/${tool}`, payload: { url } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toMatchObject({ code: 'BAD_USER_INPUT', error: expect.stringMatching(/credentials/) });
      }
      expect(requests - before).toBe(0);
    },
  );

  it('the robots tool still fetches the same URL without credentials', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tools/robots',
      payload: { url: `http://${host}:${port}/` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true });
  });
});
