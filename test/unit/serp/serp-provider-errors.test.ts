import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SerpProviderError, createSerpProvider } from '../../../src/serp/index.js';
import type { SerpConfig, SerpProvider, SerpProviderName, SerpQuery } from '../../../src/serp/index.js';
import { closeAllFakeServers, startFakeServer } from './serp-test-server.js';
import type { FakeHandler } from './serp-test-server.js';

const SECRET = 'top-secret-credential-99';
const QUERY: SerpQuery = { keyword: 'coffee grinder', country: 'us', language: 'en', device: 'desktop', depth: 100 };

interface ProviderCase {
  name: SerpProviderName;
  config: SerpConfig;
  /** The provider's documented error body carrying `message`. */
  errorBody: (message: string) => unknown;
}

const PROVIDERS: ProviderCase[] = [
  { name: 'serpapi', config: { SERP_API_KEY: SECRET }, errorBody: (message) => ({ error: message }) },
  { name: 'serper', config: { SERP_API_KEY: SECRET }, errorBody: (message) => ({ message, statusCode: 0 }) },
  {
    name: 'dataforseo',
    config: { SERP_LOGIN: 'login@example.org', SERP_PASSWORD: SECRET },
    errorBody: (message) => ({ status_code: 50000, status_message: message, tasks: null }),
  },
  { name: 'searxng', config: {}, errorBody: (message) => ({ error: message }) },
];

async function adapter(testCase: ProviderCase, handler: FakeHandler, extra: SerpConfig = {}) {
  const server = await startFakeServer(handler);
  const serp = createSerpProvider({
    SERP_PROVIDER: testCase.name,
    SERP_BASE_URL: server.origin,
    ...testCase.config,
    ...extra,
  }) as SerpProvider;
  return { server, serp };
}

async function failure(promise: Promise<unknown>): Promise<SerpProviderError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the search to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SerpProviderError);
  return error as SerpProviderError;
}

const base64Secret = Buffer.from(`login@example.org:${SECRET}`).toString('base64');
function expectNoSecret(error: Error): void {
  expect(error.message).not.toContain(SECRET);
  expect(error.message).not.toContain(base64Secret);
}

afterEach(closeAllFakeServers);

describe.each(PROVIDERS)('$name adapter failures', (testCase) => {
  it.each([
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
  ])('HTTP %i -> retryable %s, with provider, status and message', async (status, retryable) => {
    const { server, serp } = await adapter(testCase, () => ({
      status,
      // SearXNG has no credential to leak; the others must scrub theirs even when the provider echoes it.
      body: testCase.errorBody(`provider says no (echo: ${testCase.name === 'searxng' ? '-' : SECRET})`),
    }));
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ provider: testCase.name, status, retryable, code: 'HTTP_ERROR' });
    expect(error.message).toMatch(new RegExp(`^${testCase.name}: HTTP ${status}`));
    expect(error.message).toContain('provider says no');
    expectNoSecret(error);
    // No retry inside the adapter: the job decides, so exactly one billed call was made.
    expect(server.requests).toHaveLength(1);
  });

  it('reports malformed JSON as not retryable', async () => {
    const { serp } = await adapter(testCase, () => ({
      body: '{"organic_results": [',
      headers: { 'content-type': 'application/json' },
    }));
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ provider: testCase.name, code: 'MALFORMED_RESPONSE', retryable: false, status: 200 });
    expect(error.message).toBe(`${testCase.name}: returned malformed JSON (HTTP 200)`);
  });

  it('reports JSON of the wrong shape as malformed', async () => {
    const { serp } = await adapter(testCase, () => ({ body: [1, 2, 3] }));
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ code: 'MALFORMED_RESPONSE', retryable: false });
    expect(error.message).toContain('returned malformed JSON');
  });

  it('times out a call that does not answer within SERP_TIMEOUT_MS', async () => {
    const { serp } = await adapter(testCase, () => ({ hang: true }), { SERP_TIMEOUT_MS: 150 });
    const started = Date.now();
    const error = await failure(serp.search(QUERY));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ provider: testCase.name, code: 'TIMEOUT', retryable: true });
    expect(error.message).toBe(`${testCase.name}: no response within 150 ms`);
  });

  it("stops when the caller's signal aborts", async () => {
    const { serp } = await adapter(testCase, () => ({ hang: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(serp.search(QUERY, { signal: controller.signal }));
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
  });

  it('does not call the provider with an already-aborted signal', async () => {
    const { server, serp } = await adapter(testCase, () => ({ body: {} }));
    const error = await failure(serp.search(QUERY, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses to follow a redirect and says why', async () => {
    const { serp } = await adapter(testCase, () => ({
      status: 302,
      headers: { location: 'https://elsewhere.test/' },
      body: '',
    }));
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ status: 302, retryable: false });
    expect(error.message).toContain('redirected to https://elsewhere.test/');
  });

  it('reports a refused connection as a retryable network error', async () => {
    const port = await freePort();
    const serp = createSerpProvider({
      SERP_PROVIDER: testCase.name,
      SERP_BASE_URL: `http://127.0.0.1:${port}`,
      ...testCase.config,
    }) as SerpProvider;
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    expect(error.message).toContain('ECONNREFUSED');
    expectNoSecret(error);
  });

  it.each([
    [{ keyword: '   ' }, 'keyword is empty'],
    [{ country: 'usa' }, 'ISO 3166-1 alpha-2'],
    [{ language: 'english' }, 'language'],
    [{ depth: 0 }, 'depth'],
    [{ depth: 1_000 }, 'depth'],
    [{ device: 'tablet' as 'mobile' }, 'device'],
  ])('rejects an invalid query %o without a call', async (patch, text) => {
    const { server, serp } = await adapter(testCase, () => ({ body: {} }));
    const error = await failure(serp.search({ ...QUERY, ...patch }));
    expect(error).toMatchObject({ code: 'INVALID_QUERY', retryable: false });
    expect(error.message).toContain(text);
    expect(server.requests).toHaveLength(0);
  });
});

describe('response size', () => {
  it.each([
    ['a declared Content-Length', {}],
    ['a chunked body', { 'transfer-encoding': 'chunked' }],
  ])('refuses a body larger than the cap (%s) instead of buffering it', async (_label, headers) => {
    const huge = `{"organic": [${'"x",'.repeat(3_000_000)}"x"]}`;
    const { serp } = await adapter(PROVIDERS[1], () => ({
      body: huge,
      headers: { 'content-type': 'application/json', ...headers },
    }));
    const error = await failure(serp.search(QUERY));
    expect(error).toMatchObject({ code: 'MALFORMED_RESPONSE', retryable: false });
    expect(error.message).toContain('response larger than');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
