import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { KeywordService } from './keyword.service.js';
import {
  AddKeywordsInput,
  KeywordRankingsType,
  KeywordType,
  RankCheckPayload,
  RankTrackingType,
} from './keyword.types.js';

@Resolver(() => KeywordType)
export class KeywordResolver {
  constructor(private readonly service: KeywordService) {}

  @Query(() => [KeywordType], { description: "A project's tracked keywords with their latest ranking." })
  keywords(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: RequestContext): Promise<KeywordType[]> {
    return this.service.list(ctx.em, ctx.principal, projectId);
  }

  @Query(() => [KeywordRankingsType], { description: 'Ranking history per keyword, oldest first.' })
  keywordRankings(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('days', () => Int, { defaultValue: 30, description: '1-365' }) days: number,
    @Ctx() ctx: RequestContext,
    @Arg('keywordIds', () => [ID], {
      nullable: true,
      description: 'Only these keywords of the project (at most 1,000); all of them when omitted.',
    })
    keywordIds?: string[] | null,
    @Arg('includeFailed', () => Boolean, {
      defaultValue: false,
      description: 'List failed checks too (status FAILED, position null, with their error).',
    })
    includeFailed?: boolean,
  ): Promise<KeywordRankingsType[]> {
    return this.service.rankings(ctx.em, ctx.principal, projectId, days, { keywordIds, includeFailed });
  }

  @Query(() => RankTrackingType, {
    description: 'Whether this deployment has a SERP provider for rank checks (and which); no credentials.',
  })
  rankTracking(@Ctx() ctx: RequestContext): RankTrackingType {
    return this.service.rankTracking(ctx.principal);
  }

  @Mutation(() => [KeywordType], {
    description: 'Adds keywords; returns the created ones (already tracked terms are ignored).',
  })
  addKeywords(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => AddKeywordsInput) input: AddKeywordsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<KeywordType[]> {
    return this.service.add(ctx.em, ctx.principal, projectId, input);
  }

  @Mutation(() => KeywordType, { description: 'Stops tracking a keyword and deletes its history.' })
  removeKeyword(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<KeywordType> {
    return this.service.remove(ctx.em, ctx.principal, id);
  }

  @Mutation(() => RankCheckPayload, { description: 'Queues a rank check of every keyword of the project now.' })
  checkRankings(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: RequestContext): Promise<RankCheckPayload> {
    return this.service.checkNow(ctx.em, ctx.principal, projectId);
  }
}
