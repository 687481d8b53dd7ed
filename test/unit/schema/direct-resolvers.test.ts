import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, execute, parse, printSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { Field, FieldResolver, ObjectType, Query, Resolver, Root, UseMiddleware, buildSchema } from 'type-graphql';
import { buildDomainSchema } from '../../../schema/build-schema.js';
import { DIRECT_RESOLVERS, installDirectResolvers, removePlainFieldResolvers } from '../../../src/platform/fast-path/direct-resolvers.js';
import { LoaderRegistry, type RequestContext } from '../../../src/platform/context.js';
import { ProjectCountRegistry, type ProjectCountRows, type ProjectService } from '../../../src/projects/index.js';
import { ProjectResolver, type ProjectType } from '../../../src/projects/graphql.js';
import type { ProjectRecord } from '../../../src/projects/project.entity.js';

const record = (id: string): ProjectRecord =>
  ({ id, organizationId: 'org', name: `p${id}`, url: `https://${id}.example/`, domain: `${id}.example`, settings: {}, createdAt: new Date(Date.UTC(2026, 0, Number(id))) }) as ProjectRecord;

/** Counts from memory; records every read so a test can see one batch per list. */
class MemoryCounts extends ProjectCountRegistry {
  readonly batches: string[][] = [];
  override read(_db: unknown, projects: readonly ProjectType[]): Promise<ProjectCountRows> {
    this.batches.push(projects.map((p) => p.id));
    const rows = projects.flatMap((p) => [
      { field: 'audits' as const, project_id: p.id, n: Number(p.id) },
      { field: 'keywords' as const, project_id: p.id, n: Number(p.id) * 10 },
    ]);
    return Promise.resolve({ rows });
  }
}

async function domainSchema(counts: ProjectCountRegistry) {
  const service = { list: async () => ({ rows: ['1', '2', '3'].map(record) }), get: async (_em: unknown, _p: unknown, id: string) => record(id) } as unknown as ProjectService;
  const instances = new Map<unknown, unknown>([[ProjectResolver, new ProjectResolver(service, counts)]]);
  // Resolvers the query does not reach only need to exist for the install step.
  return buildDomainSchema({ get: (cls) => instances.get(cls) ?? {} });
}

const context = (): RequestContext => ({ principal: null, em: undefined as never, db: undefined as never, loaders: new LoaderRegistry(), requestId: 't' });

