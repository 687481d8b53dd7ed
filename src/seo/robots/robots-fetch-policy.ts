import type { RobotsFetchPolicy } from './robots.types.js';

/**
 * What a crawler does with the outcome of fetching /robots.txt (RFC 9309 §2.3.1), after the fetcher
 * followed up to 5 redirects:
 * - 2xx: parse the body;
 * - 3xx left over (too many redirects) and 4xx: the file is "unavailable", crawl everything;
 * - 429, 5xx and an unreachable server: the file is "unreachable", crawl nothing. 429 is treated as a
 *   server error, as Google does, so a rate-limited site is not crawled harder.
 */
export function robotsPolicyForStatus(status: number | 'unreachable'): RobotsFetchPolicy {
  if (status === 'unreachable') return 'disallow-all';
  if (status >= 200 && status < 300) return 'parse';
  if (status === 429) return 'disallow-all';
  if (status >= 300 && status < 500) return 'allow-all';
  return 'disallow-all';
}
