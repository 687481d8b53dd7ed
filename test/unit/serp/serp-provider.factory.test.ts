import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/platform/config.js';
import {
  DataForSeoProvider,
  SearxngProvider,
  SerpApiProvider,
  SerperProvider,
  createSerpProvider,
} from '../../../src/serp/index.js';
import type { SerpConfig, SerpFetch } from '../../../src/serp/index.js';

describe('createSerpProvider', () => {
  it.each([[{}], [{ SERP_PROVIDER: '' as const }], [{ SERP_API_KEY: 'k' }]])(
    'returns null without a provider: %o',
    (config) => {
      expect(createSerpProvider(config)).toBeNull();
    },
  );

  it.each([
    [{ SERP_PROVIDER: 'serpapi', SERP_API_KEY: 'k' }, SerpApiProvider],
    [{ SERP_PROVIDER: 'serper', SERP_API_KEY: 'k' }, SerperProvider],
    [{ SERP_PROVIDER: 'dataforseo', SERP_LOGIN: 'l', SERP_PASSWORD: 'p' }, DataForSeoProvider],
    [{ SERP_PROVIDER: 'searxng', SERP_BASE_URL: 'http://127.0.0.1:8888' }, SearxngProvider],
  ] as Array<[SerpConfig, new (...args: never[]) => unknown]>)('builds %o', (config, type) => {
    const provider = createSerpProvider(config);
    expect(provider).toBeInstanceOf(type);
    expect(provider?.name).toBe(config.SERP_PROVIDER);
  });

  it.each([
    [{ SERP_PROVIDER: 'google' }, 'SERP_PROVIDER: must be one of serpapi, serper, dataforseo, searxng'],
    [{ SERP_PROVIDER: 'serpapi' }, 'SERP_API_KEY: is required when SERP_PROVIDER=serpapi'],
    [{ SERP_PROVIDER: 'serper', SERP_API_KEY: '  ' }, 'SERP_API_KEY: is required when SERP_PROVIDER=serper'],
    [{ SERP_PROVIDER: 'dataforseo', SERP_LOGIN: 'l' }, 'SERP_PASSWORD: is required when SERP_PROVIDER=dataforseo'],
    [{ SERP_PROVIDER: 'dataforseo', SERP_PASSWORD: 'p' }, 'SERP_LOGIN: is required when SERP_PROVIDER=dataforseo'],
    [{ SERP_PROVIDER: 'searxng' }, 'SERP_BASE_URL: is required when SERP_PROVIDER=searxng'],
    [{ SERP_PROVIDER: 'searxng', SERP_BASE_URL: 'file:///etc/passwd' }, 'SERP_BASE_URL: must use http or https'],
    [{ SERP_PROVIDER: 'serpapi', SERP_API_KEY: 'k', SERP_BASE_URL: 'ftp://mirror.test/' }, 'must use http or https'],
    [{ SERP_PROVIDER: 'serpapi', SERP_API_KEY: 'k', SERP_BASE_URL: 'not a url' }, 'must be an absolute http(s) URL'],
    [{ SERP_PROVIDER: 'searxng', SERP_BASE_URL: 'http://user:pw@127.0.0.1/' }, 'must not contain credentials'],
    [{ SERP_PROVIDER: 'serper', SERP_API_KEY: 'k', SERP_TIMEOUT_MS: 0 }, 'SERP_TIMEOUT_MS'],
    [{ SERP_PROVIDER: 'serper', SERP_API_KEY: 'k', SERP_TIMEOUT_MS: 'soon' }, 'SERP_TIMEOUT_MS'],
  ] as Array<[SerpConfig, string]>)('refuses %o', (config, message) => {
    expect(() => createSerpProvider(config)).toThrow(ConfigError);
    expect(() => createSerpProvider(config)).toThrow(message);
  });

  it('talks to the real hosts by default, through the injected fetch', async () => {
    const seen: string[] = [];
    const fakeFetch: SerpFetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ organic_results: [] }), { headers: { 'content-type': 'application/json' } });
    };
    const query = { keyword: 'x', country: 'us', language: 'en', device: 'desktop' as const, depth: 10 };
    await createSerpProvider({ SERP_PROVIDER: 'serpapi', SERP_API_KEY: 'k' }, fakeFetch)?.search(query);
    await createSerpProvider({ SERP_PROVIDER: 'serper', SERP_API_KEY: 'k' }, fakeFetch)?.search(query);
    const dfs = async (input: Parameters<SerpFetch>[0]) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ status_code: 20000, tasks: [{ status_code: 20000, result: null }] }));
    };
    await createSerpProvider({ SERP_PROVIDER: 'dataforseo', SERP_LOGIN: 'l', SERP_PASSWORD: 'p' }, dfs)?.search(query);
    expect(seen.map((url) => new URL(url).origin + new URL(url).pathname)).toEqual([
      'https://serpapi.com/search.json',
      'https://google.serper.dev/search',
      'https://api.dataforseo.com/v3/serp/google/organic/live/advanced',
    ]);
  });

  it('accepts SERP_TIMEOUT_MS as the string the environment provides', () => {
    expect(createSerpProvider({ SERP_PROVIDER: 'serper', SERP_API_KEY: 'k', SERP_TIMEOUT_MS: '5000' })).toBeInstanceOf(
      SerperProvider,
    );
  });
});
