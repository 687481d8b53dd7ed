import { badInput } from '../platform/errors.js';

const MAX_URL_LENGTH = 2048;

/**
 * A project's start URL: absolute http(s), no credentials, lower-case host (punycode), no fragment,
 * default port dropped, path kept. "example.com" without a scheme is read as https.
 */
export function normalizeProjectUrl(input: string): { url: string; domain: string } {
  const raw = input.trim();
  const fail = (message: string) => badInput(message, [{ path: 'url', message }]);
  if (!raw) throw fail('url is required');
  if (raw.length > MAX_URL_LENGTH) throw fail(`url must be at most ${MAX_URL_LENGTH} characters`);
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw fail('url must be a valid http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('url must use http or https');
  if (url.username || url.password) throw fail('url must not contain credentials');
  // A name needs a dot (or is localhost); an IPv6 literal ([2001:db8::1]) names a host too, and the address policy
  // decides whether it may be audited.
  const ipv6 = url.hostname.startsWith('[');
  if (!url.hostname || (!url.hostname.includes('.') && url.hostname !== 'localhost' && !ipv6)) {
    throw fail('url must name a host, e.g. https://example.com');
  }
  url.hash = '';
  return { url: url.toString(), domain: url.hostname.replace(/\.$/, '') };
}
