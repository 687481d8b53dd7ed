import { setTimeout as sleep } from 'node:timers/promises';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import type { LinkTargetInfo, PageResource } from '../seo/checks/index.js';
import type { HeaderMap, PageFacts } from '../seo/page/index.js';
import { firstHeader } from './page-receive.js';
import { PriorityPermits, type ResourceChecker } from './resource-checker.js';

/** Images per page whose size and caching headers the page checks wait for (the rest are checked beside the crawl). */
const ASSETS_PER_PAGE = 5;

/**
 * The crawl's politeness towards the site: at most `concurrency` requests in flight against it (resource checks of
 * the site's own URLs included; page fetches, and what a page waits for, go before background resource checks), and
 * request starts spaced by `delayMs`.
 */
export class SiteRequests {
  readonly permits: PriorityPermits;
  private nextSlot = 0;

  constructor(
    private readonly client: SafeHttpClient,
    private readonly options: { concurrency: number; delayMs: number },
    private readonly signal: AbortSignal | undefined,
    /** The site's own URLs (which the politeness covers). */
    private readonly inSiteUrl: (url: string) => boolean,
    /** Whether robots.txt (when obeyed) lets the crawl request a URL. */
    private readonly mayFetch: (url: string) => boolean,
  ) {
    this.permits = new PriorityPermits(Math.max(1, options.concurrency));
  }

  /**
   * The client a rendered page's own requests go through: the crawl's (its credential rules included), under the
   * crawl's politeness for the site's own URLs: each holds one of the site's request slots and is paced by delayMs,
   * as a page fetch is, so rendering never has more requests at once in flight against the site than the crawl's
   * concurrency. Requests to other hosts go straight through. (A render holds no slot itself: it starts once its
   * document's body is in.)
   */
  readonly renderClient: SafeHttpClient = {
    request: ((url: string | URL, options?: Parameters<SafeHttpClient['request']>[1]) =>
      this.inSiteUrl(String(url))
        ? this.inSiteSlot(() => this.client.request(url, options))
        : this.client.request(url, options)) as SafeHttpClient['request'],
    // The crawl's client belongs to the caller: it is closed where it was made.
    close: () => Promise.resolve(),
  };

  private get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  /** A request to the site: it holds one of the site's request slots (urgent) and starts at its paced time. */
  async inSiteSlot<T>(request: () => Promise<T>): Promise<T> {
    await this.permits.acquire(true);
    try {
      await this.pace();
      return await request();
    } finally {
      this.permits.release();
    }
  }

  /** Politeness: request starts are spaced by delayMs across all workers; a stop ends the wait at once. */
  private async pace(): Promise<void> {
    if (this.options.delayMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + this.options.delayMs;
    // A stop ends the wait at once (the timer rejects with an AbortError, which only means: go on and see).
    if (at > now) await sleep(at - now, undefined, { signal: this.signal }).catch(() => undefined);
  }

  /** The status of a site file (favicon.ico, llms.txt), or null when it could not be had. */
  async statusOf(url: string): Promise<number | null> {
    return (await this.headCheck(url))?.status ?? null;
  }

  private async headCheck(url: string): Promise<{ status: number; headers: HeaderMap; redirected: boolean } | null> {
    // RFC 9309: nothing of the site that robots.txt disallows is requested, HEAD checks of assets and site files
    // included.
    if (!this.mayFetch(url)) return null;
    await this.permits.acquire(true);
    try {
      if (this.aborted) return null;
      const signal = this.signal;
      let r = await this.client.request(url, { method: 'HEAD', totalTimeoutMs: 10_000, signal });
      if ((r.status === 405 || r.status === 501) && !this.aborted)
        r = await this.client.request(url, { maxBytes: 1024, onBodyLimit: 'truncate', totalTimeoutMs: 10_000, signal });
      return { status: r.status, headers: r.headers, redirected: r.redirects.length > 0 };
    } catch {
      return null;
    } finally {
      this.permits.release();
    }
  }
}

/**
 * Sizes and caching of a page's first images, checked once per URL within the audit's budget; the page waits for
 * these.
 */
export async function pageResources(checker: ResourceChecker, facts: PageFacts): Promise<PageResource[]> {
  const wanted: string[] = [];
  for (const image of facts.images) {
    if (wanted.length >= ASSETS_PER_PAGE) break;
    if (image.url && !wanted.includes(image.url)) wanted.push(image.url);
  }
  const results = await Promise.all(
    wanted.map(async (url): Promise<PageResource | null> => {
      const r = await checker.check(url, { urgent: true });
      if (r.status === null) return null;
      return {
        url,
        kind: 'image',
        status: r.status,
        bytes: Number(firstHeader(r.headers ?? {}, 'content-length') ?? '') || undefined,
        headers: r.headers,
      };
    }),
  );
  return results.filter((r): r is PageResource => r !== null);
}

/** What the resource checks found, for the site pass (pages and link targets already known keep their own entry). */
export function recordResourceChecks(checker: ResourceChecker, linkTargets: Map<string, LinkTargetInfo>): void {
  for (const [url, check] of checker.results()) {
    if (check.skipped || linkTargets.has(url)) continue;
    const info: LinkTargetInfo = { status: check.status, redirected: check.redirected };
    if (check.failure !== undefined) info.failure = check.failure;
    if (check.blockedAddress) info.blockedAddress = true;
    linkTargets.set(url, info);
  }
}
