import { afterEach, describe, expect, it } from 'vitest';
import { createSerpProvider, findPosition } from '../../../src/serp/index.js';
import type { SerpProvider, SerpQuery } from '../../../src/serp/index.js';
import { fakeSerper } from './fake-providers.js';
import { closeAllFakeServers, makeSerp, startFakeServer } from './serp-test-server.js';
import type { FakeHandler } from './serp-test-server.js';

const KEY = 'serper-secret-key-7';
const QUERY: SerpQuery = { keyword: 'plombier paris', country: 'fr', language: 'fr', device: 'desktop', depth: 100 };

async function provider(handler: FakeHandler, apiKey = KEY) {
  const server = await startFakeServer(handler);
  const serp = createSerpProvider({
    SERP_PROVIDER: 'serper',
    SERP_API_KEY: apiKey,
    SERP_BASE_URL: server.origin,
  }) as SerpProvider;
  return { server, serp };
}

afterEach(closeAllFakeServers);

describe('Serper adapter', () => {
  it('POSTs one JSON body per page of 10 with X-API-KEY and numbers results across pages', async () => {
    const { server, serp } = await provider(
      fakeSerper(makeSerp(120, { 58: 'https://blog.example.com/a', 64: 'https://example.com/plombier' }), {
        apiKey: KEY,
      }),
    );
    const snapshot = await serp.search(QUERY);

    expect(server.requests).toHaveLength(10);
    server.requests.forEach((req, i) => {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/search');
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.query.toString()).toBe('');
      expect(JSON.parse(req.body)).toEqual({ q: 'plombier paris', gl: 'fr', hl: 'fr', num: 10, page: i + 1 });
    });
    expect(snapshot.requests).toBe(10);
    expect(snapshot.results).toHaveLength(100);
    // Serper numbers each page 1..10; the adapter's positions run across pages.
    expect(snapshot.results[10]).toMatchObject({
      position: 11,
      url: 'https://site11.test/page-11',
      title: 'Result 11',
    });
    expect(findPosition(snapshot.results, 'www.example.com')?.position).toBe(64);
    expect(findPosition(snapshot.results, 'example.com', { includeSubdomains: true })?.position).toBe(58);
  });

  it('stops paginating on a short page', async () => {
    const { server, serp } = await provider(fakeSerper(makeSerp(34), { apiKey: KEY }));
    const snapshot = await serp.search(QUERY);
    expect(server.requests.map((r) => (JSON.parse(r.body) as { page: number }).page)).toEqual([1, 2, 3, 4]);
    expect(snapshot.results).toHaveLength(34);
  });

  it('stops on an empty page', async () => {
    const { server, serp } = await provider(fakeSerper(makeSerp(20), { apiKey: KEY }));
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(3);
    expect(snapshot.results).toHaveLength(20);
  });

  it('returns null for a domain outside the depth', async () => {
    const { serp } = await provider(fakeSerper(makeSerp(150, { 101: 'https://example.com/' }), { apiKey: KEY }));
    const snapshot = await serp.search(QUERY);
    expect(snapshot.results).toHaveLength(100);
    expect(findPosition(snapshot.results, 'example.com')).toBeNull();
  });

  it('reports Serper\'s 403 "Unauthorized." without the key', async () => {
    const { serp } = await provider(fakeSerper(makeSerp(10), { apiKey: 'another-key' }));
    const error = (await serp.search(QUERY).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ provider: 'serper', status: 403, retryable: false });
    expect(error.message).toBe('serper: HTTP 403: Unauthorized.');
    expect(error.message).not.toContain(KEY);
  });

  it('reports an out-of-credits 400 as not retryable', async () => {
    const { serp } = await provider(() => ({ status: 400, body: { message: 'Not enough credits', statusCode: 400 } }));
    await expect(serp.search(QUERY)).rejects.toMatchObject({
      status: 400,
      retryable: false,
      message: 'serper: HTTP 400: Not enough credits',
    });
  });
});
