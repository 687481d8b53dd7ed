/** The providers an operator can configure; each speaks its own documented HTTP protocol. */
export const SERP_PROVIDER_NAMES = ['serpapi', 'serper', 'dataforseo', 'searxng'] as const;
export type SerpProviderName = (typeof SERP_PROVIDER_NAMES)[number];

export type SerpDevice = 'desktop' | 'mobile';

/** Results wanted when the caller does not say (the usual "top 100" of rank tracking). */
export const DEFAULT_SERP_DEPTH = 100;
/** Upper bound on depth: paginated providers spend one billed call per 10 results. */
export const MAX_SERP_DEPTH = 200;
export const DEFAULT_SERP_TIMEOUT_MS = 20_000;

export interface SerpQuery {
  keyword: string;
  /** ISO 3166-1 alpha-2, lower-case, e.g. 'us'. */
  country: string;
  /** Language code, e.g. 'en' (a region suffix such as 'pt-br' is passed through where the provider accepts it). */
  language: string;
  device: SerpDevice;
  /** Organic results wanted (default 100). */
  depth: number;
}

export interface SerpResult {
  /** 1-based organic rank, counted after de-duplication by URL. */
  position: number;
  url: string;
  /** The result's host, lower-case (punycode); `www.` is kept — findPosition ignores it. */
  domain: string;
  title: string | null;
}

export interface SerpSnapshot {
  provider: SerpProviderName;
  /** The query as sent (normalised: trimmed keyword, lower-case country, defaults applied). */
  query: SerpQuery;
  results: SerpResult[];
  /** Provider calls made (each one is usually billed). */
  requests: number;
  fetchedAt: Date;
}

export interface SerpSearchOptions {
  /** Aborts the search (e.g. the job was cancelled); each call also has its own timeout. */
  signal?: AbortSignal;
}

export interface SerpProvider {
  readonly name: SerpProviderName;
  search(query: SerpQuery, opts?: SerpSearchOptions): Promise<SerpSnapshot>;
}

/** The environment variables that choose and key a provider (see createSerpProvider). */
export interface SerpConfig {
  SERP_PROVIDER?: SerpProviderName | '';
  SERP_API_KEY?: string;
  SERP_LOGIN?: string;
  SERP_PASSWORD?: string;
  /** Overrides the provider's public host; required for searxng (self-hosted). */
  SERP_BASE_URL?: string;
  /** Timeout of each provider call, default 20 000. */
  SERP_TIMEOUT_MS?: number | string;
}

/** The fetch the adapters use; global fetch in production, injectable for tests. */
export type SerpFetch = typeof fetch;
