import { describe, expect, it } from 'vitest';
import { holdRefusal } from '../../../facades/http/http-guard.js';
import type { RateLimitResult } from '../../../src/identity/index.js';

const config = (ms: number) => ({ RATE_LIMIT_HOLD_MS: ms }) as never;
const refused = (retryInMs: number): RateLimitResult => ({
  allowed: false,
  limit: 600,
  remaining: 0,
  resetSeconds: Math.ceil(retryInMs / 1000),
  retryInMs,
});
const timed = async (run: Promise<void>) => {
  const started = performance.now();
  await run;
  return performance.now() - started;
};

describe('a rate refusal is held until the caller could be served, RATE_LIMIT_HOLD_MS at most', () => {
  it('holds for the wait when it is shorter than the setting, for the setting when longer, never with 0', async () => {
    expect(await timed(holdRefusal(config(1_000), refused(120)))).toBeGreaterThanOrEqual(115);
    expect(await timed(holdRefusal(config(1_000), refused(120)))).toBeLessThan(900);
    expect(await timed(holdRefusal(config(200), refused(40_000)))).toBeGreaterThanOrEqual(195);
    expect(await timed(holdRefusal(config(200), refused(40_000)))).toBeLessThan(2_000);
    expect(await timed(holdRefusal(config(0), refused(40_000)))).toBeLessThan(50);
  });

  it('past 1,000 refusals held at once, the next is answered at once', async () => {
    const held = Array.from({ length: 1_000 }, () => holdRefusal(config(400), refused(5_000)));
    expect(await timed(holdRefusal(config(400), refused(5_000)))).toBeLessThan(100);
    await Promise.all(held);
    // Released: holding works again.
    expect(await timed(holdRefusal(config(150), refused(5_000)))).toBeGreaterThanOrEqual(145);
  });
});
