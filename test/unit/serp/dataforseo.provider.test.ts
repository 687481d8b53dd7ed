import { afterEach, describe, expect, it } from 'vitest';
import { createSerpProvider, dataForSeoLocationCode, findPosition } from '../../../src/serp/index.js';
import type { SerpProvider, SerpQuery } from '../../../src/serp/index.js';
import { DATAFORSEO_UNAUTHORIZED, fakeDataForSeo } from './fake-providers.js';
import { closeAllFakeServers, makeSerp, startFakeServer } from './serp-test-server.js';
import type { FakeHandler } from './serp-test-server.js';

const LOGIN = 'ops@example.org';
const PASSWORD = 'dfs-secret-password';
const QUERY: SerpQuery = { keyword: 'seo audit tool', country: 'gb', language: 'en', device: 'mobile', depth: 100 };

async function provider(handler: FakeHandler, password = PASSWORD) {
  const server = await startFakeServer(handler);
  const serp = createSerpProvider({
    SERP_PROVIDER: 'dataforseo',
    SERP_LOGIN: LOGIN,
    SERP_PASSWORD: password,
    SERP_BASE_URL: server.origin,
  }) as SerpProvider;
  return { server, serp };
}

const envelope = (statusCode: number, message: string, task?: Record<string, unknown>) => ({
  version: '0.1.20250101',
  status_code: statusCode,
  status_message: message,
  tasks_count: task ? 1 : 0,
  tasks_error: task ? 1 : 0,
  tasks: task ? [task] : null,
});

afterEach(closeAllFakeServers);

describe('DataForSEO adapter', () => {
  it('sends one Basic-auth task for the whole depth and keeps organic items in rank order', async () => {
    const { server, serp } = await provider(
      fakeDataForSeo(makeSerp(120, { 42: 'https://www.example.com/audit' }), { login: LOGIN, password: PASSWORD }),
    );
    const snapshot = await serp.search(QUERY);

    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v3/serp/google/organic/live/advanced');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual([
      { keyword: 'seo audit tool', location_code: 2826, language_code: 'en', device: 'mobile', depth: 100 },
    ]);
    expect(snapshot.requests).toBe(1);
    // The featured snippet and "people also ask" items are not organic ranks.
    expect(snapshot.results).toHaveLength(100);
    expect(snapshot.results.some((r) => r.url === 'https://snippet.test/')).toBe(false);
    expect(snapshot.results[3]).toEqual({
      position: 4,
      url: 'https://site4.test/page-4',
      domain: 'site4.test',
      title: 'Result 4',
    });
    expect(findPosition(snapshot.results, 'example.com')?.position).toBe(42);
  });

  it('sorts organic items by rank_group when the array is out of order', async () => {
    const { serp } = await provider((req, index) => {
      const reply = fakeDataForSeo(makeSerp(5), { login: LOGIN, password: PASSWORD })(req, index);
      const items = (reply.body as { tasks: Array<{ result: Array<{ items: unknown[] }> }> }).tasks[0].result[0].items;
      items.reverse();
      return reply;
    });
    const snapshot = await serp.search(QUERY);
    expect(snapshot.results.map((r) => r.url)).toEqual(makeSerp(5).map((r) => r.url));
  });

  it('escapes % and + because DataForSEO URL-decodes the keyword', async () => {
    const { server, serp } = await provider(fakeDataForSeo(makeSerp(3), { login: LOGIN, password: PASSWORD }));
    await serp.search({ ...QUERY, keyword: 'c++ 100% guide' });
    expect((JSON.parse(server.requests[0].body) as Array<{ keyword: string }>)[0].keyword).toBe('c%2B%2B 100%25 guide');
  });

  it('returns an empty SERP when the task has no items', async () => {
    const { serp } = await provider(fakeDataForSeo([], { login: LOGIN, password: PASSWORD }));
    const snapshot = await serp.search(QUERY);
    expect(snapshot.results).toEqual([]);
    expect(findPosition(snapshot.results, 'example.com')).toBeNull();
  });

  it("reports a 401 with DataForSEO's status_message and never the password", async () => {
    const { serp } = await provider(fakeDataForSeo(makeSerp(3), { login: LOGIN, password: 'other' }));
    const error = (await serp.search(QUERY).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ provider: 'dataforseo', status: 401, retryable: false, code: 'HTTP_ERROR' });
    expect(error.message).toBe(`dataforseo: HTTP 401: ${DATAFORSEO_UNAUTHORIZED}`);
    expect(error.message).not.toContain(PASSWORD);
  });

  it.each([
    [
      'request-level error',
      envelope(40501, "Invalid Field: 'depth'."),
      false,
      "request status_code 40501: Invalid Field: 'depth'.",
    ],
    [
      'task-level error',
      envelope(20000, 'Ok.', { status_code: 40501, status_message: "Invalid Field: 'location_code'." }),
      false,
      "task status_code 40501: Invalid Field: 'location_code'.",
    ],
    [
      'server-side task error',
      envelope(20000, 'Ok.', { status_code: 50000, status_message: 'Internal Error.' }),
      true,
      'task status_code 50000: Internal Error.',
    ],
    [
      'rate limit',
      envelope(40202, 'Rate-limit is exceeded. Please contact support.'),
      true,
      'request status_code 40202',
    ],
  ])('turns a %s (HTTP 200) into a provider error', async (_label, body, retryable, text) => {
    const { serp } = await provider(() => ({ body }));
    const error = (await serp.search(QUERY).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ provider: 'dataforseo', code: 'PROVIDER_ERROR', retryable });
    expect(error.message).toContain(text);
  });

  it('refuses a country without a known location_code before calling the provider', async () => {
    const { server, serp } = await provider(fakeDataForSeo(makeSerp(3), { login: LOGIN, password: PASSWORD }));
    await expect(serp.search({ ...QUERY, country: 'zz' })).rejects.toMatchObject({
      code: 'INVALID_QUERY',
      retryable: false,
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('dataForSeoLocationCode', () => {
  it.each([
    ['us', 2840],
    ['gb', 2826],
    ['uk', 2826],
    ['de', 2276],
    ['fr', 2250],
    ['in', 2356],
    ['ca', 2124],
    ['au', 2036],
    ['br', 2076],
    ['jp', 2392],
    ['zz', null],
    ['constructor', null],
  ])('%s -> %s', (country, code) => {
    expect(dataForSeoLocationCode(country)).toBe(code);
  });
});
