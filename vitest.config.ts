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
      // Test files sign many users up from one address; the tests of the limit itself set their own.
      SIGNUPS_PER_IP_PER_HOUR: '100000',
      // Test files read one organization's URL table many times in a row; the tests of the share itself set theirs.
      GRID_TIME_PER_ORGANIZATION_MS: '3600000',
      // Tests of limits fire 429s by the dozen, and a test walks a grid with one session faster than a person: the
      // tests of the hold and of the burst set theirs.
      RATE_LIMIT_HOLD_MS: '0',
      APP_RATE_BURST: '100000',
      // Two test processes, PostgreSQL, Redis and at times Chromium share 2 cores: an event loop busy for over a
      // second would read Redis' answer after the 1 s default had failed the command (503), and a connection made
      // while it was busy would fail on its connect timer. The outage tests set the defaults back, since they
      // measure how quickly a hung dependency is refused.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
      REDIS_CONNECT_TIMEOUT_MS: '10000',
      PG_CONNECT_TIMEOUT_MS: '10000',
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
