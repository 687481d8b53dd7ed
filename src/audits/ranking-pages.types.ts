import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { IssueCountsType, SeverityEnum } from './audit.types.js';

@ObjectType('RankingKeyword', {
  description: "A tracked keyword whose latest check ranks this page (the project's latest completed audit).",
})
export class RankingKeywordType {
  @Field(() => ID) keywordId!: string;
  @Field(() => String) term!: string;
  @Field(() => Int, { description: 'Its position at the latest check (1 = the first result).' }) position!: number;
  @Field(() => String, { description: 'desktop or mobile.' }) device!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2, lower case.' }) country!: string;
}

@ObjectType('RankingPageIssue', { description: 'An issue found on a ranking page.' })
export class RankingPageIssueType {
  @Field(() => String, { description: 'Stable check code, e.g. META_TITLE_MISSING.' }) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
}

@ObjectType('KeywordRankingPage', {
  description:
    "The page a keyword ranks with, as the project's latest completed audit crawled it: its status, indexability, " +
    'issues and lab LCP.',
})
export class KeywordRankingPageType {
  @Field(() => String, {
    description:
      'The URL as crawled (AuditPage.url): the ranking URL, or the same address with or without "www.", over ' +
      'http or https, or with or without a trailing slash.',
  })
  url!: string;
  @Field(() => ID, { description: 'The audit (the page view of `url` in it shows the page whole).' }) auditId!: string;
  @Field(() => Int, { nullable: true, description: 'null when the fetch failed.' }) statusCode!: number | null;
  @Field(() => Boolean) indexable!: boolean;
  @Field(() => IssueCountsType, { description: 'Issues on the page by severity (one per check code).' })
  issueCounts!: IssueCountsType;
  @Field(() => [RankingPageIssueType], { description: 'Its issues, most severe first, at most 10.' })
  issues!: RankingPageIssueType[];
  @Field(() => Float, {
    nullable: true,
    description: "Lab LCP of the page in the audit, ms (the keyword's device when measured for it); null unmeasured.",
  })
  lcpMs!: number | null;
}
