import type { EntityManager } from '@mikro-orm/postgresql';
import { PLANS, type Plan } from '../platform/config.js';
import type { MemberRole, Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { requirePrincipal } from './access.js';

export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  plan: Plan;
  createdAt: Date;
}

export interface Membership {
  organizationId: string;
  plan: Plan;
  role: MemberRole;
}

export interface MemberRecord {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: MemberRole;
  createdAt: Date;
}

/**
 * The membership a user acts through: the one of the session's active organization if the user is a member of
 * it, else the oldest. The one statement of that rule, over two SQL expressions: the user's id and the active
 * organization's id ('' when there is none). membershipForUser runs it with parameters; the session read
 * (session-principal.ts) joins it laterally to the session row.
 */
export const membershipSql = (userId: string, activeOrganizationId: string): string =>
  `SELECT m."organizationId" AS organization_id, o.plan, m.role FROM "member" m JOIN "organization" o ON o.id = m."organizationId"
   WHERE m."userId" = ${userId} ORDER BY (m."organizationId" = ${activeOrganizationId}) DESC, m."createdAt" ASC LIMIT 1`;

const MEMBERSHIP_SQL = membershipSql('$1', '$2');

/** Reads better-auth's organization tables (it owns them) and sets plans, which only the server may do. */
export class OrganizationService {
  /** The session's active organization if it is a member of it, else its oldest membership. */
  async membershipForUser(em: EntityManager, userId: string, activeOrganizationId?: string | null): Promise<Membership | null> {
    const rows = await nativeQuery<{ organization_id: string; plan: Plan; role: MemberRole }>(em, MEMBERSHIP_SQL, [userId, activeOrganizationId ?? '']);
    const row = rows[0];
    return row ? { organizationId: row.organization_id, plan: row.plan, role: row.role } : null;
  }

  async current(em: EntityManager, principal: Principal | null): Promise<OrganizationRecord> {
    const p = requirePrincipal(principal);
    const org = await this.byId(em, p.organizationId);
    if (!org) throw notFound('Organization');
    return org;
  }

  // Through nativeQuery: the ORM connection leaves timestamptz columns as strings (MikroORM hydrates dates
  // itself), which the DateTimeISO scalar refuses; these rows are not entities.
  async byId(em: EntityManager, id: string): Promise<OrganizationRecord | null> {
    const rows = await nativeQuery<OrganizationRecord>(em, 'SELECT id, name, slug, plan, "createdAt" AS "createdAt" FROM "organization" WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async members(em: EntityManager, principal: Principal | null): Promise<MemberRecord[]> {
    const p = requirePrincipal(principal);
    return nativeQuery<MemberRecord>(
      em,
      `SELECT m.id, m."userId" AS "userId", u.email, u.name, m.role, m."createdAt" AS "createdAt"
       FROM "member" m JOIN "user" u ON u.id = m."userId" WHERE m."organizationId" = $1 ORDER BY m."createdAt"`,
      [p.organizationId],
    );
  }

  /** Server-side only (CLI / billing): plans are never user input on the public API. */
  async setPlan(em: EntityManager, organizationId: string, plan: string): Promise<OrganizationRecord> {
    if (!(PLANS as readonly string[]).includes(plan)) throw badInput(`Unknown plan "${plan}"; use one of ${PLANS.join(', ')}.`);
    const res = await em.getConnection().execute('UPDATE "organization" SET plan = ? WHERE id = ?', [plan, organizationId], 'run');
    if (!(res as { affectedRows?: number }).affectedRows) throw notFound('Organization');
    return (await this.byId(em, organizationId))!;
  }
}
