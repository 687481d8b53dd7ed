import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { ProjectCountsType } from './project.types.js';

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

@Resolver(() => ProjectCountsType)
export class ProjectCountsResolver {
  constructor(private readonly registry: ProjectCountRegistry) {}

  @FieldResolver(() => Int)
  async audits(@Root() c: ProjectCountsType, @Ctx() ctx: RequestContext): Promise<number> {
    return (await this.registry.loader(ctx).load(c.projectId)).audits;
  }

  @FieldResolver(() => Int)
  async keywords(@Root() c: ProjectCountsType, @Ctx() ctx: RequestContext): Promise<number> {
    return (await this.registry.loader(ctx).load(c.projectId)).keywords;
  }

  @FieldResolver(() => Int)
  async competitors(@Root() c: ProjectCountsType, @Ctx() ctx: RequestContext): Promise<number> {
    return (await this.registry.loader(ctx).load(c.projectId)).competitors;
  }
}
