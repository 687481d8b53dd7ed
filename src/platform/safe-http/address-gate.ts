import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { lookupWithTimeout, MAX_ADDRESSES_TRIED } from './guarded-connector.js';
import type { LookupFunction } from './guarded-connector.js';
import { SafeHttpError } from './safe-http-error.js';

/**
 * Politeness per resolved address, for requests to hosts nobody asked us to crawl (link checks): many host names can
 * resolve to one address, so a limit per host name alone lets a page aim any number of requests at one third party.
 */
export interface AddressPoliteness {
  /** Requests in flight at once to one address, every caller of the client together (every audit of a process). */
  inFlight: number;
  /** Request starts per second to one address, every caller of the client together. */
  perSecond: number;
  /** Requests to one address per quota (one audit); past it a request fails with ADDRESS_CAP, nothing sent. */
  capPerQuota: number;
}

export const ADDRESS_POLITENESS_DEFAULTS: AddressPoliteness = { inFlight: 6, perSecond: 10, capPerQuota: 500 };

/** Why a request past the quota was not sent: the words an audit shows beside the link. */
export const ADDRESS_CAP_REASON = 'per-address request cap reached';

/**
 * One caller's count of requests per address (an audit's): at most `cap` to one address. Every request a gated hop
 * sends counts, a GET after a refused HEAD and each redirect hop included.
 */
export class AddressQuota {
  private readonly sent = new Map<string, number>();

  constructor(readonly cap: number) {}

  /** True when one more request to any of `addresses` would pass the cap. */
  reached(addresses: readonly string[]): boolean {
    return addresses.some((a) => (this.sent.get(a) ?? 0) >= this.cap);
  }

  count(addresses: readonly string[]): void {
    for (const a of addresses) this.sent.set(a, (this.sent.get(a) ?? 0) + 1);
  }

  /** Requests counted to `address`. */
  requestsTo(address: string): number {
    return this.sent.get(address) ?? 0;
  }
}

interface AddressLane {
  active: number;
  /** The time (Date.now) before which no new request may start: the pace. */
  nextStart: number;
  waiters: { grant(): void }[];
  timer: NodeJS.Timeout | undefined;
}

/**
 * A name's answer, kept while it is in use: the gate and the connector read the same one, so the address a request
 * waited its turn at is the address it is sent to (an answer that changed between the two would dodge the gate). An
 * entry lives `idleMs` after its last use; failures are not kept. The connector still checks every address against the
 * policy on each connection, so a kept answer never lets a refused address through.
 */
