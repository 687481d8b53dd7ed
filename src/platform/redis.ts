import { Redis, type RedisOptions } from 'ioredis';

/**
 * The one Redis connection factory. `forWorker` sets maxRetriesPerRequest: null,
 * which BullMQ requires for blocking connections.
 */
export function createRedis(url: string, opts: { forWorker?: boolean; name?: string } = {}): Redis {
  const options: RedisOptions = {
    connectionName: opts.name,
    maxRetriesPerRequest: opts.forWorker ? null : 2,
    enableReadyCheck: true,
    lazyConnect: false,
  };
  return new Redis(url, options);
}

export type { Redis };
