/**
 * The schema shortcuts of src/platform/fast-path/ (direct resolvers, plain fields, the ISO date formatter) against
 * the schema type-graphql and graphql-scalars build without them: for generated projects and generated project
 * queries, the domain schema answers the same, in graphql-js and in graphql-jit, with every combination of the three
 * switched on or off.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, parse, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildDomainSchema } from '../../../schema/build-schema.js';
import { LoaderRegistry, type RequestContext } from '../../../src/platform/context.js';
import { DomainError } from '../../../src/platform/errors.js';
import { fastPaths, type FastPathSwitches } from '../../../src/platform/fast-path/switches.js';
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

const COMBINATIONS: FastPathSwitches[] = [];
for (const directResolvers of [true, false])
  for (const plainFields of [true, false])
    for (const isoDate of [true, false]) COMBINATIONS.push(fastPaths({ directResolvers, plainFields, isoDate }));
const schemas = new Map<FastPathSwitches, GraphQLSchema>();

beforeAll(async () => {
  for (const switches of COMBINATIONS) schemas.set(switches, await buildDomainSchema(container, switches));
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
  // The whole Date range: isoString formats 1970..9999 itself and hands the rest to Date#toISOString.
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

describe('the schema shortcuts, proven equal to the library schema (fast-check)', () => {
  it('answer every generated project query as type-graphql and graphql-scalars alone do', async () => {
    const library = schemas.get(COMBINATIONS.at(-1)!)!;
    await fc.assert(
      fc.asyncProperty(projects, query, fc.constantFrom(...COMBINATIONS.slice(0, -1)), async (rows, { sel, root, pick }, switches) => {
        current = rows;
        const id = root === 'missing' || rows.length === 0 ? 'no-such-project' : rows[pick % rows.length].id;
        const field = root === 'list' ? 'projects' : `project(id: ${JSON.stringify(id)})`;
        const source = `{ ${field} { ${sel.body} } } ${sel.fragment}`;
        const expected = await run(library, source);
        expect(await run(schemas.get(switches)!, source), `${JSON.stringify(switches)}: ${source}`).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  }, 300_000);
});
