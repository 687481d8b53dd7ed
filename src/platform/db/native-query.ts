import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';

const TIMESTAMPTZ = 1184;
/**
 * Settings of every platform connection. JIT off: PostgreSQL compiles a plan whose estimated cost passes
 * jit_above_cost, and its estimates of jsonb set-returning functions (100 rows each) push short reads there; an
 * issue's evidence columns over 10,000 occurrences took 1,997 ms of which 1,524 ms was JIT compilation (469 ms
 * without). The platform's statements are interactive reads and bounded writes, never the long analytics JIT pays for.
 */
export const PG_SESSION_OPTIONS = '-c jit=off';
/**
 * A connection that cannot be made within this long fails (a request is then refused with 503, not left hanging);
 * processes pass their PG_CONNECT_TIMEOUT_MS.
 */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
// MikroORM switches pg's global date parsing off (it hydrates dates itself); plain rows need Dates back.
const parseTimestamptz = (value: string) => new Date(value);
const types = {
  // Asked for every column of every result: one shared parser, not a new closure per column.
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ ? parseTimestamptz : pg.types.getTypeParser(oid, format as 'text'),
};

/**
 * A node-postgres pool per ORM (keyed by its shared configuration), for the hot-path reads below, with the
 * ORM's statement observer (tests count statements) so that these statements are seen like its own.
 */
const natives = new WeakMap<object, { pool: pg.Pool; onQuery?: (sql: string) => void }>();

/**
 * The platform's node-postgres pool: timestamps parsed to Dates, a connect deadline, idle clients released, and an
 * idle client's error kept from crashing the process (the next query reports it). The API and workers make it
 * beside their ORM (createNativePool); the CLI's commands that need no ORM use it alone (withPlatformPool).
 */
export function createPlatformPool(
  connectionString: string,
  max = 10,
  connectTimeoutMs = PG_CONNECT_TIMEOUT_MS,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    options: PG_SESSION_OPTIONS,
    max,
    types,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `use` on a platform pool of its own, ended afterwards (a short-lived command). */
export async function withPlatformPool<T>(connectionString: string, use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = createPlatformPool(connectionString, 2);
  try {
    return await use(pool);
  } finally {
    await pool.end();
  }
}

export function createNativePool(
  ormConfig: object,
  connectionString: string,
  max = 10,
  onQuery?: (sql: string) => void,
  connectTimeoutMs = PG_CONNECT_TIMEOUT_MS,
): pg.Pool {
  const pool = createPlatformPool(connectionString, max, connectTimeoutMs);
  natives.set(ormConfig, { pool, onQuery });
  return pool;
}

/** The native pool of an ORM (tests use it to simulate driver failures). */
export const nativePoolOf = (ormConfig: object): pg.Pool | undefined => natives.get(ormConfig)?.pool;

export async function closeNativePool(ormConfig: object): Promise<void> {
  const native = natives.get(ormConfig);
  natives.delete(ormConfig);
  await native?.pool.end();
}

interface PgLikeClient {
  query(config: { text: string; values?: unknown[]; types?: unknown }): Promise<{ rows: unknown[] }>;
}

/**
 * What nativeQuery needs: an ORM configuration (whose native pool it uses) and a connection to fall back
 * on. Any EntityManager qualifies; request contexts expose the root one as `db`, so plain reads need no fork.
 */
export type NativeDb = Pick<EntityManager, 'config' | 'getConnection'>;

/**
 * Hot-path reads straight on node-postgres: server-side parameters ($1, $2 ..., arrays bound natively) and
 * plain rows, skipping MikroORM's SQL inlining and entity hydration, which cost several times the query itself
 * on list endpoints. Uses the ORM's native pool when one was created; not for use inside a MikroORM transaction.
 */
export function nativeQuery<T>(em: NativeDb, text: string, values: unknown[] = []): Promise<T[]> {
  return nativeResult<T>(em, text, values).then(rowsOf<T>);
}

/** A statement's result as node-postgres gives it, rows included. */
export interface NativeResult<T> {
  rows: T[];
}

/**
 * nativeQuery without the step that takes the rows out: for the statements every API request runs, whose
 * callers await the result anyway and read `.rows` themselves. Each `.then` is one more promise, and while an
 * AsyncLocalStorage is active (better-auth and MikroORM's transactions start one) every promise runs its hooks.
 */
export function nativeResult<T>(em: NativeDb, text: string, values: unknown[] = []): Promise<NativeResult<T>> {
  const native = natives.get(em.config);
  if (!native) return viaOrmConnection<T>(em, text, values);
  native.onQuery?.(text);
  // (text, values), not a config object: node-postgres copies config objects property by property. Not an
  // async function: each async frame is a promise.
  return native.pool.query(text, values) as unknown as Promise<NativeResult<T>>;
}

const rowsOf = <T>(result: NativeResult<unknown>): T[] => result.rows as T[];

async function viaOrmConnection<T>(em: NativeDb, text: string, values: unknown[]): Promise<NativeResult<T>> {
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgLikeClient>;
    releaseConnection(c: PgLikeClient): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    return { rows: (await connection.query({ text, values, types })).rows as T[] };
  } finally {
    await client.releaseConnection(connection);
  }
}

/** A transaction's statements, in nativeQuery's idiom ($1, $2 ... and plain rows). */
export interface NativeTx {
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
}

/** A statement on a transaction's connection, or through nativeQuery: for reads that run in either. */
export function queryOn<T>(db: NativeDb | NativeTx, text: string, values: unknown[] = []): Promise<T[]> {
  return 'getConnection' in db ? nativeQuery<T>(db, text, values) : db.query<T>(text, values);
}

/**
 * Runs `work` inside BEGIN ... COMMIT on one connection of the ORM's native pool (the ORM's own connection when
 * there is none); a throw rolls back and is rethrown. For writes that must land together in nativeQuery's idiom.
 */
export async function nativeTransaction<T>(em: NativeDb, work: (tx: NativeTx) => Promise<T>): Promise<T> {
  const native = natives.get(em.config);
  const knexClient = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgLikeClient>;
    releaseConnection(c: PgLikeClient): Promise<void>;
  };
  const pooled = native ? await native.pool.connect() : null;
  const connection: PgLikeClient = pooled ?? (await knexClient.acquireConnection());
  let broken = false;
  // A checked-out client emits its connection's errors itself (the pool listens only to idle ones): unheard, one
  // would crash the process. The failing query rejects anyway; the client is then discarded, not pooled again.
  const onError = () => {
    broken = true;
  };
  pooled?.on('error', onError);
  const query = async <R>(text: string, values: unknown[] = []): Promise<R[]> => {
    native?.onQuery?.(text);
    return (await connection.query({ text, values, types })).rows as R[];
  };
  try {
    await query('BEGIN');
    const result = await work({ query });
    await query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot even roll back is not given back to the pool.
    await query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    if (pooled) {
      pooled.off('error', onError);
      pooled.release(broken);
    } else await knexClient.releaseConnection(connection);
  }
}
