import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Plan } from '../platform/config.js';
import type { MemberRole } from '../platform/context.js';
import {
  nativeQuery,
  nativeResult,
  nativeTransaction,
  type NativeDb,
  type NativeResult,
} from '../platform/db/native-query.js';
import type { SessionRow } from '../platform/fast-path/session-principal.js';
import { ApiKeyEntity, type ApiKey } from './api-key.entity.js';

export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  plan: Plan;
  createdAt: Date;
}

export interface MemberRecord {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: MemberRole;
  createdAt: Date;
}

export interface MembershipRow {
  organization_id: string;
  plan: Plan;
  role: MemberRole;
}

/** An API key's row as ApiKeyService.principalFor reads it. */
export interface VerifiedKeyRow {
  id: string;
  organization_id: string;
  plan: Plan;
  last_used_at: Date | null;
}

/**
 * The membership a user acts through: the one of the session's active organization if the user is a member of
 * it, else the oldest. The one statement of that rule, over two SQL expressions: the user's id and the active
 * organization's id ('' when there is none). membershipForUser runs it with parameters; the session read
 * (sessionByToken) joins it laterally to the session row.
 */
const membershipSql = (
  userId: string,
  activeOrganizationId: string,
): string => `SELECT m."organizationId" AS organization_id, o.plan, m.role FROM "member" m
    JOIN "organization" o ON o.id = m."organizationId"
   WHERE m."userId" = ${userId} ORDER BY (m."organizationId" = ${activeOrganizationId}) DESC,
    m."createdAt" ASC LIMIT 1`;

const MEMBERSHIP_SQL = membershipSql('$1', '$2');

/**
 * The session, its user and the membership that makes the principal, in one statement (better-auth's getSession
 * reads the session and the user in two, and the membership was a third). The membership is chosen by the same
 * rule as membershipForUser: membershipSql, joined laterally to the session row.
 */
const SESSION_SQL = `SELECT s."expiresAt" AS expires_at, s."userId" AS user_id, m.organization_id, m.plan, m.role
  FROM "session" s
  JOIN "user" u ON u.id = s."userId"
  LEFT JOIN LATERAL (${membershipSql('s."userId"', `COALESCE(s."activeOrganizationId", '')`)}) m ON true
  WHERE s.token = $1`;

const VERIFY_SQL = `SELECT k.id, k.organization_id, o.plan, k.last_used_at FROM api_key k
  JOIN "organization" o ON o.id = k.organization_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;

/** An API key's columns in the shape `ApiKey` names (the entity type). */
const API_KEY_COLUMNS = `id, organization_id AS "organizationId", name, prefix, key_hash AS "keyHash",
  created_by AS "createdBy",
  created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/**
 * The only file of the identity module that speaks SQL or MikroORM. better-auth reads and writes its own tables
 * (user, session, account, organization, member ...) through its adapter; the statements here are ours over them.
 * Most take the ORM's connection (`db`); those run where only better-auth's pool exists (its sign-up hook, the
 * CLI's user and organization commands) take that pool.
 */
export class IdentityRepository {
  // --- API keys ---

  /** The hot path of every Surface A request: the active key with this hash and its organization's plan. */
  verifyApiKey(db: NativeDb, keyHash: string): Promise<NativeResult<VerifiedKeyRow>> {
    return nativeResult<VerifiedKeyRow>(db, VERIFY_SQL, [keyHash]);
  }

  touchApiKey(db: NativeDb, id: string): Promise<unknown[]> {
    return nativeQuery(db, 'UPDATE api_key SET last_used_at = now() WHERE id = $1', [id]);
  }

