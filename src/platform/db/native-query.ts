import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';

interface PgLikeClient {
  query(config: { text: string; values?: unknown[]; types?: unknown }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

const TIMESTAMPTZ = 1184;
// MikroORM switches pg's global date parsing off (it hydrates dates itself); plain rows need Dates back.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ ? (value: string) => new Date(value) : pg.types.getTypeParser(oid, format as 'text'),
};

/**
 * Hot-path reads straight on a pooled node-postgres connection: server-side parameters ($1, $2 ...,
 * arrays bound natively) and plain rows, skipping MikroORM's SQL inlining and entity hydration, which
 * cost several times the query itself on list endpoints. Not for use inside a MikroORM transaction.
 */
export async function nativeQuery<T>(em: EntityManager, text: string, values: unknown[] = []): Promise<T[]> {
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgLikeClient>;
    releaseConnection(c: PgLikeClient): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ text, values, types })).rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}
