import { ADDRESS_CAP_REASON } from '../platform/safe-http/index.js';
import type { LinkTargetInfo } from '../seo/checks/index.js';
import type { ExternalLinkCache, ExternalNotTried } from './crawl.types.js';
import { OutsideNetworkWatch, outsideAnswerOf } from './outside-network.js';
import type { ResourceCheck, ResourceChecker } from './resource-checker.js';

/** How long external link checks may go on in one audit, from the crawl's start: 5 minutes. */
const EXTERNAL_TIME_BUDGET_MS = 300_000;

/** What became of the external targets beside the results recorded in the link targets. */
export interface ExternalLinkTally {
  /** Targets never fetched, and why. */
  notTried: Map<string, ExternalNotTried>;
  /** Targets answered from the project's cache of the last day (no request). */
  fromCache: Set<string>;
  /** Every distinct target the crawl linked (checked, from the cache, or not tried): the M of "N of M". */
  targets: Set<string>;
}

export interface ExternalLinkLimits {
  /** Distinct URLs checked at most (externalLinkBudget, 10,000 by default); 0 disables the checks. */
  cap: number;
  /** The audit's time for external checks, from begin() (EXTERNAL_TIME_BUDGET_MS). */
  timeBudgetMs?: number;
  /** At most this long after the last page (default: no limit but the time budget). */
  tailMs?: number;
  /** The project's results of the last day: a hit is used instead of a request, fresh verdicts are stored. */
  cache?: ExternalLinkCache;
}

/**
 * Every distinct external link target of the crawl is checked (HEAD, GET when HEAD is refused), started as soon as a
 * page links it, beside the crawl, through the external checker's lanes (a global cap, a few per host, and per resolved
 * address a few in flight, a pace and a cap per audit, GET fallbacks included: resource-checker.ts). A safety cap
 * of distinct URLs and a time budget per audit bound the work; what they leave is counted as not tried, with why.
 * When outside names stop resolving (several distinct hosts in a row: outside-network.ts), the audit has no outside
 * network: the checks end at once, and the targets left are counted as not checked for that reason (`noNetwork`).
 */
export class ExternalLinks {
  private readonly checks = new Map<string, Promise<ResourceCheck>>();
  private readonly notTried = new Map<string, ExternalNotTried>();
  private readonly cached = new Map<string, LinkTargetInfo>();
  private readonly fromCache = new Set<string>();
  /** Ends the checks: the time budget, the tail's end, or no outside network. */
  private readonly stop = new AbortController();
  private endedBy: 'budget' | 'tail' | 'noNetwork' | null = null;
  /** Watches the checks sent for names that do not resolve: ends them all when the outside network is missing. */
  private readonly outside = new OutsideNetworkWatch(() => this.end('noNetwork'));
  /** The checks' waits, ended by the stop (untilStopped). */
  private readonly waits = new Set<() => void>();
  private budgetTimer: NodeJS.Timeout | undefined;
  private answered = 0;
  private readonly timeBudgetMs: number;

  constructor(
    private readonly checker: ResourceChecker,
    private readonly limits: ExternalLinkLimits,
  ) {
    this.timeBudgetMs = limits.timeBudgetMs ?? EXTERNAL_TIME_BUDGET_MS;
    this.stop.signal.addEventListener('abort', () => {
      for (const wake of this.waits) wake();
      this.waits.clear();
    });
  }

  /** The crawl starts: the cache of the last day is read, and the audit's time for checks starts running. */
  async begin(): Promise<void> {
    if (this.limits.cap > 0 && this.limits.cache)
      for (const [url, info] of await this.limits.cache.recent()) this.cached.set(url, info);
    this.budgetTimer = setTimeout(() => this.end('budget'), this.timeBudgetMs);
    this.budgetTimer.unref();
  }

  /** A link to another site: its check starts now (once per URL), unless the cap or the time budget says no. */
  add(url: string): void {
    if (this.checks.has(url) || this.notTried.has(url) || this.fromCache.has(url)) return;
    if (this.cached.has(url)) return void this.fromCache.add(url);
    if (this.checks.size >= this.limits.cap) return void this.notTried.set(url, 'cap');
    if (this.stop.signal.aborted)
      return void this.notTried.set(url, this.endedBy === 'noNetwork' ? 'noNetwork' : 'time');
    const host = hostOf(url);
    let ticket: number | null = null;
    const check = this.checker.check(url, {
      budgeted: false,
      signal: this.stop.signal,
      onSend: () => (ticket = this.outside.sentTo(host)),
      // Told before the check's lane goes to the next one: the checks sent "beside" a failure are exactly those.
      onAnswer: (r) => {
        if (ticket !== null) this.outside.ended(ticket, outsideAnswerOf(r));
      },
    });
    this.checks.set(
      url,
      this.untilStopped(check, () => ticket === null).then((r) => {
        // A check that ended without an answer (stopped, thrown): a ticket already ended is ignored.
        if (ticket !== null) this.outside.ended(ticket, outsideAnswerOf(r));
        this.answered++;
        return r;
      }),
    );
  }

