import type { LinkTargetInfo } from '../seo/checks/index.js';
import { before, type LinkOrigin } from './crawl-frontier.js';
import type { ResourceCheck, ResourceChecker } from './resource-checker.js';

/** How long external link checks may go on after the last page: 5 s (the rest could not be checked). */
const EXTERNAL_TAIL_MS = 5_000;

/**
 * External links: a bounded number of checks (the budget), through the resource checker's lanes, started during the
 * crawl as each target's place in the budget is final. The budget goes to the first-linked targets (crawl order), not
 * the first to arrive.
 */
export class ExternalLinks {
  /** External link targets to check, the budget's first-linked ones. */
  private readonly candidates = new Map<string, LinkOrigin>();
  /** Ends the external link checks still running `tailMs` after the last page. */
  private readonly stop = new AbortController();

  constructor(
    private readonly checker: ResourceChecker,
    private readonly budget: number,
    private readonly tailMs = EXTERNAL_TAIL_MS,
  ) {}

  /** A link to another site, from this place in the crawl order. */
  add(url: string, from: LinkOrigin): void {
    const known = this.candidates.get(url);
    if (known) {
      if (before(from, known)) this.candidates.set(url, from);
      return;
    }
    if (this.budget <= 0) return;
    if (this.candidates.size >= this.budget) {
      // Keep the budget's earliest-linked targets: drop the latest one if the new target comes before it.
      let latest: [string, LinkOrigin] | null = null;
      for (const entry of this.candidates) if (!latest || before(latest[1], entry[1])) latest = entry;
      if (!latest || !before(from, latest[1])) return;
      this.candidates.delete(latest[0]);
    }
    this.candidates.set(url, from);
  }

  /**
   * Starts the checks of the targets that are final, while the crawl goes on: those linked from pages before
   * `watermark`, the first page not yet done (a later page's targets come after them, so they never take their place
   * in the budget). A check already started is not repeated.
   */
  startFinal(watermark: number): void {
    for (const [url, from] of this.candidates) if (from.parent < watermark) void this.check(url);
  }

  /** The check of a target (started now, or the one already started); the tail's end stops it. */
  private check(url: string): Promise<ResourceCheck> {
    return this.checker.check(url, { budgeted: false, signal: this.stop.signal });
  }

  /**
   * Every target's check, waited for at most `tailMs`, recorded in `linkTargets`. A target that refused the
   * connection or failed TLS is recorded with its cause (a broken link); one whose host did not resolve, that timed
   * out, or that had not answered in time, could not be checked; one our URL policy refuses (user info in the URL, a
   * refused address) is not fetched and is listed as not checked, with the policy's reason.
   */
  async checkAll(linkTargets: Map<string, LinkTargetInfo>, aborted: () => boolean): Promise<void> {
    const urls = [...this.candidates.keys()];
    const checks = Promise.all(urls.map((url) => this.check(url)));
    const tailMs = this.tailMs;
    const timer = setTimeout(() => this.stop.abort(), tailMs);
    let results: Awaited<typeof checks>;
    try {
      results = await checks;
    } finally {
      clearTimeout(timer);
    }
    const late = this.stop.signal.aborted && !aborted();
    results.forEach((r, i) => {
      const url = urls[i];
      if (r.skipped && !(r.skipped === 'aborted' && late)) return;
      const info: LinkTargetInfo = { status: r.status, redirected: r.redirected };
      if (r.skipped) info.couldNotCheck = `no answer within ${tailMs / 1000} s of the crawl's end`;
      // Never broken: our policy, not the target, refused it (https://author@host/, a refused address).
      else if (r.refusedByPolicy !== undefined) info.couldNotCheck = `refused by policy: ${r.refusedByPolicy}`;
      else if (r.failureCode === 'DNS_FAILURE') info.couldNotCheck = r.failure ?? 'the host name did not resolve';
      else if (r.failureCode === 'TIMEOUT') info.couldNotCheck = r.failure ?? 'no answer in time';
      else if (r.failure !== undefined) info.failure = r.failure;
      if (r.blockedAddress) info.blockedAddress = true;
      linkTargets.set(url, info);
    });
  }
}
