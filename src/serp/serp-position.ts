import type { SerpResult } from './serp.types.js';

/** The URL parser lower-cases, punycodes and strips ports; `www.` and a trailing dot carry no meaning here. */
export function urlHost(hostOrUrl: string): string {
  const input = hostOrUrl.trim();
  if (input === '') return '';
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `http://${input.replace(/^\/\//, '')}`;
  let host: string;
  try {
    host = new URL(candidate).hostname;
  } catch {
    return '';
  }
  return host.replace(/\.$/, '');
}

/** Host of a host name or URL: lower-case, punycode, no `www.`, no port; '' when unparseable. */
export function normalizeDomain(hostOrUrl: string): string {
  return urlHost(hostOrUrl).replace(/^www\./, '');
}

export interface FindPositionOptions {
  /** Count blog.example.com as example.com (default false: only the host itself, www-insensitive). */
  includeSubdomains?: boolean;
}

/**
 * Whether a result is on the project's site: its host (scheme, case, port, trailing dot and `www.` ignored) is the
 * project's domain, or a subdomain of it with `includeSubdomains`. The one rule for "the site's URLs": the ranking
 * position and the keyword cannibalisation both use it.
 */
export function isSiteResult(
  result: Pick<SerpResult, 'domain' | 'url'>,
  domain: string,
  opts: FindPositionOptions = {},
): boolean {
  const target = normalizeDomain(domain);
  if (target === '') return false;
  const host = normalizeDomain(result.domain || result.url);
  return host === target || (opts.includeSubdomains === true && host.endsWith(`.${target}`));
}

/** The best-ranked result on the project's domain, or null when it is not within the results. */
export function findPosition(
  results: readonly SerpResult[],
  domain: string,
  opts: FindPositionOptions = {},
): SerpResult | null {
  let best: SerpResult | null = null;
  for (const result of results) {
    if (isSiteResult(result, domain, opts) && (best === null || result.position < best.position)) best = result;
  }
  return best;
}
