import { Queue, QueueEvents, Worker, type Processor, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from './redis.js';

/** Queue names are part of the deployment contract between API and worker processes. */
export const QUEUES = { audit: 'audit', rank: 'rank' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Producers share one connection; BullMQ wants maxRetriesPerRequest: null on blocking (worker) connections only. */
export function createQueue<T>(name: QueueName, connection: Redis, prefix: string): Queue<T> {
  return new Queue<T>(name, { connection, prefix: `${prefix}:bull` });
}

export function createWorker<T>(
  name: QueueName,
  processor: Processor<T>,
  opts: { redisUrl: string; prefix: string } & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker<T> {
  const { redisUrl, prefix, ...rest } = opts;
  return new Worker<T>(name, processor, { ...rest, connection: createRedis(redisUrl, { forWorker: true, name: `worker:${name}` }), prefix: `${prefix}:bull` });
}

export { Queue, QueueEvents, Worker };
