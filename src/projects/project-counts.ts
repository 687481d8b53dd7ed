import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { ProjectCountsType, ProjectType } from './project.types.js';

export type ProjectCountField = 'audits' | 'keywords' | 'competitors';
type Counts = Record<ProjectCountField, number>;

/**
 * The modules that own the counted rows register their count query here (`$1` = project ids); a list of
 * projects then costs ONE statement for all counters instead of one per module.
 */
export class ProjectCountRegistry {
  private readonly sources = new Map<ProjectCountField, string>();

  register(field: ProjectCountField, sql: string): void {
    this.sources.set(field, sql);
  }

  loader(ctx: RequestContext): DataLoader<string, Counts> {
    return ctx.loaders.get('projects.counts', () =>
      new DataLoader<string, Counts>(async (projectIds) => {
        const parts = [...this.sources].map(([field, sql]) => `SELECT '${field}' AS field, c.project_id::text AS project_id, c.n FROM (${sql}) c`);
        const rows = parts.length ? await nativeQuery<{ field: ProjectCountField; project_id: string; n: number }>(ctx.em, parts.join(' UNION ALL '), [projectIds]) : [];
        const by = new Map<string, Counts>(projectIds.map((id) => [id, { audits: 0, keywords: 0, competitors: 0 }]));
        for (const r of rows) {
          const counts = by.get(r.project_id);
          if (counts) counts[r.field] = r.n;
        }
        return projectIds.map((id) => by.get(id)!);
      }),
    );
  }
}

/** One resolver call per project for all its counters (type-graphql's per-call overhead dominates list cost). */
@Resolver(() => ProjectType)
export class ProjectCountsResolver {
  constructor(private readonly registry: ProjectCountRegistry) {}

  @FieldResolver(() => ProjectCountsType)
  async counts(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<ProjectCountsType> {
    return { projectId: project.id, ...(await this.registry.loader(ctx).load(project.id)) };
  }
}
