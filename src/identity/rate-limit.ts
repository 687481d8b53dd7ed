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
  /** Seconds until the window resets. */
  resetSeconds: number;
}

// INCR and set the expiry in one round trip; the key names its window so no reset race exists.
const SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;
const PEEK = `local c = redis.call('GET', KEYS[1]) return tonumber(c) or 0`;

/** Fixed windows (a minute unless told) counted in Redis, so every API process shares the same counters. */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('seoRateHit', { numberOfKeys: 1, lua: SCRIPT });
    redis.defineCommand('seoRatePeek', { numberOfKeys: 1, lua: PEEK });
  }

  private window(bucket: string, windowMs: number): { key: string; resetSeconds: number } {
    const now = this.now();
    const start = Math.floor(now / windowMs) * windowMs;
    return {
      key: `${this.prefix}:rl:${bucket}:${start}`,
      resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }

  async hit(bucket: string, limit: number, windowMs = MINUTE_MS): Promise<RateLimitResult> {
    const { key, resetSeconds } = this.window(bucket, windowMs);
    const count = Number(await (this.redis as any).seoRateHit(key, windowMs * 2));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }

  /** Reads a bucket without counting (used to refuse IPs that keep failing authentication). */
  async peek(bucket: string, limit: number): Promise<RateLimitResult> {
    const { key, resetSeconds } = this.window(bucket, MINUTE_MS);
    const count = Number(await (this.redis as any).seoRatePeek(key));
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }
}
