import { useEffect, useRef } from 'react';

export interface LivePollOptions {
  /** Polls only while true (an audit queued or running, say). */
  active: boolean;
  /** A value whose change (an audit's status or phase) starts again from the first, shortest delay. */
  resetKey?: unknown;
  /** The first delay; each refresh doubles it up to maxMs. */
  firstMs?: number;
  maxMs?: number;
  /** Gives up this long after polling started (or was reset). */
  stopAfterMs?: number;
}

/** Polling backs off from 1.5 s to 15 s: a page watched for minutes costs a few requests a minute. */
export const LIVE_POLL_FIRST_MS = 1_500;
export const LIVE_POLL_MAX_MS = 15_000;

/**
 * Calls `refresh` while `active`, backing off (firstMs doubling to maxMs, reset when `resetKey` changes), never
 * while the tab is hidden: a hidden tab stops polling, and showing it again refreshes at once and starts over from
 * the first delay. The one way the web app polls, so that a page left open is not a script.
 */
export function useLivePoll(
  refresh: () => void,
  {
    active,
    resetKey,
    firstMs = LIVE_POLL_FIRST_MS,
    maxMs = LIVE_POLL_MAX_MS,
    stopAfterMs = Number.POSITIVE_INFINITY,
  }: LivePollOptions,
): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);

  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    let delay = firstMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = () => Date.now() - started > stopAfterMs;
    const schedule = () => {
      clearTimeout(timer);
      timer = undefined;
      if (document.hidden || expired()) return;
      timer = setTimeout(tick, delay);
    };
    const tick = () => {
      latest.current();
      delay = Math.min(delay * 2, maxMs);
      schedule();
    };
    const onVisibility = () => {
      if (document.hidden) {
        clearTimeout(timer);
        timer = undefined;
        return;
      }
      if (expired()) return;
      delay = firstMs;
      latest.current();
      schedule();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [active, resetKey, firstMs, maxMs, stopAfterMs]);
}
