import type {
  AddressQuota,
  SafeHttpClient,
  SafeHttpError,
  SafeHttpErrorCode,
  SafeHttpRequestOptions,
} from '../platform/safe-http/index.js';
import { isSafeHttpError } from '../platform/safe-http/index.js';
import type { HeaderMap } from '../seo/page/index.js';
import { OUTSIDE_LOOKUP_TIMEOUT_MS } from './outside-network.js';

/** What one check of a URL found. `status: null` with `failure` is a fetch that failed before any response. */
export interface ResourceCheck {
  status: number | null;
  headers?: HeaderMap;
  redirected: boolean;
  /** Readable cause of a failed fetch ("The server refused the connection", "…timed out"…). */
  failure?: string;
  /** The safe client's error code behind `failure`. */
  failureCode?: SafeHttpErrorCode;
  /** The host name did not resolve, or its lookup timed out (`failure` says which): nothing was sent. */
  unresolved?: true;
  /** The address policy refused the URL's address: nothing was sent. */
  blockedAddress?: boolean;
  /**
   * Our own URL policy refused to fetch it (user info in the URL, a scheme other than http(s), a refused address):
   * nothing was sent, so nothing is known of the target. The policy's reason.
   */
  refusedByPolicy?: string;
  /**
   * Not checked: over the budget, disallowed by robots.txt, the crawl was stopped, or the audit's requests to the
   * target's address (or a redirect's) reached their cap (`addressCap`, nothing more sent there).
   */
  skipped?: 'budget' | 'robots' | 'aborted' | 'addressCap';
  /** Stopped (`skipped: 'aborted'`) while it waited for its turn: no request was sent. */
  notSent?: true;
}

export interface ResourceCheckerOptions {
  /** Unique URLs fetched at most (budgeted checks); later ones are skipped. */
  budget: number;
  /** Checks of other hosts' URLs in flight at once, all origins together, beside the crawl's own page requests. */
  concurrency: number;
  /** Checks of one other origin in flight at once (default 4): many hosts are asked side by side, none of them hard. */
  perOrigin?: number;
  signal?: AbortSignal;
  /** False for a URL the crawler may not fetch (robots.txt): it is not checked. */
  allowed?(url: string): boolean;
  /** Deadline of one check, HEAD and GET fallback each (default 10 s). */
  timeoutMs?: number;
  /**
   * The crawled site's own request slots: a check of a URL it `owns` takes one of them (so the site never sees more
   * requests at once than its crawl concurrency allows), urgent ones like a page fetch, the others only when no
   * page fetch is waiting. Other hosts' URLs use the checker's own lanes, at most `perOrigin` of them per origin.
   */
  siteSlots?: RequestSlots & { owns(url: string): boolean };
  /**
   * The audit's count of requests per resolved address (shared by its checkers): every request of another host
   * (redirect hops to another host included) waits for a turn at its address (the client's address gate: in flight
   * and pace per address, all audits of the process together) and counts here; past the cap it is not sent.
   */
  addressQuota?: AddressQuota;
}

/** Request slots: `urgent` holders are served before the others. */
export interface RequestSlots {
  acquire(urgent: boolean): Promise<void>;
  release(): void;
}

/** HEAD answers that often mean "this server does not do HEAD", not "the resource is broken": ask again with GET. */
const HEAD_REFUSED = new Set([400, 403, 405, 501]);
/** Timeouts on one origin after which its other URLs are not tried again (each would wait out its deadline). */
const ORIGIN_TIMEOUTS = 2;
/** Default checks of one other origin at once. */
const PER_ORIGIN = 4;

/**
 * Checks subresources and link targets through the safe HTTP client: HEAD first, GET (first KiB) when HEAD is
 * refused. Each URL is checked once per audit however many pages reference it; the site's own URLs take its request
 * slots, other hosts' take the checker's lanes (`concurrency` at once, `perOrigin` per origin), and a page waiting for
 * its own results (`urgent`) goes before the background ones. Other hosts' requests also wait for a turn at their
 * resolved address and count in the audit's quota per address (`addressQuota`). When an origin cannot be reached at
 * all (refused, DNS failure, TLS, refused address, repeated timeouts, each on the URL's own first request, never
 * through a redirect elsewhere), its other URLs get that answer without a request. A stop (signal) ends queued checks
 * at once and aborts the ones in flight.
 */
