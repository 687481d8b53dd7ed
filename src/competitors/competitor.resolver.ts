import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { ProjectCountsType } from '../projects/index.js';
import { CompetitorService } from './competitor.service.js';
import { CompetitorType } from './competitor.types.js';

@Resolver(() => CompetitorType)
export class CompetitorResolver {
  constructor(private readonly service: CompetitorService) {}

  @Query(() => [CompetitorType], { description: "A project's competitors with their profiles." })
  competitors(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: RequestContext): Promise<CompetitorType[]> {
    return this.service.list(ctx.em, ctx.principal, projectId);
  }

  @Mutation(() => CompetitorType, { description: 'Tracks a competitor (a host name or URL, stored as the host).' })
  addCompetitor(@Arg('projectId', () => ID) projectId: string, @Arg('domain', () => String) domain: string, @Ctx() ctx: RequestContext): Promise<CompetitorType> {
    return this.service.add(ctx.em, ctx.principal, projectId, domain);
  }

  @Mutation(() => CompetitorType)
  removeCompetitor(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CompetitorType> {
    return this.service.remove(ctx.em, ctx.principal, id);
  }
}

@Resolver(() => ProjectCountsType)
export class ProjectCompetitorCountResolver {
  @FieldResolver(() => Int)
  competitors(@Root() counts: ProjectCountsType, @Ctx() ctx: RequestContext): Promise<number> {
    const loader = ctx.loaders.get('competitors.count', () =>
      new DataLoader<string, number>(async (projectIds) => {
        const rows = await nativeQuery<{ project_id: string; n: number }>(
          ctx.em,
          'SELECT project_id, count(*)::int AS n FROM competitor WHERE project_id = ANY($1::uuid[]) GROUP BY project_id',
          [projectIds],
        );
        const by = new Map(rows.map((r) => [r.project_id, r.n]));
        return projectIds.map((id) => by.get(id) ?? 0);
      }),
    );
    return loader.load(counts.projectId);
  }
}
