/** URL helpers shared by page facts and checks: resolution, fragment stripping, same-site tests. */

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i;

/** True when the reference carries its own scheme (protocol-relative `//host` is not absolute). */
export function isAbsoluteUrl(ref: string): boolean {
  return SCHEME_RE.test(ref.trim());
}

/** Resolves `ref` against `base`; null when it does not parse. */
export function resolveUrl(ref: string, base: string | URL): URL | null {
  try {
    return new URL(ref.trim(), base);
  } catch {
    return null;
  }
}

/** Absolute href without its fragment, the form links are compared and crawled in. */
export function withoutFragment(url: URL): string {
  if (url.hash === '') return url.href;
  const href = url.href;
  return href.slice(0, href.indexOf('#'));
}

/** Normalizes an absolute URL string (host case, default port, fragment); null when unparsable. */
export function normalizeUrl(url: string): string | null {
  const parsed = resolveUrl(url, 'invalid:/');
  if (!parsed || !isHttpProtocol(parsed.protocol)) return null;
  return withoutFragment(parsed);
}

export function isHttpProtocol(protocol: string): boolean {
  return protocol === 'https:' || protocol === 'http:';
}

/** Host without a leading "www." (and with its port): www.example.com and example.com are one site. */
export function siteKey(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('www.') ? lower.slice(4) : lower;
}

export function isSameSite(a: URL, b: URL): boolean {
  return siteKey(a.host) === siteKey(b.host);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** localhost, *.localhost, 127.0.0.0/8 and ::1 — links that only work on the author's machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
