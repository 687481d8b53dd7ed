import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildDomainSchema } from '../../../schema/build-schema.js';
import { LoaderRegistry, type RequestContext } from '../../../src/platform/context.js';
import { ProjectCountRegistry, type ProjectCountRows, type ProjectService } from '../../../src/projects/index.js';
import { ProjectResolver, type ProjectType } from '../../../src/projects/graphql.js';
import type { ProjectRecord } from '../../../src/projects/project.entity.js';

const record = (id: string): ProjectRecord =>
  ({
    id,
    organizationId: 'org',
    name: `p${id}`,
    url: `https://${id}.example/`,
    domain: `${id}.example`,
    settings: {},
    createdAt: new Date(Date.UTC(2026, 0, Number(id))),
    auditScheduleFrequency: 'OFF',
    auditScheduleTime: '09:00',
    auditScheduleTimeZone: 'UTC',
  }) as ProjectRecord;

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
  const service = {
    list: async () => ({ rows: ['1', '2', '3'].map(record) }),
    get: async (_em: unknown, _p: unknown, id: string) => record(id),
  } as unknown as ProjectService;
  const instances = new Map<unknown, unknown>([[ProjectResolver, new ProjectResolver(service, counts)]]);
  // Resolvers the query does not reach only need to exist for the install step.
  return buildDomainSchema({ get: (cls) => instances.get(cls) ?? {} });
}

const context = (): RequestContext => ({
  principal: null,
  em: undefined as never,
  db: undefined as never,
  loaders: new LoaderRegistry(),
  requestId: 't',
});

describe('Project.counts', () => {
  it('is filled by the list: one batch for the whole list, in graphql-js and graphql-jit', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
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
    expect(counts.batches).toEqual([
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
  });

  it('counts are read only when selected, and a single project fills its own', async () => {
    const counts = new MemoryCounts();
    const schema = await domainSchema(counts);
    const plain = await execute({
      schema,
      document: parse('{ projects { id } p: project(id: "2") { id } }'),
      contextValue: context(),
    });
    expect(plain.errors).toBeUndefined();
    expect(counts.batches).toEqual([]);
    const single = await execute({
      schema,
      document: parse('{ project(id: "2") { id ... on Project { counts { keywords } } } }'),
      contextValue: context(),
    });
    expect(single.errors).toBeUndefined();
    expect(single.data).toEqual({ project: { id: '2', counts: { keywords: 20 } } });
    expect(counts.batches).toEqual([['2']]);
  });

  it('a project returned without its counts filled is a loud GraphQL error, not a silent null', async () => {
    const schema = await domainSchema(
      new (class extends MemoryCounts {
        override fill(): void {}
      })(),
    );
    const result = await execute({
      schema,
      document: parse('{ project(id: "1") { counts { audits } } }'),
      contextValue: context(),
    });
    expect(result.errors?.[0].message).toMatch(/non-nullable field Project.counts/);
  });
});

describe('the project list reads only the columns its operation selects', () => {
  it('asks for url, settings and the schedule only when the operation selects them (also in a fragment)', async () => {
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
    expect(await run('{ projects { id name domain createdAt } }')).toEqual({
      projects: [{ id: '1', name: 'p1', domain: '1.example', createdAt: '2026-01-01T00:00:00.000Z' }],
    });
    await run('{ projects { link: url } }');
    await run('{ projects { ...S } } fragment S on Project { settings { maxPages } }');
    await run('{ projects { ... on Project { url settings { userAgent } } } }');
    await run('{ projects { auditSchedule { frequency nextRunAt } } }');
    expect(asked).toEqual([
      { url: false, settings: false, schedule: false },
      { url: true, settings: false, schedule: false },
      { url: false, settings: true, schedule: false },
      { url: true, settings: true, schedule: false },
      { url: false, settings: false, schedule: true },
    ]);
  });
});
