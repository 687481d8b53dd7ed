import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum RankCheckStatusEnum {
  OK = 'OK',
  FAILED = 'FAILED',
}
registerEnumType(RankCheckStatusEnum, {
  name: 'RankCheckStatus',
  description:
    'OK: the provider answered (position may still be null); FAILED: no position could be checked, see error.',
});

@ObjectType('RankCheck', { description: 'The latest rank check of a keyword, successful or not.' })
export class RankCheckType {
  @Field(() => RankCheckStatusEnum) status!: RankCheckStatusEnum;
  @Field(() => Date) checkedAt!: Date;
  @Field(() => String, {
    nullable: true,
    description: 'Why the check failed (provider error, no provider configured); null when OK.',
  })
  error!: string | null;
}

@ObjectType('Keyword', { description: 'A tracked keyword with its latest successful ranking.' })
export class KeywordType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => String) term!: string;
  @Field(() => String) country!: string;
  @Field(() => String) language!: string;
  @Field(() => String) device!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'null before the first check, or when not within the checked depth.',
  })
  position!: number | null;
  @Field(() => String, { nullable: true, description: 'The ranking page of the project.' }) url!: string | null;
  @Field(() => Date, { nullable: true }) lastChecked!: Date | null;
  @Field(() => String, {
    nullable: true,
    description: 'The error of the latest check when it failed (provider error).',
  })
  lastError!: string | null;
  @Field(() => RankCheckType, {
    nullable: true,
    description: 'The latest check with its status, time and error; null before the first check.',
  })
  lastCheck!: RankCheckType | null;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('RankingPoint')
export class RankingPointType {
  @Field(() => Int, { nullable: true }) position!: number | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => Date) checkedAt!: Date;
}

@ObjectType('KeywordRankings')
export class KeywordRankingsType {
  @Field(() => ID) keywordId!: string;
  @Field(() => String) term!: string;
  @Field(() => [RankingPointType], { description: 'Successful checks, oldest first.' }) history!: RankingPointType[];
}

@InputType('AddKeywordsInput')
export class AddKeywordsInput {
  @Field(() => [String], { description: '1-100 terms; duplicates of tracked terms are ignored.' }) keywords!: string[];
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2, default us' }) country?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 639-1, default en' }) language?: string | null;
  @Field(() => String, { nullable: true, description: 'desktop (default) or mobile' }) device?: string | null;
}

@ObjectType('RankCheckPayload')
export class RankCheckPayload {
  @Field(() => String) message!: string;
  @Field(() => ID) jobId!: string;
  @Field(() => Int) keywords!: number;
}
