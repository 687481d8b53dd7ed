import pg from 'pg';
import { createOrm, ensureDatabase, migrateUp } from '../src/platform/db/orm.js';
import { MIGRATIONS } from '../src/platform/db/migrations/index.js';

/** A fresh test database per run, migrated once; test files share it and isolate by creating their own orgs. */
export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test';
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
  await ensureDatabase(url);
  const orm = await createOrm({ databaseUrl: url, entities: [], migrations: MIGRATIONS });
  await migrateUp(orm);
  await orm.close(true);
}
