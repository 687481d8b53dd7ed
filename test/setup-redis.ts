import { relative } from 'node:path';
import { afterAll, expect, inject } from 'vitest';
import { deleteRedisPrefix, noteInLedger, redisLedger, redisPrefixesInUse, testRedis } from './support/redis-keys.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file of the run where the test files note the Redis prefixes they use (read by the global teardown). */
    redisPrefixLedger: string;
  }
}

/**
 * Runs before every test file. Prefixes are noted with their file as they are used; this afterAll runs after the
 * file's own (after hooks run in reverse order) and deletes the keys under them (test apps, queues, workers), so
 * that the global teardown can name the file of any key written afterwards.
 */
redisLedger.path = inject('redisPrefixLedger');
redisLedger.file = relative(process.cwd(), expect.getState().testPath ?? '?');
afterAll(async () => {
  if (redisPrefixesInUse.size === 0) return;
  const redis = testRedis();
  try {
    for (const prefix of redisPrefixesInUse) noteInLedger(prefix, await deleteRedisPrefix(redis, prefix));
  } finally {
    redis.disconnect();
  }
});
