import type { AppConfig, Plan, PlanQuota } from '../platform/config.js';
import type { MemberRole, Principal } from '../platform/context.js';
import { DomainError } from '../platform/errors.js';

const PLAN_NAMES: Record<Plan, string> = { FREE: 'Free', PRO: 'Pro', ENTERPRISE: 'Enterprise' };

/** What a plan allows through the API (Surface A, Surface B and key-authenticated GraphQL). */
export type ApiAccessLevel = 'NONE' | 'READ_ONLY' | 'FULL';
const API_ACCESS: Record<Plan, ApiAccessLevel> = { FREE: 'NONE', PRO: 'READ_ONLY', ENTERPRISE: 'FULL' };

/** The plan rule (docs/api.md), stated once: assertApiAccess enforces it, Organization.apiAccess reports it. */
export const apiAccessFor = (plan: Plan): ApiAccessLevel => API_ACCESS[plan];

/**
 * API access is plan-gated on both REST surfaces and for key-authenticated GraphQL; the first-party
 * dashboard (a session on /graphql) manages projects on every plan, within quotas (docs/api.md).
 */
export function isPlanGated(p: Principal): boolean {
  if (p.via === 'SYSTEM') return false;
  return !(p.channel === 'GRAPHQL' && p.via === 'SESSION');
}

export function requirePrincipal(p: Principal | null): Principal {
  if (!p) throw new DomainError('UNAUTHENTICATED', 'Unauthorized. Please sign in or provide a valid API key.');
  return p;
}

/** Read = queries and GETs; write = any mutation. */
export function assertApiAccess(principal: Principal | null, access: 'read' | 'write'): Principal {
  const p = requirePrincipal(principal);
  if (!isPlanGated(p)) return p;
  const level = apiAccessFor(p.plan);
  if (level === 'NONE') {
    throw new DomainError('FORBIDDEN', 'The Free plan includes the free tools only; upgrade to Pro for API access.');
  }
  if (level === 'READ_ONLY' && access === 'write') {
    throw new DomainError('FORBIDDEN', 'The Pro plan has read-only API access; upgrade to Enterprise to make changes.');
  }
  return p;
}

export function requireRole(principal: Principal | null, roles: MemberRole[]): Principal {
  const p = requirePrincipal(principal);
  if (p.via === 'SYSTEM') return p;
  if (p.via !== 'SESSION' || !roles.includes(p.role)) {
    throw new DomainError('FORBIDDEN', `Only organization ${roles.join('s or ')}s can do this.`);
  }
  return p;
}

export function quotaFor(config: Pick<AppConfig, 'quotas'>, plan: Plan): PlanQuota {
  return config.quotas[plan];
}

/** `current` rows exist and `adding` more are asked for (all or nothing). */
export function assertWithinQuota(current: number, max: number, what: string, plan: Plan, adding = 1): void {
  if (current + adding > max) {
    const room = adding > 1 ? ` (${Math.max(0, max - current)} more can be added)` : '';
    throw new DomainError(
      'PLAN_LIMIT',
      `Plan limit reached: the ${PLAN_NAMES[plan]} plan allows ${max} ${what}${room}.`,
    );
  }
}