export function stickyLookup(lookup: LookupFunction, idleMs = 30_000, maxNames = 10_000): LookupFunction {
  const kept = new Map<string, { addresses: LookupAddress[]; until: number }>();
  const pending = new Map<string, ((error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void)[]>();
  return (hostname, options, callback) => {
    const name = hostname.toLowerCase();
    const now = Date.now();
    const hit = kept.get(name);
    if (hit && hit.until > now) {
      kept.delete(name);
      kept.set(name, { addresses: hit.addresses, until: now + idleMs });
      return void queueMicrotask(() => callback(null, hit.addresses));
    }
    const waiting = pending.get(name);
    if (waiting) return void waiting.push(callback);
    const callbacks = [callback];
    pending.set(name, callbacks);
    lookup(hostname, options, (error, addresses) => {
      pending.delete(name);
      if (!error && Array.isArray(addresses) && addresses.length > 0) {
        kept.delete(name);
        kept.set(name, { addresses, until: Date.now() + idleMs });
        if (kept.size > maxNames) kept.delete(kept.keys().next().value as string);
      }
      for (const cb of callbacks) cb(error, addresses);
    });
  };
}

/**
 * Turns per address (in flight and pacing) shared by every request of one client that asks for them, and the
 * quotas (one per audit) they are counted in. A request waits for a turn at every address its host resolves to that
 * the connector may dial (the first MAX_ADDRESSES_TRIED), in a fixed order, so a name whose first address refuses
 * cannot reach a victim listed second unchecked.
 */
export class AddressGate {
  private readonly lanes = new Map<string, AddressLane>();
  private readonly intervalMs: number;

  constructor(
    readonly limits: AddressPoliteness,
    private readonly lookup: LookupFunction,
    private readonly policy: AddressPolicy,
    private readonly resolveTimeoutMs: number,
  ) {
    this.intervalMs = 1000 / limits.perSecond;
  }

  /** A quota for one caller (one audit), with the configured cap. */
  quota(): AddressQuota {
    return new AddressQuota(this.limits.capPerQuota);
  }

  /**
   * Waits for a turn at the addresses of `hostname` and counts the request in `quota`; returns the release of the
   * turn. Fails with ADDRESS_CAP when the quota is spent (nothing is sent), DNS_FAILURE/TIMEOUT as the connector
   * would, or the signal's reason. A name our policy refuses gets no turn: the connector refuses it, nothing is sent.
   */
  async enter(
    hostname: string,
    quota: AddressQuota,
    signal: AbortSignal,
    resolveTimeoutMs = this.resolveTimeoutMs,
  ): Promise<() => void> {
    const addresses = await this.addressesOf(hostname, resolveTimeoutMs);
    if (addresses.length === 0) return () => undefined;
    if (quota.reached(addresses)) throw capError(quota);
    const releases: (() => void)[] = [];
    const releaseAll = once(() => releases.splice(0).forEach((r) => r()));
    try {
      for (const address of addresses) releases.push(await this.turn(address, signal));
    } catch (error) {
      releaseAll();
      throw error;
    }
    // Another request of the same caller may have spent the quota while this one waited.
    if (quota.reached(addresses)) {
      releaseAll();
      throw capError(quota);
    }
    quota.count(addresses);
    return releaseAll;
  }

  /** Requests in flight to `address` through the gate (tests, drills). */
  inFlight(address: string): number {
    return this.lanes.get(address)?.active ?? 0;
  }

  private async addressesOf(hostname: string, resolveTimeoutMs: number): Promise<string[]> {
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const found =
      isIP(host) !== 0
        ? [host]
        : (await lookupWithTimeout(this.lookup, host, resolveTimeoutMs)).map((entry) => entry.address);
    const addresses = [...new Set(found)].slice(0, MAX_ADDRESSES_TRIED);
    if (!this.policy.isHostAllowed(host) && addresses.some((a) => this.policy.blockedClass(a) !== null)) return [];
    return addresses.sort();
  }

  private turn(address: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let lane = this.lanes.get(address);
    if (!lane) this.lanes.set(address, (lane = { active: 0, nextStart: 0, waiters: [], timer: undefined }));
    const current = lane;
    return new Promise<() => void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(once(() => this.release(address, current)));
        },
      };
      const onAbort = () => {
        const at = current.waiters.indexOf(waiter);
        if (at >= 0) current.waiters.splice(at, 1);
        this.forgetIfIdle(address, current);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      current.waiters.push(waiter);
      this.pump(address, current);
    });
  }

  private release(address: string, lane: AddressLane): void {
    lane.active--;
    this.pump(address, lane);
  }

  /** Grants turns while the address has room and its pace allows; otherwise wakes up when it will. */
  private pump(address: string, lane: AddressLane): void {
    while (lane.waiters.length > 0 && lane.active < this.limits.inFlight) {
      const now = Date.now();
      if (now < lane.nextStart) {
        // A timer may be the idle one (unref'd, see forgetIfIdle): it pumps too, and now keeps the process up.
        if (lane.timer) lane.timer.ref();
        else
          lane.timer = setTimeout(() => {
            lane.timer = undefined;
            this.pump(address, lane);
          }, lane.nextStart - now);
        return;
      }
      lane.active++;
      lane.nextStart = now + this.intervalMs;
      lane.waiters.shift()!.grant();
    }
    this.forgetIfIdle(address, lane);
  }

  /** An idle address is forgotten once its pace no longer holds anything back. */
  private forgetIfIdle(address: string, lane: AddressLane): void {
    if (lane.active > 0 || lane.waiters.length > 0 || lane.timer) return;
    const wait = lane.nextStart - Date.now();
    if (wait <= 0) {
      if (this.lanes.get(address) === lane) this.lanes.delete(address);
      return;
    }
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      if (lane.waiters.length > 0) this.pump(address, lane);
      else this.forgetIfIdle(address, lane);
    }, wait);
    lane.timer.unref();
  }
}

function capError(quota: AddressQuota): SafeHttpError {
  return new SafeHttpError(
    'ADDRESS_CAP',
    `Not sent: ${ADDRESS_CAP_REASON} (${quota.cap.toLocaleString('en-US')} requests to one address per audit)`,
  );
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
