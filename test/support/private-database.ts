import { randomBytes } from 'node:crypto';
import { createOrm, dropDatabase, ensureDatabase, migrateUp } from '../../src/platform/db/orm.js';
import { MIGRATIONS } from '../../src/platform/db/migrations/index.js';
import { TEST_DATABASE_URL } from '../test-database.js';

export { dropDatabase };

/**
 * A database of its own for a test or bench that must not share the suite's (its sweeper or reconciler reads every
 * row): created when missing and migrated to the latest schema. Drop it with dropDatabase.
 */
export async function migratedDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const orm = await createOrm({ databaseUrl: url, entities: [], migrations: MIGRATIONS });
  try {
    await migrateUp(orm);
  } finally {
    await orm.close(true);
  }
}

/** The URL of a new database of its own beside the suite's: `seo_<name>_<random>` on the suite's server. */
export function privateDatabaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/seo_${name}_${randomBytes(5).toString('hex')}`;
  return url.toString();
}
