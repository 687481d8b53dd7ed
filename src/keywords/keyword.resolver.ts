import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { KeywordService } from './keyword.service.js';
import { DEFAULT_CANNIBALISATION_DAYS, MIN_CANNIBALISING_URLS } from './cannibalisation.js';
import {
  AddKeywordsInput,
  KeywordCannibalisationType,
  KeywordChangeType,
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

  @Query(() => [KeywordCannibalisationType], {
    description:
      'Keywords for which two or more of the site’s URLs ranked within the window (at one check or across checks), ' +
      'with those URLs and their positions over time, from the stored SERP snapshots. A site URL: the project’s ' +
      'host (scheme and www. ignored; subdomains with rankIncludeSubdomains).',
  })
  keywordCannibalisation(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
    @Arg('days', () => Int, { defaultValue: DEFAULT_CANNIBALISATION_DAYS, description: '1-90, e.g. 7, 14 or 30' })
    days: number,
    @Arg('minUrls', () => Int, {
      defaultValue: MIN_CANNIBALISING_URLS,
      description: 'The fewest distinct site URLs (2-20).',
    })
    minUrls: number,
    @Arg('search', () => String, { nullable: true, description: 'Only terms containing this (case-insensitive).' })
    search?: string | null,
  ): Promise<KeywordCannibalisationType[]> {
    return this.service.cannibalisation(ctx.em, ctx.principal, projectId, { days, minUrls, search });
  }

  @FieldResolver(() => KeywordChangeType, {
    description:
      'How the keyword moved between its two latest successful checks: NEW only the first time it ever ranks, ' +
      'BACK when it ranked before, dropped out and came back.',
  })
  change(@Root() keyword: KeywordType): KeywordChangeType {
    return this.service.changeOf(keyword);
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
