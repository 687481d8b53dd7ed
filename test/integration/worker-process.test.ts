import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUES, createQueue, createWorker } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { reportQueueError, uniq } from '../support/app.js';
import { startWorker, waitFor } from '../support/worker-process.js';

/** BullMQ's production checklist, as the platform's queue helpers and worker processes apply it. */
const REDIS_URL = process.env.REDIS_URL!;
const prefix = `wp-${uniq()}`;
const redis: Redis = createRedis(REDIS_URL, { name: `${prefix}-test` });

/** Names of the Redis connections open now (CLIENT LIST). */
async function connectionNames(): Promise<string[]> {
  const list = String(await redis.client('LIST'));
  return list.split('\n').flatMap((line) => /\bname=(\S+)/.exec(line)?.[1] ?? []);
}

/** A port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
});

describe('queue helpers', () => {
  it("createQueue and createWorker give the object an 'error' listener: a refused connection reaches it", async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const down = createRedis(url, { name: 'refused' });
    const queueErrors: Error[] = [];
    const workerErrors: Error[] = [];
    const queue = createQueue(QUEUES.competitor, down, prefix, (err) => queueErrors.push(err));
    const worker = createWorker(QUEUES.competitor, async () => undefined, {
      redisUrl: url,
      prefix,
      onError: (err) => workerErrors.push(err),
    });
    try {
      expect(queue.listenerCount('error')).toBe(1);
      expect(worker.listenerCount('error')).toBe(1);
      await waitFor('errors reported', async () => queueErrors.length > 0 && workerErrors.length > 0, 10_000, 50);
      expect(queueErrors[0].message).toMatch(/ECONNREFUSED/);
      expect(workerErrors[0].message).toMatch(/ECONNREFUSED/);
    } finally {
      await worker.close(true);
      await queue.close().catch(() => undefined);
      down.disconnect();
    }
  });

  it('a closed worker leaves none of its Redis connections open (BullMQ does not close one it was given)', async () => {
    const worker = createWorker(QUEUES.competitor, async () => undefined, {
      redisUrl: REDIS_URL,
      prefix,
      onError: reportQueueError,
    });
    await worker.waitUntilReady();
    const mine = async () => (await connectionNames()).filter((n) => n === `${prefix}:worker:competitor`);
    expect(await mine()).toHaveLength(1);
    await worker.close();
    await waitFor('connection closed', async () => (await mine()).length === 0, 5_000, 50);
  });
});

describe('a worker process', () => {
  it('SIGTERM while idle: every queue closes its worker, the process logs it and exits 0', async () => {
    const env = { REDIS_PREFIX: prefix };
    const worker = startWorker('all.worker', env);
    const queues = Object.values(QUEUES).map((name) => createQueue(name, redis, prefix, reportQueueError));
    try {
      await waitFor('worker ready', async () => worker.output.join('').includes('"msg":"worker ready"'), 60_000, 100);
      expect(worker.output.join('')).toContain('"queues":["audit","rank","competitor","alert"]');
      // BullMQ names a worker's Redis connection once it has connected, which can come just after "worker ready".
      for (const queue of queues)
        await waitFor(`${queue.name} worker listed`, async () => (await queue.getWorkers()).length === 1, 10_000, 50);
      const code = await worker.stop('SIGTERM');
      const log = worker.output.join('');
      expect(code).toBe(0);
      expect(log).toMatch(/"signal":"SIGTERM".*"msg":"worker shutting down"/);
      expect(log).toMatch(/"signal":"SIGTERM".*"msg":"worker stopped"/);
      expect(log).not.toMatch(/"level":(50|60)/);
      for (const queue of queues) expect(await queue.getWorkers(), queue.name).toHaveLength(0);
    } finally {
      await worker.stop('SIGKILL');
      await Promise.all(queues.map((q) => q.close()));
    }
  }, 90_000);
});
