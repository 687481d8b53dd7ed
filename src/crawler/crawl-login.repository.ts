import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';
import type { CrawlLoginFacts, CrawlLoginKind } from './crawl-login.model.js';

/** A stored crawl login: its facts, its sealed secrets and the id of the key that sealed them. */
export interface CrawlLoginRow extends CrawlLoginFacts {
  sealed: string;
  keyId: string;
}

export interface CrawlLoginWrite {
  projectId: string;
  kind: CrawlLoginKind;
  loginUrl: string | null;
  usernameField: string | null;
  passwordField: string | null;
  headerName: string | null;
  cookieNames: string[];
  extraFieldNames: string[];
  sealed: string;
  keyId: string;
}

const FACTS = `project_id AS "projectId", kind, login_url AS "loginUrl", username_field AS "usernameField",
  password_field AS "passwordField", header_name AS "headerName", cookie_names AS "cookieNames",
  extra_field_names AS "extraFieldNames", updated_at AS "updatedAt"`;

/** The crawl logins' SQL (table project_crawl_login): the only code that reads or writes it. */
export class CrawlLoginRepository {
  /** The facts of the given projects' logins (no secret column is read). */
  facts(db: NativeDb, projectIds: readonly string[]): Promise<CrawlLoginFacts[]> {
    return nativeQuery<CrawlLoginFacts>(
      db,
      `SELECT ${FACTS} FROM project_crawl_login WHERE project_id = ANY($1::uuid[])`,
      [projectIds],
    );
  }

  async find(db: NativeDb, projectId: string): Promise<CrawlLoginRow | undefined> {
    const rows = await nativeQuery<CrawlLoginRow>(
      db,
      `SELECT ${FACTS}, sealed, key_id AS "keyId" FROM project_crawl_login WHERE project_id = $1`,
      [projectId],
    );
    return rows[0];
  }

  async upsert(db: NativeDb, row: CrawlLoginWrite): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO project_crawl_login (project_id, kind, login_url, username_field, password_field, header_name,
         cookie_names, extra_field_names, sealed, key_id, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
       ON CONFLICT (project_id) DO UPDATE SET kind = EXCLUDED.kind, login_url = EXCLUDED.login_url,
         username_field = EXCLUDED.username_field, password_field = EXCLUDED.password_field,
         header_name = EXCLUDED.header_name, cookie_names = EXCLUDED.cookie_names,
         extra_field_names = EXCLUDED.extra_field_names, sealed = EXCLUDED.sealed, key_id = EXCLUDED.key_id,
         updated_at = now()`,
      [
        row.projectId,
        row.kind,
        row.loginUrl,
        row.usernameField,
        row.passwordField,
        row.headerName,
        row.cookieNames,
        row.extraFieldNames,
        row.sealed,
        row.keyId,
      ],
    );
  }

  async delete(db: NativeDb, projectId: string): Promise<boolean> {
    const rows = await nativeQuery(db, 'DELETE FROM project_crawl_login WHERE project_id = $1 RETURNING project_id', [
      projectId,
    ]);
    return rows.length > 0;
  }

  /**
   * Re-seals every stored login (or those of `projectIds`) in one transaction, rows locked: `reseal` gets each row's
   * sealed value and key id and returns the new ones, or null to leave the row as it is; a throw rolls all back.
   */
  resealAll(
    db: NativeDb,
    reseal: (row: { projectId: string; sealed: string; keyId: string }) => { sealed: string; keyId: string } | null,
    projectIds: readonly string[] | null = null,
  ): Promise<{ resealed: number; unchanged: number }> {
    return nativeTransaction(db, async (tx) => {
      const rows = await tx.query<{ projectId: string; sealed: string; keyId: string }>(
        `SELECT project_id AS "projectId", sealed, key_id AS "keyId" FROM project_crawl_login
         WHERE $1::uuid[] IS NULL OR project_id = ANY($1::uuid[]) ORDER BY project_id FOR UPDATE`,
        [projectIds],
      );
      let resealed = 0;
      for (const row of rows) {
        const next = reseal(row);
        if (!next) continue;
        await tx.query('UPDATE project_crawl_login SET sealed = $2, key_id = $3 WHERE project_id = $1', [
          row.projectId,
          next.sealed,
          next.keyId,
        ]);
        resealed++;
      }
      return { resealed, unchanged: rows.length - resealed };
    });
  }
}
