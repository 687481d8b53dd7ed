import { lookup as dnsLookup } from 'node:dns';
import { performance } from 'node:perf_hooks';
import { Agent, request as undiciRequest } from 'undici';
import { AddressGate, stickyLookup } from './address-gate.js';
import type { AddressPoliteness, AddressQuota } from './address-gate.js';
import { createAddressPolicy } from './address-policy.js';
import type { AddressPolicy, AllowList } from './address-policy.js';
import { CappedBodyStream } from './capped-body-stream.js';
import type { BodyLimitMode } from './capped-body-stream.js';
import { createGuardedConnector, originKey } from './guarded-connector.js';
import type { LookupFunction } from './guarded-connector.js';
import { SafeHttpError } from './safe-http-error.js';
import type { RedirectHop } from './safe-http-error.js';
import { validateTargetUrl } from './url-guard.js';

export const SAFE_HTTP_DEFAULTS = {
  userAgent: 'SEOAuditBot/1.0 (+https://github.com/seo-audit-platform)',
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 20_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxUrlLength: 2_048,
} as const;

export interface SafeHttpClientOptions extends AllowList {
  /** Resolver used at connect time (`dns.lookup` signature); defaults to node:dns lookup. */
  lookup?: LookupFunction;
  userAgent?: string;
  /** DNS resolution and each TCP/TLS connection attempt (default 5 s). */
  connectTimeoutMs?: number;
  /** From request sent to response headers received (default 10 s). */
  headersTimeoutMs?: number;
  /** Longest pause between two body chunks (default 15 s); the total deadline bounds the whole body. */
  bodyTimeoutMs?: number;
  /** Deadline for the whole fetch, redirects and body included (default 20 s). */
  totalTimeoutMs?: number;
  /** Cap on the decoded body, also applied to the bytes received (default 5 MiB). */
  maxBytes?: number;
  /** 'error' (default) fails with BODY_TOO_LARGE; 'truncate' returns the first maxBytes with truncated: true. */
  onBodyLimit?: BodyLimitMode;
  maxRedirects?: number;
  maxUrlLength?: number;
  /** Negotiate HTTP/2 over TLS via ALPN (default false: HTTP/1.1 only). */
  allowH2?: boolean;
  /** Extra CA certificates to trust (intranet installs, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Concurrent connections per origin (default unlimited; the crawler bounds its own concurrency). */
  connectionsPerOrigin?: number;
  /**
   * Politeness per resolved address for the requests that ask for it (`politeness`): turns in flight and a pace per
   * address, shared by every such request of this client, and the cap of each caller's quota. Absent: no gate (the
   * requests' `politeness` is ignored). With it, a name's answer is kept while in use (address-gate.ts).
   */
  addressPoliteness?: AddressPoliteness;
}

/** POST is for deliveries to a user-given endpoint (alert webhooks): it never follows a redirect. */
export type SafeHttpMethod = 'GET' | 'HEAD' | 'POST';

export interface SafeHttpRequestOptions {
  method?: SafeHttpMethod;
  /** Extra request headers; `user-agent`, `accept` and `accept-encoding` override the defaults. */
  headers?: Record<string, string>;
  /** Default true (always false for POST). With false the first response is returned as is (3xx included). */
  followRedirects?: boolean;
  /** The request body of a POST. */
  body?: string | Buffer;
  maxRedirects?: number;
  maxBytes?: number;
  onBodyLimit?: BodyLimitMode;
  totalTimeoutMs?: number;
  /** Caller cancellation; reported as ABORTED (the deadline is reported as TIMEOUT). */
  signal?: AbortSignal;
  /** Return the body as a capped Readable instead of a Buffer. */
  stream?: boolean;
  /**
   * Headers for one hop only: asked again for each hop's URL (the first request included) and never carried to the
   * next hop, so that credentials bound to some hosts (a login crawl's) follow a redirect only where they belong.
   */
  headersFor?: (url: URL) => Record<string, string> | undefined;
  /**
   * Each hop whose URL `applies` to waits for a turn at its host's addresses (the client's address gate) and is counted
   * in `quota`; past the quota's cap the hop fails with ADDRESS_CAP, nothing sent. Ignored by a client made without
   * `addressPoliteness`.
   */
  politeness?: {
    quota: AddressQuota;
    applies(url: URL): boolean;
    /** How long the gate waits for a name's addresses, when shorter than the client's connect timeout. */
    lookupTimeoutMs?: number;
  };
}

