import { afterEach, describe, expect, it } from 'vitest';
import { createSerpProvider, findPosition } from '../../../src/serp/index.js';
import type { SerpProvider, SerpQuery } from '../../../src/serp/index.js';
import { fakeSearxng } from './fake-providers.js';
import { closeAllFakeServers, makeSerp, startFakeServer } from './serp-test-server.js';
import type { FakeHandler } from './serp-test-server.js';

const QUERY: SerpQuery = { keyword: 'wanderschuhe test', country: 'de', language: 'de', device: 'desktop', depth: 100 };

async function provider(handler: FakeHandler, path = '') {
  const server = await startFakeServer((req, index) => handler({ ...req, path: req.path.replace(path, '') }, index));
  const serp = createSerpProvider({
    SERP_PROVIDER: 'searxng',
    SERP_BASE_URL: `${server.origin}${path}`,
  }) as SerpProvider;
  return { server, serp };
}

afterEach(closeAllFakeServers);

describe('SearXNG adapter', () => {
  it('asks for JSON page by page with language-COUNTRY and ranks by index across pages', async () => {
    const { server, serp } = await provider(fakeSearxng(makeSerp(130, { 77: 'http://www.example.com/' })));
    const snapshot = await serp.search(QUERY);

    expect(server.requests).toHaveLength(10);
    server.requests.forEach((req, i) => {
      expect(req.method).toBe('GET');
      expect(req.path).toBe('/search');
      expect(Object.fromEntries(req.query)).toEqual({
        q: 'wanderschuhe test',
        format: 'json',
        language: 'de-DE',
        pageno: String(i + 1),
        categories: 'general',
      });
      expect(req.headers.authorization).toBeUndefined();
    });
    expect(snapshot.requests).toBe(10);
    expect(snapshot.results).toHaveLength(100);
    expect(snapshot.results[54]).toMatchObject({ position: 55, url: 'https://site55.test/page-55' });
    expect(findPosition(snapshot.results, 'example.com')?.position).toBe(77);
  });

  it('keeps the base URL path prefix of an instance served under a sub-path', async () => {
    const { server, serp } = await provider(fakeSearxng(makeSerp(5)), '/searxng');
    const snapshot = await serp.search(QUERY);
    expect(server.requests[0].path).toBe('/searxng/search');
    expect(snapshot.results).toHaveLength(5);
  });

  it('uses the primary language subtag with the query country', async () => {
    const { server, serp } = await provider(fakeSearxng(makeSerp(3)));
    await serp.search({ ...QUERY, language: 'pt-br', country: 'pt' });
    expect(server.requests[0].query.get('language')).toBe('pt-PT');
  });

  it('stops when a page returns no results', async () => {
    const { server, serp } = await provider(fakeSearxng(makeSerp(30)));
    const snapshot = await serp.search(QUERY);
    expect(server.requests.map((r) => r.query.get('pageno'))).toEqual(['1', '2', '3', '4']);
    expect(snapshot.results).toHaveLength(30);
  });

  it('follows pages shorter than 10 results (SearXNG page sizes vary)', async () => {
    const { server, serp } = await provider(fakeSearxng(makeSerp(30), { pageSize: 7 }));
    const snapshot = await serp.search({ ...QUERY, depth: 20 });
    expect(server.requests).toHaveLength(3);
    expect(snapshot.results).toHaveLength(20);
  });

  it('stops when a page brings nothing new', async () => {
    const page = makeSerp(10);
    const { server, serp } = await provider((req, index) =>
      fakeSearxng(page)(
        { ...req, query: new URLSearchParams({ ...Object.fromEntries(req.query), pageno: '1' }) },
        index,
      ),
    );
    const snapshot = await serp.search(QUERY);
    expect(server.requests).toHaveLength(2);
    expect(snapshot.results).toHaveLength(10);
  });

  it('explains a 403: the JSON format is disabled on the instance', async () => {
    const { serp } = await provider(fakeSearxng(makeSerp(10), { jsonEnabled: false }));
    const error = (await serp.search(QUERY).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ provider: 'searxng', status: 403, retryable: false });
    expect(error.message).toContain('HTTP 403');
    expect(error.message).toContain('JSON output format is disabled');
    expect(error.message).toContain('search.formats');
  });
});
