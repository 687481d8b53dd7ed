/**
 * The plain-fields shortcut (src/platform/fast-path/plain-fields.ts) against the schema type-graphql builds without
 * it: which resolvers it removes, and, for generated projects and generated project queries, the same answers from
 * the domain schema with and without it, in graphql-js and in graphql-jit.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, parse, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { Field, FieldResolver, ObjectType, Query, Resolver, Root, UseMiddleware, buildSchema } from 'type-graphql';
import { buildDomainSchema } from '../../../schema/build-schema.js';
import { LoaderRegistry, type RequestContext } from '../../../src/platform/context.js';
import { DomainError } from '../../../src/platform/errors.js';
import { removePlainFieldResolvers } from '../../../src/platform/fast-path/plain-fields.js';
import { fastPaths } from '../../../src/platform/fast-path/switches.js';
import { ProjectCountRegistry, type ProjectCountRows, type ProjectRecord, type ProjectService } from '../../../src/projects/index.js';
import { ProjectResolver, type ProjectType } from '../../../src/projects/graphql.js';
import { ProjectAuditFieldsResolver } from '../../../src/audits/graphql.js';

/** The projects the stub service returns in the current run. */
let current: ProjectRecord[] = [];

const service = {
  list: async (_db: unknown, _principal: unknown, columns: { url: boolean; settings: boolean }) => ({
    // As the real list: the optional columns only when the operation selects them.
    rows: current.map(({ url, settings, ...rest }) => ({ ...rest, ...(columns.url ? { url } : {}), ...(columns.settings ? { settings } : {}) })),
  }),
  get: async (_em: unknown, _principal: unknown, id: string) => {
    const found = current.find((p) => p.id === id);
    if (!found) throw new DomainError('NOT_FOUND', 'Project not found');
    return found;
  },
} as unknown as ProjectService;

/** Counters derived from the id, read in one batch as the registry does. */
class MemoryCounts extends ProjectCountRegistry {
  override read(_db: unknown, projects: readonly ProjectType[]): Promise<ProjectCountRows> {
    const rows = projects.flatMap((p) => [
      { field: 'audits' as const, project_id: p.id, n: p.id.length },
      { field: 'keywords' as const, project_id: p.id, n: p.id.charCodeAt(0) || 0 },
    ]);
    return Promise.resolve({ rows });
  }
}

/** Audit facts without a database: a score for some projects, null for others. */
class MemoryAuditFields extends ProjectAuditFieldsResolver {
  override lastAuditScore(project: ProjectType): Promise<number | null> {
    return Promise.resolve(project.id.length % 3 ? (project.id.length * 7) % 101 : null);
  }
  override scoreChange(project: ProjectType): Promise<number | null> {
    return Promise.resolve(project.id.length % 2 ? -3 : null);
  }
  override latestAudit(): Promise<null> {
    return Promise.resolve(null);
  }
}

const instances = new Map<unknown, unknown>([
  [ProjectResolver, new ProjectResolver(service, new MemoryCounts())],
  [ProjectAuditFieldsResolver, new MemoryAuditFields()],
]);
const container = { get: (cls: unknown) => instances.get(cls) ?? {} };

let withShortcut: GraphQLSchema;
let withoutShortcut: GraphQLSchema;

beforeAll(async () => {
  withShortcut = await buildDomainSchema(container, fastPaths());
  withoutShortcut = await buildDomainSchema(container, fastPaths({ plainFields: false }));
});

const context = (): RequestContext => ({ principal: null, em: undefined as never, db: undefined as never, loaders: new LoaderRegistry(), requestId: 't' });

const settings = fc.record({
  maxPages: fc.option(fc.integer({ min: 1, max: 10_000 })),
  maxDepth: fc.option(fc.integer({ min: 0, max: 50 })),
  crawlDelayMs: fc.option(fc.nat(60_000)),
  userAgent: fc.option(fc.string()),
  respectRobots: fc.option(fc.boolean()),
  rankCountry: fc.option(fc.string({ maxLength: 2 })),
  rankLanguage: fc.option(fc.string({ maxLength: 5 })),
  rankDevice: fc.option(fc.constantFrom('desktop', 'mobile')),
  rankIncludeSubdomains: fc.option(fc.boolean()),
});
const project = fc.record({
  id: fc.string({ minLength: 1, maxLength: 12 }),
  organizationId: fc.constant('org'),
  name: fc.string(),
  url: fc.webUrl(),
  domain: fc.domain(),
  settings: fc.option(settings, { nil: undefined }).map((s) => s ?? {}),
  createdAt: fc.oneof(fc.date({ noInvalidDate: true }), fc.integer({ min: 0, max: 253_402_300_799_999 }).map((ms) => new Date(ms))),
}) as fc.Arbitrary<ProjectRecord>;
const projects = fc.uniqueArray(project, { maxLength: 25, selector: (p) => p.id });

const FIELDS = [
  'id', 'name', 'url', 'domain', 'createdAt', 'lastAuditScore', 'scoreChange', 'latestAudit { id }',
  'counts { audits keywords competitors }', 'counts { keywords }',
  'settings { maxPages maxDepth crawlDelayMs userAgent respectRobots rankCountry rankLanguage rankDevice rankIncludeSubdomains }',
  'settings { userAgent }', '__typename',
];
/** A selection of Project fields, some aliased, some inside an inline or named fragment. */
const selection = fc
  .tuple(fc.subarray(FIELDS, { minLength: 1 }), fc.array(fc.boolean(), { minLength: FIELDS.length, maxLength: FIELDS.length }), fc.constantFrom('plain', 'inline', 'named'))
  .map(([fields, aliased, wrap]) => {
    const body = fields.map((f, i) => (aliased[i] ? `a${i}: ${f}` : f)).join(' ');
    return { body: wrap === 'plain' ? body : wrap === 'inline' ? `... on Project { ${body} }` : '...F', fragment: wrap === 'named' ? `fragment F on Project { ${body} }` : '' };
  });
const query = fc.tuple(selection, fc.constantFrom('list', 'one', 'missing'), fc.nat()).map(([sel, root, pick]) => ({ sel, root, pick }));

async function run(schema: GraphQLSchema, source: string) {
  const document = parse(source);
  const viaJs = await execute({ schema, document, contextValue: context() });
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`does not compile: ${JSON.stringify(compiled)}`);
  const viaJit = await compiled.query(undefined, context(), {});
  // Plain JSON, as the transports send it.
  return JSON.parse(JSON.stringify({ js: viaJs, jit: viaJit })) as unknown;
}

describe('the plain-fields shortcut, proven equal to type-graphql alone (fast-check)', () => {
  it('answers every generated project query as the schema type-graphql builds does', async () => {
    await fc.assert(
      fc.asyncProperty(projects, query, async (rows, { sel, root, pick }) => {
        current = rows;
        const id = root === 'missing' || rows.length === 0 ? 'no-such-project' : rows[pick % rows.length].id;
        const field = root === 'list' ? 'projects' : `project(id: ${JSON.stringify(id)})`;
        const source = `{ ${field} { ${sel.body} } } ${sel.fragment}`;
        const expected = await run(withoutShortcut, source);
        expect(await run(withShortcut, source), source).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  }, 300_000);
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
});
