import type { Redis } from 'ioredis';
import { migratedDatabase } from '../support/private-database.js';

const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/seo_audit_bench';

/** A database of its own, never DATABASE_URL: the bench seeds and deletes rows and must not touch dev data. */
export const benchDatabaseUrl = (): string => process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;

/** Creates the bench database when missing and applies pending migrations (kept between runs). */
export async function prepareBenchDatabase(url: string): Promise<void> {
  await migratedDatabase(url);
}

/** Deletes the keys matching a pattern with SCAN, never KEYS, so a shared Redis is not blocked. */
export async function removeRedisKeys(redis: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let removed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length) removed += await redis.del(...keys);
  } while (cursor !== '0');
  return removed;
}
