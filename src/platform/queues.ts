import { Queue, QueueEvents, Worker, type Processor, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, type RedisConnectionOptions } from './redis.js';

/** Queue names are part of the deployment contract between API and worker processes. */
export const QUEUES = { audit: 'audit', rank: 'rank' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Producers share one connection; BullMQ wants maxRetriesPerRequest: null on blocking (worker) connections only. */
export function createQueue<T>(name: QueueName, connection: Redis, prefix: string, onError: (err: Error) => void = () => undefined): Queue<T> {
  const queue = new Queue<T>(name, { connection, prefix: `${prefix}:bull` });
  // Without a listener BullMQ prints the error's stack; the connection's own events report outages.
  queue.on('error', onError);
  return queue;
}

export function createWorker<T>(
  name: QueueName,
  processor: Processor<T>,
  opts: { redisUrl: string; prefix: string; onRedisEvent?: RedisConnectionOptions['onEvent'] } & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker<T> {
  const { redisUrl, prefix, onRedisEvent, ...rest } = opts;
  const connection = createRedis(redisUrl, { forWorker: true, name: `worker:${name}`, onEvent: onRedisEvent });
  return new Worker<T>(name, processor, { ...rest, connection, prefix: `${prefix}:bull` });
}

export { Queue, QueueEvents, Worker };
