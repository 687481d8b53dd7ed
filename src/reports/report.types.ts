import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import {
  AuditCountsType,
  AuditSegmentType,
  BlockerNoticeType,
  IssueCountsType,
  PageInfoType,
} from '../audits/graphql.js';

@ObjectType('ReportScores')
export class ReportScoresType {
  @Field(() => Int, { nullable: true }) overall!: number | null;
  @Field(() => Int, { nullable: true }) meta!: number | null;
  @Field(() => Int, { nullable: true }) content!: number | null;
  @Field(() => Int, { nullable: true }) links!: number | null;
  @Field(() => Int, { nullable: true }) technical!: number | null;
  @Field(() => Int, { nullable: true }) performance!: number | null;
}

@ObjectType('AuditReport', { description: 'One audit of a project, summarized for reporting and export.' })
export class AuditReportType {
  @Field(() => ID) auditId!: string;
  @Field(() => String) status!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
  @Field(() => ReportScoresType) scores!: ReportScoresType;
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => IssueCountsType) issueCounts!: IssueCountsType;
}

@ObjectType('OccurrenceExportRow', { description: 'An issue occurrence with its issue, for exports.' })
export class OccurrenceExportRowType {
  @Field(() => ID) id!: string;
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => String) severity!: string;
  @Field(() => String) category!: string;
  @Field(() => String) url!: string;
  @Field(() => GraphQLJSON, { nullable: true }) evidence!: unknown;
}

@ObjectType('OccurrenceExportConnection')
export class OccurrenceExportConnection {
  @Field(() => [OccurrenceExportRowType]) nodes!: OccurrenceExportRowType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
}

export enum ExportKindEnum {
  ISSUES = 'ISSUES',
  PAGES = 'PAGES',
  KEYWORDS = 'KEYWORDS',
}
registerEnumType(ExportKindEnum, {
  name: 'ExportKind',
  description: "What an export holds: an audit's issue occurrences, its crawled pages, or the project's keywords.",
});

export enum ExportFormatEnum {
  CSV = 'CSV',
  JSON = 'JSON',
}
registerEnumType(ExportFormatEnum, {
  name: 'ExportFormat',
  description: 'CSV (RFC 4180, UTF-8 with a BOM, formula-injection safe) or JSON.',
});

@ObjectType('ExportChunk', {
  description:
    'One piece of an export file: ask again with after = nextCursor until nextCursor is null; the pieces ' +
    'concatenated in order are the whole file (the first has the CSV header or the JSON opening).',
})
export class ExportChunkType {
  @Field(() => String, { description: 'A suggested file name.' }) filename!: string;
  @Field(() => String) contentType!: string;
  @Field(() => String) content!: string;
  @Field(() => Int, { description: 'Data rows in this piece.' }) rows!: number;
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next piece; null on the last.' })
  nextCursor!: string | null;
}

@ObjectType('ReportCategory', { description: "One category of an audit: its score and its issues' severities." })
export class ReportCategoryType {
  @Field(() => String) category!: string;
  @Field(() => Int, { nullable: true }) score!: number | null;
  @Field(() => Int) critical!: number;
  @Field(() => Int) warning!: number;
  @Field(() => Int) notice!: number;
}

@ObjectType('ReportFix', { description: 'How to fix an issue: a stored suggestion, else the rules engine.' })
export class ReportFixType {
  @Field(() => String) summary!: string;
  @Field(() => [String]) steps!: string[];
  @Field(() => String, { description: 'STORED (a suggestion asked for earlier) or RULES.' }) source!: string;
}

@ObjectType('ReportIssue')
export class ReportIssueType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => String) severity!: string;
  @Field(() => String) category!: string;
  @Field(() => String) description!: string;
  @Field(() => Int) affectedPages!: number;
  @Field(() => String, { description: 'page (shown as its pages) or site (shown as "site": a fact about the site).' })
  scope!: string;
  @Field(() => [String], { description: 'Some of the affected pages (at most 5).' }) urls!: string[];
  @Field(() => String, {
    nullable: true,
    description: 'A fix-grouped issue\'s fixes in one line ("1 target, linked from 78 pages"); null for other issues.',
  })
  fixesSummary!: string | null;
  @Field(() => [ReportFixReachType], {
    description: "A fix-grouped issue's widest fixes (at most 5); empty otherwise.",
  })
  widestFixes!: ReportFixReachType[];
  @Field(() => ReportFixType, { nullable: true }) fix!: ReportFixType | null;
}

