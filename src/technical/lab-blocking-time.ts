/** A long task as the page reported it: [startTime, duration] in ms on the page's performance timeline. */
export type LabLongTask = readonly [startMs: number, durationMs: number];

const BLOCKING_THRESHOLD_MS = 50;

/**
 * Total Blocking Time the way Lighthouse sums it: each long task clipped to [fcpMs, endMs] contributes
 * its clipped length beyond 50 ms. The window ends where the lab stopped observing (load + a quiet window),
 * standing in for Lighthouse's Time to Interactive.
 */
export function totalBlockingTime(tasks: readonly LabLongTask[], fcpMs: number, endMs: number): number {
  let total = 0;
  for (const [start, duration] of tasks) {
    if (!Number.isFinite(start) || !Number.isFinite(duration) || duration < BLOCKING_THRESHOLD_MS) continue;
    const end = start + duration;
    if (end < fcpMs || start > endMs) continue;
    const clipped = Math.min(end, endMs) - Math.max(start, fcpMs);
    if (clipped > BLOCKING_THRESHOLD_MS) total += clipped - BLOCKING_THRESHOLD_MS;
  }
  return total;
}