/**
 * Lower-cased header names. A header received once is a string; a header received several
 * times (Set-Cookie, Link, ...) is an array of its values in order.
 */
export type SafeHttpHeaders = Record<string, string | string[]>;

export interface SafeHttpTimings {
  /** ISO 8601 UTC time the fetch started. */
  startedAt: string;
  /** From start to the final response's headers, redirects included. */
  ttfbMs: number;
  /** From start to the end of the body (buffered mode) or to the final response's headers (stream mode). */
  totalMs: number;
}

interface SafeHttpResponseHead {
  /** The requested URL, normalised (fragment removed). */
  url: string;
  /** The URL that produced this response (after redirects). */
  finalUrl: string;
  status: number;
  headers: SafeHttpHeaders;
  /**
   * '2' when the connection negotiated h2 via ALPN (only with allowH2), else '1.1'. undici does not
   * expose the status-line version, so an HTTP/1.0 server is also reported as '1.1'.
   */
  httpVersion: '1.1' | '2';
  redirects: RedirectHop[];
  /** The Content-Encoding of the final response, lower-cased, or null. */
  contentEncoding: string | null;
  timings: SafeHttpTimings;
}

export interface SafeHttpResponse extends SafeHttpResponseHead {
  /** Decoded body (raw if the encoding was unknown, see `decoded`). */
  body: Buffer;
  /** Decoded bytes in `body`. */
  bytes: number;
  /** Bytes received on the wire. */
  encodedBytes: number;
  truncated: boolean;
  decoded: boolean;
}

export interface SafeHttpStreamResponse extends SafeHttpResponseHead {
  /** Consume it or destroy it; `bytes`/`truncated` on it are final once it has ended. */
  body: CappedBodyStream;
}

export interface SafeHttpClient {
  request(url: string | URL, options: SafeHttpRequestOptions & { stream: true }): Promise<SafeHttpStreamResponse>;
  request(url: string | URL, options?: SafeHttpRequestOptions & { stream?: false }): Promise<SafeHttpResponse>;
  request(url: string | URL, options?: SafeHttpRequestOptions): Promise<SafeHttpResponse | SafeHttpStreamResponse>;
  /** Closes pooled connections; the client cannot be used afterwards. */
  close(): Promise<void>;
  /** The turns per address of a client made with `addressPoliteness` (its quotas come from it). */
  readonly addressGate?: AddressGate;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Framing and routing headers are the client's business; letting callers set them invites smuggling bugs.
const FORBIDDEN_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
// Credentials must not follow a redirect to another origin.
const CROSS_ORIGIN_STRIPPED = ['authorization', 'cookie'];
const ALPN_MEMORY = 1_024;

const NEVER = new AbortController().signal;

/** A deadline whose clock can stop (while a request waits for its turn) and go on; its timer never holds a process. */
function pausableDeadline(ms: number): { signal: AbortSignal; pause(): void; resume(): void } {
  const controller = new AbortController();
  let left = ms;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const resume = () => {
    if (controller.signal.aborted || timer) return;
    since = performance.now();
    timer = setTimeout(() => controller.abort(new DOMException('The deadline passed', 'TimeoutError')), left);
    timer.unref();
  };
  const pause = () => {
    if (!timer) return;
    clearTimeout(timer);
    timer = undefined;
    left = Math.max(0, left - (performance.now() - since));
  };
  resume();
  return { signal: controller.signal, pause, resume };
}

function checkedPoliteness(p: AddressPoliteness): AddressPoliteness {
  for (const name of ['inFlight', 'perSecond', 'capPerQuota'] as const) positive(`addressPoliteness.${name}`, p[name]);
  return p;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`safe-http: ${name} must be a positive number`);
  return value;
}

function buildRequestHeaders(userAgent: string, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  for (const [name, value] of Object.entries(extra)) {
    const key = name.toLowerCase();
    if (FORBIDDEN_REQUEST_HEADERS.has(key)) throw new TypeError(`safe-http: the ${key} header cannot be set`);
    headers[key] = value;
  }
  return headers;
}