  /**
   * Inserts an API key under a lock on its organization's row: concurrent creates serialize there, so the count
   * of active keys `check` sees is exact. `check` throws to refuse (nothing is written); the row comes back as
   * the entity type names it.
   */
  insertApiKeyLocked(
    db: NativeDb,
    row: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'>,
    check: (activeKeys: number) => void,
  ): Promise<ApiKey> {
    return nativeTransaction(db, async (tx) => {
      // Lock the organization row: concurrent creates serialize here, so the count below is exact.
      await tx.query('SELECT 1 FROM "organization" WHERE id = $1 FOR UPDATE', [row.organizationId]);
      const [active] = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_key WHERE organization_id = $1 AND revoked_at IS NULL',
        [row.organizationId],
      );
      check(active.n);
      const [inserted] = await tx.query<ApiKey>(
        `INSERT INTO api_key (id, organization_id, name, prefix, key_hash, created_by, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING ${API_KEY_COLUMNS}`,
        [row.id, row.organizationId, row.name, row.prefix, row.keyHash, row.createdBy ?? null, row.createdAt],
      );
      return inserted;
    });
  }

  /** Newest first. */
  listApiKeys(em: EntityManager, organizationId: string): Promise<ApiKey[]> {
    return em.find(ApiKeyEntity, { organizationId }, { orderBy: { createdAt: 'desc' } });
  }

  /** A managed entity (markRevoked changes it), or null when the organization has no such key. */
  findApiKey(em: EntityManager, organizationId: string, id: string): Promise<ApiKey | null> {
    return em.findOne(ApiKeyEntity, { id, organizationId });
  }

  async markRevoked(em: EntityManager, apiKey: ApiKey, at: Date): Promise<ApiKey> {
    apiKey.revokedAt = at;
    await em.flush();
    return apiKey;
  }

  // --- organizations and members (better-auth's tables) ---

  /** The membership a user acts through (membershipSql): one row, or none when the user is in no organization. */
  membershipForUser(db: NativeDb, userId: string, activeOrganizationId: string): Promise<MembershipRow[]> {
    return nativeQuery<MembershipRow>(db, MEMBERSHIP_SQL, [userId, activeOrganizationId]);
  }

  /**
   * The session fast path's one statement (src/platform/fast-path/session-principal.ts): the session with this
   * token, its user and its membership; no row when there is no such session or user.
   */
  sessionByToken(db: NativeDb, token: string): Promise<NativeResult<SessionRow>> {
    return nativeResult<SessionRow>(db, SESSION_SQL, [token]);
  }

  // Through nativeQuery: the ORM connection leaves timestamptz columns as strings (MikroORM hydrates dates
  // itself), which the DateTimeISO scalar refuses; these rows are not entities.
  async organizationById(db: NativeDb, id: string): Promise<OrganizationRecord | null> {
    const rows = await nativeQuery<OrganizationRecord>(
      db,
      'SELECT id, name, slug, plan, "createdAt" AS "createdAt" FROM "organization" WHERE id = $1',
      [id],
    );
    return rows[0] ?? null;
  }

  /** The organization's id whose id or slug is `ref`, or null. */
  async organizationIdByRef(db: NativeDb, ref: string): Promise<string | null> {
    const rows = await nativeQuery<{ id: string }>(db, 'SELECT id FROM "organization" WHERE id = $1 OR slug = $2', [
      ref,
      ref,
    ]);
    return rows[0]?.id ?? null;
  }

  /**
   * Every organization, oldest first. `createdAt` as PostgreSQL writes it (text), as `seo org list` has always
   * printed it: read through the ORM's connection, the column came back as that text.
   */
  allOrganizations(db: NativeDb): Promise<{ id: string; name: string; slug: string; plan: Plan; createdAt: string }[]> {
    return nativeQuery(
      db,
      'SELECT id, name, slug, plan, "createdAt"::text AS "createdAt" FROM "organization" ORDER BY "createdAt"',
    );
  }

  members(db: NativeDb, organizationId: string): Promise<MemberRecord[]> {
    return nativeQuery<MemberRecord>(
      db,
      `SELECT m.id, m."userId" AS "userId", u.email, u.name, m.role, m."createdAt" AS "createdAt"
       FROM "member" m JOIN "user" u ON u.id = m."userId" WHERE m."organizationId" = $1 ORDER BY m."createdAt"`,
      [organizationId],
    );
  }

  /** Whether the organization exists (and now has this plan). */
  async setPlan(db: NativeDb, organizationId: string, plan: Plan): Promise<boolean> {
    const rows = await nativeQuery(db, 'UPDATE "organization" SET plan = $1 WHERE id = $2 RETURNING id', [
      plan,
      organizationId,
    ]);
    return rows.length > 0;
  }

  /** An organization and its owner, in one transaction, on better-auth's pool (sign-up runs in its hook). */
  async insertOrganizationWithOwner(
    pool: pg.Pool,
    org: { id: string; name: string; slug: string; plan: string },
    owner: { memberId: string; userId: string },
  ): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO "organization" (id, name, slug, "createdAt", plan) VALUES ($1, $2, $3, now(), $4)`,
        [org.id, org.name, org.slug, org.plan],
      );
      await client.query(
        `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'owner', now())`,
        [owner.memberId, org.id, owner.userId],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** A user's organizations (the CLI's `user create` prints them), on better-auth's pool. */
  async organizationsOfUser(
    pool: pg.Pool,
    userId: string,
  ): Promise<{ id: string; name: string; slug: string; plan: Plan }[]> {
    const { rows } = await pool.query<{ id: string; name: string; slug: string; plan: Plan }>(
      'SELECT o.id, o.name, o.slug, o.plan FROM "member" m ' +
        'JOIN "organization" o ON o.id = m."organizationId" WHERE m."userId" = $1',
      [userId],
    );
    return rows;
  }

  // --- team rules (run in better-auth's hooks, on its pool) ---

  /** How many owners the organization has (a member's role may be a comma-separated list). */
  async ownerCount(pool: pg.Pool, organizationId: string): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "member"
        WHERE "organizationId" = $1 AND 'owner' = ANY(string_to_array(replace(role, ' ', ''), ','))`,
      [organizationId],
    );
    return rows[0].n;
  }

  /**
   * The user's organizations as account deletion sees them: whether the user is an owner, how many owners and how
   * many members each has.
   */
  async membershipsForDeletion(
    pool: pg.Pool,
    userId: string,
  ): Promise<{ id: string; name: string; isOwner: boolean; owners: number; members: number }[]> {
    const { rows } = await pool.query<{ id: string; name: string; isOwner: boolean; owners: number; members: number }>(
      `SELECT o.id, o.name,
              'owner' = ANY(string_to_array(replace(mine.role, ' ', ''), ',')) AS "isOwner",
              (SELECT count(*)::int FROM "member" x WHERE x."organizationId" = o.id
                 AND 'owner' = ANY(string_to_array(replace(x.role, ' ', ''), ','))) AS owners,
              (SELECT count(*)::int FROM "member" x WHERE x."organizationId" = o.id) AS members
         FROM "member" mine JOIN "organization" o ON o.id = mine."organizationId"
        WHERE mine."userId" = $1 ORDER BY o.name`,
      [userId],
    );
    return rows;
  }

  /**
   * Deletes these organizations if the user is still their only member (checked in the statement, so a member who
   * joined since is never deleted with them); their projects, audits and keys go with them (foreign keys cascade).
   */
  async deleteSoloOrganizations(pool: pg.Pool, userId: string, organizationIds: string[]): Promise<number> {
    if (!organizationIds.length) return 0;
    const { rowCount } = await pool.query(
      `DELETE FROM "organization" o WHERE o.id = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM "member" m WHERE m."organizationId" = o.id AND m."userId" <> $2)`,
      [organizationIds, userId],
    );
    return rowCount ?? 0;
  }

  /** The role of the user in the organization ('' when not a member). */
  async roleIn(pool: pg.Pool, userId: string, organizationId: string): Promise<string> {
    const { rows } = await pool.query<{ role: string }>(
      'SELECT role FROM "member" WHERE "userId" = $1 AND "organizationId" = $2',
      [userId, organizationId],
    );
    return rows[0]?.role ?? '';
  }

  /** The role of a member of the organization, by member id or by the member's e-mail; null when there is none. */
  async memberRoleByIdOrEmail(pool: pg.Pool, organizationId: string, memberIdOrEmail: string): Promise<string | null> {
    const { rows } = await pool.query<{ role: string }>(
      `SELECT m.role FROM "member" m JOIN "user" u ON u.id = m."userId"
        WHERE m."organizationId" = $1 AND (m.id = $2 OR lower(u.email) = lower($2))`,
      [organizationId, memberIdOrEmail],
    );
    return rows[0]?.role ?? null;
  }

  /** Stores (or replaces) the hash of an invitation's acceptance secret. */
  async storeInvitationSecret(pool: pg.Pool, invitationId: string, secretHash: Buffer): Promise<void> {
    await pool.query(
      `INSERT INTO "invitation_secret" (invitation_id, secret_hash) VALUES ($1, $2)
       ON CONFLICT (invitation_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, created_at = now()`,
      [invitationId, secretHash],
    );
  }

  /** Whether the invitation exists, and the hash of its secret (null for an invitation made before secrets). */
  async invitationSecretHash(pool: pg.Pool, invitationId: string): Promise<{ hash: Buffer | null } | null> {
    const { rows } = await pool.query<{ secret_hash: Buffer | null }>(
      `SELECT s.secret_hash FROM "invitation" i LEFT JOIN "invitation_secret" s ON s.invitation_id = i.id
        WHERE i.id = $1`,
      [invitationId],
    );
    return rows.length ? { hash: rows[0].secret_hash } : null;
  }

  /** The id of the user with this email (case-insensitive), on better-auth's pool; null when there is none. */
  async userIdByEmail(pool: pg.Pool, email: string): Promise<string | null> {
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM "user" WHERE lower(email) = lower($1)', [email]);
    return rows[0]?.id ?? null;
  }
}
