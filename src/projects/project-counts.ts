import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { nativeResult, type NativeResult } from '../platform/db/native-query.js';
import { DIRECT_RESOLVERS, type HasDirectResolvers } from '../platform/direct-resolvers.js';
import { ProjectCountsType, ProjectType } from './project.types.js';

export type ProjectCountField = 'audits' | 'keywords' | 'competitors';

/** Where a counter's rows live: a table with a `project_id` column, one row per counted item. */
export interface ProjectCountSource {
  table: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The modules that own the counted rows register where they live; a list of projects then costs ONE statement
 * for all counters instead of one per module. Each source is one flat `SELECT ... GROUP BY` member of a UNION
 * ALL: wrapping module-written subqueries instead cost PostgreSQL ~10% more per execution (planning the
 * pulled-up subqueries), on every project list.
 */
export class ProjectCountRegistry {
  private readonly sources = new Map<ProjectCountField, ProjectCountSource>();
  /** The one statement over every registered source, built once (registration happens at startup). */
  private statement: string | null = null;

  register(field: ProjectCountField, source: ProjectCountSource): void {
    if (!IDENTIFIER.test(source.table)) throw new Error(`project count source for ${field}: ${JSON.stringify(source.table)} is not a table name`);
    this.sources.set(field, source);
    this.statement = null;
  }

  loader(ctx: RequestContext): DataLoader<string, ProjectCountsType> {
    return ctx.loaders.get(
      'projects.counts',
      () => new DataLoader<string, ProjectCountsType>(async (projectIds) => {
        const counts = await this.countsOf(ctx, projectIds);
        return projectIds.map((id) => counts.get(id)!);
      }),
    );
  }

  /**
   * Counters of a list's projects loaded with the list (the same single statement the loader would send):
   * the field resolver then answers each row with a value, not a promise and a batch per request. Not an async
   * function, and one `.then` on the statement: the list of every Surface A and B call runs this.
   */
  prefetch(ctx: RequestContext, projectIds: readonly string[]): Promise<void> {
    if (!projectIds.length) return Promise.resolve();
    return this.query(ctx, projectIds).then(({ rows }) => {
      const counts = countsByProject(projectIds, rows);
      // The request's first list keeps its map as the prefetched one; a later list adds to it.
      const known = ctx.loaders.get(PREFETCHED, () => counts);
      if (known !== counts) for (const [id, c] of counts) known.set(id, c);
    });
  }

  /** One project's counters: loaded with its list when that list prefetched them, else batched per request. */
  load(ctx: RequestContext, projectId: string): ProjectCountsType | Promise<ProjectCountsType> {
    return ctx.loaders.get(PREFETCHED, emptyCounts).get(projectId) ?? this.loader(ctx).load(projectId);
  }

  private async countsOf(ctx: RequestContext, projectIds: readonly string[]): Promise<Map<string, ProjectCountsType>> {
    return countsByProject(projectIds, (await this.query(ctx, projectIds)).rows);
  }

  private query(ctx: RequestContext, projectIds: readonly string[]): Promise<NativeResult<CountRow>> {
    this.statement ??= [...this.sources]
      .map(([field, { table }]) => `SELECT '${field}' AS field, project_id::text AS project_id, count(*)::int AS n FROM ${table} WHERE project_id = ANY($1::uuid[]) GROUP BY project_id`)
      .join(' UNION ALL ');
    return this.statement ? nativeResult<CountRow>(ctx.db, this.statement, [projectIds]) : Promise.resolve({ rows: [] });
  }
}

interface CountRow {
  field: ProjectCountField;
  project_id: string;
  n: number;
}

/** Every asked-for project gets its counters, 0 where it has no rows. */
function countsByProject(projectIds: readonly string[], rows: readonly CountRow[]): Map<string, ProjectCountsType> {
  const by = new Map<string, ProjectCountsType>();
  for (const id of projectIds) by.set(id, { audits: 0, keywords: 0, competitors: 0 });
  for (const r of rows) {
    const counts = by.get(r.project_id);
    if (counts) counts[r.field] = r.n;
  }
  return by;
}

const PREFETCHED = 'projects.counts.prefetched';
const emptyCounts = () => new Map<string, ProjectCountsType>();

/** One resolver call per project for all its counters, resolved directly (it runs once per listed project). */
@Resolver(() => ProjectType)
export class ProjectCountsResolver implements HasDirectResolvers {
  constructor(private readonly registry: ProjectCountRegistry) {}

  @FieldResolver(() => ProjectCountsType)
  counts(@Root() project: ProjectType, @Ctx() ctx: RequestContext): ProjectCountsType | Promise<ProjectCountsType> {
    return this.registry.load(ctx, project.id);
  }

  [DIRECT_RESOLVERS]() {
    return { 'Project.counts': (project: ProjectType, _args: unknown, ctx: RequestContext) => this.counts(project, ctx) };
  }
}
