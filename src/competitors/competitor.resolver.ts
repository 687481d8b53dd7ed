import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { CompetitorService } from './competitor.service.js';
import { CompetitorOverviewType, CompetitorType } from './competitor.types.js';

@Resolver(() => CompetitorType)
export class CompetitorResolver {
  constructor(private readonly service: CompetitorService) {}

  @Query(() => [CompetitorType], { description: "A project's competitors with their profiles." })
  competitors(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: RequestContext): Promise<CompetitorType[]> {
    return this.service.list(ctx.em, ctx.principal, projectId);
  }

  @Query(() => CompetitorOverviewType, {
    description: 'The project against its competitors: visibility, top-10 counts, positions and their history.',
  })
  competitorOverview(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('days', () => Int, { defaultValue: 90, description: 'Days of visibility history, 1-365.' }) days: number,
    @Ctx() ctx: RequestContext,
  ): Promise<CompetitorOverviewType> {
    return this.service.overview(ctx.em, ctx.principal, projectId, days);
  }

  @Mutation(() => CompetitorType, { description: 'Tracks a competitor (a host name or URL, stored as the host).' })
  addCompetitor(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('domain', () => String) domain: string,
    @Ctx() ctx: RequestContext,
  ): Promise<CompetitorType> {
    return this.service.add(ctx.em, ctx.principal, projectId, domain);
  }

  @Mutation(() => CompetitorType)
  removeCompetitor(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CompetitorType> {
    return this.service.remove(ctx.em, ctx.principal, id);
  }
}