/** The request headers of one hop: the request's, plus what `headersFor` gives for the hop's URL. */
function hopHeaders(
  headers: Record<string, string>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  if (!extra) return headers;
  const merged = { ...headers };
  for (const [name, value] of Object.entries(extra)) {
    const key = name.toLowerCase();
    if (FORBIDDEN_REQUEST_HEADERS.has(key)) throw new TypeError(`safe-http: the ${key} header cannot be set`);
    merged[key] = value;
  }
  return merged;
}

function normaliseResponseHeaders(raw: Record<string, string | string[] | undefined>): SafeHttpHeaders {
  const headers: SafeHttpHeaders = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

function firstHeader(headers: SafeHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/;

interface ErrorContext {
  deadline: AbortSignal;
  callerSignal: AbortSignal | undefined;
  totalTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

function toSafeHttpError(error: unknown, context: ErrorContext): SafeHttpError {
  if (error instanceof SafeHttpError) return error;
  if (context.deadline.aborted) {
    return new SafeHttpError('TIMEOUT', `The fetch did not complete within ${context.totalTimeoutMs} ms`, {
      cause: error,
    });
  }
  if (context.callerSignal?.aborted) return new SafeHttpError('ABORTED', 'The fetch was cancelled', { cause: error });
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const fail = (errorCode: ConstructorParameters<typeof SafeHttpError>[0], message: string): SafeHttpError =>
    new SafeHttpError(errorCode, message, { cause: error });
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return fail('TIMEOUT', 'Connecting to the server timed out');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return fail('TIMEOUT', `The server did not send response headers within ${context.headersTimeoutMs} ms`);
    case 'UND_ERR_BODY_TIMEOUT':
      return fail('TIMEOUT', `The server stopped sending the response body for ${context.bodyTimeoutMs} ms`);
    case 'ECONNREFUSED':
      return fail('CONNECTION_FAILED', 'The server refused the connection');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return fail('CONNECTION_FAILED', 'The server is unreachable');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return fail('CONNECTION_FAILED', 'The connection was closed unexpectedly');
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return fail('BAD_RESPONSE', 'The response body length does not match its Content-Length');
    default:
      break;
  }
  if (code.startsWith('HPE_')) return fail('BAD_RESPONSE', 'The server sent a malformed HTTP response');
  if (code.startsWith('Z_') || code.startsWith('ERR_ZLIB') || code.startsWith('ERR_BROTLI')) {
    return fail('BAD_RESPONSE', 'The response body could not be decompressed');
  }
  if (TLS_ERROR.test(code)) return fail('CONNECTION_FAILED', `The TLS connection failed (${code})`);
  return fail('CONNECTION_FAILED', 'The request failed');
}

/** Errors undici raises for our own misuse (bad header values): bugs, not user-facing outcomes. */
function isProgrammerError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'UND_ERR_INVALID_ARG';
}

/** The client's settings, read and checked once when it is made. */
interface ClientSettings {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  defaultTotalMs: number;
  defaultMaxBytes: number;
  defaultMaxRedirects: number;
  maxUrlLength: number;
  userAgent: string;
  defaultOnLimit: BodyLimitMode;
}

function clientSettings(options: SafeHttpClientOptions): ClientSettings {
  return {
    connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs ?? SAFE_HTTP_DEFAULTS.connectTimeoutMs),
    headersTimeoutMs: positive('headersTimeoutMs', options.headersTimeoutMs ?? SAFE_HTTP_DEFAULTS.headersTimeoutMs),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs ?? SAFE_HTTP_DEFAULTS.bodyTimeoutMs),
    defaultTotalMs: positive('totalTimeoutMs', options.totalTimeoutMs ?? SAFE_HTTP_DEFAULTS.totalTimeoutMs),
    defaultMaxBytes: positive('maxBytes', options.maxBytes ?? SAFE_HTTP_DEFAULTS.maxBytes),
    defaultMaxRedirects: options.maxRedirects ?? SAFE_HTTP_DEFAULTS.maxRedirects,
    maxUrlLength: positive('maxUrlLength', options.maxUrlLength ?? SAFE_HTTP_DEFAULTS.maxUrlLength),
    userAgent: options.userAgent ?? SAFE_HTTP_DEFAULTS.userAgent,
    defaultOnLimit: options.onBodyLimit ?? 'error',
  };
}

/**
 * The connection pool: every connection goes through the guarded connector (the address check at connect time).
 * `alpnByOrigin` learns the protocol each origin negotiated, since undici's request API does not expose the socket
 * of a response.
 */
