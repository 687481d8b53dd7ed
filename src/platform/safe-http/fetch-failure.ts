import { isIP } from 'node:net';
import { ADDRESS_CLASS_LABELS, normalizeHostname, type AddressPolicy } from './address-policy.js';
import { SafeHttpError, isSafeHttpError } from './safe-http-error.js';
import { validateTargetUrl } from './url-guard.js';

/** Why a refused target is refused, in the words every entry point uses (tools, projects, competitors). */
export const REFUSED_TARGET_REASON =
  'points to a private, loopback or reserved address; only public sites can be analyzed';

/**
 * Names that only ever lead to internal services (RFC 6761 localhost, the .internal private-use TLD of cloud
 * metadata and VPC names, mDNS .local, RFC 8375 home.arpa). Fetches would be refused at connect time anyway;
 * a project or competitor naming one is refused when it is created, without a DNS lookup.
 */
const INTERNAL_NAME = /(^|\.)(localhost|internal|local|home\.arpa)$/;

/**
 * Checks a user-given target before it is stored: the safe client's URL guard (scheme, credentials, literal IP
 * addresses against the configured address policy) plus internal-only names. Ordinary host names are not
 * resolved here: one that resolves to a refused address fails when it is fetched. Returns the refusal, or null.
 */
export function refusedTarget(url: string, policy: AddressPolicy, maxUrlLength = 2_048): SafeHttpError | null {
  let parsed: URL;
  try {
    parsed = validateTargetUrl(url, policy, maxUrlLength);
  } catch (err) {
    if (isSafeHttpError(err)) return err;
    throw err;
  }
  const host = normalizeHostname(parsed.hostname);
  if (isIP(host) === 0 && INTERNAL_NAME.test(host) && !policy.isHostAllowed(host)) {
    // localhost is loopback by definition: allowed when the policy admits loopback addresses (tests, intranets).
    const loopback = /(^|\.)localhost$/.test(host);
    if (!loopback || policy.blockedClass('127.0.0.1') !== null) {
      const label = loopback ? ADDRESS_CLASS_LABELS.loopback : 'an internal-only name';
      return new SafeHttpError('BLOCKED_ADDRESS', `Refused: ${host} is ${label}`, {
        url: parsed.href,
        addressClass: loopback ? 'loopback' : 'reserved',
      });
    }
  }
  return null;
}

/** The part of a connection error a person reads ("connection refused"), from the underlying system code. */
function connectionCause(err: SafeHttpError): string {
  const code = String((err.cause as { code?: unknown } | undefined)?.code ?? '');
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was closed unexpectedly';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      return lowerFirst(err.message);
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * One sentence that names the URL and why it could not be fetched, e.g. "Could not connect to
 * https://shop.example/: connection refused". `err` is what the safe client threw for `url`.
 */
export function describeFetchFailure(url: string, err: unknown): string {
  if (!isSafeHttpError(err)) return `Could not fetch ${url}: ${err instanceof Error ? err.message : String(err)}`;
  const via = err.redirects.length && err.url && err.url !== url ? ` (it redirects to ${err.url})` : '';
  switch (err.code) {
    case 'CONNECTION_FAILED':
      return `Could not connect to ${url}${via}: ${connectionCause(err)}`;
    case 'DNS_FAILURE':
      return `Could not resolve the host of ${url}${via}: ${lowerFirst(err.message)}`;
    case 'TIMEOUT':
      return `${url}${via} did not answer in time: ${lowerFirst(err.message)}`;
    case 'BLOCKED_ADDRESS':
      return (
        `Refused to fetch ${url}${via}: ${err.message.replace(/^Refused: /, '')}; only public sites can be ` +
        `audited (SAFE_HTTP_ALLOW admits private ones)`
      );
    case 'REDIRECT_LOOP':
    case 'TOO_MANY_REDIRECTS':
      return `Could not fetch ${url}: ${lowerFirst(err.message)}`;
    default:
      return `Could not fetch ${url}${via}: ${lowerFirst(err.message)}`;
  }
}
