import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { WEB_DIST } from '../../facades/http/web-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const entryScript = () => /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(WEB_DIST, 'index.html'), 'utf8'))![1];
/** The largest script index.html loads (the entry itself may be a few bytes that import the core chunk). */
const largestInitialScript = () =>
  [...readFileSync(join(WEB_DIST, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)]
    .map((m) => m[1])
    .sort((a, b) => statSync(join(WEB_DIST, 'assets', b)).size - statSync(join(WEB_DIST, 'assets', a)).size)[0];

describe('the web application is served by the API process', () => {
  it('/ is the app’s HTML with a strict CSP, no-cache and the security headers', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('the HTML has no inline script: every script is a same-origin file', () => {
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/assets\//);
      expect(body.trim()).toBe('');
    }
  });

  it('hashed assets are immutable for a year; a missing asset is a 404, not the app', async () => {
    const res = await get(`/assets/${entryScript()}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await get('/assets/index-doesnotexist.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/application\/json/);
    expect(
      readdirSync(join(WEB_DIST, 'assets')).every((f) => /-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.br|\.gz)?$/.test(f)),
    ).toBe(true);
  });

  it('assets go out precompressed (Brotli, else gzip) to browsers accepting it: same bytes once decoded', async () => {
    const url = `/assets/${largestInitialScript()}`;
    const plain = await get(url);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it.each([
    '/projects',
    '/projects/0191e2c0-0000-7000-8000-000000000000/audits/x/pages',
    '/settings/api-keys',
    '/tools/nope',
    '/no/such/page',
  ])('the client route %s gets the app (its router shows the page or its 404)', async (path) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });

  it('the GraphQL explorer is a route of the app at its old URL; only its styles may be inline (monaco)', async () => {
    const res = await get('/graphql/explorer');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
  });

  it.each([
    '/api/nope',
    '/api/v1/nope',
    '/api/auth-nope',
    '/graphql/nope',
    '/docs/nope',
    '/metrics/x',
    '/healthz/x',
    '/readyz/x',
    '/favicon.ico',
  ])('the server path %s stays a JSON 404', async (path) => {
    const res = await get(path);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a POST to an unknown path is a JSON 404, not the app', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/projects', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('the old UMD explorer assets are gone', async () => {
    expect((await get('/docs/assets/react.production.min.js')).statusCode).toBe(404);
    expect((await get('/docs/assets/graphiql.min.js')).statusCode).toBe(404);
  });
});