function createGuardedAgent(
  options: SafeHttpClientOptions,
  lookup: LookupFunction | undefined,
  policy: AddressPolicy,
  settings: ClientSettings,
  alpnByOrigin: Map<string, string>,
): Agent {
  return new Agent({
    connect: createGuardedConnector({
      policy,
      lookup,
      connectTimeoutMs: settings.connectTimeoutMs,
      allowH2: options.allowH2,
      ca: options.ca,
      onConnected(origin, alpn) {
        alpnByOrigin.delete(origin);
        alpnByOrigin.set(origin, alpn);
        if (alpnByOrigin.size > ALPN_MEMORY) alpnByOrigin.delete(alpnByOrigin.keys().next().value as string);
      },
    }),
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
    ...(options.connectionsPerOrigin === undefined ? {} : { connections: options.connectionsPerOrigin }),
  });
}

/**
 * The URL a redirect from `current` leads to, checked like the first one (scheme, length, literal address); refused
 * when it was already visited or when it would be one redirect too many. `redirects` already holds this hop.
 */
function redirectTarget(
  location: string,
  current: URL,
  policy: AddressPolicy,
  maxUrlLength: number,
  redirects: RedirectHop[],
  visited: Set<string>,
  maxRedirects: number,
): URL {
  let next: URL;
  try {
    next = validateTargetUrl(new URL(location, current), policy, maxUrlLength);
  } catch (error) {
    const safe =
      error instanceof SafeHttpError
        ? error
        : new SafeHttpError('INVALID_URL', 'The redirect target is not a valid URL', { cause: error });
    throw safe.withContext(current.href, redirects);
  }
  if (visited.has(next.href)) {
    throw new SafeHttpError('REDIRECT_LOOP', `Redirect loop: ${next.href} was already visited`, {
      url: next.href,
      redirects: [...redirects],
    });
  }
  if (redirects.length > maxRedirects) {
    throw new SafeHttpError('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`, {
      url: next.href,
      redirects: [...redirects],
    });
  }
  return next;
}

/**
 * Creates the one HTTP client for user-supplied URLs. Any port is allowed (sites run on 8080, 8443...);
 * the address check, not the port, is what keeps internal services out of reach.
 */
