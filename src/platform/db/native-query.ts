import { connect as netConnect } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { DomainError } from '../errors.js';
import { KeyedGate, type KeyedGateLimits } from '../keyed-gate.js';
import { TimeShare, type TimeShareLimits } from '../time-share.js';

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
const natives = new WeakMap<
  object,
  { pool: pg.Pool; onQuery?: (sql: string) => void; bounds?: QueryBounds; gate?: KeyedGate; share?: TimeShare }
>();

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
export async function nativeTransaction<T>(
  em: NativeDb,
  work: (tx: NativeTx) => Promise<T>,
  /** A write a user shapes (a segment's members): its statements get the class's time limit (SET LOCAL). */
  bound?: { cls: QueryClass },
): Promise<T> {
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
    if (bound) await query(`SET LOCAL statement_timeout = ${Math.floor(boundsOf(native).bounds.timeoutMs[bound.cls])}`);
    const result = await work({ query });
    await query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot even roll back is not given back to the pool.
    await query('ROLLBACK').catch(() => {
      broken = true;
    });
    if (bound && (err as { code?: string }).code === QUERY_CANCELED) {
      const { timeoutMs } = boundsOf(native).bounds;
      throw new StatementTimeoutError(bound.cls, timeoutMs[bound.cls]);
    }
    throw err;
  } finally {
    if (pooled) {
      pooled.off('error', onError);
      pooled.release(broken);
    } else await knexClient.releaseConnection(connection);
  }
}

/**
 * The classes of statements a user shapes (their filter, sort, segment rules), each with its own time limit: the URL
 * table's pages and counts (`grid`), one page of rows of an export (`export`), a segment's facts and scores
 * (`segment`).
 */
export type QueryClass = 'grid' | 'export' | 'segment';

/** The statement time limit of each class, and the gate of such statements in one process. */
export interface QueryBounds {
  timeoutMs: Record<QueryClass, number>;
  gate: KeyedGateLimits;
  /** Each organization's share of database time for grid and segment reads (exports are not charged). */
  share?: TimeShareLimits;
}

/**
 * The defaults (docs/configuration.md, QUERY_TIMEOUT_*_MS and GRID_QUERIES_*): a table page is read in milliseconds
 * (docs/performance.md), so 5 s is far beyond an honest filter and short of a stalled pool; at most 2 such reads of
 * one organization and 4 in all (each up to 2 statements at once; the pool has 10 connections) run at once, a third
 * waits up to 2 s.
 */
export const DEFAULT_QUERY_BOUNDS: QueryBounds = {
  timeoutMs: { grid: 5_000, export: 30_000, segment: 5_000 },
  gate: { perKey: 2, total: 4, maxWaitMs: 2_000, maxQueuedPerKey: 8 },
  share: { budgetMs: 3_000, windowMs: 10_000 },
};

/** Sets the bounds of an ORM's native pool's bounded statements (the API process passes its configuration). */
export function setQueryBounds(ormConfig: object, bounds: QueryBounds): void {
  const native = natives.get(ormConfig);
  if (!native) return;
  native.bounds = bounds;
  native.gate = undefined;
  native.share = undefined;
}

/** How a bounded statement runs: its class and the caller's signal. */
export interface BoundedRun {
  cls: QueryClass;
  /** Aborted when the caller goes away (the HTTP client disconnected): the statement is cancelled in PostgreSQL. */
  signal?: AbortSignal | null;
}

/** PostgreSQL stopped the statement at its class's time limit (SQLSTATE 57014). BAD_USER_INPUT, never a 5xx. */
export class StatementTimeoutError extends DomainError {
  override name = 'DomainError';
  constructor(
    readonly cls: QueryClass,
    readonly timeoutMs: number,
  ) {
    super(
      'BAD_USER_INPUT',
      `The query took longer than ${timeoutMs / 1000} s (the limit of ${CLASS_LABEL[cls]}) and was stopped: ` +
        'narrow the filter or choose another sort.',
    );
  }
}

/** The caller went away before the statement ended; it was cancelled in PostgreSQL. Nobody reads this answer. */
export class ClientGoneError extends DomainError {
  override name = 'DomainError';
  constructor() {
    super('BAD_USER_INPUT', 'The request was cancelled: its client closed the connection.');
  }
}

const CLASS_LABEL: Record<QueryClass, string> = {
  grid: 'a URL table read',
  export: "an export's page of rows",
  segment: "a segment's facts",
};

const QUERY_CANCELED = '57014';
/** A cancel request sent while the statement had not reached the server yet is lost: sent again this often. */
const CANCEL_RETRY_MS = 250;

function boundsOf(native: NonNullable<ReturnType<typeof natives.get>> | undefined): {
  bounds: QueryBounds;
  gate: KeyedGate | null;
  share: TimeShare | null;
} {
  if (!native) return { bounds: DEFAULT_QUERY_BOUNDS, gate: null, share: null };
  const bounds = native.bounds ?? DEFAULT_QUERY_BOUNDS;
  native.gate ??= new KeyedGate(bounds.gate, (reason) =>
    reason === 'busy'
      ? `Too many URL table, export and segment queries of this organization at once (at most ${bounds.gate.perKey} ` +
        'run at a time): retry shortly.'
      : `This organization's URL table, export and segment queries are busy (at most ${bounds.gate.perKey} run at a ` +
        'time, and every slot stayed taken): retry shortly.',
  );
  if (bounds.share) native.share ??= new TimeShare(bounds.share);
  return { bounds, gate: native.gate, share: native.share ?? null };
}

