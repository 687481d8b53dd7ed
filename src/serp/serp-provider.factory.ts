import { ConfigError } from '../platform/config.js';
import { DATAFORSEO_BASE_URL, DataForSeoProvider } from './dataforseo.provider.js';
import type { SerpAdapterOptions } from './serp-http.js';
import { SearxngProvider } from './searxng.provider.js';
import { SERPAPI_BASE_URL, SerpApiProvider } from './serpapi.provider.js';
import { SERPER_BASE_URL, SerperProvider } from './serper.provider.js';
import { DEFAULT_SERP_TIMEOUT_MS, SERP_PROVIDER_NAMES } from './serp.types.js';
import type { SerpConfig, SerpFetch, SerpProvider, SerpProviderName } from './serp.types.js';

const MAX_TIMEOUT_MS = 300_000;

/**
 * The configured SERP provider, or null when SERP_PROVIDER is unset (rank checks then fail with a clear
 * error rather than inventing a position). A provider named without its credentials, an unknown provider,
 * a non-http(s) SERP_BASE_URL or a bad SERP_TIMEOUT_MS is a configuration error, fatal at start-up.
 */
export function createSerpProvider(config: SerpConfig, fetchImpl: SerpFetch = globalThis.fetch): SerpProvider | null {
  const name = config.SERP_PROVIDER?.trim() ?? '';
  if (name === '') return null;
  if (!(SERP_PROVIDER_NAMES as readonly string[]).includes(name)) {
    throw new ConfigError(`SERP_PROVIDER: must be one of ${SERP_PROVIDER_NAMES.join(', ')} (got "${name}")`);
  }
  const provider = name as SerpProviderName;
  const defaults: Record<SerpProviderName, string | null> = {
    serpapi: SERPAPI_BASE_URL,
    serper: SERPER_BASE_URL,
    dataforseo: DATAFORSEO_BASE_URL,
    searxng: null,
  };
  const options: SerpAdapterOptions = {
    baseUrl: parseBaseUrl(provider, config.SERP_BASE_URL, defaults[provider]),
    fetchImpl,
    timeoutMs: parseTimeout(config.SERP_TIMEOUT_MS),
  };
  switch (provider) {
    case 'serpapi':
      return new SerpApiProvider(required(provider, 'SERP_API_KEY', config.SERP_API_KEY), options);
    case 'serper':
      return new SerperProvider(required(provider, 'SERP_API_KEY', config.SERP_API_KEY), options);
    case 'dataforseo':
      return new DataForSeoProvider(
        required(provider, 'SERP_LOGIN', config.SERP_LOGIN),
        required(provider, 'SERP_PASSWORD', config.SERP_PASSWORD),
        options,
      );
    case 'searxng':
      return new SearxngProvider(options);
  }
}

function required(provider: SerpProviderName, variable: keyof SerpConfig, value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') throw new ConfigError(`${variable}: is required when SERP_PROVIDER=${provider}`);
  return trimmed;
}

function parseBaseUrl(provider: SerpProviderName, value: string | undefined, fallback: string | null): URL {
  const raw = value?.trim() || fallback;
  if (!raw) throw new ConfigError(`SERP_BASE_URL: is required when SERP_PROVIDER=${provider} (the instance's URL)`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SERP_BASE_URL: must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`SERP_BASE_URL: must use http or https (got ${url.protocol})`);
  }
  // fetch refuses URLs with credentials; keys belong in SERP_API_KEY / SERP_LOGIN / SERP_PASSWORD.
  if (url.username || url.password) {
    throw new ConfigError('SERP_BASE_URL: must not contain credentials (use SERP_API_KEY, SERP_LOGIN, SERP_PASSWORD)');
  }
  return url;
}

function parseTimeout(value: number | string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SERP_TIMEOUT_MS;
  const ms = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw new ConfigError(`SERP_TIMEOUT_MS: must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
  }
  return ms;
}
