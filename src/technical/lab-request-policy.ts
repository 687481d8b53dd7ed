/** Decides whether a browser request may leave the lab: `true` lets the URL load. */
export type LabHostPolicy = (url: URL) => boolean | Promise<boolean>;

/** Policy answers are cached per origin within one measurement; a hostile page cannot grow the cache without bound. */
const MAX_CACHED_ORIGINS = 256;

/**
 * Same host as the measured page: same hostname and port, where http:80 and https:443 (default ports) count
 * as one host so a site's http/https subresources both load.
 */
export function isSameLabHost(url: URL, page: URL): boolean {
  if (url.hostname !== page.hostname) return false;
  return url.port === page.port || (url.port === '' && page.port === '');
}

/** The URL as a request target the lab may consider at all: http(s), no embedded credentials. */
export function parseLabUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return url;
}

/**
 * The request gate of one measurement: the measured page's own host always, other hosts only when the caller's
 * policy says so. A policy that throws or rejects denies.
 */
export function createLabRequestGate(page: URL, policy?: LabHostPolicy): (rawUrl: string) => Promise<boolean> {
  const cache = new Map<string, Promise<boolean>>();
  return async (rawUrl) => {
    const url = parseLabUrl(rawUrl);
    if (!url) return false;
    if (isSameLabHost(url, page)) return true;
    if (!policy) return false;
    const cached = cache.get(url.origin);
    if (cached) return cached;
    const decision = Promise.resolve()
      .then(() => policy(url))
      .then(
        (allowed) => allowed === true,
        () => false,
      );
    if (cache.size < MAX_CACHED_ORIGINS) cache.set(url.origin, decision);
    return decision;
  };
}
