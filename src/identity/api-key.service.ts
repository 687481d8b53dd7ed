import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Channel, MemberRole, Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { requireRole } from './access.js';
import type { ApiKey } from './api-key.entity.js';
import { IdentityRepository } from './identity.repository.js';

/** Every plan allows five active keys (spec §5 A.4). */
export const MAX_ACTIVE_KEYS = 5;
const KEY_PREFIX = 'seo_';
/** lastUsedAt is a hint, not an audit log: write it at most once a minute per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export class ApiKeyService {
  constructor(private readonly repo = new IdentityRepository()) {}

  async create(em: EntityManager, principal: Principal | null, name: string): Promise<{ apiKey: ApiKey; key: string }> {
    const p = requireRole(principal, ['owner', 'admin']);
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100)
      throw badInput('Key name must be 1-100 characters.', [{ path: 'name', message: 'must be 1-100 characters' }]);
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const row = {
      id: newId(),
      organizationId: p.organizationId,
      name: trimmed,
      prefix: key.slice(0, 8),
      keyHash: hashApiKey(key),
      createdBy: p.userId ?? null,
      createdAt: new Date(),
    };
    const apiKey = await this.repo.insertApiKeyLocked(em, row, (active) => {
      if (active >= MAX_ACTIVE_KEYS) {
        throw new DomainError(
          'PLAN_LIMIT',
          `Plan limit reached: at most ${MAX_ACTIVE_KEYS} active API keys per organization. Revoke one first.`,
        );
      }
    });
    return { apiKey, key };
  }

  async list(em: EntityManager, principal: Principal | null): Promise<ApiKey[]> {
    const p = requireRole(principal, ['owner', 'admin']);
    return this.repo.listApiKeys(em, p.organizationId);
  }

  async revoke(em: EntityManager, principal: Principal | null, id: string): Promise<ApiKey> {
    const p = requireRole(principal, ['owner', 'admin']);
    const apiKey = isUuid(id) ? await this.repo.findApiKey(em, p.organizationId, id) : null;
    if (!apiKey) throw notFound('API key');
    return apiKey.revokedAt ? apiKey : this.repo.markRevoked(em, apiKey, new Date());
  }

  /**
   * The hot path of every Surface A request: one indexed lookup, and a throttled lastUsedAt write. A key acts for
   * its organization with member rights: it cannot manage keys or members. Null for an unknown or revoked key.
   * The principal is made here, in the one async frame, rather than by a `.then` on a verified row: each is a
   * promise on every request.
   */
  async principalFor(db: NativeDb, key: string, channel: Channel): Promise<Principal | null> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
    const { rows } = await this.repo.verifyApiKey(db, hashApiKey(key));
    const row = rows[0];
    if (!row) return null;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      void this.repo.touchApiKey(db, row.id).catch(() => undefined);
    }
    return {
      organizationId: row.organization_id,
      plan: row.plan,
      role: 'member',
      via: 'API_KEY',
      channel,
      apiKeyId: row.id,
    };
  }
}

export type { MemberRole };
