import { badInput } from '../platform/errors.js';
import { REFUSED_TARGET_REASON, isSafeHttpError, type SafeHttpClient } from '../platform/safe-http/index.js';

const MAX_URL_LENGTH = 2048;
/** How long one scheme may take to answer when a bare domain is resolved. */
const PROBE_TIMEOUT_MS = 6_000;

/**
 * A scheme is there when the input starts with `name://`, or with `name:` not followed by a port number
 * (`javascript:…`, `mailto:…`); `example.com:8080/shop` and `localhost:3000` are a host and a port.
 */
const hasScheme = (raw: string): boolean =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^/:]+:\d+(?:[/?#]|$)/.test(raw));

/** A parsed start URL; `schemeGiven` is false for a bare domain (`example.com`, `host:8080`), read as https. */
export interface ParsedProjectUrl {
  url: string;
  domain: string;
  schemeGiven: boolean;
}

/**
 * A project's start URL: absolute http(s), no credentials, lower-case host (punycode), no fragment, default port
 * dropped, path kept. Without a scheme the URL is read as https, and `schemeGiven` says so: the project service
 * then finds out which scheme the site answers on (resolveBareUrl).
 */
export function parseProjectUrl(input: string): ParsedProjectUrl {
  const raw = input.trim();
  const fail = (message: string) => badInput(message, [{ path: 'url', message }]);
  if (!raw) throw fail('url is required');
  if (raw.length > MAX_URL_LENGTH) throw fail(`url must be at most ${MAX_URL_LENGTH} characters`);
  const schemeGiven = hasScheme(raw);
  let url: URL;
  try {
    url = new URL(schemeGiven ? raw : `https://${raw}`);
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
  return { url: url.toString(), domain: url.hostname.replace(/\.$/, ''), schemeGiven };
}

/** parseProjectUrl without the scheme flag ("example.com" is read as https). */
export function normalizeProjectUrl(input: string): { url: string; domain: string } {
  const { url, domain } = parseProjectUrl(input);
  return { url, domain };
}

/** The same URL with the other scheme (`https://a.b:8443/x` → `http://a.b:8443/x`). */
export function withScheme(url: string, scheme: 'http' | 'https'): string {
  const parsed = new URL(url);
  parsed.protocol = `${scheme}:`;
  return parsed.toString();
}

/** What one attempt to reach a candidate URL gave: an answer (any HTTP status), a refusal, or a failure. */
export type ProbeOutcome = { ok: true } | { ok: false; refused: boolean; reason: string };

/**
 * The start URL for a bare domain: https when the site answers on it, else http when that answers, tried in that
 * order through `probe` (the safe HTTP client). A refused address stops at once; when neither answers the input
 * is refused with both reasons, never silently stored as https.
 */
export async function resolveBareUrl(httpsUrl: string, probe: (url: string) => Promise<ProbeOutcome>): Promise<string> {
  const secure = await probe(httpsUrl);
  if (secure.ok) return httpsUrl;
  const refuse = (message: string) => badInput(message, [{ path: 'url', message }]);
  if (secure.refused) throw refuse(secure.reason);
  const httpUrl = withScheme(httpsUrl, 'http');
  const plain = await probe(httpUrl);
  if (plain.ok) return httpUrl;
  if (plain.refused) throw refuse(plain.reason);
  const host = new URL(httpsUrl).host;
  throw refuse(
    `${host} did not answer over https (${secure.reason}) or http (${plain.reason}); ` +
      `enter the full address (https://${host}/ or http://${host}/) to use it anyway`,
  );
}

/** One attempt to reach a candidate start URL through the safe client: any HTTP answer counts (redirects too). */
export async function probeStartUrl(http: SafeHttpClient, url: string): Promise<ProbeOutcome> {
  try {
    await http.request(url, { method: 'HEAD', followRedirects: false, totalTimeoutMs: PROBE_TIMEOUT_MS });
    return { ok: true };
  } catch (err) {
    if (!isSafeHttpError(err)) throw err;
    if (err.code === 'BLOCKED_ADDRESS' || err.code === 'INVALID_URL' || err.code === 'UNSUPPORTED_SCHEME')
      return { ok: false, refused: true, reason: `The URL ${REFUSED_TARGET_REASON}.` };
    return { ok: false, refused: false, reason: err.message.charAt(0).toLowerCase() + err.message.slice(1) };
  }
}

/**
 * A parsed start URL with its scheme settled: as given, or for a bare domain the scheme the site answers on
 * (resolveBareUrl through probeStartUrl). The project service and the CLI's one-off audit both use it.
 */
export async function resolveStartUrl(
  parsed: ParsedProjectUrl,
  http: SafeHttpClient,
): Promise<{ url: string; domain: string }> {
  if (parsed.schemeGiven) return { url: parsed.url, domain: parsed.domain };
  return {
    url: await resolveBareUrl(parsed.url, (candidate) => probeStartUrl(http, candidate)),
    domain: parsed.domain,
  };
}
