import { appendFileSync } from 'node:fs';
import { Redis } from 'ioredis';

/**
 * Redis hygiene of the test suite. Every test process works under key prefixes of its own (REDIS_PREFIX, random
 * per test app); the prefixes a test file used are collected here and their keys deleted after the file
 * (test/setup-redis.ts), and the global setup fails the run when keys are left under them (test/global-setup.ts).
 * No vitest import: the benchmarks load test/support/app.ts outside vitest.
 */

/** The Redis database of the tests: TEST_REDIS_URL, which vitest.config.ts also passes to the code as REDIS_URL. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The key prefixes the current test file used (one module instance per test file). */
export const redisPrefixesInUse = new Set<string>();

/** Where the prefixes are noted for the global teardown, and the current test file (set by test/setup-redis.ts). */
export const redisLedger: { path?: string; file?: string } = {};

/** Notes a prefix with the file that used it, or the keys deleted under it (one JSON line each). */
export function noteInLedger(prefix: string, deleted = 0): void {
  if (!redisLedger.path) return;
  appendFileSync(redisLedger.path, `${JSON.stringify({ prefix, file: redisLedger.file ?? '?', deleted })}\n`);
}

/** Notes that the current test file writes keys under `prefix` (they are deleted after the file). */
export function useRedisPrefix(prefix: string): string {
  if (!redisPrefixesInUse.has(prefix)) noteInLedger(prefix);
  redisPrefixesInUse.add(prefix);
  return prefix;
}

/** Every key of the database (SCAN, never KEYS: the database may be shared and large). */
export async function scanKeys(redis: Redis, match = '*'): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Deletes the keys under `prefix` (`<prefix>:*` and `<prefix>` itself) and returns how many there were. */
export async function deleteRedisPrefix(redis: Redis, prefix: string): Promise<number> {
  if (!/^[\w.-]+$/.test(prefix)) throw new Error(`refusing to delete under a prefix with glob characters: ${prefix}`);
  const keys = [...(await scanKeys(redis, `${prefix}:*`)), ...((await redis.exists(prefix)) ? [prefix] : [])];
  for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
  return keys.length;
}

/** A short-lived connection to the test Redis database. */
export function testRedis(url = TEST_REDIS_URL): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: false });
}
