import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { IssueCountsType } from './audit.types.js';
import { UrlTableFilterInput } from './url-table.types.js';
import { MAX_SEGMENT_CONDITIONS, MAX_SEGMENTS_PER_PROJECT } from './segment-rule.js';

export enum SegmentKindEnum {
  REGEX = 'REGEX',
  PATH = 'PATH',
  FILTER = 'FILTER',
}
registerEnumType(SegmentKindEnum, {
  name: 'SegmentKind',
  description:
    'REGEX: a regular expression on the URL (PostgreSQL and JavaScript must both accept it); PATH: a path prefix ' +
    '(for example /blog/), any host; FILTER: a saved URL-table filter (groups of conditions, AND/OR).',
});

@ObjectType('Segment', {
  description:
    "A project's named set of URLs: one rule, evaluated over each audit's URLs (docs/segments.md). Its id is what " +
    'the URL table, its export and the filter field "segment" take.',
})
export class SegmentType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => SegmentKindEnum) kind!: SegmentKindEnum;
  @Field(() => String, { nullable: true, description: 'The regular expression (REGEX) or path prefix (PATH).' })
  pattern!: string | null;
  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'The saved filter (FILTER), in the shape of UrlTableFilterInput.',
  })
  filter!: unknown;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@InputType('SegmentInput', {
  description:
    'A segment: a name (1-80 characters, unique in the project regardless of case) and one rule: pattern for REGEX ' +
    `and PATH, filter for FILTER (a filter that names no segment, at most ${MAX_SEGMENT_CONDITIONS} conditions over ` +
    `all its groups). A project has at most ${MAX_SEGMENTS_PER_PROJECT} segments.`,
})
export class SegmentInput {
  @Field(() => String) name!: string;
  @Field(() => SegmentKindEnum) kind!: SegmentKindEnum;
  @Field(() => String, { nullable: true }) pattern?: string | null;
  @Field(() => UrlTableFilterInput, { nullable: true }) filter?: UrlTableFilterInput | null;
}

@ObjectType('SegmentScores', { description: "A segment's scores (0-100), by the audit's scoring formula." })
export class SegmentScoresType {
  @Field(() => Int) overall!: number;
  @Field(() => Int) meta!: number;
  @Field(() => Int) content!: number;
  @Field(() => Int) links!: number;
  @Field(() => Int) technical!: number;
  @Field(() => Int) performance!: number;
}

@ObjectType('AuditSegment', {
  description:
    "One segment in an audit: its URLs, and the scores, health and issues of those URLs alone, by the audit's own " +
    "scoring function (lab metrics and the start URL's status are the whole site's and stay out; occurrences marked " +
    '"won\'t fix" are left out of the scores as the audit\'s own score leaves them out).',
})
export class AuditSegmentType {
  @Field(() => SegmentType) segment!: SegmentType;
  @Field(() => Int, { description: "The audit's URLs in the segment (every kind)." }) urls!: number;
  @Field(() => Int, { description: 'Of them, the HTML pages scores are shares of.' }) htmlPages!: number;
  @Field(() => SegmentScoresType) scores!: SegmentScoresType;
  @Field(() => Float, { description: '% of its HTML pages without a CRITICAL issue, one decimal.' }) health!: number;
  @Field(() => IssueCountsType, { description: 'Checks with findings on its URLs, by severity.' })
  issueCounts!: IssueCountsType;
}
