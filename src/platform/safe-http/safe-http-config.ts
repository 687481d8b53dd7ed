import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { parseAllowList } from './address-policy.js';
import type { LookupFunction } from './guarded-connector.js';
import { createSafeHttpClient, type SafeHttpClient, type SafeHttpClientOptions } from './safe-http-client.js';

/**
 * Static host → address pins (like curl --resolve), consulted before DNS. Pinned addresses still pass the
 * address policy, so a private pin works only when the allow-list admits it.
 */
export function parseResolvePins(value: string | undefined): Map<string, string> {
  const pins = new Map<string, string>();
  for (const entry of (value ?? '').split(/[\s,]+/).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const host = entry.slice(0, eq).toLowerCase();
    const address = entry.slice(eq + 1).replace(/^\[|\]$/g, '');
    if (eq <= 0 || isIP(address) === 0) throw new TypeError(`SAFE_HTTP_RESOLVE entry "${entry}" must be host=ip`);
    pins.set(host, address);
  }
  return pins;
}

export function pinnedLookup(
  pins: Map<string, string>,
  fallback: LookupFunction = dnsLookup as unknown as LookupFunction,
): LookupFunction {
  if (pins.size === 0) return fallback;
  return (hostname, options, callback) => {
    const address = pins.get(hostname.toLowerCase());
    if (address) return callback(null, [{ address, family: isIP(address) }]);
    return fallback(hostname, options, callback);
  };
}

/**
 * The platform's client built from configuration (SAFE_HTTP_ALLOW, SAFE_HTTP_RESOLVE, the crawler's User-Agent, and
 * the link checks' politeness per address, LINK_CHECK_ADDRESS_*, when the configuration has them: the platform's
 * does, a test's partial one may leave them out).
 */
export function createConfiguredSafeHttpClient(
  config: {
    SAFE_HTTP_ALLOW: string[];
    SAFE_HTTP_RESOLVE?: string;
    CRAWLER_USER_AGENT: string;
    LINK_CHECK_ADDRESS_CONCURRENCY?: number;
    LINK_CHECK_ADDRESS_RATE?: number;
    LINK_CHECK_ADDRESS_CAP?: number;
  },
  overrides: SafeHttpClientOptions = {},
): SafeHttpClient {
  const allow = parseAllowList(config.SAFE_HTTP_ALLOW.join(','));
  const polite =
    config.LINK_CHECK_ADDRESS_CONCURRENCY !== undefined &&
    config.LINK_CHECK_ADDRESS_RATE !== undefined &&
    config.LINK_CHECK_ADDRESS_CAP !== undefined;
  return createSafeHttpClient({
    ...allow,
    lookup: pinnedLookup(parseResolvePins(config.SAFE_HTTP_RESOLVE)),
    userAgent: config.CRAWLER_USER_AGENT,
    ...(polite && {
      addressPoliteness: {
        inFlight: config.LINK_CHECK_ADDRESS_CONCURRENCY!,
        perSecond: config.LINK_CHECK_ADDRESS_RATE!,
        capPerQuota: config.LINK_CHECK_ADDRESS_CAP!,
      },
    }),
    ...overrides,
  });
}
