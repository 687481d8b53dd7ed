import { MikroORM, type Options } from '@mikro-orm/postgresql';
import type { MigrationObject } from '@mikro-orm/core';
import type { EntitySchema } from '@mikro-orm/core';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { PG_CONNECT_TIMEOUT_MS, PG_SESSION_OPTIONS, closeNativePool, createNativePool } from './native-query.js';

/** better-auth owns these tables; MikroORM's schema diff must never touch them. */
export const AUTH_TABLES = ['user', 'session', 'account', 'verification', 'organization', 'member', 'invitation'];

export interface OrmOptions {
  databaseUrl: string;
  entities: EntitySchema<any, any>[];
  /** Only processes that migrate (`seo migrate`, tests) load the migrator and its dependencies. */
  migrations?: MigrationObject[];
  logger?: Logger;
  poolMax?: number;
  /** How long connecting may take (default PG_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** Observes every SQL statement (tests count queries with it). */
  onQuery?: (sql: string) => void;
}

function ormConfig(opts: OrmOptions, extensions: NonNullable<Options['extensions']>): Options {
  return {
    clientUrl: opts.databaseUrl,
    entities: opts.entities,
    extensions,
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // With PostgreSQL unreachable a query fails within seconds (knex would wait 60 s for a pooled connection).
    driverOptions: {
      connection: {
        connectionTimeoutMillis: opts.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
        options: PG_SESSION_OPTIONS,
      },
      acquireConnectionTimeout: (opts.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS) + 2_000,
    },
    debug: opts.onQuery ? ['query'] : false,
    // Metadata comes from defineEntity schemas; never reflect.
    metadataCache: { enabled: false },
    schemaGenerator: { skipTables: AUTH_TABLES },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    logger: (msg) => (opts.onQuery ? opts.onQuery(msg) : opts.logger?.debug({ orm: true }, msg)),
    ...(opts.migrations && {
      migrations: {
        migrationsList: opts.migrations,
        transactional: true,
        allOrNothing: true,
        tableName: 'mikro_orm_migrations',
        snapshot: false,
      },
    }),
    dynamicImportProvider: (id: string) => import(id),
  };
}

/** The ORM plus its node-postgres pool for hot-path reads (closed with it). */
export async function createOrm(opts: OrmOptions): Promise<MikroORM> {
  const extensions = opts.migrations ? [(await import('@mikro-orm/migrations')).Migrator] : [];
  const orm = await MikroORM.init(ormConfig(opts, extensions));
  createNativePool(orm.config, opts.databaseUrl, opts.poolMax ?? 10, opts.onQuery, opts.connectTimeoutMs);
  const close = orm.close.bind(orm);
  orm.close = async (force?: boolean) => {
    await closeNativePool(orm.config);
    return close(force);
  };
  return orm;
}

/** Creates the database named in the URL when it does not exist yet (first `npm start`). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return false;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } catch (err) {
      // Another process created it between our check and create.
      if ((err as { code?: string }).code !== '42P04') throw err;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

/** Drops the database of `databaseUrl` if it exists, whoever is connected (tests' and benches' own databases). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Applies pending migrations under a session advisory lock so that concurrent starters do not race. */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const conn = orm.em.getConnection();
  const knex = conn.getKnex();
  const lockId = 7_302_118_941;
  const lockConn = await knex.client.acquireConnection();
  try {
    await lockConn.query('SELECT pg_advisory_lock($1)', [lockId]);
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  } finally {
    await lockConn.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    await knex.client.releaseConnection(lockConn);
  }
}

export { MikroORM };
export type { EntityManager } from '@mikro-orm/postgresql';