describe('direct field resolvers', () => {
  it('Project.counts is a plain field the list fills: one batch for the whole list, in graphql-js and graphql-jit', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    expect((schema.getType('Project') as GraphQLObjectType).getFields().counts.resolve).toBeUndefined();
    const document = parse('{ projects { id createdAt counts { audits keywords competitors } } }');
    const expected = {
      projects: [
        { id: '1', createdAt: '2026-01-01T00:00:00.000Z', counts: { audits: 1, keywords: 10, competitors: 0 } },
        { id: '2', createdAt: '2026-01-02T00:00:00.000Z', counts: { audits: 2, keywords: 20, competitors: 0 } },
        { id: '3', createdAt: '2026-01-03T00:00:00.000Z', counts: { audits: 3, keywords: 30, competitors: 0 } },
      ],
    };
    const result = await execute({ schema, document, contextValue: context() });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('does not compile');
    const jit = await compiled.query(undefined, context(), {});
    expect(jit.errors).toBeUndefined();
    expect(jit.data).toEqual(expected);
    expect(counts.batches).toEqual([['1', '2', '3'], ['1', '2', '3']]);
  });

  it('counts are read only when selected, and a single project fills its own', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    const plain = await execute({ schema, document: parse('{ projects { id } p: project(id: "2") { id } }'), contextValue: context() });
    expect(plain.errors).toBeUndefined();
    expect(counts.batches).toEqual([]);
    const single = await execute({ schema, document: parse('{ project(id: "2") { id ... on Project { counts { keywords } } } }'), contextValue: context() });
    expect(single.errors).toBeUndefined();
    expect(single.data).toEqual({ project: { id: '2', counts: { keywords: 20 } } });
    expect(counts.batches).toEqual([['2']]);
  });

  it('a project returned without its counts filled is a loud GraphQL error, not a silent null', async () => {
    const schema = await domainSchema(new (class extends MemoryCounts {
      override fill(): void {}
    })());
    const result = await execute({ schema, document: parse('{ project(id: "1") { counts { audits } } }'), contextValue: context() });
    expect(result.errors?.[0].message).toMatch(/non-nullable field Project.counts/);
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

@ObjectType('PlainFieldsProbe')
class PlainFieldsProbe {
  @Field(() => String) plain!: string;
  @Field(() => String, { name: 'renamed' }) storedUnderAnotherName!: string;
  @UseMiddleware(async (_data, next) => `${await next()}!`)
  @Field(() => String)
  guarded!: string;
  @Field(() => String) computed?: string;
}

@Resolver(() => PlainFieldsProbe)
class PlainFieldsProbeResolver {
  @Query(() => [PlainFieldsProbe])
  probes(): PlainFieldsProbe[] {
    return [{ plain: 'a', storedUnderAnotherName: 'b', guarded: 'c' }];
  }

  @FieldResolver(() => String)
  computed(@Root() probe: PlainFieldsProbe): string {
    return `${probe.plain}+`;
  }
}

describe('plain @Field properties', () => {
  it('lose the resolver type-graphql gives them, unless renamed, guarded by a middleware or resolved by a method', async () => {
    const schema = await buildSchema({ resolvers: [PlainFieldsProbeResolver], validate: false });
    const fields = (schema.getType('PlainFieldsProbe') as GraphQLObjectType).getFields();
    expect(Object.values(fields).every((f) => f.resolve)).toBe(true); // what type-graphql builds

    expect(removePlainFieldResolvers(schema)).toBe(1);
    expect(fields.plain.resolve).toBeUndefined();
    expect(fields.renamed.resolve).toBeDefined();
    expect(fields.guarded.resolve).toBeDefined();
    expect(fields.computed.resolve).toBeDefined();

    // graphql-js and graphql-jit (which reads resolver-less fields inline) answer as before.
    const document = parse('{ probes { plain renamed guarded computed } }');
    const expected = { probes: [{ plain: 'a', renamed: 'b', guarded: 'c!', computed: 'a+' }] };
    expect((await execute({ schema, document })).data).toEqual(expected);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('does not compile');
    expect((await compiled.query(undefined, {}, {})).data).toEqual(expected);
  });

  it('in the domain schema, only @Query/@Mutation fields and @FieldResolver methods keep a resolver', async () => {
    const schema = await buildDomainSchema();
    const project = (schema.getType('Project') as GraphQLObjectType).getFields();
    const withResolver = Object.keys(project).filter((name) => project[name].resolve);
    expect(withResolver.sort()).toEqual(['lastAuditScore', 'latestAudit', 'scoreChange']);
    const counts = (schema.getType('ProjectCounts') as GraphQLObjectType).getFields();
    expect(Object.values(counts).some((f) => f.resolve)).toBe(false);
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      expect(Object.values(root.getFields()).every((f) => f.resolve)).toBe(true);
    }
  });

  it('Query.projects is installed directly and fills the counts when they are selected', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    const seen: unknown[] = [];
    const original = ProjectResolver.prototype.projects;
    ProjectResolver.prototype.projects = function (this: ProjectResolver, ctx, info) {
      seen.push(ctx);
      return original.call(this, ctx, info);
    };
    try {
      const compiled = compileQuery(schema, parse('{ projects { id counts { audits } } }'));
      if (!isCompiledQuery(compiled)) throw new Error('does not compile');
      const ctx = context();
      const result = await compiled.query(undefined, ctx, {});
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ projects: [1, 2, 3].map((n) => ({ id: String(n), counts: { audits: n } })) });
      expect(seen).toEqual([ctx]);
      expect(counts.batches).toEqual([['1', '2', '3']]);
    } finally {
      ProjectResolver.prototype.projects = original;
    }
  });
});

describe('the project list reads only the columns its operation selects', () => {
  it('asks for url and settings only when the operation selects them, directly or in a fragment', async () => {
    const asked: unknown[] = [];
    const service = {
      list: async (_db: unknown, _principal: unknown, columns: unknown) => {
        asked.push(columns);
        return { rows: ['1'].map(record) };
      },
    } as unknown as ProjectService;
    const instances = new Map<unknown, unknown>([[ProjectResolver, new ProjectResolver(service, new MemoryCounts())]]);
    const schema = await buildDomainSchema({ get: (cls) => instances.get(cls) ?? {} });
    const run = async (query: string) => {
      const result = await execute({ schema, document: parse(query), contextValue: context() });
      expect(result.errors).toBeUndefined();
      return result.data;
    };
    expect(await run('{ projects { id name domain createdAt } }')).toEqual({ projects: [{ id: '1', name: 'p1', domain: '1.example', createdAt: '2026-01-01T00:00:00.000Z' }] });
    await run('{ projects { link: url } }');
    await run('{ projects { ...S } } fragment S on Project { settings { maxPages } }');
    await run('{ projects { ... on Project { url settings { userAgent } } } }');
    expect(asked).toEqual([
      { url: false, settings: false },
      { url: true, settings: false },
      { url: false, settings: true },
      { url: true, settings: true },
    ]);
  });
});

