import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildDomainSchema } from '../../../schema/build-schema.js';

/**
 * schema/build-schema.ts turns on type-graphql's simpleResolvers for every object type, which skips middlewares and the
 * auth checker on plain fields. That is only the same schema while there are none: these tests fail the day one is
 * added, so that whoever adds it decides which types must opt out.
 */
describe('simple resolvers for plain fields', () => {
  it('the schema declares no middleware and no @Authorized, which simpleResolvers would skip', async () => {
    await buildDomainSchema();
    const storage = getMetadataStorage();
    expect(storage.middlewares).toEqual([]);
    expect(storage.resolverMiddlewares).toEqual([]);
    expect(storage.authorizedFields).toEqual([]);
    expect(storage.authorizedResolver).toEqual([]);
  });

  it('plain fields have no resolver of their own; field resolvers keep theirs', async () => {
    const schema = await buildDomainSchema();
    const storage = getMetadataStorage();
    const withResolver = new Set(
      storage.fieldResolvers.map(
        (r) => `${storage.objectTypes.find((o) => o.target === r.getObjectType?.())?.name}.${r.schemaName}`,
      ),
    );
    const plainWithResolver: string[] = [];
    let plain = 0;
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || ['Query', 'Mutation'].includes(type.name)) continue;
      for (const field of Object.values(type.getFields())) {
        const key = `${type.name}.${field.name}`;
        if (withResolver.has(key)) {
          expect(field.resolve, key).toBeTypeOf('function');
          continue;
        }
        plain++;
        if (field.resolve) plainWithResolver.push(key);
      }
    }
    expect(plain).toBeGreaterThan(100);
    expect(plainWithResolver).toEqual([]);
    expect(withResolver.has('Project.lastAuditScore')).toBe(true);
  });
});