export function createSafeHttpClient(options: SafeHttpClientOptions = {}): SafeHttpClient {
  const policy = createAddressPolicy(options);
  const settings = clientSettings(options);
  const { headersTimeoutMs, bodyTimeoutMs, defaultTotalMs, defaultMaxBytes, defaultMaxRedirects } = settings;
  const { maxUrlLength, userAgent, defaultOnLimit } = settings;
  const alpnByOrigin = new Map<string, string>();
  const polite = options.addressPoliteness;
  // The gate and the connector read one kept answer per name: the address a request waited for is the one it dials.
  const lookup = polite ? stickyLookup(options.lookup ?? (dnsLookup as LookupFunction)) : options.lookup;
  const gate = polite
    ? new AddressGate(checkedPoliteness(polite), lookup!, policy, settings.connectTimeoutMs)
    : undefined;
  const agent = createGuardedAgent(options, lookup, policy, settings, alpnByOrigin);

  async function request(
    input: string | URL,
    requestOptions: SafeHttpRequestOptions = {},
  ): Promise<SafeHttpResponse | SafeHttpStreamResponse> {
    const method = requestOptions.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST')
      throw new TypeError(`safe-http: unsupported method ${String(method)}`);
    if (requestOptions.body !== undefined && method !== 'POST') throw new TypeError('safe-http: a body needs POST');
    const totalTimeoutMs = positive('totalTimeoutMs', requestOptions.totalTimeoutMs ?? defaultTotalMs);
    const maxBytes = positive('maxBytes', requestOptions.maxBytes ?? defaultMaxBytes);
    const maxRedirects = requestOptions.maxRedirects ?? defaultMaxRedirects;
    // A redirected POST would be replayed (or turned into a GET) elsewhere: the caller gets the 3xx instead.
    const followRedirects = method !== 'POST' && (requestOptions.followRedirects ?? true);
    const onLimit = requestOptions.onBodyLimit ?? defaultOnLimit;
    let headers = buildRequestHeaders(userAgent, requestOptions.headers);

    const startedAt = new Date().toISOString();
    const started = performance.now();
    // The deadline does not run while the request waits for its turn at an address (politeness), only the caller's.
    const deadline = pausableDeadline(totalTimeoutMs);
    const callerSignal = requestOptions.signal;
    const signal = callerSignal ? AbortSignal.any([deadline.signal, callerSignal]) : deadline.signal;
    const errorContext: ErrorContext = {
      deadline: deadline.signal,
      callerSignal,
      totalTimeoutMs,
      headersTimeoutMs,
      bodyTimeoutMs,
    };

    const redirects: RedirectHop[] = [];
    let current = validateTargetUrl(input, policy, maxUrlLength);
    const requestedUrl = current.href;
    const visited = new Set<string>([current.href]);

    for (;;) {
      let response: Awaited<ReturnType<typeof undiciRequest>>;
      const sent = hopHeaders(headers, requestOptions.headersFor?.(current));
      const politeness = requestOptions.politeness;
      let release: () => void = () => undefined;
      if (gate && politeness?.applies(current)) {
        deadline.pause();
        try {
          release = await gate.enter(
            current.hostname,
            politeness.quota,
            callerSignal ?? NEVER,
            politeness.lookupTimeoutMs,
          );
        } catch (error) {
          throw toSafeHttpError(error, errorContext).withContext(current.href, redirects);
        } finally {
          deadline.resume();
        }
      }
      try {
        response = await undiciRequest(current, {
          dispatcher: agent,
          method,
          headers: sent,
          signal,
          // undici closes the connection after every HEAD (a server could send a body it should not); a link checker
          // sends thousands of HEADs to a few hosts, each then paying a new TCP and TLS handshake. HEAD keeps its
          // connection, as browsers and curl do: stray bytes after a HEAD response fail the connection (undici drops
          // it), never a later response.
          ...(method === 'HEAD' ? { reset: false } : {}),
          ...(method === 'POST' ? { body: requestOptions.body ?? '' } : {}),
        });
      } catch (error) {
        release();
        if (isProgrammerError(error)) throw error;
        throw toSafeHttpError(error, errorContext).withContext(current.href, redirects);
      }
      const status = response.statusCode;
      const responseHeaders = normaliseResponseHeaders(response.headers);
      const location = firstHeader(responseHeaders, 'location');

      if (followRedirects && REDIRECT_STATUSES.has(status) && location !== null) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        release();
        redirects.push({ url: current.href, status });
        const next = redirectTarget(location, current, policy, maxUrlLength, redirects, visited, maxRedirects);
        if (next.origin !== current.origin) {
          headers = { ...headers };
          for (const name of CROSS_ORIGIN_STRIPPED) delete headers[name];
        }
        visited.add(next.href);
        current = next;
        continue;
      }

      const ttfbMs = performance.now() - started;
      const contentEncoding = firstHeader(responseHeaders, 'content-encoding')?.trim().toLowerCase() || null;
      const alpn = alpnByOrigin.get(originKey(current.protocol, current.hostname, current.port));
      const finalUrl = current.href;
      const hopsSoFar = [...redirects];
      const body = new CappedBodyStream(response.body, {
        contentEncoding,
        maxBytes,
        onLimit,
        mapError: (error) => toSafeHttpError(error, errorContext).withContext(finalUrl, hopsSoFar),
      });
      const head: SafeHttpResponseHead = {
        url: requestedUrl,
        finalUrl,
        status,
        headers: responseHeaders,
        httpVersion: alpn === 'h2' ? '2' : '1.1',
        redirects: hopsSoFar,
        contentEncoding,
        timings: { startedAt, ttfbMs: Math.round(ttfbMs), totalMs: Math.round(ttfbMs) },
      };
      if (requestOptions.stream === true) {
        // The turn is the request's until its body is done with (read to the end, or destroyed).
        body.once('close', release);
        return { ...head, body };
      }

      let buffer: Buffer;
      try {
        buffer = await body.readAll();
      } catch (error) {
        throw toSafeHttpError(error, errorContext).withContext(finalUrl, hopsSoFar);
      } finally {
        release();
      }
      return {
        ...head,
        timings: { ...head.timings, totalMs: Math.round(performance.now() - started) },
        body: buffer,
        bytes: body.bytes,
        encodedBytes: body.encodedBytes,
        truncated: body.truncated,
        decoded: body.decoded,
      };
    }
  }

  return {
    request: request as SafeHttpClient['request'],
    close: () => agent.close(),
    ...(gate && { addressGate: gate }),
  };
}