export class ResourceChecker {
  private readonly checks = new Map<string, Promise<ResourceCheck>>();
  private readonly settled = new Map<string, ResourceCheck>();
  private readonly originFailures = new Map<string, { check: ResourceCheck; timeouts: number }>();
  private readonly lanes: OriginLanes;
  private budgetUsed = 0;
  /** The crawl's stop, or the end of drain()'s wait: whichever comes first ends the checks. */
  private readonly stopper = new AbortController();
  private readonly signal: AbortSignal;
  /** HTTP requests sent (a GET fallback counts as a second one). */
  requests = 0;
  private readonly politeness: SafeHttpRequestOptions['politeness'];

  constructor(
    private readonly client: SafeHttpClient,
    private readonly options: ResourceCheckerOptions,
  ) {
    this.lanes = new OriginLanes(Math.max(1, options.concurrency), Math.max(1, options.perOrigin ?? PER_ORIGIN));
    this.signal = options.signal ? AbortSignal.any([options.signal, this.stopper.signal]) : this.stopper.signal;
    this.signal.addEventListener('abort', () => this.lanes.releaseAll(), { once: true });
    const quota = options.addressQuota;
    const owns = options.siteSlots?.owns;
    // The crawled site's own URLs are paced by its request slots; every other host's by its address.
    if (quota)
      this.politeness = {
        quota,
        applies: (u) => !(owns?.(u.href) ?? false),
        lookupTimeoutMs: OUTSIDE_LOOKUP_TIMEOUT_MS,
      };
  }

  /**
   * The check of `url` (started now, or the one already known). Never rejects. `signal` ends this check early (its
   * result is then `skipped: 'aborted'`), as the crawl's own stop does.
   */
  check(
    url: string,
    opts: {
      urgent?: boolean;
      budgeted?: boolean;
      signal?: AbortSignal;
      onSend?: () => void;
      onAnswer?: (result: ResourceCheck) => void;
    } = {},
  ): Promise<ResourceCheck> {
    const known = this.checks.get(url);
    if (known) return known;
    let pending: Promise<ResourceCheck>;
    if (this.options.allowed && !this.options.allowed(url))
      pending = Promise.resolve({ status: null, redirected: false, skipped: 'robots' });
    else if ((opts.budgeted ?? true) && this.budgetUsed >= this.options.budget)
      pending = Promise.resolve({ status: null, redirected: false, skipped: 'budget' });
    else {
      if (opts.budgeted ?? true) this.budgetUsed++;
      const signal = opts.signal ? AbortSignal.any([this.signal, opts.signal]) : this.signal;
      pending = this.run(url, opts.urgent === true, signal, opts).catch((): ResourceCheck => ({
        status: null,
        redirected: false,
        skipped: 'aborted',
      }));
    }
    pending = pending.then((result) => {
      this.settled.set(url, result);
      return result;
    });
    this.checks.set(url, pending);
    return pending;
  }

