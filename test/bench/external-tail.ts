import { classifyRequest, type AuditBreakdown, type ProbeData } from './worker-probe-report.js';

/**
 * The external link checks of one audit, from the worker's probe (pure: unit-tested in
 * test/unit/bench/external-tail.test.ts): how many targets each host had, how long the checks took from the first
 * request to the last answer, and the least time the politeness limits allow for them.
 *
 * The bound: one origin takes at most `perOrigin` checks at once, each about its latency, so an origin with n targets
 * needs at least ceil(n / perOrigin) x latency; and all checks share `lanes`, so together they need at least
 * sum(latency) / lanes. The larger of the two is the least any scheduler can do, from the first check on (checks can
 * only start once a page links them, so the real window may also wait for the crawl to find them).
 */
export interface ExternalTail {
  limits: { perOrigin: number; lanes: number };
  /** Distinct external URLs requested (a HEAD and its GET fallback count once). */
  targets: number;
  requests: number;
  /** Targets per origin, most first (top 3), with the origin's latency. */
  topHosts: { origin: string; targets: number; latencyMs: number }[];
  /** max over origins of ceil(targets / perOrigin) x latency. */
  perOriginBoundMs: number;
  /** sum over targets of latency / lanes. */
  lanesBoundMs: number;
  /** First external request start -> last external answer. */
  windowMs: number;
  /** The last external answer, after the last page response. */
  afterLastPageMs: number;
  /** Last page response -> audit COMPLETED. */
  lastPageToCompleteMs: number;
  /**
   * End to end without the external checks' wait: the crawl tail ends at the last other request it waited for
   * (resource checks, favicon/llms.txt; the last page if none), the later spans (site checks, lab, save) as measured.
   */
  endToEndWithoutExternalMs: number;
}

export function externalTail(
  probe: ProbeData,
  breakdown: AuditBreakdown,
  siteOrigin: string,
  limits: { perOrigin: number; lanes: number; latencyMs(host: string): number },
): ExternalTail {
  const rows = probe.requests.filter((r) => classifyRequest(siteOrigin, r[0], r[1], r[2]) === 'external');
  const end = (r: (typeof rows)[number]) => Math.max(r[5], r[4], r[3]);
  const byOrigin = new Map<string, Set<string>>();
  for (const r of rows) {
    const origin = r[0].replace(/\/$/, '');
    let paths = byOrigin.get(origin);
    if (!paths) byOrigin.set(origin, (paths = new Set()));
    paths.add(r[2]);
  }
  const hosts = [...byOrigin].map(([origin, paths]) => ({
    origin,
    targets: paths.size,
    latencyMs: limits.latencyMs(new URL(origin).hostname),
  }));
  hosts.sort((a, b) => b.targets - a.targets || a.origin.localeCompare(b.origin));
  const lastPage = breakdown.pages.end;
  const tail = breakdown.spans.find((s) => s.name.startsWith('crawl tail'))!;
  const complete = breakdown.spans.at(-1)!.end;
  // What else the tail waited for: the requests that are not external and ended inside it.
  const otherEnds = probe.requests
    .filter((r) => classifyRequest(siteOrigin, r[0], r[1], r[2]) !== 'external')
    .map(end)
    .filter((e) => e <= tail.end);
  const tailWithoutExternal = Math.max(0, Math.min(tail.end, Math.max(lastPage, ...otherEnds)) - tail.start);
  const first = rows.length ? Math.min(...rows.map((r) => r[3])) : 0;
  const last = rows.length ? Math.max(...rows.map(end)) : 0;
  return {
    limits: { perOrigin: limits.perOrigin, lanes: limits.lanes },
    targets: hosts.reduce((s, h) => s + h.targets, 0),
    requests: rows.length,
    topHosts: hosts.slice(0, 3),
    perOriginBoundMs: Math.max(0, ...hosts.map((h) => Math.ceil(h.targets / limits.perOrigin) * h.latencyMs)),
    lanesBoundMs: hosts.reduce((s, h) => s + h.targets * h.latencyMs, 0) / limits.lanes,
    windowMs: last - first,
    afterLastPageMs: Math.max(0, last - lastPage),
    lastPageToCompleteMs: complete - lastPage,
    endToEndWithoutExternalMs: breakdown.endToEndMs - tail.wallMs + tailWithoutExternal,
  };
}

export function formatExternalTail(t: ExternalTail): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `external link checks: ${t.targets} targets (${t.requests} requests); per host (top 3): ` +
      t.topHosts.map((h) => `${h.origin} ${h.targets} (${h.latencyMs} ms each)`).join(', '),
    `  first check -> last answer ${s(t.windowMs)}; the least the limits allow: ` +
      `${s(Math.max(t.perOriginBoundMs, t.lanesBoundMs))} (per origin: max ceil(targets / ${t.limits.perOrigin}) ` +
      `x latency = ${s(t.perOriginBoundMs)}; all lanes: sum(latency) / ${t.limits.lanes} = ${s(t.lanesBoundMs)})`,
    `  external tail: last answer ${s(t.afterLastPageMs)} after the last page; last page -> COMPLETED ${s(
      t.lastPageToCompleteMs,
    )}; end to end without the external checks' wait ${s(t.endToEndWithoutExternalMs)}`,
  ];
}
