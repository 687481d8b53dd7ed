import type { EntityManager } from '@mikro-orm/postgresql';
import type { Channel, Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Auth } from './auth.js';
import type { ApiKeyService } from './api-key.service.js';
import type { OrganizationService } from './organization.service.js';

/** Bearer key or session cookie -> the one Principal shape every service takes. */
export class PrincipalResolver {
  constructor(
    private readonly auth: Auth,
    private readonly apiKeys: ApiKeyService,
    private readonly organizations: OrganizationService,
  ) {}

  /** Not an async function: this runs on every Surface A request, and an async frame is one more promise. */
  fromApiKey(db: NativeDb, key: string, channel: Channel): Promise<Principal | null> {
    return this.apiKeys.principalFor(db, key, channel);
  }

  async fromSession(em: EntityManager, headers: Headers, channel: Channel): Promise<Principal | null> {
    const session = await this.auth.api.getSession({ headers }).catch(() => null);
    if (!session) return null;
    const active = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId;
    const membership = await this.organizations.membershipForUser(em, session.user.id, active);
    if (!membership) return null;
    return { ...membership, via: 'SESSION', channel, userId: session.user.id };
  }
}
