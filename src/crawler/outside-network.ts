/**
 * Distinct hosts whose names failed to resolve in a row before an audit concludes that it has no outside network.
 * One dead domain is ordinary on a real site (link rot), and several can fail in a row, since a name that does not
 * exist fails in milliseconds while a live host sent beside it takes a round trip or more to answer: the watch
 * therefore also waits for the checks sent beside the failures (below). Five keeps a few dead domains from passing for
 * an offline machine, and costs an offline one little: the checks run side by side in the checker's lanes (16), so
 * five lookups end at about the time one does (a few milliseconds where the resolver says "no such name", the
 * client's lookup timeout where no resolver answers).
 */
export const NO_NETWORK_FAILURES = 5;

/**
 * How long a check of another host waits for its name to resolve (the client's connect timeout, 5 s, is for the site
 * itself). A resolver answers in milliseconds, or has lost the query (glibc asks again only after 5 s); where none
 * answers at all (an offline machine, an intranet without a forwarder), five such lookups side by side end the
 * external checks 1 s after they start instead of 5, so the audit ends within 2 s of its last page. A name that does
 * not resolve in time is counted as not checked, never as broken.
 */
export const OUTSIDE_LOOKUP_TIMEOUT_MS = 1_000;

/** What one sent check says of the outside network. */
export type OutsideAnswer =
  /** The host name did not resolve, or its lookup timed out. */
  | 'unresolved'
  /** Something past the name answered: a status, a redirect, a refused connection, a TLS failure… */
  | 'reached'
  /** Nothing either way: stopped, refused by our policy, unreachable, no connection in time. */
  | 'neither';

/**
 * Tells an audit that outside host names do not resolve, from its external link checks: `threshold` distinct hosts
 * failed to resolve in a row (no check reached a host in between), and every check already sent when the first of
 * those failures came has ended. The second condition keeps link rot from passing for an offline machine: a live host
 * sent beside dead names answers later than they fail, and its answer starts the count again. Where no name resolves,
 * the checks sent beside the first failure fail alike, at about the same time. Told once (`onLost`).
 */
export class OutsideNetworkWatch {
  private sent = 0;
  /** Checks sent and not ended: their order of sending -> their host. */
  private readonly inFlight = new Map<number, string>();
  /** The streak: the hosts that failed to resolve since the last host reached. */
  private readonly failedHosts = new Set<string>();
  /** The checks sent when the streak's first failure came (tickets below this): each must end before a verdict. */
  private sentAtFirstFailure = 0;
  private lostAlready = false;

  constructor(
    private readonly onLost: () => void,
    private readonly threshold = NO_NETWORK_FAILURES,
  ) {}

  /** True once the audit concluded it has no outside network. */
  get lost(): boolean {
    return this.lostAlready;
  }

  /** A check of `host` left its queue for its first request: its ticket for `ended`. */
  sentTo(host: string): number {
    const ticket = this.sent++;
    this.inFlight.set(ticket, host);
    return ticket;
  }

  /** The check with this ticket ended, with this answer. */
  ended(ticket: number, answer: OutsideAnswer): void {
    const host = this.inFlight.get(ticket);
    if (host === undefined) return;
    this.inFlight.delete(ticket);
    if (this.lostAlready) return;
    if (answer === 'reached') return void this.failedHosts.clear();
    if (answer === 'unresolved' && !this.failedHosts.has(host)) {
      if (this.failedHosts.size === 0) this.sentAtFirstFailure = this.sent;
      this.failedHosts.add(host);
    }
    if (this.failedHosts.size < this.threshold) return;
    for (const sent of this.inFlight.keys()) if (sent < this.sentAtFirstFailure) return;
    this.lostAlready = true;
    this.onLost();
  }
}

/** What a check's result says of the outside network (resource-checker.ts's ResourceCheck, its fields read here). */
export function outsideAnswerOf(r: {
  status: number | null;
  redirected: boolean;
  failure?: string;
  failureCode?: string;
  unresolved?: true;
  skipped?: string;
  refusedByPolicy?: string;
  blockedAddress?: boolean;
}): OutsideAnswer {
  // A redirect is an answer, whatever became of the hop after it.
  if (r.status !== null || r.redirected) return 'reached';
  if (r.unresolved) return 'unresolved';
  // The address gate resolved the name before it held the request back.
  if (r.skipped === 'addressCap') return 'reached';
  if (r.skipped || r.refusedByPolicy !== undefined || r.blockedAddress) return 'neither';
  if (r.failureCode === 'TIMEOUT') return 'neither';
  if (r.failureCode === 'CONNECTION_FAILED' && /unreachable/.test(r.failure ?? '')) return 'neither';
  return r.failure !== undefined ? 'reached' : 'neither';
}
