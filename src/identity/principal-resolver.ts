import type { EntityManager } from '@mikro-orm/postgresql';
import type { Channel, Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { principalFromSessionCookie, type SessionCookieRules } from '../platform/fast-path/session-principal.js';
import type { Auth } from './auth.js';
import type { ApiKeyService } from './api-key.service.js';
import type { OrganizationService } from './organization.service.js';
import { sessionCookieRules } from './session-principal.js';

/** Bearer key or session cookie -> the one Principal shape every service takes. */
export class PrincipalResolver {
  /** The session fast path's rules, or null when it is switched off (FastPathSwitches.sessionCookie). */
  private readonly sessionRules: SessionCookieRules | null;

  constructor(
    private readonly auth: Auth,
    private readonly apiKeys: ApiKeyService,
    private readonly organizations: OrganizationService,
    /** The secret better-auth signs session cookies with. */
    sessionSecret: string,
    options: { sessionFastPath?: boolean } = {},
  ) {
    this.sessionRules = options.sessionFastPath === false ? null : sessionCookieRules(sessionSecret);
  }

  /** Not an async function: this runs on every Surface A request, and an async frame is one more promise. */
  fromApiKey(db: NativeDb, key: string, channel: Channel): Promise<Principal | null> {
    return this.apiKeys.principalFor(db, key, channel);
  }

  /**
   * A session cookie: read directly (src/platform/fast-path/session-principal.ts, one statement) for the sessions
   * better-auth would simply return; better-auth's getSession decides the rest (expired, due for refresh, an
   * unusual signature).
   */
  async fromSession(
    em: EntityManager,
    cookie: string,
    headers: () => Headers,
    channel: Channel,
  ): Promise<Principal | null> {
    if (this.sessionRules) {
      const direct = await principalFromSessionCookie(em, this.sessionRules, cookie, channel);
      if (direct !== undefined) return direct;
    }
    return this.fromSessionViaLibrary(em, headers, channel);
  }

  /** The library path: better-auth's getSession, then the membership. What the fast path must agree with. */
  async fromSessionViaLibrary(em: EntityManager, headers: () => Headers, channel: Channel): Promise<Principal | null> {
    const session = await this.auth.api.getSession({ headers: headers() }).catch(() => null);
    if (!session) return null;
    const active = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId;
    const membership = await this.organizations.membershipForUser(em, session.user.id, active);
    if (!membership) return null;
    return { ...membership, via: 'SESSION', channel, userId: session.user.id };
  }
}