  /**
   * Waits for every check started so far, at most `maxWaitMs`: then the checks still queued or in flight are
   * stopped and stay unknown (not reported), so slow resources cannot hold an audit for long after its last page.
   */
  async drain(maxWaitMs = Infinity): Promise<void> {
    const all = Promise.all(this.checks.values());
    if (!Number.isFinite(maxWaitMs)) return void (await all);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), maxWaitMs)));
    try {
      if ((await Promise.race([all, late])) === 'late') {
        this.stopper.abort();
        await all;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every finished check, by URL. */
  results(): ReadonlyMap<string, ResourceCheck> {
    return this.settled;
  }

  /**
   * `onSend` is told when the check leaves its queue for its first request (never for an answer known already), and
   * `onAnswer` of its answer before its lane goes to the next check: what was sent before an answer is then exact.
   */
  private async run(
    url: string,
    urgent: boolean,
    signal: AbortSignal,
    hooks: { onSend?: () => void; onAnswer?: (result: ResourceCheck) => void },
  ): Promise<ResourceCheck> {
    const origin = originOf(url);
    const early = origin ? this.originFailures.get(origin) : undefined;
    if (early && isOriginDown(early)) return early.check;
    const own = this.options.siteSlots?.owns(url) ?? false;
    // The site's own URLs take its request slots; another origin's take a shared lane, its own limit permitting.
    const key = origin ?? url;
    const slots: RequestSlots = own
      ? this.options.siteSlots!
      : { acquire: (u) => this.lanes.acquire(key, u), release: () => this.lanes.release(key) };
    await slots.acquire(urgent);
    try {
      if (signal.aborted) return { status: null, redirected: false, skipped: 'aborted', notSent: true };
      // Another check of the origin may have failed while this one waited.
      const known = origin ? this.originFailures.get(origin) : undefined;
      if (known && isOriginDown(known)) return known.check;
      hooks.onSend?.();
      const result = await this.fetch(url, signal);
      hooks.onAnswer?.(result);
      // Only the origin's own failure says anything of its other URLs: a redirect elsewhere that failed (a refused
      // address, a dead domain) is this link's answer alone.
      if (origin && result.failure !== undefined && !result.redirected && !signal.aborted)
        this.noteOriginFailure(origin, result);
      return result;
    } finally {
      slots.release();
    }
  }

  private async fetch(url: string, signal: AbortSignal): Promise<ResourceCheck> {
    const totalTimeoutMs = this.options.timeoutMs ?? 10_000;
    let head: ResourceCheck;
    let headError: SafeHttpError | null = null;
    const politeness = this.politeness;
    try {
      this.requests++;
      const r = await this.client.request(url, { method: 'HEAD', totalTimeoutMs, signal, politeness });
      head = { status: r.status, headers: r.headers, redirected: r.redirects.length > 0 };
      if (!HEAD_REFUSED.has(r.status)) return head;
    } catch (err) {
      if (!isSafeHttpError(err)) throw err;
      if (err.code === 'ABORTED') return { status: null, redirected: false, skipped: 'aborted' };
      if (err.code === 'ADDRESS_CAP') return this.overCap(err);
      head = failed(err);
      headError = err;
      // Some servers drop or garble HEAD; those are worth a GET. Refusals, DNS, TLS and timeouts are not.
      if (!(
        err.code === 'BAD_RESPONSE' ||
        (err.code === 'CONNECTION_FAILED' && /closed unexpectedly/.test(err.message))
      ))
        return head;
    }
    if (signal.aborted) return { status: null, redirected: false, skipped: 'aborted' };
    try {
      this.requests++;
      const r = await this.client.request(url, {
        maxBytes: 1024,
        onBodyLimit: 'truncate',
        totalTimeoutMs,
        signal,
        politeness,
      });
      return { status: r.status, headers: r.headers, redirected: r.redirects.length > 0 };
    } catch (err) {
      if (!isSafeHttpError(err)) throw err;
      if (err.code === 'ABORTED') return { status: null, redirected: false, skipped: 'aborted' };
      // A refused HEAD decides nothing: the GET that would have is over the cap, so the link is not checked.
      if (err.code === 'ADDRESS_CAP') return this.overCap(err);
      return headError ? head : failed(err);
    }
  }

  /** The hop the cap refused was not sent (the ones before it were). */
  private overCap(err: SafeHttpError): ResourceCheck {
    this.requests--;
    return { status: null, redirected: err.redirects.length > 0, skipped: 'addressCap' };
  }

  private noteOriginFailure(origin: string, result: ResourceCheck): void {
    const entry = this.originFailures.get(origin) ?? { check: result, timeouts: 0 };
    entry.check = result;
    const code = result.failureCode;
    if (code === 'TIMEOUT') entry.timeouts++;
    // The whole origin is out of reach: no other URL of it can answer differently.
    else if (
      code === 'DNS_FAILURE' ||
      code === 'BLOCKED_ADDRESS' ||
      (code === 'CONNECTION_FAILED' && /refused|TLS|unreachable/.test(result.failure ?? ''))
    ) {
      entry.timeouts = Infinity;
    }
    this.originFailures.set(origin, entry);
  }
}

/** The safe client's refusals of a URL before any request: its policy, not the target, decided them. */
const POLICY_REFUSALS: ReadonlySet<SafeHttpErrorCode> = new Set([
  'INVALID_URL',
  'UNSUPPORTED_SCHEME',
  'BLOCKED_ADDRESS',
]);

function failed(err: SafeHttpError): ResourceCheck {
  const check: ResourceCheck = {
    status: null,
    redirected: err.redirects.length > 0,
    failure: err.message,
    failureCode: err.code,
  };
  if (err.code === 'BLOCKED_ADDRESS') check.blockedAddress = true;
  if (err.resolving) check.unresolved = true;
  if (POLICY_REFUSALS.has(err.code)) check.refusedByPolicy = err.message;
  return check;
}

function isOriginDown(entry: { timeouts: number }): boolean {
  return entry.timeouts >= ORIGIN_TIMEOUTS;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** A counting semaphore with two queues: urgent waiters are served before normal ones. */
export class PriorityPermits implements RequestSlots {
  private free: number;
  private readonly urgent: (() => void)[] = [];
  private readonly normal: (() => void)[] = [];
  private open = false;

  constructor(private readonly size: number) {
    this.free = size;
  }

  acquire(urgent: boolean): Promise<void> {
    if (this.open) return Promise.resolve();
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.urgent : this.normal).push(resolve));
  }

  release(): void {
    if (this.open) return;
    const next = this.urgent.shift() ?? this.normal.shift();
    if (next) next();
    else this.free++;
  }

  /** A stop: every waiter goes on at once (to see the stop and end), and later acquires do not wait. */
  releaseAll(): void {
    this.open = true;
    for (const wake of this.urgent.splice(0)) wake();
    for (const wake of this.normal.splice(0)) wake();
  }

  /** No holder and no waiter. */
  get idle(): boolean {
    return this.free === this.size && this.urgent.length === 0 && this.normal.length === 0;
  }
}

