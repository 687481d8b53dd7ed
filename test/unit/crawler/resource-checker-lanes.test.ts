/**
 * The external checker's lanes (issue 51, part 4): a free lane goes to the origin with the most checks waiting, so
 * the busiest host keeps its per-origin lanes full and the checks end when its queue allows, not later. Virtual time
 * (fake timers): every request takes LATENCY_MS, so the end of the checks is exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SafeHttpClient } from '../../../src/platform/safe-http/index.js';
import { OriginLanes, ResourceChecker } from '../../../src/crawler/resource-checker.js';

const LATENCY_MS = 50;
const LANES = 16;
const PER_ORIGIN = 6;

/** A client whose every request answers 200 after LATENCY_MS; it notes each origin's requests in flight. */
function slowClient() {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  let total = 0;
  let peakTotal = 0;
  const client = {
    request: (url: string) => {
      const origin = new URL(url).origin;
      const n = (inFlight.get(origin) ?? 0) + 1;
      inFlight.set(origin, n);
      peak.set(origin, Math.max(peak.get(origin) ?? 0, n));
      peakTotal = Math.max(peakTotal, ++total);
      return new Promise((resolve) =>
        setTimeout(() => {
          inFlight.set(origin, inFlight.get(origin)! - 1);
          total--;
          resolve({ status: 200, headers: {}, redirects: [] });
        }, LATENCY_MS),
      );
    },
    close: async () => {},
  } as unknown as SafeHttpClient;
  return { client, peak, peakTotal: () => peakTotal };
}

describe('external checker lanes', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('keeps the busiest host at its per-origin limit: the checks end as its queue allows', async () => {
    const { client, peak, peakTotal } = slowClient();
    const checker = new ResourceChecker(client, { budget: 0, concurrency: LANES, perOrigin: PER_ORIGIN });
    const started = Date.now();
    // Ten small hosts are linked first (6 targets each, 60 together), then the big one (60 targets).
    const small = Array.from({ length: 10 }, (_, h) =>
      Array.from({ length: 6 }, (_, k) => `https://small-${h}.test/${k}`),
    ).flat();
    const big = Array.from({ length: 60 }, (_, k) => `https://big.test/${k}`);
    const checks = [...small, ...big].map((url) => checker.check(url, { budgeted: false }));
    await vi.runAllTimersAsync();
    const results = await Promise.all(checks);
    const elapsed = Date.now() - started;

    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(peakTotal()).toBe(LANES);
    for (const [, n] of peak) expect(n).toBeLessThanOrEqual(PER_ORIGIN);
    // The small hosts took all 16 lanes before the big one was linked (a started check is not preempted); from the
    // first lane freed on, the big host has its 6: one latency, then 60 / 6 = 10 latencies. First-come lanes made
    // its checks queue behind the small hosts' (700 ms here).
    expect(elapsed).toBe(LATENCY_MS + (big.length / PER_ORIGIN) * LATENCY_MS);
  });

  it('serves urgent waiters first, and the longest queue among the others', async () => {
    const lanes = new OriginLanes(1, 6);
    const order: string[] = [];
    await lanes.acquire('held', false);
    const waits = [
      ...['a1', 'a2'].map((n) => lanes.acquire('a', false).then(() => order.push(n))),
      ...['b1', 'b2', 'b3'].map((n) => lanes.acquire('b', false).then(() => order.push(n))),
      lanes.acquire('c', true).then(() => order.push('c1')),
    ];
    const holders = ['held', 'c', 'b', 'a', 'b', 'a', 'b'];
    for (const origin of holders) {
      lanes.release(origin);
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(waits);
    // c's urgent check first; then b's queue was the longest (3), then a and b tied (2 each: a, whose queue came
    // first), then b (2 to 1), and so on.
    expect(order).toEqual(['c1', 'b1', 'a1', 'b2', 'a2', 'b3']);
  });
});
