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
