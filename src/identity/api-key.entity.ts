import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: (p) => ({
    id: p.uuid().primary(),
    organizationId: p.string(),
    name: p.string(),
    prefix: p.string(),
    keyHash: p.string().unique(),
    createdBy: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  }),
});
export type ApiKey = InferEntity<typeof ApiKeyEntity>;
