import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * A BullMQ worker's (blocking) connection: maxRetriesPerRequest null, as BullMQ requires, and commands wait
   * while disconnected. Otherwise (API, producers, sweepers) a command fails at once while Redis is unreachable
   * and after `commandTimeoutMs` when it does not answer, so that a request can be refused quickly (503).
   */
  forWorker?: boolean;
  name?: string;
  /** Non-worker connections only (default 1000 ms). */
  commandTimeoutMs?: number;
  /** Non-worker connections only (default 2000 ms). */
  connectTimeoutMs?: number;
  /**
   * Connection events (an `error` listener is always attached, so ioredis never prints "Unhandled error event"):
   * 'error' with the error, 'ready' when (re)connected, 'close' when the connection was lost.
   */
  onEvent?: (event: 'error' | 'ready' | 'close', err?: Error) => void;
}

/** Reconnect quickly at first, then every 2 s at most, forever (a Redis restart must be survived without a restart). */
const retryStrategy = (times: number) => Math.min(100 * times, 2_000);

/** A process's Redis timeouts, from its configuration (spread into createRedis' options). */
export const redisTimeoutsOf = (config: {
  REDIS_COMMAND_TIMEOUT_MS: number;
  REDIS_CONNECT_TIMEOUT_MS: number;
}): Pick<RedisConnectionOptions, 'commandTimeoutMs' | 'connectTimeoutMs'> => ({
  commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
  connectTimeoutMs: config.REDIS_CONNECT_TIMEOUT_MS,
});

/** The one Redis connection factory. */
export function createRedis(url: string, opts: RedisConnectionOptions = {}): Redis {
  const options: RedisOptions = opts.forWorker
    ? {
        connectionName: opts.name,
        maxRetriesPerRequest: null,
        enableReadyCheck: true,
        lazyConnect: false,
        retryStrategy,
      }
    : {
        connectionName: opts.name,
        maxRetriesPerRequest: 1,
        commandTimeout: opts.commandTimeoutMs ?? 1_000,
        connectTimeout: opts.connectTimeoutMs ?? 2_000,
        enableReadyCheck: true,
        lazyConnect: false,
        retryStrategy,
      };
  const redis = new Redis(url, options);
  if (!opts.forWorker) {
    // Commands sent before the first connection wait for it (a process may use the client right away); once it
    // has been ready, a command sent while disconnected fails at once instead of queueing. ioredis reads the
    // option on every command.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
  redis.on('error', (err: Error) => opts.onEvent?.('error', err));
  redis.on('ready', () => opts.onEvent?.('ready'));
  redis.on('close', () => opts.onEvent?.('close'));
  return redis;
}

export type { Redis };
