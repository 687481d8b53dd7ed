// The one HTTP client for user-supplied URLs (crawler, free tools, competitors). See docs/audits-and-crawling.md.
export { createSafeHttpClient, SAFE_HTTP_DEFAULTS } from './safe-http-client.js';
export type {
  SafeHttpClient,
  SafeHttpClientOptions,
  SafeHttpHeaders,
  SafeHttpMethod,
  SafeHttpRequestOptions,
  SafeHttpResponse,
  SafeHttpStreamResponse,
  SafeHttpTimings,
} from './safe-http-client.js';
export { SafeHttpError, SAFE_HTTP_ERROR_CODES, isSafeHttpError } from './safe-http-error.js';
export type { BlockedAddressClass, RedirectHop, SafeHttpErrorCode } from './safe-http-error.js';
export { classifyAddress, createAddressPolicy, parseAllowList } from './address-policy.js';
export type { AddressPolicy, AllowList } from './address-policy.js';
export { createGuardedConnector } from './guarded-connector.js';
export { ADDRESS_CAP_REASON, ADDRESS_POLITENESS_DEFAULTS, AddressGate, AddressQuota } from './address-gate.js';
export type { AddressPoliteness } from './address-gate.js';
export type { GuardedConnectorOptions, LookupFunction } from './guarded-connector.js';
export { CappedBodyStream } from './capped-body-stream.js';
export type { BodyLimitMode } from './capped-body-stream.js';
export { validateTargetUrl } from './url-guard.js';
export { createConfiguredSafeHttpClient, parseResolvePins, pinnedLookup } from './safe-http-config.js';
export { REFUSED_TARGET_REASON, describeFetchFailure, refusedTarget } from './fetch-failure.js';
