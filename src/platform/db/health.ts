import { nativeQuery, type NativeDb } from './native-query.js';

/** PostgreSQL answers a statement (readiness probes and the dependency monitor of every process). */
export async function pingDatabase(db: NativeDb): Promise<void> {
  await nativeQuery(db, 'SELECT 1');
}

/**
 * Migration names the database has applied. (What this build knows is src/platform/db/migrations/index.ts, kept
 * out of this module: it loads MikroORM's migrator, which a worker never needs.)
 */
export async function appliedMigrations(db: NativeDb): Promise<Set<string>> {
  const rows = await nativeQuery<{ name: string }>(db, 'SELECT name FROM mikro_orm_migrations');
  return new Set(rows.map((r) => r.name));
}
