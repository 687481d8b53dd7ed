/** SERP data for rank tracking: one adapter per provider, chosen and keyed by configuration. */
export { createSerpProvider } from './serp-provider.factory.js';
export { findPosition, isSiteResult, normalizeDomain } from './serp-position.js';
export type { FindPositionOptions } from './serp-position.js';
export { SerpProviderError, SERP_ERROR_CODES, isSerpProviderError } from './serp-provider.error.js';
export type { SerpErrorCode } from './serp-provider.error.js';
export { SerpApiProvider, SERPAPI_BASE_URL } from './serpapi.provider.js';
export { SerperProvider, SERPER_BASE_URL } from './serper.provider.js';
export { DataForSeoProvider, DATAFORSEO_BASE_URL } from './dataforseo.provider.js';
export { dataForSeoLocationCode } from './dataforseo-locations.js';
export { SearxngProvider } from './searxng.provider.js';
export { MAX_SERP_RESPONSE_BYTES } from './serp-http.js';
export type { SerpAdapterOptions } from './serp-http.js';
export { DEFAULT_SERP_DEPTH, DEFAULT_SERP_TIMEOUT_MS, MAX_SERP_DEPTH, SERP_PROVIDER_NAMES } from './serp.types.js';
export type {
  SerpConfig,
  SerpDevice,
  SerpFetch,
  SerpProvider,
  SerpProviderName,
  SerpQuery,
  SerpResult,
  SerpSearchOptions,
  SerpSnapshot,
} from './serp.types.js';
