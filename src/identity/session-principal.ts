import type { SessionCookieRules } from '../platform/fast-path/session-principal.js';
import { SESSION_COOKIE, SESSION_EXPIRES_IN_SEC, SESSION_UPDATE_AGE_SEC } from './auth.js';
import { IdentityRepository } from './identity.repository.js';

/**
 * What the session fast path (src/platform/fast-path/session-principal.ts) needs of this module's auth setup,
 * its one read included (IdentityRepository.sessionByToken: the session, its user and its membership).
 */
export const sessionCookieRules = (secret: string, repo = new IdentityRepository()): SessionCookieRules => ({
  cookieName: SESSION_COOKIE,
  secret,
  expiresInSec: SESSION_EXPIRES_IN_SEC,
  updateAgeSec: SESSION_UPDATE_AGE_SEC,
  readSession: (db, token) => repo.sessionByToken(db, token),
});
