import type { Redis } from 'ioredis';
import type { Plan } from '../platform/config.js';

/**
 * Requests per minute per organization and surface (spec §8). GraphQL with a key counts as Surface A; GraphQL with a
 * session is the first-party web app, limited per user by APP_RATE_PER_MINUTE instead.
 */
export const RATE_LIMITS: Record<'A' | 'B', Record<Plan, number>> = {
  A: { FREE: 10, PRO: 60, ENTERPRISE: 120 },
  B: { FREE: 10, PRO: 60, ENTERPRISE: 300 },
};
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (or, refused for a burst, until the next request is allowed). */
  resetSeconds: number;
  /** Set when the request was refused for coming too fast rather than for the window's count: the burst allowed. */
  burst?: number;
  /** Refused: milliseconds until a request would be allowed. */
  retryInMs?: number;
}

/** A budget: `limit` requests per window in `bucket`, and, with `burst`, never more than `burst` at once. */
export interface RateRule {
  bucket: string;
  limit: number;
  /**
   * Requests allowed back to back; past them the window's budget is spread evenly (one every window/limit). Without
   * it a minute's whole budget may arrive in its first second.
   */
  burst?: number;
}

// The burst rule first while the window has room (a GCRA: KEYS[2] holds when the budget's next request is due,
// ARGV[2] the spacing, ARGV[3] the tolerance, ARGV[4] now, ARGV[5] the window's limit; a refusal returns the wait
// and counts nothing), then INCR the window and set its expiry; one round trip, and the window key names its window
// so no reset race exists. A spent window is refused as such, not as a burst.
const SCRIPT = `local spacing = tonumber(ARGV[2])
if spacing > 0 and (tonumber(redis.call('GET', KEYS[1])) or 0) < tonumber(ARGV[5]) then
  local now = tonumber(ARGV[4])
  local due = tonumber(redis.call('GET', KEYS[2]) or now)
  if due < now then due = now end
  local wait = due - tonumber(ARGV[3]) - now
  if wait > 0 then return {tonumber(redis.call('GET', KEYS[1]) or 0), math.ceil(wait)} end
  redis.call('SET', KEYS[2], due + spacing, 'PX', math.ceil(due + spacing - now))
end
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, 0}`;
const PEEK = `local c = redis.call('GET', KEYS[1]) return tonumber(c) or 0`;

/** Fixed windows (a minute unless told) counted in Redis, so every API process shares the same counters. */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('seoRateHit', { numberOfKeys: 2, lua: SCRIPT });
    redis.defineCommand('seoRatePeek', { numberOfKeys: 1, lua: PEEK });
  }

  private window(bucket: string, windowMs: number, now = this.now()) {
    const start = Math.floor(now / windowMs) * windowMs;
    return {
      key: `${this.prefix}:rl:${bucket}:${start}`,
      resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
      resetMs: start + windowMs - now,
    };
  }

  async hit(bucket: string, limit: number, windowMs = MINUTE_MS, burst?: number): Promise<RateLimitResult> {
    const now = this.now();
    const { key, resetSeconds, resetMs } = this.window(bucket, windowMs, now);
    const spacing = burst ? windowMs / limit : 0;
    const tolerance = burst ? spacing * (burst - 1) : 0;
    const [count, waitMs] = (await (this.redis as any).seoRateHit(
      key,
      `${this.prefix}:rl:${bucket}:burst`,
      windowMs * 2,
      spacing,
      tolerance,
      now,
      limit,
    )) as [number, number];
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      return { allowed: false, limit, remaining: 0, resetSeconds: seconds, burst, retryInMs: waitMs };
    }
    if (count <= limit) return { allowed: true, limit, remaining: limit - count, resetSeconds };
    return { allowed: false, limit, remaining: 0, resetSeconds, retryInMs: resetMs };
  }

  /** Reads a bucket without counting (used to refuse IPs that keep failing authentication). */
  async peek(bucket: string, limit: number): Promise<RateLimitResult> {
    const { key, resetSeconds, resetMs } = this.window(bucket, MINUTE_MS);
    const count = Number(await (this.redis as any).seoRatePeek(key));
    if (count < limit) return { allowed: true, limit, remaining: limit - count, resetSeconds };
    return { allowed: false, limit, remaining: 0, resetSeconds, retryInMs: resetMs };
  }
}
