import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { DIRECT_RESOLVERS, type HasDirectResolvers } from '../platform/direct-resolvers.js';
import { ProjectCountsType, ProjectType } from './project.types.js';

export type ProjectCountField = 'audits' | 'keywords' | 'competitors';

/**
 * The modules that own the counted rows register their count query here (`$1` = project ids); a list of
 * projects then costs ONE statement for all counters instead of one per module.
 */
export class ProjectCountRegistry {
  private readonly sources = new Map<ProjectCountField, string>();
  /** The one statement over every registered source, built once (registration happens at startup). */
  private statement: string | null = null;

  register(field: ProjectCountField, sql: string): void {
    this.sources.set(field, sql);
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
   * the field resolver then answers each row with a value, not a promise and a batch per request.
   */
  async prefetch(ctx: RequestContext, projectIds: readonly string[]): Promise<void> {
    if (!projectIds.length) return;
    const counts = await this.countsOf(ctx, projectIds);
    const known = ctx.loaders.get(PREFETCHED, () => counts);
    if (known !== counts) for (const [id, c] of counts) known.set(id, c);
  }

  /** One project's counters: loaded with its list when that list prefetched them, else batched per request. */
  load(ctx: RequestContext, projectId: string): ProjectCountsType | Promise<ProjectCountsType> {
    return ctx.loaders.get(PREFETCHED, emptyCounts).get(projectId) ?? this.loader(ctx).load(projectId);
  }

  private async countsOf(ctx: RequestContext, projectIds: readonly string[]): Promise<Map<string, ProjectCountsType>> {
    this.statement ??= [...this.sources].map(([field, sql]) => `SELECT '${field}' AS field, c.project_id::text AS project_id, c.n FROM (${sql}) c`).join(' UNION ALL ');
    const rows = this.statement ? await nativeQuery<{ field: ProjectCountField; project_id: string; n: number }>(ctx.db, this.statement, [projectIds]) : [];
    const by = new Map<string, ProjectCountsType>();
    for (const id of projectIds) by.set(id, { audits: 0, keywords: 0, competitors: 0 });
    for (const r of rows) {
      const counts = by.get(r.project_id);
      if (counts) counts[r.field] = r.n;
    }
    return by;
  }
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