/**
 * Runs `read` (one user-shaped read: a table page and its count, a segment's facts) in a slot of the process's gate
 * under `key`, the organization: at most `perKey` of one organization and `total` in all at once; RATE_LIMITED with
 * Retry-After when no slot frees within `maxWaitMs`. A read, not a statement: a page's two statements in parallel
 * take one slot, so two reads of one organization never each hold half of what they need. A `charged` read (grid and
 * segment reads; an export's pieces are not) first needs the organization to be within its share of database time
 * (TimeShare: RATE_LIMITED with Retry-After past it), and its time is added to that share.
 */
export async function querySlot<T>(
  db: NativeDb,
  key: string,
  signal: AbortSignal | null | undefined,
  read: () => Promise<T>,
  charged = true,
): Promise<T> {
  const { gate, share } = boundsOf(natives.get(db.config));
  if (!gate) return read();
  if (charged) share?.assertWithin(key);
  let release: () => void;
  try {
    release = await gate.acquire(key, signal);
  } catch (error) {
    if (signal?.aborted) throw new ClientGoneError();
    throw error;
  }
  const started = performance.now();
  try {
    return await read();
  } finally {
    release();
    if (charged) share?.charge(key, performance.now() - started);
  }
}

/**
 * A statement a user shaped, bounded: run in a read-only transaction with `SET LOCAL statement_timeout` of its class
 * (PostgreSQL itself stops it: StatementTimeoutError), and cancelled in PostgreSQL when `signal` aborts (a
 * CancelRequest for the backend, the connection then discarded: ClientGoneError). The connection goes back to the
 * pool with the transaction ended, so the setting dies with it. Reads of a caller run in its querySlot.
 */
export async function boundedQuery<T>(
  db: NativeDb,
  run: BoundedRun,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const native = natives.get(db.config);
  const { bounds } = boundsOf(native);
  const signal = run.signal ?? null;
  if (signal?.aborted) throw new ClientGoneError();
  const timeoutMs = bounds.timeoutMs[run.cls];
  if (!native) return boundedViaOrm<T>(db, run.cls, timeoutMs, text, values);
  native.onQuery?.(text);
  return boundedOnPool<T>(native.pool, run.cls, timeoutMs, signal, text, values);
}

/**
 * `BEGIN READ ONLY; SET LOCAL statement_timeout = n` in one round trip (an integer, never the caller's text), and no
 * parallel workers: a user-shaped statement runs on one core, so one organization's sort of 20,000 URLs cannot take
 * every core of the database (with PostgreSQL's default of 2 workers per gather it took three processes).
 */
const beginBounded = (timeoutMs: number) =>
  `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}; ` +
  'SET LOCAL max_parallel_workers_per_gather = 0';

async function boundedOnPool<T>(
  pool: pg.Pool,
  cls: QueryClass,
  timeoutMs: number,
  signal: AbortSignal | null,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = await pool.connect();
  let broken = false;
  let cancelling: Promise<void> | null = null;
  let settled = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  // The statement may not have reached the backend when the cancel does (it is then ignored): sent again until it ends.
  const cancel = async () => {
    while (!settled) {
      await cancelBackend(client);
      if (!settled) await new Promise((r) => setTimeout(r, CANCEL_RETRY_MS));
    }
  };
  const onAbort = () => {
    cancelling ??= cancel();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query(beginBounded(timeoutMs));
    if (signal?.aborted) throw new ClientGoneError();
    const result = await client.query({ text, values, types });
    await client.query('COMMIT');
    return result.rows as T[];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    if (signal?.aborted) throw new ClientGoneError();
    if ((error as { code?: string }).code === QUERY_CANCELED) throw new StatementTimeoutError(cls, timeoutMs);
    throw error;
  } finally {
    settled = true;
    signal?.removeEventListener('abort', onAbort);
    client.off('error', onError);
    // A cancelled connection is not pooled again: a cancel request that arrives late must hit nobody else's statement.
    if (cancelling) {
      await cancelling;
      broken = true;
    }
    client.release(broken);
  }
}

/** Without a native pool (a bare ORM): the same transaction on one of the ORM's connections, without cancelling. */
async function boundedViaOrm<T>(
  db: NativeDb,
  cls: QueryClass,
  timeoutMs: number,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = db.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgLikeClient>;
    releaseConnection(c: PgLikeClient): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    await connection.query({ text: beginBounded(timeoutMs) });
    const rows = (await connection.query({ text, values, types })).rows as T[];
    await connection.query({ text: 'COMMIT' });
    return rows;
  } catch (error) {
    await connection.query({ text: 'ROLLBACK' }).catch(() => undefined);
    if ((error as { code?: string }).code === QUERY_CANCELED) throw new StatementTimeoutError(cls, timeoutMs);
    throw error;
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * PostgreSQL's CancelRequest for the backend of `client` (protocol 3.0: length 16, code 80877102, the backend's pid
 * and secret key) on a connection of its own: it needs no slot of the pool and no authentication. Resolves when the
 * server closed that connection (it has signalled the backend) or after 2 s.
 */
function cancelBackend(client: pg.PoolClient): Promise<void> {
  const { host, port, processID, secretKey } = client as unknown as {
    host: string;
    port: number;
    processID: number | null;
    secretKey: number | null;
  };
  if (processID === null || secretKey === null) return Promise.resolve();
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? netConnect(`${host}/.s.PGSQL.${port}`) : netConnect(port, host);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, 2_000);
    socket.once('connect', () => {
      const message = Buffer.alloc(16);
      message.writeInt32BE(16, 0);
      message.writeInt32BE(80877102, 4);
      message.writeInt32BE(processID, 8);
      message.writeInt32BE(secretKey, 12);
      socket.end(message);
    });
    socket.once('close', done);
    socket.once('error', done);
  });
}
