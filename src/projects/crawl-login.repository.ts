import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';
import type { CrawlLoginBinding, CrawlLoginKind } from '../crawler/index.js';
import type { CrawlLoginFacts } from './crawl-login.model.js';

/** A stored login's facts as read, with its project's current start URL and settings (to tell a suspended one). */
export interface CrawlLoginFactsRow extends Omit<CrawlLoginFacts, 'suspendedReason'> {
  projectUrl: string;
  projectSettings: unknown;
}

/** A stored crawl login: its facts, its sealed secrets and the id of the key that sealed them. */
export interface CrawlLoginRow extends Omit<CrawlLoginFacts, 'suspendedReason'> {
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
  boundTo: CrawlLoginBinding;
  sealed: string;
  keyId: string;
}

const FACTS = `l.project_id AS "projectId", l.kind, l.login_url AS "loginUrl", l.username_field AS "usernameField",
  l.password_field AS "passwordField", l.header_name AS "headerName", l.cookie_names AS "cookieNames",
  l.extra_field_names AS "extraFieldNames", l.bound_to AS "boundTo", l.updated_at AS "updatedAt"`;

/** The crawl logins' SQL (table project_crawl_login): the only code that reads or writes it. */
export class CrawlLoginRepository {
  /** The facts of the given projects' logins (no secret column is read). */
  facts(db: NativeDb, projectIds: readonly string[]): Promise<CrawlLoginFactsRow[]> {
    return nativeQuery<CrawlLoginFactsRow>(
      db,
      `SELECT ${FACTS}, p.url AS "projectUrl", p.settings AS "projectSettings"
         FROM project_crawl_login l JOIN project p ON p.id = l.project_id WHERE l.project_id = ANY($1::uuid[])`,
      [projectIds],
    );
  }

  async find(db: NativeDb, projectId: string): Promise<CrawlLoginRow | undefined> {
    const rows = await nativeQuery<CrawlLoginRow>(
      db,
      `SELECT ${FACTS}, l.sealed, l.key_id AS "keyId" FROM project_crawl_login l WHERE l.project_id = $1`,
      [projectId],
    );
    return rows[0];
  }

  async upsert(db: NativeDb, row: CrawlLoginWrite): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO project_crawl_login (project_id, kind, login_url, username_field, password_field, header_name,
         cookie_names, extra_field_names, sealed, key_id, bound_to, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
       ON CONFLICT (project_id) DO UPDATE SET kind = EXCLUDED.kind, login_url = EXCLUDED.login_url,
         username_field = EXCLUDED.username_field, password_field = EXCLUDED.password_field,
         header_name = EXCLUDED.header_name, cookie_names = EXCLUDED.cookie_names,
         extra_field_names = EXCLUDED.extra_field_names, sealed = EXCLUDED.sealed, key_id = EXCLUDED.key_id,
         bound_to = EXCLUDED.bound_to, updated_at = now()`,
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
        JSON.stringify(row.boundTo),
      ],
    );
  }

  /**
   * Re-seals one login with a new binding (a confirmation, or a legacy login bound on first use): only while its sealed
   * value is still `was`, so a concurrent change of the login wins. True when the row was updated.
   */
  async rebind(
    db: NativeDb,
    projectId: string,
    was: string,
    next: { sealed: string; keyId: string; boundTo: CrawlLoginBinding },
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE project_crawl_login SET sealed = $3, key_id = $4, bound_to = $5, updated_at = now()
        WHERE project_id = $1 AND sealed = $2 RETURNING project_id`,
      [projectId, was, next.sealed, next.keyId, JSON.stringify(next.boundTo)],
    );
    return rows.length > 0;
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
