import type { SafeHttpClient, SafeHttpStreamResponse } from '../platform/safe-http/index.js';
import { isSafeHttpError } from '../platform/safe-http/index.js';
import type { PageFetch } from '../seo/checks/index.js';
import { isHtmlContentType, normalizeUrl, type HeaderMap } from '../seo/page/index.js';
import type { QueueItem } from './crawl-frontier.js';
import type { SiteFacts } from './crawl.types.js';

/** HTML bytes of a page the crawler receives and analyses (5 MiB); a larger page is analysed on these. */
const PAGE_BYTES_CAP = 5 * 1024 * 1024;

export const firstHeader = (headers: HeaderMap, name: string): string | null => {
  const v = headers[name];
  return v === undefined ? null : Array.isArray(v) ? (v[0] ?? null) : v;
};

/** What the site facts say of the start URL's response. */
export type StartFacts = Pick<
  SiteFacts,
  'startStatus' | 'https' | 'hstsHeader' | 'httpVersion' | 'compression' | 'startTtfbMs' | 'startResponse'
>;

/** The start facts before (or without) a response. */
export const NO_START_FACTS: StartFacts = {
  startStatus: null,
  https: false,
  hstsHeader: null,
  httpVersion: null,
  compression: null,
  startTtfbMs: null,
};

export function startFactsOf(response: SafeHttpStreamResponse): StartFacts {
  return {
    startStatus: response.status,
    https: response.finalUrl.startsWith('https:'),
    hstsHeader: firstHeader(response.headers, 'strict-transport-security'),
    startResponse: { url: response.finalUrl, headers: response.headers },
    httpVersion: response.httpVersion,
    compression: response.contentEncoding ?? null,
    startTtfbMs: response.timings.ttfbMs,
  };
}

/**
 * What a page fetch brought: for an HTML page to analyze, its body; else `error: null` (a response recorded but not
 * analyzed: not HTML, an error status, a redirect analyzed elsewhere) or why the fetch failed.
 */
export type Received = { body: Buffer; finalUrl: URL } | { error: string | null };

/** What receiving a page needs of the crawl (one object for the crawl, not one per page). */
export interface PageReceiving {
  client: SafeHttpClient;
  /** The crawl's stop signal. */
  signal: AbortSignal | undefined;
  maxPageBytes: number | undefined;
  /** The site's URLs (and its subdomains' when the scope takes them in). */
  inSite(url: URL): boolean;
  /**
   * A page redirected to this URL of the site (normalized): the fetch claims it, so that it is not fetched again.
   * True when another fetch analyzes its document.
   */
  claimRedirectTarget(normalized: string, item: QueueItem): boolean;
  /** The start URL's response, or what its fetch threw. */
  onStartResponse(response: SafeHttpStreamResponse): void;
  onStartError(err: unknown): void;
}

/** The request and, for an HTML page to analyze, its body. Fills `fetch`. */
export async function receivePage(ctx: PageReceiving, item: QueueItem, fetch: PageFetch): Promise<Received> {
  // The request gets a signal of its own, which the crawl's aborts. The HTTP client joins the signal it is given to
  // its deadline with AbortSignal.any, which in Node 20 leaves a WeakRef in the given signal's set of dependants for
  // as long as that signal lives (~85 bytes a request: 8 MB on a 100,000-page crawl with the crawl's own signal).
  const request = linkedSignal(ctx.signal);
  try {
    return await receiveWith(ctx, item, fetch, request.signal);
  } finally {
    request.release();
  }
}

async function receiveWith(
  ctx: PageReceiving,
  item: QueueItem,
  fetch: PageFetch,
  signal: AbortSignal | undefined,
): Promise<Received> {
  const started = Date.now();
  let response: SafeHttpStreamResponse;
  try {
    response = await ctx.client.request(item.url, {
      stream: true,
      // A page over the cap is analysed on its first bytes (and reported as too large), not lost as a failure.
      maxBytes: ctx.maxPageBytes ?? PAGE_BYTES_CAP,
      onBodyLimit: 'truncate',
      signal,
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
    });
  } catch (err) {
    if (item.seq === 0) ctx.onStartError(err);
    const code = isSafeHttpError(err) ? err.code : 'CONNECTION_FAILED';
    if (code === 'TIMEOUT') fetch.timedOut = true;
    if (code === 'REDIRECT_LOOP' || code === 'TOO_MANY_REDIRECTS') {
      fetch.redirectLoop = true;
      if (isSafeHttpError(err)) fetch.redirects = err.redirects ?? [];
    }
    fetch.responseMs = Date.now() - started;
    return { error: err instanceof Error ? err.message : String(err) };
  }
  fetch.finalUrl = response.finalUrl;
  fetch.status = response.status;
  fetch.redirects = response.redirects;
  fetch.headers = response.headers;
  fetch.responseMs = response.timings.ttfbMs;
  if (item.seq === 0) ctx.onStartResponse(response);

  const finalUrl = new URL(response.finalUrl);
  // A redirect to a URL with a fetch of its own: that fetch analyzes the document, this one would count it twice.
  let analyzedElsewhere = false;
  // A link that leaves the site through a redirect is a link to another site (the start URL excepted).
  if (response.redirects.length && item.depth !== 0 && !ctx.inSite(finalUrl)) fetch.redirectTargetSeparate = true;
  if (response.redirects.length && ctx.inSite(finalUrl)) {
    const normalized = normalizeUrl(response.finalUrl);
    if (normalized) {
      analyzedElsewhere = ctx.claimRedirectTarget(normalized, item);
      if (analyzedElsewhere) fetch.redirectTargetSeparate = true;
    }
  }
  const contentType = firstHeader(response.headers, 'content-type') ?? '';
  const analyze =
    !analyzedElsewhere && response.status >= 200 && response.status < 300 && isHtmlContentType(contentType);
  if (!analyze) {
    response.body.destroy();
    fetch.bytes = Number(firstHeader(response.headers, 'content-length') ?? 0) || 0;
    return { error: null };
  }
  try {
    const body = await response.body.readAll();
    if (response.body.truncated) {
      // Content-Length is the size of the HTML only when it was sent uncompressed.
      const declared = response.contentEncoding ? NaN : Number(firstHeader(response.headers, 'content-length'));
      fetch.bodyCapped = { declaredBytes: Number.isSafeInteger(declared) && declared > 0 ? declared : null };
    }
    return { body, finalUrl };
  } catch (err) {
    if (item.seq === 0) ctx.onStartError(err);
    if (isSafeHttpError(err) && err.code === 'TIMEOUT') fetch.timedOut = true;
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** A signal aborted with `parent` (and its reason) until release(), which detaches it. */
function linkedSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; release(): void } {
  if (!parent) return { signal: undefined, release: () => undefined };
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const abort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', abort) };
}
