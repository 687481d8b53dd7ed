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
export function rankingUrlVariants(url: string): string[] {
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
  const out = new Set<string>();
  // Each variant is the parsed URL with its host, then its scheme, then its path set, as the URL setters make them.
  // Copies are made once per host and once per scheme (setting a value a URL already has changes nothing), not once
  // per variant: the keywords page varies the ranking URLs of every tracked keyword (1,000 and more).
  parsed.hash = '';
  for (const h of hosts) {
    const byHost = withSetting(parsed, 'hostname', h);
    for (const protocol of protocols) {
      const byProtocol = withSetting(byHost, 'protocol', protocol);
      for (const p of paths) out.add(withSetting(byProtocol, 'pathname', p).href);
    }
  }
  return [...out];
}

/** `url` with one component set through its setter, as a copy; `url` itself when the component already has it. */
function withSetting(url: URL, component: 'hostname' | 'protocol' | 'pathname', value: string): URL {
  if (url[component] === value) return url;
  const copy = new URL(url.href);
  copy[component] = value;
  return copy;
}
