/**
 * The one error type of the safe HTTP client. Callers switch on `code` (and map every code to a
 * 400-style "this URL cannot be fetched" answer); `message` is safe to show to the user.
 */
export const SAFE_HTTP_ERROR_CODES = [
  'INVALID_URL',
  'UNSUPPORTED_SCHEME',
  'BLOCKED_ADDRESS',
  'DNS_FAILURE',
  'TOO_MANY_REDIRECTS',
  'REDIRECT_LOOP',
  'TIMEOUT',
  'BODY_TOO_LARGE',
  'CONNECTION_FAILED',
  /** The server answered something unparseable (malformed HTTP, corrupt gzip/br body). */
  'BAD_RESPONSE',
  /** The caller's own AbortSignal fired (not the client's deadline, which is TIMEOUT). */
  'ABORTED',
  /** Not sent: the caller's quota of requests to the address is spent (AddressQuota, link checks per audit). */
  'ADDRESS_CAP',
] as const;

export type SafeHttpErrorCode = (typeof SAFE_HTTP_ERROR_CODES)[number];

/** Address classes the client refuses; `reserved` covers every other non-global range. */
export type BlockedAddressClass =
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unspecified'
  | 'uniqueLocal';

export interface RedirectHop {
  /** The URL that answered with a redirect. */
  url: string;
  status: number;
}

export interface SafeHttpErrorDetails {
  /** The URL being fetched when the error happened (the current hop). */
  url?: string;
  /** Redirect hops followed before the error. */
  redirects?: RedirectHop[];
  /**
   * For BLOCKED_ADDRESS: the class of the refused address (for callers and logs; for a host name it tells what the
   * name resolved to, which no message names).
   */
  addressClass?: BlockedAddressClass;
  /** DNS_FAILURE or TIMEOUT while resolving the host name: no address was found (nothing was sent). */
  resolving?: boolean;
  cause?: unknown;
}

export class SafeHttpError extends Error {
  readonly code: SafeHttpErrorCode;
  readonly url: string | undefined;
  readonly redirects: RedirectHop[];
  readonly addressClass: BlockedAddressClass | undefined;
  /** The host name did not resolve (DNS_FAILURE), or its lookup timed out (TIMEOUT): nothing was sent. */
  readonly resolving: boolean;

  constructor(code: SafeHttpErrorCode, message: string, details: SafeHttpErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SafeHttpError';
    this.code = code;
    this.url = details.url;
    this.redirects = details.redirects ?? [];
    this.addressClass = details.addressClass;
    this.resolving = details.resolving === true;
  }

  /** Same error annotated with the URL/hops known to the redirect loop (connector errors lack them). */
  withContext(url: string, redirects: RedirectHop[]): SafeHttpError {
    return new SafeHttpError(this.code, this.message, {
      url: this.url ?? url,
      redirects: [...redirects],
      addressClass: this.addressClass,
      resolving: this.resolving,
      cause: this.cause,
    });
  }
}

export function isSafeHttpError(value: unknown): value is SafeHttpError {
  return value instanceof SafeHttpError;
}
