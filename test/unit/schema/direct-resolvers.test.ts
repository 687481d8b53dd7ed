import 'reflect-metadata';
import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, execute, parse, printSchema } from 'graphql';
import { buildDomainSchema, installDirectResolvers } from '../../../schema/build-schema.js';
import { DIRECT_RESOLVERS } from '../../../src/platform/direct-resolvers.js';
import { LoaderRegistry, type RequestContext } from '../../../src/platform/context.js';
import { ProjectCountRegistry, ProjectCountsResolver, ProjectResolver, type ProjectService, type ProjectCountsType } from '../../../src/projects/index.js';
import type { ProjectRecord } from '../../../src/projects/project.entity.js';

const record = (id: string): ProjectRecord =>
  ({ id, organizationId: 'org', name: `p${id}`, url: `https://${id}.example/`, domain: `${id}.example`, settings: {}, createdAt: new Date(Date.UTC(2026, 0, Number(id))) }) as ProjectRecord;

/** Counts from memory; records every batch so the test can see that the direct resolver still batches. */
class MemoryCounts extends ProjectCountRegistry {
  readonly batches: string[][] = [];
  override loader(ctx: RequestContext): DataLoader<string, ProjectCountsType> {
    return ctx.loaders.get('projects.counts', () =>
      new DataLoader<string, ProjectCountsType>(async (ids) => {
        this.batches.push([...ids]);
        return ids.map((id) => ({ audits: Number(id), keywords: Number(id) * 10, competitors: 0 }));
      }),
    );
  }
}

async function domainSchema(counts: MemoryCounts) {
  const service = { list: async () => ['1', '2', '3'].map(record) } as unknown as ProjectService;
  const instances = new Map<unknown, unknown>([
    [ProjectResolver, new ProjectResolver(service)],
    [ProjectCountsResolver, new ProjectCountsResolver(counts)],
  ]);
  // Resolvers the query does not reach only need to exist for the install step.
  return buildDomainSchema({ get: (cls) => instances.get(cls) ?? {} });
}

const context = (): RequestContext => ({ principal: null, em: undefined as never, db: undefined as never, loaders: new LoaderRegistry(), requestId: 't' });

describe('direct field resolvers', () => {
  it('Project.counts resolves through the @FieldResolver method, one batch for the whole list', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    const result = await execute({ schema, document: parse('{ projects { id createdAt counts { audits keywords competitors } } }'), contextValue: context() });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      projects: [
        { id: '1', createdAt: '2026-01-01T00:00:00.000Z', counts: { audits: 1, keywords: 10, competitors: 0 } },
        { id: '2', createdAt: '2026-01-02T00:00:00.000Z', counts: { audits: 2, keywords: 20, competitors: 0 } },
        { id: '3', createdAt: '2026-01-03T00:00:00.000Z', counts: { audits: 3, keywords: 30, competitors: 0 } },
      ],
    });
    expect(counts.batches).toEqual([['1', '2', '3']]);
  });

  it('installs the direct function in place of the type-graphql wrapper', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    const seen: unknown[] = [];
    const original = ProjectCountsResolver.prototype.counts;
    ProjectCountsResolver.prototype.counts = function (this: ProjectCountsResolver, project, ctx) {
      seen.push(project);
      return original.call(this, project, ctx);
    };
    try {
      // type-graphql would copy a plain-object root into a new ProjectType; the direct resolver passes it through.
      const root = { id: '7' };
      const resolve = (schema.getType('Project') as GraphQLObjectType).getFields().counts.resolve!;
      await expect(resolve(root, {}, context(), undefined as never)).resolves.toEqual({ audits: 7, keywords: 70, competitors: 0 });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBe(root);
    } finally {
      ProjectCountsResolver.prototype.counts = original;
    }
  });

  it('the printed schema is the same with or without direct resolvers', async () => {
    expect(printSchema(await domainSchema(new MemoryCounts()))).toBe(printSchema(await buildDomainSchema()));
  });

  it('refuses a coordinate that names no field resolver, instead of silently adding behaviour', () => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { plain: { type: GraphQLString } } }),
    });
    class Bad {
      [DIRECT_RESOLVERS]() {
        return { 'Query.plain': () => 'x' };
      }
    }
    expect(() => installDirectResolvers(schema, [new Bad()])).toThrow(/Bad: direct resolver for Query.plain/);
    expect(() => installDirectResolvers(schema, [{ [DIRECT_RESOLVERS]: () => ({ 'Nope.field': () => 1 }) }])).toThrow(/Nope.field/);
  });
});
