import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/identity/index.js';
import { testRedis, useRedisPrefix } from '../support/redis-keys.js';

// The burst rule of RateLimiter.hit on a real Redis, on a clock the test moves: 600 a minute is one per 100 ms.
let redis: Redis;
let now = 0;
let limiter: RateLimiter;
beforeAll(() => {
  redis = testRedis();
  limiter = new RateLimiter(redis, useRedisPrefix(`burst-${randomBytes(4).toString('hex')}`), () => now);
});
afterAll(() => redis.disconnect());

describe('RateLimiter: a burst, then the budget spread evenly', () => {
  it('lets `burst` through back to back, then one per window/limit; a refusal counts nothing', async () => {
    now = 1_000_020_000; // 20 s into a minute's window
    const hit = () => limiter.hit('u1', 600, 60_000, 5);
    for (let i = 1; i <= 5; i++)
      expect(await hit(), `request ${i}`).toMatchObject({ allowed: true, remaining: 600 - i });
    const refused = await hit();
    expect(refused).toEqual({ allowed: false, limit: 600, remaining: 0, resetSeconds: 1, burst: 5, retryInMs: 100 });
    now += 99; // the next is due 100 ms after the burst's first
    expect((await hit()).allowed).toBe(false);
    now += 1;
    expect(await hit()).toMatchObject({ allowed: true, remaining: 594 }); // the refusals were not counted
    expect((await hit()).allowed).toBe(false);
    // An idle second earns 10 back, never more than the burst.
    now += 10_000;
    const after: boolean[] = [];
    for (let i = 0; i < 7; i++) after.push((await hit()).allowed);
    expect(after).toEqual([true, true, true, true, true, false, false]);
  });

  it('the minute window still counts: a steady caller, never too fast, stops at the limit', async () => {
    now = 2_000_040_000; // a window's first millisecond: it ends at 2_000_100_000
    const seen = [];
    for (const at of [0, 20_000, 40_000, 59_999]) {
      now = 2_000_040_000 + at; // one per 20 s: the spacing of 3 a minute, so never refused as a burst
      seen.push(await limiter.hit('u2', 3, 60_000, 2));
    }
    expect(seen.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(seen[3].burst).toBeUndefined();
  });

  it('a spent window is refused as such, even when the request also comes too fast', async () => {
    now = 2_500_040_000; // 20 s into its window
    for (let i = 0; i < 3; i++) expect((await limiter.hit('u3', 3, 60_000, 3)).allowed).toBe(true);
    const over = await limiter.hit('u3', 3, 60_000, 3);
    expect(over).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 40, retryInMs: 40_000 });
    expect(over.burst).toBeUndefined();
  });

  it('without a burst, the fixed window alone (Surfaces A and B, as the contract counts them)', async () => {
    now = 3_000_000_000;
    const results = [];
    for (let i = 0; i < 11; i++) results.push((await limiter.hit('org', 10)).allowed);
    expect(results).toEqual([...Array(10).fill(true), false]);
  });

  it('one caller past its burst leaves another caller’s budget whole', async () => {
    now = 4_000_000_000;
    for (let i = 0; i < 3; i++) await limiter.hit('noisy', 600, 60_000, 3);
    expect((await limiter.hit('noisy', 600, 60_000, 3)).allowed).toBe(false);
    expect(await limiter.hit('quiet', 600, 60_000, 3)).toMatchObject({ allowed: true, remaining: 599 });
  });
});
