import { Queue, Worker, type Processor, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, type RedisConnectionOptions } from './redis.js';

/**
 * Queue names are part of the deployment contract between API and worker processes. Each queue has its own
 * worker (workers/<queue>-jobs.ts) and concurrency; /metrics reports the depth of every queue listed here.
 */
export const QUEUES = { audit: 'audit', rank: 'rank', competitor: 'competitor', alert: 'alert' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * The only places BullMQ objects are created (eslint's no-restricted-imports keeps BullMQ's classes here; the
 * platform uses no QueueEvents), so that each has an `error` listener, as BullMQ's production guide asks: without
 * one a connection error is an unhandled 'error' event. The caller decides what an error means (an outage goes to
 * the dependency monitor, anything else to the log); the connection's own events report outages too.
 */
export type BullErrorHandler = (err: Error) => void;

/** Producers share one connection; BullMQ wants maxRetriesPerRequest: null on blocking (worker) connections only. */
export function createQueue<T>(name: QueueName, connection: Redis, prefix: string, onError: BullErrorHandler) {
  const queue: Queue<T> = new Queue<T>(name, { connection, prefix: `${prefix}:bull` });
  queue.on('error', onError);
  return queue;
}

interface WorkerConnectionOptions {
  redisUrl: string;
  prefix: string;
  onError: BullErrorHandler;
  onRedisEvent?: RedisConnectionOptions['onEvent'];
}

export function createWorker<T>(
  name: QueueName,
  processor: Processor<T>,
  opts: WorkerConnectionOptions & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker<T> {
  const { redisUrl, prefix, onError, onRedisEvent, ...rest } = opts;
  const connection = createRedis(redisUrl, {
    forWorker: true,
    name: `${prefix}:worker:${name}`,
    onEvent: onRedisEvent,
  });
  const worker = new Worker<T>(name, processor, { ...rest, connection, prefix: `${prefix}:bull` });
  worker.on('error', onError);
  // BullMQ closes the connections it made, not one it was given: this one ends once the worker has closed.
  worker.once('closed', () => {
    connection.quit().catch(() => connection.disconnect());
  });
  return worker;
}

export type { Queue, Worker };
