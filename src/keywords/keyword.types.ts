import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { KEYWORD_CHANGE_KINDS, type KeywordChangeKind } from './keyword-change-kinds.js';

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

registerEnumType(KEYWORD_CHANGE_KINDS, {
  name: 'KeywordChangeKind',
  description: 'How a keyword moved between its two latest successful checks (KeywordService.changeOf).',
  valuesConfig: {
    NONE: { description: 'Never checked successfully.' },
    MOVED: { description: 'Found at both checks; see delta.' },
    NEW: { description: 'Found now, and at no earlier check: the first time it ever ranks.' },
    BACK: { description: 'Found now, not at the check before, but at an earlier one: back in the results.' },
    DROPPED: { description: 'Found at the check before, not now.' },
    ABSENT: { description: 'Not found now, nor at the check before (or checked once and not found).' },
  },
});

@ObjectType('KeywordChange', { description: "A keyword's change between its two latest successful checks." })
export class KeywordChangeType {
  @Field(() => KEYWORD_CHANGE_KINDS) kind!: KeywordChangeKind;
  @Field(() => Int, {
    nullable: true,
    description: 'MOVED: positions gained (positive: up, a smaller position; negative: down); null otherwise.',
  })
  delta!: number | null;
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
  @Field(() => Int, {
    nullable: true,
    description:
      'The position at the successful check before the latest one: null when the keyword was not found within ' +
      'the checked depth then, or when there is no such check (see previousChecked).',
  })
  previousPosition!: number | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the successful check before the latest one ran; null with fewer than two successful checks.',
  })
  previousChecked!: Date | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The best (lowest) position of every successful check kept; null when never found.',
  })
  bestPosition!: number | null;
  /** Successful checks that found the keyword, the latest included (the "new" or "back" of KeywordChange). */
  rankedChecks!: number;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('RankingPoint')
export class RankingPointType {
  @Field(() => Int, {
    nullable: true,
    description: 'null when not found within the checked depth, or when the check FAILED.',
  })
  position!: number | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => Date) checkedAt!: Date;
  @Field(() => RankCheckStatusEnum, { description: 'FAILED points are listed only with includeFailed.' })
  status!: RankCheckStatusEnum;
  @Field(() => String, { nullable: true, description: 'Why the check failed; null when OK.' }) error!: string | null;
}

@ObjectType('KeywordRankings')
export class KeywordRankingsType {
  @Field(() => ID) keywordId!: string;
  @Field(() => String) term!: string;
  @Field(() => [RankingPointType], {
    description: 'Successful checks (and failed ones with includeFailed), oldest first.',
  })
  history!: RankingPointType[];
}

@ObjectType('RankTracking', {
  description: 'How this deployment checks rankings: whether a SERP provider is configured, and which (no secret).',
})
export class RankTrackingType {
  @Field(() => Boolean, {
    description: 'false: SERP_PROVIDER is unset, and every rank check is recorded as FAILED with that reason.',
  })
  providerConfigured!: boolean;
  @Field(() => String, { nullable: true, description: 'serpapi, serper, dataforseo or searxng; null when unset.' })
  provider!: string | null;
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
  @Field(() => Boolean, {
    description:
      'false: a check of the project was already queued this minute (the same job, no new check); its results ' +
      'are, or will be, the latest.',
  })
  queued!: boolean;
}

@ObjectType('UrlPosition', { description: 'A site URL at one check.' })
export class UrlPositionType {
  @Field(() => Date) checkedAt!: Date;
  @Field(() => Int) position!: number;
}

@ObjectType('CannibalisingUrl', { description: 'One of the site URLs that ranked for a cannibalised keyword.' })
export class CannibalisingUrlType {
  @Field(() => String) url!: string;
  @Field(() => Int, { description: 'Its best position within the window.' }) bestPosition!: number;
  @Field(() => Int, {
    nullable: true,
    description: "Its position at the keyword's latest check; null when it was not among the results then.",
  })
  latestPosition!: number | null;
  @Field(() => [UrlPositionType], { description: 'Each check of the window at which it ranked, oldest first.' })
  positions!: UrlPositionType[];
}

@ObjectType('KeywordCannibalisation', {
  description:
    'A keyword for which two or more of the site’s URLs ranked within the window (at one check or across checks), ' +
    'read from the stored SERP snapshots.',
})
export class KeywordCannibalisationType {
  @Field(() => ID) keywordId!: string;
  @Field(() => String) term!: string;
  @Field(() => String) country!: string;
  @Field(() => String) language!: string;
  @Field(() => String) device!: string;
  @Field(() => Int, { description: 'Successful checks within the window.' }) checks!: number;
  @Field(() => Int, { description: 'The most site URLs that ranked at one check.' }) maxUrlsAtOneCheck!: number;
  @Field(() => Int, { description: 'Site URLs that ranked at the latest check of the window.' }) latestUrls!: number;
  @Field(() => Date) latestCheckedAt!: Date;
  @Field(() => [CannibalisingUrlType], {
    description: 'The distinct site URLs that ranked within the window: best latest position first.',
  })
  urls!: CannibalisingUrlType[];
}
