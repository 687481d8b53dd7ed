import { Redis } from 'ioredis';

/** The platform ran with its own Redis key prefix: its queues and counters go when the tests end. */
export default async function teardown(): Promise<void> {
  const prefix = process.env.E2E_REDIS_PREFIX;
  if (!prefix) return;
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
