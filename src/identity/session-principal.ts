import type { SessionCookieRules } from '../platform/fast-path/session-principal.js';
import { SESSION_COOKIE, SESSION_EXPIRES_IN_SEC, SESSION_UPDATE_AGE_SEC } from './auth.js';
import { membershipSql } from './organization.service.js';

/**
 * The session, its user and the membership that makes the principal, in one statement (better-auth's getSession
 * reads the session and the user in two, and the membership was a third). The membership is chosen by the same
 * rule as OrganizationService.membershipForUser: membershipSql, joined laterally to the session row.
 */
const SESSION_SQL = `SELECT s."expiresAt" AS expires_at, s."userId" AS user_id, m.organization_id, m.plan, m.role
  FROM "session" s
  JOIN "user" u ON u.id = s."userId"
  LEFT JOIN LATERAL (${membershipSql('s."userId"', `COALESCE(s."activeOrganizationId", '')`)}) m ON true
  WHERE s.token = $1`;

/** What the session fast path (src/platform/fast-path/session-principal.ts) needs of this module's auth setup. */
export const sessionCookieRules = (secret: string): SessionCookieRules => ({
  cookieName: SESSION_COOKIE,
  secret,
  expiresInSec: SESSION_EXPIRES_IN_SEC,
  updateAgeSec: SESSION_UPDATE_AGE_SEC,
  sessionSql: SESSION_SQL,
});
