import { afterEach, describe, expect, it } from 'vitest';
import { SerpProviderError, createSerpProvider, findPosition } from '../../../src/serp/index.js';
import type { SerpProvider, SerpQuery } from '../../../src/serp/index.js';
import { SERPAPI_INVALID_KEY, fakeSerpApi } from './fake-providers.js';
import { closeAllFakeServers, makeSerp, startFakeServer } from './serp-test-server.js';
import type { FakeHandler } from './serp-test-server.js';

const KEY = 'serpapi-secret-key-42';
const QUERY: SerpQuery = {
  keyword: 'best running shoes',
  country: 'us',
  language: 'en',
  device: 'desktop',
  depth: 100,
};

async function provider(handler: FakeHandler, apiKey = KEY) {
  const server = await startFakeServer(handler);
  const serp = createSerpProvider({
    SERP_PROVIDER: 'serpapi',
    SERP_API_KEY: apiKey,
    SERP_BASE_URL: server.origin,
  }) as SerpProvider;
  return { server, serp };
}

afterEach(closeAllFakeServers);

describe('SerpApi adapter', () => {
  it('pages through 10 results per call with the documented parameters and finds the domain', async () => {
    const { server, serp } = await provider(
      fakeSerpApi(makeSerp(150, { 37: 'https://www.example.com/shoes' }), { apiKey: KEY }),
    );
    const snapshot = await serp.search({ ...QUERY, device: 'mobile' });

    expect(server.requests).toHaveLength(10);
    server.requests.forEach((req, i) => {
      expect(req.method).toBe('GET');
      expect(req.path).toBe('/search.json');
      expect(Object.fromEntries(req.query)).toEqual({
        engine: 'google',
        q: 'best running shoes',
        gl: 'us',
        hl: 'en',
        device: 'mobile',
        num: '10',
        start: String(i * 10),
        api_key: KEY,
      });
    });
    expect(snapshot.provider).toBe('serpapi');
    expect(snapshot.requests).toBe(10);
    expect(snapshot.results).toHaveLength(100);
    expect(snapshot.results.map((r) => r.position)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(snapshot.results[0]).toEqual({
      position: 1,
      url: 'https://site1.test/page-1',
      domain: 'site1.test',
      title: 'Result 1',
    });
    expect(findPosition(snapshot.results, 'example.com')).toEqual({
      position: 37,
      url: 'https://www.example.com/shoes',
      domain: 'www.example.com',
      title: 'Result 37',
    });
    expect(snapshot.fetchedAt).toBeInstanceOf(Date);
  });

  it('asks only for the pages the depth needs', async () => {
    const { server, serp } = await provider(fakeSerpApi(makeSerp(150), { apiKey: KEY }));
    const snapshot = await serp.search({ ...QUERY, depth: 25 });
    expect(server.requests.map((r) => r.query.get('start'))).toEqual(['0', '10', '20']);
    expect(snapshot.results).toHaveLength(25);
    expect(snapshot.results.at(-1)?.url).toBe('https://site25.test/page-25');
  });

  it('stops on the last page SerpApi announces (no serpapi_pagination.next)', async () => {
    const { server, serp } = await provider(fakeSerpApi(makeSerp(23), { apiKey: KEY }));
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(3);
    expect(snapshot.requests).toBe(3);
    expect(snapshot.results).toHaveLength(23);
  });

  it('stops on a short page when the response has no pagination block', async () => {
    const { server, serp } = await provider(fakeSerpApi(makeSerp(15), { apiKey: KEY, pagination: false }));
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(2);
    expect(snapshot.results).toHaveLength(15);
  });

  it('keeps going after a short page when SerpApi announces a next page', async () => {
    const full = fakeSerpApi(makeSerp(30), { apiKey: KEY });
    // Page 1 has only 8 organic results (Google dropped two) but pagination.next is present.
    const handler: FakeHandler = (req, index) => {
      const reply = full(req, index);
      if (index === 0) {
        const body = reply.body as { organic_results: unknown[] };
        body.organic_results = body.organic_results.slice(0, 8);
      }
      return reply;
    };
    const { server, serp } = await provider(handler);
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(3);
    expect(snapshot.results).toHaveLength(28);
    expect(snapshot.results[8]).toMatchObject({ position: 9, url: 'https://site11.test/page-11' });
  });

  it('treats "Google hasn\'t returned any results" as an empty SERP, not an error', async () => {
    const { server, serp } = await provider(fakeSerpApi([], { apiKey: KEY }));
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(1);
    expect(snapshot.results).toEqual([]);
    expect(findPosition(snapshot.results, 'example.com')).toBeNull();
  });

  it('de-duplicates a URL Google repeats on the next page and renumbers 1..n', async () => {
    const serp = makeSerp(20);
    serp[12] = { url: 'https://site3.test/page-3#:~:text=shoes', title: 'Again' };
    const { serp: adapter } = await provider(fakeSerpApi(serp, { apiKey: KEY }));
    const snapshot = await adapter.search({ ...QUERY, depth: 20 });
    expect(snapshot.results).toHaveLength(19);
    expect(snapshot.results.filter((r) => r.url === 'https://site3.test/page-3')).toHaveLength(1);
    expect(snapshot.results.map((r) => r.position)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(snapshot.results[12]).toMatchObject({ position: 13, url: 'https://site14.test/page-14' });
  });

  it('reports the documented invalid-key error (401) without the key', async () => {
    const { serp } = await provider(fakeSerpApi(makeSerp(10), { apiKey: 'the-right-key' }));
    const error = await serp.search(QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerpProviderError);
    expect(error).toMatchObject({ provider: 'serpapi', status: 401, retryable: false, code: 'HTTP_ERROR' });
    const message = (error as Error).message;
    expect(message).toContain('serpapi');
    expect(message).toContain('401');
    expect(message).toContain(SERPAPI_INVALID_KEY);
    expect(message).not.toContain(KEY);
  });

  it('redacts the key when the provider echoes it back', async () => {
    const { serp } = await provider(() => ({
      status: 400,
      body: { error: `Unsupported value in api_key=${KEY}&q=x` },
    }));
    const error = (await serp.search(QUERY).catch((e: unknown) => e)) as SerpProviderError;
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[redacted]');
  });

  it('turns any other 200 `error` payload into a provider error', async () => {
    const { serp } = await provider(() => ({
      body: {
        search_metadata: { status: 'Error' },
        error: "We couldn't get valid results for this search. Please, try again later.",
      },
    }));
    await expect(serp.search(QUERY)).rejects.toMatchObject({ code: 'PROVIDER_ERROR', retryable: true, status: 200 });
  });

  it('does not turn a failure on page 3 into a shorter SERP', async () => {
    const ok = fakeSerpApi(makeSerp(100), { apiKey: KEY });
    const { serp } = await provider((req, index) =>
      index === 2 ? { status: 503, body: { error: 'busy' } } : ok(req, index),
    );
    await expect(serp.search(QUERY)).rejects.toMatchObject({ status: 503, retryable: true });
  });
});
