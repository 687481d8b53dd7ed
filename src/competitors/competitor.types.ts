import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('CompetitorPosition', {
  description: "The competitor's position for one of the project's keywords, from the latest SERP snapshot.",
})
export class CompetitorPositionType {
  @Field(() => ID) keywordId!: string;
  @Field(() => String) term!: string;
  @Field(() => Int, { nullable: true }) position!: number | null;
  @Field(() => String, { nullable: true }) url!: string | null;
}

@ObjectType('CompetitorHomepage', { description: 'A single-page analysis of the competitor homepage.' })
export class CompetitorHomepageType {
  @Field(() => String) url!: string;
  @Field(() => Int, { nullable: true }) status!: number | null;
  @Field(() => Boolean) https!: boolean;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Int, { nullable: true }) metaScore!: number | null;
  @Field(() => Int, { nullable: true }) contentScore!: number | null;
  @Field(() => Int, { nullable: true }) technicalScore!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('Competitor')
export class CompetitorType {
  @Field(() => ID) id!: string;
  projectId!: string;
  @Field(() => String, { description: 'Host name (www. removed).' }) domain!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Int, { nullable: true, description: 'Overall score of its homepage analysis.' }) overallScore!:
    number | null;
  @Field(() => Int, { description: 'Project keywords for which the competitor ranks in the top 10.' })
  keywordsInTop10!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Mean position over the keywords where it ranks within the checked depth.',
  })
  averagePosition!: number | null;
  @Field(() => Float, {
    description: 'Estimated share of clicks (0-100) across the project keywords, from a position CTR curve.',
  })
  visibility!: number;
  @Field(() => Date, { nullable: true }) lastChecked!: Date | null;
  @Field(() => [CompetitorPositionType]) positions!: CompetitorPositionType[];
  @Field(() => CompetitorHomepageType, { nullable: true }) homepage!: CompetitorHomepageType | null;
}

@ObjectType('DomainVisibility', {
  description: "A domain's standing over the project's keywords, from their latest SERP snapshots.",
})
export class DomainVisibilityType {
  @Field(() => String) domain!: string;
  @Field(() => Float, { description: 'Estimated share of clicks (0-100), as for competitors.' }) visibility!: number;
  @Field(() => Int) keywordsInTop10!: number;
  @Field(() => Float, { nullable: true, description: 'Mean position where it ranks; null when it ranks nowhere.' })
  averagePosition!: number | null;
  @Field(() => [CompetitorPositionType]) positions!: CompetitorPositionType[];
}

@ObjectType('VisibilityPoint', { description: "A domain's visibility on one day (UTC)." })
export class VisibilityPointType {
  @Field(() => Date, { description: 'Start of the day (UTC).' }) day!: Date;
  @Field(() => String, { description: 'The project domain or a competitor domain.' }) domain!: string;
  @Field(() => Float, { description: "Share of clicks (0-100) over that day's checked keywords." })
  visibility!: number;
  @Field(() => Int, { description: 'Keywords with a SERP snapshot that day.' }) keywordsChecked!: number;
}

@ObjectType('CompetitorOverview', {
  description: 'The project against its competitors: current visibility and positions, and visibility over time.',
})
export class CompetitorOverviewType {
  @Field(() => String, {
    nullable: true,
    description: 'The configured SERP provider (SERP_PROVIDER); null when none: no position can be checked.',
  })
  serpProvider!: string | null;
  @Field(() => Int) keywordsTracked!: number;
  @Field(() => Int, { description: 'Tracked keywords with at least one SERP snapshot.' }) keywordsChecked!: number;
  @Field(() => DomainVisibilityType) project!: DomainVisibilityType;
  @Field(() => [CompetitorType]) competitors!: CompetitorType[];
  @Field(() => [VisibilityPointType], {
    description: 'Per day and domain (the project first, then competitors), oldest first.',
  })
  history!: VisibilityPointType[];
}
