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

/** The best-ranked result on the project's domain, or null when it is not within the results. */
export function findPosition(
  results: readonly SerpResult[],
  domain: string,
  opts: FindPositionOptions = {},
): SerpResult | null {
  const target = normalizeDomain(domain);
  if (target === '') return null;
  const suffix = `.${target}`;
  let best: SerpResult | null = null;
  for (const result of results) {
    const host = normalizeDomain(result.domain || result.url);
    const matches = host === target || (opts.includeSubdomains === true && host.endsWith(suffix));
    if (matches && (best === null || result.position < best.position)) best = result;
  }
  return best;
}
