import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createOrm, ensureDatabase, migrateUp } from '../src/platform/db/orm.js';
import { MIGRATIONS } from '../src/platform/db/migrations/index.js';
import { TEST_DATABASE_URL } from './test-database.js';
import { TARGETS, buildIfChanged } from '../src/platform/build/incremental-build.js';
import { startRedisGuard } from './support/redis-guard.js';

/**
 * The test database is created when missing and migrated once per run; test files share it and isolate
 * by creating their own organizations. TEST_DB_RESET=1 drops it first (concurrent runs must not, so it is opt-in).
 * The web application is built first when its sources changed (the web-app tests load it from dist/web).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Its teardown fails the run when a test file left Redis keys behind (test/support/redis-guard.ts).
  const redisGuard = await startRedisGuard(project);
  // The API serves the built web app (dist/web): build it when its sources changed, as `npm start` does.
  buildIfChanged(TARGETS.web);
  const url = TEST_DATABASE_URL;
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  if (process.env.TEST_DB_RESET === '1') await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
  await ensureDatabase(url);
  const orm = await createOrm({ databaseUrl: url, entities: [], migrations: MIGRATIONS });
  await migrateUp(orm);
  await orm.close(true);
  return redisGuard;
}
