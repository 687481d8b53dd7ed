import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  AuditSegmentType,
  AuditPageKindEnum,
  AuditType,
  CategoryEnum,
  CheckSettingChangeType,
  PageInfoType,
  SeverityEnum,
} from '../audits/graphql.js';
import type { Comparison } from './comparison.service.js';

export enum IssueChangeEnum {
  NEW = 'NEW',
  FIXED = 'FIXED',
  GONE = 'GONE',
  NOT_CHECKED = 'NOT_CHECKED',
  NEWLY_CHECKED = 'NEWLY_CHECKED',
  PERSISTING = 'PERSISTING',
}
registerEnumType(IssueChangeEnum, {
  name: 'IssueChange',
  description:
    'What became of a check code on a URL. NEW: found by the head audit only (the base ran the check); FIXED: found ' +
    'by the base only, and the head ran the check on the same page, still crawled, answering and indexable; GONE: ' +
    'found by the base only and its page went with it (no longer crawled, 4xx/5xx or no answer, or no longer ' +
    'indexable); NOT_CHECKED: found by the base only and the head did not run the check (disabled in the settings, ' +
    'or no longer in the catalog) or it no longer applies (the element it judges is now missing, e.g. a title ' +
    'length on a page that lost its title); NEWLY_CHECKED: found by the head with a check the base did not run; ' +
    'PERSISTING: found by both. A site fact (CodeComparison.siteFact: compression, caching headers, http, insecure ' +
    "cookies) is compared per site, not per URL: one row, at the first URL carrying it (the head's, else the " +
    "base's); PERSISTING while both audits found it on any page; FIXED only when the head ran the check, found it " +
    'nowhere and crawled a page that answered (else GONE).',
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

export enum ExtractionChangeEnum {
  CHANGED = 'CHANGED',
  APPEARED = 'APPEARED',
  DISAPPEARED = 'DISAPPEARED',
}
registerEnumType(ExtractionChangeEnum, {
  name: 'ExtractionChange',
  description:
    "What became of a custom extractor's value on a URL crawled by both audits. CHANGED: a value in both, " +
    'different; APPEARED: a value in the head audit only (none, or no match, in the base); DISAPPEARED: a value in ' +
    'the base only. A search (yes/no) always has a value: its changes are CHANGED.',
});

export enum ComparisonRowsEnum {
  ISSUES = 'ISSUES',
  PAGES = 'PAGES',
}
registerEnumType(ComparisonRowsEnum, {
  name: 'ComparisonRows',
  description:
    'ISSUES: one row per occurrence with its change (new, fixed, gone, not checked, newly checked, persisting); ' +
    'PAGES: one row per changed URL.',
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

@ObjectType('ScoreDelta', { description: 'A score in the base and the head audit, and its change.' })
export class ScoreDeltaType {
  @Field(() => ScoreCategoryEnum) category!: ScoreCategoryEnum;
  @Field(() => Int, { nullable: true }) before!: number | null;
  @Field(() => Int, { nullable: true }) after!: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'The base audit scored again without the checks the head did not run (switched off since); equal to before ' +
      'when both ran the same checks; null when that cannot be recomputed exactly.',
  })
  comparableBefore!: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'The head audit scored again without the checks the base did not run; equal to after when both ran the same ' +
      'checks; null when that cannot be recomputed exactly.',
  })
  comparableAfter!: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'comparableAfter - comparableBefore (negative: the score dropped): the change of the site under the checks ' +
      'both audits ran, never a settings change. Null when either is (a severity changed, a CRITICAL check was ' +
      'switched off, or a score is missing).',
  })
  delta!: number | null;
}

@ObjectType('ComparisonTotals', {
  description:
    'How much changed: issue occurrences (code and URL; a site fact once, for the site) and crawled URLs. Each issue ' +
    'count is the number of rows of its list (AuditComparison.issues).',
})
export class ComparisonTotalsType {
  @Field(() => Int, { description: 'Occurrences (a check code on a URL) the head audit found and the base did not.' })
  newIssues!: number;
  @Field(() => Int, {
    description: 'Occurrences the base audit found and the head did not, on a page still crawled and indexable.',
  })
  fixedIssues!: number;
  @Field(() => Int, {
    description: 'Occurrences the base audit found whose page is gone: no longer crawled, 4xx/5xx, or not indexable.',
  })
  goneIssues!: number;
  @Field(() => Int, { description: 'Occurrences the base audit found of checks the head did not run.' })
  notCheckedIssues!: number;
  @Field(() => Int, { description: 'Occurrences the head audit found of checks the base did not run.' })
  newlyCheckedIssues!: number;
  @Field(() => Int, { description: 'Occurrences both audits found.' }) persistingIssues!: number;
  @Field(() => Int, {
    description: 'Changed URLs, each once whatever its changes: the rows of AuditComparison.pages.',
  })
  changedUrls!: number;
  @Field(() => Int, { description: 'URLs crawled by the head audit only.' }) added!: number;
  @Field(() => Int, { description: 'URLs crawled by the base audit only.' }) removed!: number;
  @Field(() => Int, { description: 'URLs crawled by both with a different HTTP status.' }) statusChanged!: number;
  @Field(() => Int, { description: 'URLs crawled by both, indexable in one and not the other.' })
  indexabilityChanged!: number;
}

