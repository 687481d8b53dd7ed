export { createAuth, insertOrganization, SESSION_COOKIE, type Auth } from './auth.js';
export { ApiKeyEntity, type ApiKey } from './api-key.entity.js';
export { ApiKeyService, MAX_ACTIVE_KEYS, hashApiKey } from './api-key.service.js';
export { OrganizationService, type OrganizationRecord, type Membership } from './organization.service.js';
export { IdentityRepository } from './identity.repository.js';
export { UserAdminService } from './user-admin.service.js';
export { PrincipalResolver } from './principal-resolver.js';
export { HOUR_MS, MINUTE_MS, RateLimiter, RATE_LIMITS, type RateLimitResult, type RateRule } from './rate-limit.js';
export {
  assertApiAccess,
  apiAccessFor,
  requirePrincipal,
  requireRole,
  isPlanGated,
  quotaFor,
  assertWithinQuota,
  type ApiAccessLevel,
} from './access.js';
