import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AuditPageKindEnum, AuditType, CategoryEnum, PageInfoType, SeverityEnum } from '../audits/graphql.js';
import type { Comparison } from './comparison.service.js';

export enum IssueChangeEnum {
  NEW = 'NEW',
  FIXED = 'FIXED',
  PERSISTING = 'PERSISTING',
}
registerEnumType(IssueChangeEnum, {
  name: 'IssueChange',
  description: 'NEW: found by the head audit only; FIXED: by the base audit only; PERSISTING: by both.',
});

export enum PageChangeEnum {
  ADDED = 'ADDED',
  REMOVED = 'REMOVED',
  STATUS_CHANGED = 'STATUS_CHANGED',
  INDEXABILITY_CHANGED = 'INDEXABILITY_CHANGED',
}
registerEnumType(PageChangeEnum, {
  name: 'PageChange',
  description:
    'ADDED: crawled by the head audit only; REMOVED: by the base only; STATUS_CHANGED: a different HTTP status ' +
    '(e.g. 200 -> 404); INDEXABILITY_CHANGED: indexable in one audit and not in the other (e.g. a new noindex).',
});

export enum ScoreCategoryEnum {
  OVERALL = 'OVERALL',
  META = 'META',
  CONTENT = 'CONTENT',
  LINKS = 'LINKS',
  TECHNICAL = 'TECHNICAL',
  PERFORMANCE = 'PERFORMANCE',
}
registerEnumType(ScoreCategoryEnum, { name: 'ScoreCategory' });

export enum ComparisonRowsEnum {
  ISSUES = 'ISSUES',
  PAGES = 'PAGES',
}
registerEnumType(ComparisonRowsEnum, {
  name: 'ComparisonRows',
  description: 'ISSUES: one row per new, fixed or persisting occurrence; PAGES: one row per changed URL.',
});

@ObjectType('ComparisonCsvPiece', {
  description: 'One piece of the comparison as CSV; the pieces, asked for in turn with nextCursor, make the file.',
})
export class ComparisonCsvPieceType {
  @Field(() => String) filename!: string;
  @Field(() => String, { description: 'CSV text (RFC 4180; the first piece starts with a BOM and the header).' })
  content!: string;
  @Field(() => Int, { description: 'Data rows in this piece.' }) rows!: number;
  @Field(() => String, { nullable: true, description: 'Null on the last piece.' }) nextCursor!: string | null;
}

@ObjectType('ScoreDelta', { description: 'A score in the base and the head audit.' })
export class ScoreDeltaType {
  @Field(() => ScoreCategoryEnum) category!: ScoreCategoryEnum;
  @Field(() => Int, { nullable: true }) before!: number | null;
  @Field(() => Int, { nullable: true }) after!: number | null;
  @Field(() => Int, { nullable: true, description: 'after - before (negative: the score dropped).' })
  delta!: number | null;
}

@ObjectType('ComparisonTotals', { description: 'How much changed: issue occurrences (code and URL) and crawled URLs.' })
export class ComparisonTotalsType {
  @Field(() => Int, { description: 'Occurrences (a check code on a URL) the head audit found and the base did not.' })
  newIssues!: number;
  @Field(() => Int, { description: 'Occurrences the base audit found and the head did not.' }) fixedIssues!: number;
  @Field(() => Int, { description: 'Occurrences both audits found.' }) persistingIssues!: number;
  @Field(() => Int, { description: 'URLs crawled by the head audit only.' }) added!: number;
  @Field(() => Int, { description: 'URLs crawled by the base audit only.' }) removed!: number;
  @Field(() => Int, { description: 'URLs crawled by both with a different HTTP status.' }) statusChanged!: number;
  @Field(() => Int, { description: 'URLs crawled by both, indexable in one and not the other.' })
  indexabilityChanged!: number;
}

@ObjectType('CodeComparison', { description: "One check code across both audits: its URLs' changes." })
export class CodeComparisonType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => Int, { description: 'URLs with the issue in the head audit only.' }) newUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in the base audit only.' }) fixedUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in both audits.' }) persistingUrls!: number;
}

@ObjectType('IssueChangeNode', { description: 'A check code on one URL, and whether it is new, fixed or persisting.' })
export class IssueChangeNodeType {
  @Field(() => String) code!: string;
  @Field(() => String) url!: string;
  @Field(() => IssueChangeEnum) change!: IssueChangeEnum;
}

@ObjectType('IssueChangeConnection')
export class IssueChangeConnection {
  @Field(() => [IssueChangeNodeType]) nodes!: IssueChangeNodeType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'Occurrences of this change (and code), not this page of results.' })
  totalCount!: number;
}

@ObjectType('ComparedPage', { description: 'A crawled URL as one of the audits saw it.' })
export class ComparedPageType {
  @Field(() => Int, { nullable: true, description: 'Null: no response (the fetch failed).' })
  statusCode!: number | null;
  @Field(() => Boolean) indexable!: boolean;
  @Field(() => AuditPageKindEnum, { nullable: true, description: 'Null for audits completed before kinds were kept.' })
  kind!: AuditPageKindEnum | null;
  @Field(() => String, { nullable: true }) title!: string | null;
}

@ObjectType('PageChangeNode', { description: 'A URL that was added, removed, or changed status or indexability.' })
export class PageChangeNodeType {
  @Field(() => String) url!: string;
  @Field(() => [PageChangeEnum]) changes!: PageChangeEnum[];
  @Field(() => ComparedPageType, { nullable: true, description: "The base audit's view (null: not crawled then)." })
  before!: ComparedPageType | null;
  @Field(() => ComparedPageType, { nullable: true, description: "The head audit's view (null: not crawled now)." })
  after!: ComparedPageType | null;
}

@ObjectType('PageChangeConnection')
export class PageChangeConnection {
  @Field(() => [PageChangeNodeType]) nodes!: PageChangeNodeType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'URLs with any of the requested changes, not this page of results.' })
  totalCount!: number;
}

@ObjectType('UrlIssueChange')
export class UrlIssueChangeType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => IssueChangeEnum) change!: IssueChangeEnum;
}

@ObjectType('UrlComparison', { description: 'One URL before and after: its page in each audit and its issues.' })
export class UrlComparisonType {
  @Field(() => String) url!: string;
  @Field(() => ComparedPageType, { nullable: true }) before!: ComparedPageType | null;
  @Field(() => ComparedPageType, { nullable: true }) after!: ComparedPageType | null;
  @Field(() => [PageChangeEnum]) changes!: PageChangeEnum[];
  @Field(() => [UrlIssueChangeType], { description: 'New first, then fixed, then persisting; most severe first.' })
  issues!: UrlIssueChangeType[];
}

@ObjectType('AuditComparison', {
  description:
    'What changed between two completed audits of a project (base: the earlier state, head: the later one), ' +
    "computed by PostgreSQL over both audits' stored occurrences and pages.",
})
export class AuditComparisonType {
  @Field(() => ID) projectId!: string;
  @Field(() => AuditType) base!: AuditType;
  @Field(() => AuditType) head!: AuditType;
  /** The comparison as the service opened it: the field resolvers read through it. */
  comparison!: Comparison;
}
