import type { EntityManager } from '@mikro-orm/postgresql';
import { PLANS, type Plan } from '../platform/config.js';
import type { MemberRole, Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { requirePrincipal } from './access.js';
import { IdentityRepository, type MemberRecord, type OrganizationRecord } from './identity.repository.js';

export type { MemberRecord, OrganizationRecord };

export interface Membership {
  organizationId: string;
  plan: Plan;
  role: MemberRole;
}

/** Reads better-auth's organization tables (it owns them) and sets plans, which only the server may do. */
export class OrganizationService {
  constructor(private readonly repo = new IdentityRepository()) {}

  /** The session's active organization if it is a member of it, else its oldest membership. */
  async membershipForUser(
    db: NativeDb,
    userId: string,
    activeOrganizationId?: string | null,
  ): Promise<Membership | null> {
    const [row] = await this.repo.membershipForUser(db, userId, activeOrganizationId ?? '');
    return row ? { organizationId: row.organization_id, plan: row.plan, role: row.role } : null;
  }

  async current(em: EntityManager, principal: Principal | null): Promise<OrganizationRecord> {
    const p = requirePrincipal(principal);
    const org = await this.byId(em, p.organizationId);
    if (!org) throw notFound('Organization');
    return org;
  }

  byId(db: NativeDb, id: string): Promise<OrganizationRecord | null> {
    return this.repo.organizationById(db, id);
  }

  async members(em: EntityManager, principal: Principal | null): Promise<MemberRecord[]> {
    const p = requirePrincipal(principal);
    return this.repo.members(em, p.organizationId);
  }

  /** The id of the organization whose id or slug is `ref`, or null. */
  idByRef(db: NativeDb, ref: string): Promise<string | null> {
    return this.repo.organizationIdByRef(db, ref);
  }

  /** Every organization, oldest first (server-side only: the CLI's `seo org list`). */
  all(db: NativeDb): ReturnType<IdentityRepository['allOrganizations']> {
    return this.repo.allOrganizations(db);
  }

  /** Server-side only (CLI / billing): plans are never user input on the public API. */
  async setPlan(em: EntityManager, organizationId: string, plan: string): Promise<OrganizationRecord> {
    if (!(PLANS as readonly string[]).includes(plan))
      throw badInput(`Unknown plan "${plan}"; use one of ${PLANS.join(', ')}.`);
    if (!(await this.repo.setPlan(em, organizationId, plan as Plan))) throw notFound('Organization');
    return (await this.byId(em, organizationId))!;
  }
}