  /** Targets settled (answered, failed, or from the cache) of every target met so far. */
  progress(): { checked: number; found: number } {
    return {
      checked: this.answered + this.fromCache.size,
      found: this.checks.size + this.notTried.size + this.fromCache.size,
    };
  }

  /**
   * The check, or "stopped" as soon as the checks end: a check caught in a name lookup that hangs (no resolver
   * answers) sees the stop only when the lookup gives up, and the audit does not wait for that. A check still queued
   * then is said not sent (not tried), as the checker says it.
   */
  private untilStopped(check: Promise<ResourceCheck>, notSent: () => boolean): Promise<ResourceCheck> {
    if (this.stop.signal.aborted) return check;
    return new Promise((resolve) => {
      const stopped = () =>
        resolve({ status: null, redirected: false, skipped: 'aborted', ...(notSent() ? { notSent: true } : {}) });
      this.waits.add(stopped);
      void check.then((r) => {
        this.waits.delete(stopped);
        resolve(r);
      });
    });
  }

  private end(by: 'budget' | 'tail' | 'noNetwork'): void {
    if (this.stop.signal.aborted) return;
    this.endedBy = by;
    this.stop.abort();
  }

  /**
   * After the last page: every check is waited for, until the time budget (or `tailMs`) ends the rest, then recorded
   * in `linkTargets`. A target that refused the connection or failed TLS is recorded with its cause (a broken link);
   * one whose host did not resolve, that timed out, or that had not answered in time, could not be checked, and so
   * could one past the audit's cap of requests to its address ("per-address request cap reached"); one our
   * URL policy refuses (user info in the URL, a refused address) is not fetched and is listed as not checked, with
   * the policy's reason. A check the end caught before its request was sent is not tried ('time'). When the end was
   * the missing outside network, every check it caught, sent or not, is counted as not checked for that reason
   * ('noNetwork'): none of them is a broken link. Fresh verdicts go to the cache.
   */
  async checkAll(linkTargets: Map<string, LinkTargetInfo>, aborted: () => boolean): Promise<ExternalLinkTally> {
    const urls = [...this.checks.keys()];
    const all = Promise.all(this.checks.values());
    const tailMs = this.limits.tailMs;
    const tail = tailMs !== undefined && Number.isFinite(tailMs) ? setTimeout(() => this.end('tail'), tailMs) : null;
    let results: ResourceCheck[];
    try {
      results = await all;
    } finally {
      if (tail) clearTimeout(tail);
      clearTimeout(this.budgetTimer);
    }
    const late = this.stop.signal.aborted && !aborted();
    const fresh = new Map<string, LinkTargetInfo>();
    results.forEach((r, i) => {
      const url = urls[i];
      if (r.skipped === 'aborted' && late && this.endedBy === 'noNetwork')
        return void this.notTried.set(url, 'noNetwork');
      if (r.skipped === 'aborted' && late && r.notSent) return void this.notTried.set(url, 'time');
      // Not sent: the audit's requests to its address (or its redirect's) reached their cap. Said so, never broken.
      if (r.skipped === 'addressCap')
        return void linkTargets.set(url, {
          status: null,
          redirected: r.redirected,
          couldNotCheck: ADDRESS_CAP_REASON,
          addressCap: true,
        });
      if (r.skipped && !(r.skipped === 'aborted' && late)) return;
      const info: LinkTargetInfo = { status: r.status, redirected: r.redirected };
      if (r.skipped)
        info.couldNotCheck =
          this.endedBy === 'tail'
            ? `no answer within ${(tailMs ?? 0) / 1000} s of the crawl's end`
            : `no answer within the audit's ${this.timeBudgetMs / 1000} s for external links`;
      // Never broken: our policy, not the target, refused it (https://author@host/, a refused address).
      else if (r.refusedByPolicy !== undefined) {
        info.couldNotCheck = `refused by policy: ${r.refusedByPolicy}`;
        info.refusedByPolicy = true;
      } else if (r.failureCode === 'DNS_FAILURE') info.couldNotCheck = r.failure ?? 'the host name did not resolve';
      else if (r.failureCode === 'TIMEOUT') info.couldNotCheck = r.failure ?? 'no answer in time';
      else if (r.failure !== undefined) info.failure = r.failure;
      if (r.blockedAddress) info.blockedAddress = true;
      linkTargets.set(url, info);
      if (info.couldNotCheck === undefined && !info.blockedAddress) fresh.set(url, info);
    });
    for (const url of this.fromCache) linkTargets.set(url, this.cached.get(url)!);
    if (fresh.size && this.limits.cache && !aborted()) await this.limits.cache.store(fresh);
    return {
      notTried: this.notTried,
      fromCache: this.fromCache,
      targets: new Set([...this.checks.keys(), ...this.notTried.keys(), ...this.fromCache]),
    };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
