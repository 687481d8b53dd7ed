import { isHttpProtocol } from './link-url.js';

/** Hosts a "www." is never put in front of: IP literals and localhost name a machine, not a site. */
const NO_WWW = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[.*\])$/i;

/**
 * The URLs under which a page that search results show as `url` may have been crawled: the same address with and
 * without "www.", over https and http, with and without a trailing slash on its path (a query is kept), the fragment
 * dropped. Each is in the crawler's form (WHATWG serialization: lower-case host, no default port), so that stored
 * URLs are found by equality. The first is `url` itself, then the nearest forms: the other slash, the other scheme,
 * then the other host. Empty when `url` is not an absolute http(s) URL.
 */
export function rankingUrlVariants(url: string): readonly string[] {
  const known = VARIANTS.get(url);
  if (known) return known;
  const variants = Object.freeze(variantsOf(url));
  // Oldest first out: a Map iterates in insertion order.
  if (VARIANTS.size >= VARIANTS_KEPT) VARIANTS.delete(VARIANTS.keys().next().value!);
  VARIANTS.set(url, variants);
  return variants;
}

/**
 * The variants of the ranking URLs last asked for, by URL: the keywords page varies the ranking URL of each of a
 * project's keywords (1,000 and more) on every load, and its URLs change only when a rank check finds another page.
 * Kept, the 874 ranking URLs of the web bench's 1,000 keywords cost ~0.1 ms a load instead of 4-15 ms (the variants
 * and the set of them). A pure function's results, frozen: a test checks each against a fresh computation. At most
 * 10,000 URLs (~8 variants of ~80 bytes each: a few MB at most).
 */
const VARIANTS = new Map<string, readonly string[]>();
const VARIANTS_KEPT = 10_000;

/** rankingUrlVariants computed. */
export function variantsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return [];
  }
  if (!isHttpProtocol(parsed.protocol) || parsed.hostname === '') return [];
  const host = parsed.hostname;
  const hosts = NO_WWW.test(host) ? [host] : [host, host.startsWith('www.') ? host.slice(4) : `www.${host}`];
  const protocols = [parsed.protocol, parsed.protocol === 'https:' ? 'http:' : 'https:'];
  const path = parsed.pathname;
  const paths = path === '/' ? [path] : [path, path.endsWith('/') ? path.slice(0, -1) : `${path}/`];
  // Each variant is written from the parsed URL's own serialization, as the URL setters would make it (a test checks
  // this against a fresh copy per variant, setters applied): the keywords page varies the ranking URLs of every
  // tracked keyword (1,000 and more) on each load, and one parse per URL instead of a copy per host, scheme and path
  // took 1,000 URLs from 8.2-8.8 to 2.1-2.4 ms here. In the WHATWG serialization the path starts at the first "/"
  // after "//" (user info escapes "/"), and the user info ends at the authority's only "@" (it escapes "@" too).
  parsed.hash = '';
  const href = parsed.href;
  const pathAt = href.indexOf('/', parsed.protocol.length + 2);
  const authority = href.slice(parsed.protocol.length + 2, pathAt);
  const userInfo = authority.slice(0, authority.lastIndexOf('@') + 1);
  const query = href.slice(pathAt + path.length);
  const out = new Set<string>();
  for (const h of hosts) {
    // A host that would be empty ("www." without its prefix) is refused by the hostname setter: the URL keeps its own.
    const hostName = h === '' ? host : h;
    for (const protocol of protocols) {
      // The protocol setter drops a port that is the new scheme's default.
      const port = parsed.port === '' || parsed.port === DEFAULT_PORTS[protocol] ? '' : `:${parsed.port}`;
      const prefix = `${protocol}//${userInfo}${hostName}${port}`;
      for (const p of paths) out.add(`${prefix}${p}${query}`);
    }
  }
  return [...out];
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
