import type { EntityManager } from '@mikro-orm/postgresql';
import type { Channel, Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Auth } from './auth.js';
import type { ApiKeyService } from './api-key.service.js';
import type { OrganizationService } from './organization.service.js';
import { principalFromSessionCookie } from './session-principal.js';

/** Bearer key or session cookie -> the one Principal shape every service takes. */
export class PrincipalResolver {
  constructor(
    private readonly auth: Auth,
    private readonly apiKeys: ApiKeyService,
    private readonly organizations: OrganizationService,
    /** The secret better-auth signs session cookies with. */
    private readonly sessionSecret: string,
  ) {}

  /** Not an async function: this runs on every Surface A request, and an async frame is one more promise. */
  fromApiKey(db: NativeDb, key: string, channel: Channel): Promise<Principal | null> {
    return this.apiKeys.principalFor(db, key, channel);
  }

  /**
   * A session cookie: read directly (principalFromSessionCookie, one statement) for the sessions better-auth would
   * simply return; better-auth's getSession decides the rest (expired, due for refresh, an unusual signature).
   */
  async fromSession(em: EntityManager, cookie: string, headers: () => Headers, channel: Channel): Promise<Principal | null> {
    const direct = await principalFromSessionCookie(em, cookie, this.sessionSecret, channel);
    if (direct !== undefined) return direct;
    const session = await this.auth.api.getSession({ headers: headers() }).catch(() => null);
    if (!session) return null;
    const active = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId;
    const membership = await this.organizations.membershipForUser(em, session.user.id, active);
    if (!membership) return null;
    return { ...membership, via: 'SESSION', channel, userId: session.user.id };
  }
}
