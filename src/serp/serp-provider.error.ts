/** Why a provider call failed; `retryable` tells the rank job whether trying later can help. */
export const SERP_ERROR_CODES = [
  /** The provider answered with an HTTP error status. */
  'HTTP_ERROR',
  /** HTTP success, but the payload reports an error (DataForSEO status codes, SerpApi `error`). */
  'PROVIDER_ERROR',
  /** The body is not the JSON the protocol promises, or is too large. */
  'MALFORMED_RESPONSE',
  'TIMEOUT',
  /** Connection refused/reset, DNS failure and the like. */
  'NETWORK_ERROR',
  /** The caller's AbortSignal fired. */
  'ABORTED',
  /** The query itself is unusable (empty keyword, unsupported country...). */
  'INVALID_QUERY',
] as const;
export type SerpErrorCode = (typeof SERP_ERROR_CODES)[number];

export interface SerpProviderErrorInit {
  code: SerpErrorCode;
  status?: number;
  retryable: boolean;
}

/** Messages name the provider, the HTTP status and the provider's own words — never a credential. */
export class SerpProviderError extends Error {
  override name = 'SerpProviderError';
  readonly provider: string;
  readonly code: SerpErrorCode;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(provider: string, message: string, init: SerpProviderErrorInit) {
    super(message);
    this.provider = provider;
    this.code = init.code;
    this.status = init.status;
    this.retryable = init.retryable;
  }
}

export function isSerpProviderError(value: unknown): value is SerpProviderError {
  return value instanceof SerpProviderError;
}

/** 408/429 and server errors are transient; every other status needs a human (key, plan, request). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