@ObjectType('ReportFixReach', { description: 'One fix of a fix-grouped issue: its cause and the pages it is on.' })
export class ReportFixReachType {
  @Field(() => String) cause!: string;
  @Field(() => Int) pages!: number;
}

@ObjectType('ReportVitals', { description: 'The latest Core Web Vitals of a page and device.' })
export class ReportVitalsType {
  @Field(() => String) url!: string;
  @Field(() => String) device!: string;
  @Field(() => String, { description: 'LAB (Chromium), FIELD or HTTP (HTTP-level timings only).' }) source!: string;
  @Field(() => Date) measuredAt!: Date;
  @Field(() => Float, { nullable: true }) lcpMs!: number | null;
  @Field(() => Float, { nullable: true }) cls!: number | null;
  @Field(() => Float, { nullable: true }) inpMs!: number | null;
  @Field(() => Float, { nullable: true }) tbtMs!: number | null;
  @Field(() => Float, { nullable: true }) fcpMs!: number | null;
  @Field(() => Float, { nullable: true }) ttfbMs!: number | null;
}

@ObjectType('KeywordMove', { description: "A keyword's latest position against its previous successful check." })
export class KeywordMoveType {
  @Field(() => String) term!: string;
  @Field(() => String) country!: string;
  @Field(() => String) device!: string;
  @Field(() => Int) position!: number;
  @Field(() => Int) previousPosition!: number;
  @Field(() => Int, { description: 'previousPosition - position: positive when the keyword climbed.' })
  change!: number;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => Date) checkedAt!: Date;
}

@ObjectType('ClientReportAudit')
export class ClientReportAuditType {
  @Field(() => ID) id!: string;
  @Field(() => String) status!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => AuditCountsType, {
    nullable: true,
    description: "The audit's counts (URLs crawled, HTML pages, indexable pages, caps); null for older audits.",
  })
  counts!: AuditCountsType | null;
  @Field(() => ReportScoresType) scores!: ReportScoresType;
  @Field(() => IssueCountsType) issueCounts!: IssueCountsType;
  @Field(() => [BlockerNoticeType], {
    description: "The site-wide blockers that capped the overall score at 50, as the report's banner says them.",
  })
  blockers!: BlockerNoticeType[];
}

@ObjectType('ClientReport', {
  description:
    "A printable client report of a project: an audit's scores, categories, top issues with fixes, the latest " +
    'Core Web Vitals and the keyword movers.',
})
export class ClientReportType {
  @Field(() => ID) projectId!: string;
  @Field(() => String) projectName!: string;
  @Field(() => String) domain!: string;
  @Field(() => String) url!: string;
  @Field(() => Date) generatedAt!: Date;
  @Field(() => ClientReportAuditType, {
    nullable: true,
    description: 'The audit reported on; null when the project has no completed audit yet.',
  })
  audit!: ClientReportAuditType | null;
  @Field(() => [ReportCategoryType]) categories!: ReportCategoryType[];
  @Field(() => [ReportIssueType], { description: 'The most severe, most widespread issues (at most 10).' })
  topIssues!: ReportIssueType[];
  @Field(() => [ReportVitalsType], { description: 'Latest per page and device (at most 20 pages).' })
  vitals!: ReportVitalsType[];
  @Field(() => [AuditSegmentType], {
    description: "The project's segments in the audit: URLs, score, health and issue counts (docs/segments.md).",
  })
  segments!: AuditSegmentType[];
  @Field(() => [KeywordMoveType], { description: 'The biggest climbs since the previous check (at most 5).' })
  keywordGains!: KeywordMoveType[];
  @Field(() => [KeywordMoveType], { description: 'The biggest drops since the previous check (at most 5).' })
  keywordLosses!: KeywordMoveType[];
  @Field(() => Boolean, {
    description: 'Whether this server can render the report as PDF (headless Chromium: CHROMIUM_PATH).',
  })
  pdfAvailable!: boolean;
}

@ObjectType('ReportPdf', { description: 'The client report as a PDF file (base64).' })
export class ReportPdfType {
  @Field(() => String) filename!: string;
  @Field(() => String) contentType!: string;
  @Field(() => String) base64!: string;
}