@ObjectType('CodeComparison', {
  description:
    "One check code across both audits: its URLs' changes (a site fact's: one row for the site, so each count is 0 " +
    'or 1).',
})
export class CodeComparisonType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => Boolean, {
    description:
      'A fact of the site or its server seen on its pages (compression, caching headers, http, insecure cookies): ' +
      'compared once per site, whatever URLs carry it, in one row at the first URL carrying it (IssueChange).',
  })
  siteFact!: boolean;
  @Field(() => Int, { description: 'URLs with the issue in the head audit only.' }) newUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in the base audit only, fixed (see IssueChange).' })
  fixedUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in the base audit only, gone with their page.' })
  goneUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in the base audit only, not checked by the head.' })
  notCheckedUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in the head audit, whose check the base did not run.' })
  newlyCheckedUrls!: number;
  @Field(() => Int, { description: 'URLs with the issue in both audits.' }) persistingUrls!: number;
}

@ObjectType('IssueChangeNode', { description: 'A check code on one URL, and what became of it (IssueChange).' })
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
  @Field(() => Boolean, {
    description:
      "A site fact (CodeComparison.siteFact): its change is the site's, the same on every URL that shows it in " +
      'either audit (PERSISTING on a page that no longer shows it while other pages still do).',
  })
  siteFact!: boolean;
}

@ObjectType('UrlComparison', { description: 'One URL before and after: its page in each audit and its issues.' })
export class UrlComparisonType {
  @Field(() => String) url!: string;
  @Field(() => ComparedPageType, { nullable: true }) before!: ComparedPageType | null;
  @Field(() => ComparedPageType, { nullable: true }) after!: ComparedPageType | null;
  @Field(() => [PageChangeEnum]) changes!: PageChangeEnum[];
  @Field(() => [UrlIssueChangeType], {
    description: 'By change (new, fixed, gone, not checked, newly checked, persisting), most severe first.',
  })
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
  @Field(() => Boolean, {
    description:
      'True when the audits were scored with different check settings: the score deltas then compare each audit ' +
      'without the checks the other did not run (or are null), and the occurrences of a check switched off are ' +
      'NOT_CHECKED, never FIXED.',
  })
  settingsChanged!: boolean;
  @Field(() => [CheckSettingChangeType], { description: 'How the check settings differ, in code order.' })
  settingChanges!: CheckSettingChangeType[];
  @Field(() => Boolean, {
    description:
      'True when either audit\'s scores leave out occurrences marked "won\'t fix": the score deltas then compare ' +
      'both audits as scored before any marking (a marking accepts an issue; it is neither progress nor, undone, ' +
      'a drop).',
  })
  wontFixMarked!: boolean;
  /** The comparison as the service opened it: the field resolvers read through it. */
  comparison!: Comparison;
}

@ObjectType('SegmentComparison', {
  description: "One of the project's segments in both audits (its rule as it is now), and the change: head minus base.",
})
export class SegmentComparisonType {
  @Field(() => AuditSegmentType) base!: AuditSegmentType;
  @Field(() => AuditSegmentType) head!: AuditSegmentType;
  @Field(() => Int) urlsDelta!: number;
  @Field(() => Int) overallDelta!: number;
  @Field(() => Float, { description: 'Health points, one decimal.' }) healthDelta!: number;
  @Field(() => Int, { description: 'Checks with CRITICAL findings on its URLs.' }) criticalDelta!: number;
  @Field(() => Int) warningDelta!: number;
  @Field(() => Int) noticeDelta!: number;
}

@ObjectType('ExtractionComparison', {
  description:
    'A custom extractor either audit ran (audit.extractors), and how many URLs crawled by both (matched by URL) ' +
    'had its value changed, appeared or disappeared (docs/custom-extraction.md).',
})
export class ExtractionComparisonType {
  @Field(() => String, { description: 'The extractor key: AuditComparison.extractionPages(key:).' }) key!: string;
  @Field(() => String, { description: 'Its name in the head audit (else in the base).' }) name!: string;
  @Field(() => String, { description: 'CSS, XPATH, REGEX, CONTAINS or NOT_CONTAINS.' }) kind!: string;
  @Field(() => String, { description: 'Its URL table column: extract.<key> or search.<key>.' }) column!: string;
  @Field(() => Boolean, { description: 'The base audit ran it.' }) inBase!: boolean;
  @Field(() => Boolean, { description: 'The head audit ran it.' }) inHead!: boolean;
  @Field(() => Int, { description: 'URLs with a value in both audits, different.' }) changed!: number;
  @Field(() => Int, { description: 'URLs with a value in the head audit only.' }) appeared!: number;
  @Field(() => Int, { description: 'URLs with a value in the base audit only.' }) disappeared!: number;
}

@ObjectType('ExtractionChangeNode', {
  description:
    'A URL whose extracted value changed, as text: values joined by " | ", yes/no for a search, (timed out); ' +
    'null: no value.',
})
export class ExtractionChangeNodeType {
  @Field(() => String) url!: string;
  @Field(() => ExtractionChangeEnum) change!: ExtractionChangeEnum;
  @Field(() => String, { nullable: true, description: "The base audit's value." }) before!: string | null;
  @Field(() => String, { nullable: true, description: "The head audit's value." }) after!: string | null;
}

@ObjectType('ExtractionChangeConnection')
export class ExtractionChangeConnection {
  @Field(() => [ExtractionChangeNodeType]) nodes!: ExtractionChangeNodeType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'URLs with any of the requested changes, not this page of results.' })
  totalCount!: number;
}
