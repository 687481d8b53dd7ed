import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { TechnicalService } from './technical.service.js';
import { TechnicalType } from './technical.types.js';

@Resolver(() => TechnicalType)
export class TechnicalResolver {
  constructor(private readonly service: TechnicalService) {}

  @Query(() => TechnicalType, { description: 'Site facts and Core Web Vitals history of a project.' })
  technical(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('days', () => Int, { defaultValue: 90, description: '1-365' }) days: number,
    @Ctx() ctx: RequestContext,
  ): Promise<TechnicalType> {
    return this.service.history(ctx.em, ctx.principal, projectId, days);
  }
}
