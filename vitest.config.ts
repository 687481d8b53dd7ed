import { defineConfig } from 'vitest/config';
import { TEST_DATABASE_URL } from './test/test-database.js';
import { TEST_REDIS_URL } from './test/support/redis-keys.js';

export default defineConfig({
  resolve: {
    // graphql must resolve to one realm: CJS dependencies (type-graphql, Apollo) load the CJS build.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Deletes the Redis keys of each test file after it; the global setup fails the run on keys left after that.
    setupFiles: ['test/setup-redis.ts'],
    env: {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Memory-bound tests measure retained heap after a full GC.
    execArgv: ['--expose-gc'],
    fileParallelism: true,
    maxWorkers: 2,
  },
});
