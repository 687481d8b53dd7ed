import type { SafeHttpClient } from '../../platform/safe-http/index.js';
import type { HeaderMap } from '../../seo/page/index.js';

/**
 * Resource types the renderer does not load by default: they cannot change the DOM an SEO audit reads. Images are
 * in the list for speed (an <img> element stays in the DOM and in the facts whether or not its bytes are loaded);
 * a page whose scripts wait for an image's load event still renders, with that image failed.
 */
export const DEFAULT_BLOCKED_RESOURCE_TYPES: readonly string[] = ['image', 'media', 'font'];

export const RENDER_DEFAULTS = {
  /** Pages (each in its own browser context) rendering at once per renderer. */
  pages: 4,
  /** Whole budget of one render: navigation, settling and the snapshot. */
  timeoutMs: 15_000,
  /** Bytes the page's subrequests may receive in all (decoded). */
  maxBytes: 20 * 1024 * 1024,
  /** Subrequests one page may make (blocked resource types not counted). */
  maxRequests: 250,
  /** No request in flight for this long after the load event: the page is settled. */
  idleMs: 200,
  /** A context is replaced after this many renders (bounds what a long-lived renderer process accumulates). */
  rendersPerContext: 100,
} as const;

export interface PageRendererOptions {
  /** The Chromium binary (RENDER_CHROMIUM_PATH, else CHROMIUM_PATH). */
  chromiumPath: string;
  /**
   * Every request the browser makes is fulfilled through this client (its address policy, DNS pinning and
   * hop-by-hop redirect checks), or through the render's own (`RenderInput.client`); the browser opens no
   * connection of its own.
   */
  client: SafeHttpClient;
  pages?: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxRequests?: number;
  idleMs?: number;
  /** Playwright resource types answered with an abort before any request: default DEFAULT_BLOCKED_RESOURCE_TYPES. */
  blockedResourceTypes?: readonly string[];
  rendersPerContext?: number;
  /** navigator.userAgent of the rendered pages (the wire User-Agent is always the client's). */
  userAgent?: string;
  /** Browser-level failures (launch, crash); a render's own failure is its rejection. */
  onError?: (error: unknown) => void;
}

/** A document the crawler received, to render without fetching it again. */
export interface RenderInput {
  /** The URL the document was served from (after redirects). */
  url: string;
  status: number;
  headers: HeaderMap;
  /** The decoded body as received (it is not modified). */
  body: Buffer;
  /**
   * Whether a subrequest may be made for robots.txt: false for the site's own URLs that robots.txt disallows
   * (recorded in `blockedByRobots`, never loaded). Absent: every URL may.
   */
  allowed?: (url: string) => boolean;
  /**
   * The site's URLs the crawl scope excludes: a subrequest to one is aborted before any request and not reported
   * (the exclusion is the project's choice, not a fault of the page). Absent: none.
   */
  excluded?: (url: string) => boolean;
  /**
   * The client this render's subrequests go through instead of the renderer's own: the crawl's, so that a login
   * crawl's page loads its data signed in (the crawl client adds the project's credentials to the project's own
   * hosts only, hop by hop; every other host gets none). It must apply the same address policy.
   */
  client?: SafeHttpClient;
  /** Ends the render at once (the crawl was stopped): it rejects. */
  signal?: AbortSignal;
}

export interface RenderFailure {
  url: string;
  reason: string;
}

export interface RenderOutput {
  /** The serialized DOM of the main frame at the snapshot. */
  html: string;
  /** From the start of navigation to the snapshot. */
  renderMs: number;
  /** The budget ran out before the page settled: the snapshot is the DOM as it was then. */
  partial: boolean;
  consoleErrors: string[];
  consoleErrorCount: number;
  failedRequests: RenderFailure[];
  failedRequestCount: number;
  blockedByRobots: string[];
}

/** Renders documents in headless Chromium; one per worker process, shared by the crawls it runs. */
export interface PageRenderer {
  /** Rejects with a readable reason when the page could not be rendered (crash, script that never yields, stop). */
  render(input: RenderInput): Promise<RenderOutput>;
  /** Closes the browser; pending renders reject. */
  close(): Promise<void>;
}