/**
 * The lanes other origins share: `lanes` checks in flight at once, at most `perOrigin` of one origin. A free lane goes
 * to the longest queue: urgent waiters first (a page waits for them), then the origin with the most checks waiting
 * whose own limit allows one more. So the busiest host (the one whose queue sets the end of the checks) keeps its
 * `perOrigin` lanes full from the moment its targets wait, while the other lanes serve the other hosts; a lane is
 * never idle while a check it may take waits. A plain first-come queue let a big host's next check wait behind every
 * other host's, leaving its own lanes idle.
 */
export class OriginLanes {
  private free: number;
  private readonly byOrigin = new Map<string, OriginQueue>();
  private open = false;

  constructor(
    lanes: number,
    private readonly perOrigin: number,
  ) {
    this.free = lanes;
  }

  acquire(origin: string, urgent: boolean): Promise<void> {
    if (this.open) return Promise.resolve();
    const queue = this.queueOf(origin);
    if (this.free > 0 && queue.active < this.perOrigin && queue.waiting() === 0) {
      this.free--;
      queue.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? queue.urgent : queue.normal).push(resolve));
  }

  release(origin: string): void {
    if (this.open) return;
    const queue = this.byOrigin.get(origin);
    if (queue) {
      queue.active--;
      if (queue.active === 0 && queue.waiting() === 0) this.byOrigin.delete(origin);
    }
    this.free++;
    this.dispatch();
  }

  /** A stop: every waiter goes on at once (to see the stop and end), and later acquires do not wait. */
  releaseAll(): void {
    this.open = true;
    for (const queue of this.byOrigin.values()) {
      for (const wake of queue.urgent.splice(0)) wake();
      for (const wake of queue.normal.splice(0)) wake();
    }
    this.byOrigin.clear();
  }

  /** Checks waiting for a lane, all origins together. */
  get waiting(): number {
    let n = 0;
    for (const queue of this.byOrigin.values()) n += queue.waiting();
    return n;
  }

  private queueOf(origin: string): OriginQueue {
    let queue = this.byOrigin.get(origin);
    if (!queue) this.byOrigin.set(origin, (queue = new OriginQueue()));
    return queue;
  }

  /** Free lanes to the longest queues (urgent ones first) whose origin may take one more. */
  private dispatch(): void {
    while (this.free > 0) {
      let best: OriginQueue | null = null;
      for (const queue of this.byOrigin.values()) {
        if (queue.active >= this.perOrigin || queue.waiting() === 0) continue;
        if (!best || queue.urgent.length > best.urgent.length) best = queue;
        else if (queue.urgent.length === best.urgent.length && queue.waiting() > best.waiting()) best = queue;
      }
      if (!best) return;
      this.free--;
      best.active++;
      (best.urgent.shift() ?? best.normal.shift())!();
    }
  }
}

class OriginQueue {
  active = 0;
  readonly urgent: (() => void)[] = [];
  readonly normal: (() => void)[] = [];
  waiting(): number {
    return this.urgent.length + this.normal.length;
  }
}
