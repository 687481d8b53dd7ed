import type { Page, Request, Route } from 'playwright-core';
import {
  isSafeHttpError,
  type SafeHttpClient,
  type SafeHttpMethod,
  type SafeHttpResponse,
} from '../../platform/safe-http/index.js';
import type { HeaderMap } from '../../seo/page/index.js';
import type { RenderJob } from './render-job.js';

/**
 * Request headers of the page passed on to the site. The page's own cookies and Authorization are not: a login
 * crawl's credentials are the render's client's to add, to the project's own hosts only (docs/audits-and-crawling.md).
 */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'x-requested-with'];
/** Response headers that describe the wire, not the (decoded) body handed to the browser. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);
/** One subrequest never waits longer than this (the page's own budget may end it sooner). */
const REQUEST_TIMEOUT_MS = 10_000;

export interface RoutingSettings {
  client: SafeHttpClient;
  blockedTypes: ReadonlySet<string>;
  maxRequests: number;
  maxBytes: number;
}

/** Headers of a response the browser is given: the decoded body's, each header once (Set-Cookie one per line). */
export function browserHeaders(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (WIRE_HEADERS.has(key) || value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

/**
 * Answers one request of the page: nothing reaches the network but through the safe client. The main frame's first
 * navigation is the crawler's own response (the document is not fetched twice); a later one (a script or meta
 * refresh leaving the page) is answered 204, which leaves the current document in place. Blocked resource types,
 * the site's URLs the crawl scope excludes, requests over a budget, the site's URLs robots.txt disallows, and
 * anything the safe client refuses are aborted; all but the blocked types and the excluded URLs are recorded.
 */
export async function routeRequest(
  route: Route,
  request: Request,
  page: Page,
  job: RenderJob | null,
  document: { status: number; headers: HeaderMap; body: Buffer } | null,
  settings: RoutingSettings,
): Promise<void> {
  if (!job || job.ended) return abort(route, 'blockedbyclient');
  const url = request.url();
  const navigation = request.isNavigationRequest();
  let frame: ReturnType<Request['frame']> | null = null;
  try {
    frame = request.frame();
  } catch {
    // A navigation of a popup before its frame exists: not this page's.
  }
  if (navigation && (!frame || frame.page() !== page)) return abort(route, 'blockedbyclient');
  if (navigation && frame === page.mainFrame()) {
    if (!job.documentServed && document) {
      job.documentServed = true;
      return fulfil(route, { status: document.status, headers: browserHeaders(document.headers), body: document.body });
    }
    return fulfil(route, { status: 204, headers: {}, body: Buffer.alloc(0) });
  }

  // Until the document is served, requests come from the previous render's document, still in place.
  if (!job.documentServed) return abort(route, 'blockedbyclient');
  const type = request.resourceType();
  if (settings.blockedTypes.has(type) || job.excluded?.(url)) return abort(route, 'blockedbyclient');
  if (type === 'eventsource') {
    job.failed(url, 'event streams are not opened while rendering');
    return abort(route, 'blockedbyclient');
  }
  if (!/^https?:/i.test(url)) {
    job.failed(url, 'only http(s) requests are made while rendering');
    return abort(route, 'blockedbyclient');
  }
  if (job.allowed && !job.allowed(url)) {
    job.blockedByRobots(url);
    return abort(route, 'blockedbyclient');
  }
  if (++job.requests > settings.maxRequests) {
    job.failed(url, `over the page's budget of ${settings.maxRequests} requests`);
    return abort(route, 'blockedbyclient');
  }
  const method = request.method().toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    job.failed(url, `${method} requests are not sent while rendering`);
    return abort(route, 'blockedbyclient');
  }
  const maxBytes = settings.maxBytes - job.bytes;
  if (maxBytes <= 0) {
    job.failed(url, `over the page's budget of ${settings.maxBytes} bytes`);
    return abort(route, 'blockedbyclient');
  }
  const timeoutMs = Math.min(REQUEST_TIMEOUT_MS, job.remainingMs());
  if (timeoutMs <= 0) return abort(route, 'timedout');

  const headers: Record<string, string> = {};
  const sent = request.headers();
  for (const name of FORWARDED_REQUEST_HEADERS) if (sent[name] !== undefined) headers[name] = sent[name];
  const pending = job.begin(url);
  let response: SafeHttpResponse;
  try {
    response = await (job.client ?? settings.client).request(url, {
      method: method as SafeHttpMethod,
      headers,
      ...(method === 'POST' ? { body: request.postDataBuffer() ?? Buffer.alloc(0) } : {}),
      maxBytes,
      totalTimeoutMs: timeoutMs,
      signal: job.stop.signal,
    });
  } catch (err) {
    if (!job.ended) pending.fail(failureReason(err, settings.maxBytes));
    await abort(route, job.ended ? 'aborted' : abortCode(err));
    pending.end();
    return;
  }
  job.bytes += response.bytes;
  if (response.status >= 400) pending.fail(`HTTP ${response.status}`);
  // In flight until the browser has taken the answer: the quiet window that settles the page starts there, not while
  // the answer is still on its way to the page, whose script may need it for the title or the links.
  await fulfil(route, { status: response.status, headers: browserHeaders(response.headers), body: response.body });
  pending.end();
}

function failureReason(err: unknown, maxBytes: number): string {
  if (!isSafeHttpError(err)) return err instanceof Error ? err.message : String(err);
  if (err.code === 'BODY_TOO_LARGE') return `over the page's budget of ${maxBytes} bytes`;
  const via = err.redirects.length && err.url ? ` (redirected to ${err.url})` : '';
  return `${err.code}: ${err.message}${via}`;
}

function abortCode(err: unknown): string {
  if (!isSafeHttpError(err)) return 'failed';
  switch (err.code) {
    case 'BLOCKED_ADDRESS':
    case 'UNSUPPORTED_SCHEME':
    case 'INVALID_URL':
      return 'blockedbyclient';
    case 'DNS_FAILURE':
      return 'namenotresolved';
    case 'TIMEOUT':
      return 'timedout';
    case 'CONNECTION_FAILED':
      return 'connectionfailed';
    default:
      return 'failed';
  }
}

async function fulfil(route: Route, response: { status: number; headers: Record<string, string>; body: Buffer }) {
  // The page may be gone (render over, context closed): nothing to answer then.
  await route.fulfill(response).catch(() => undefined);
}

async function abort(route: Route, code: string): Promise<void> {
  await route.abort(code).catch(() => undefined);
}
