import { isIP } from 'node:net';
import { ADDRESS_CLASS_LABELS, normalizeHostname } from './address-policy.js';
import type { AddressPolicy } from './address-policy.js';
import { SafeHttpError } from './safe-http-error.js';

/**
 * Checks a user-given URL (or a redirect target) before any network activity: http/https only,
 * bounded length, no embedded credentials, and literal IPs (already normalised by the WHATWG
 * parser: `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` all arrive as 127.0.0.1) classified.
 * Host names are checked later, at connect time, against the address actually dialled.
 * Returns the URL without its fragment (never sent on the wire).
 */
export function validateTargetUrl(input: string | URL, policy: AddressPolicy, maxUrlLength: number): URL {
  const text = typeof input === 'string' ? input.trim() : input.href;
  if (text.length > maxUrlLength) {
    throw new SafeHttpError('INVALID_URL', `The URL is longer than ${maxUrlLength} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SafeHttpError('INVALID_URL', 'The URL is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeHttpError(
      'UNSUPPORTED_SCHEME',
      `Only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, '')})`,
      { url: url.href },
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeHttpError('INVALID_URL', 'URLs with embedded credentials (user:password@host) are not allowed');
  }
  if (url.hostname === '') {
    throw new SafeHttpError('INVALID_URL', 'The URL has no host');
  }
  url.hash = '';
  if (url.href.length > maxUrlLength) {
    throw new SafeHttpError('INVALID_URL', `The URL is longer than ${maxUrlLength} characters`);
  }
  const host = normalizeHostname(url.hostname);
  if (isIP(host) !== 0 && !policy.isHostAllowed(host)) {
    const blocked = policy.blockedClass(host);
    if (blocked !== null) {
      throw new SafeHttpError('BLOCKED_ADDRESS', `Refused: ${url.hostname} is ${ADDRESS_CLASS_LABELS[blocked]}`, {
        url: url.href,
        addressClass: blocked,
      });
    }
  }
  return url;
}
