import pg from 'pg';
import { createOrm, ensureDatabase, migrateUp } from '../src/platform/db/orm.js';
import { MIGRATIONS } from '../src/platform/db/migrations/index.js';
import { TEST_DATABASE_URL } from './test-database.js';

/**
 * The test database is created when missing and migrated once per run; test files share it and isolate
 * by creating their own organizations. TEST_DB_RESET=1 drops it first (concurrent runs must not, so it is opt-in).
 */
export default async function setup(): Promise<void> {
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
}
