import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { toAuditSegmentType, toAuditType, toSettingChangeType } from '../audits/graphql.js';
import type { CategoryEnum, SeverityEnum } from '../audits/graphql.js';
import type { Comparison, ComparisonService, PageSide } from './comparison.service.js';
import type { ComparedPageType } from './comparison.types.js';
import {
  AuditComparisonType,
  CodeComparisonType,
  ComparisonCsvPieceType,
  ComparisonRowsEnum,
  ComparisonTotalsType,
  ExtractionChangeConnection,
  ExtractionChangeEnum,
  ExtractionComparisonType,
  IssueChangeConnection,
  IssueChangeEnum,
  PageChangeConnection,
  PageChangeEnum,
  ScoreDeltaType,
  SegmentComparisonType,
  UrlComparisonType,
  type ScoreCategoryEnum,
} from './comparison.types.js';

/** The comparison the query opened: one object per request, so its fields share what it has read. */
const comparisonOf = (root: AuditComparisonType): Comparison => root.comparison;

const pageOf = (side: PageSide | null): ComparedPageType | null =>
  side ? { ...side, kind: side.kind as ComparedPageType['kind'] } : null;

@Resolver(() => AuditComparisonType)
export class ComparisonResolver {
  constructor(private readonly service: ComparisonService) {}

  @Query(() => AuditComparisonType, {
    description:
      'Compare two completed audits of a project. Without head: the latest completed audit; without base: the ' +
      'completed audit before head. NOT_FOUND when the project has no such pair; BAD_USER_INPUT for an audit that ' +
      'is not completed, or base = head.',
  })
  async auditComparison(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('base', () => ID, { nullable: true }) base: string | null,
    @Arg('head', () => ID, { nullable: true }) head: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditComparisonType> {
    const c = await this.service.open(ctx.em, ctx.principal, projectId, { base, head });
    return {
      projectId: c.projectId,
      base: toAuditType(c.base),
      head: toAuditType(c.head),
      settingsChanged: c.settingChanges.length > 0,
      settingChanges: c.settingChanges.map(toSettingChangeType),
      wontFixMarked: c.wontFixMarked,
      comparison: c,
    };
  }

  @FieldResolver(() => [ScoreDeltaType], { description: 'Overall and per category, in that order.' })
  scores(@Root() root: AuditComparisonType): ScoreDeltaType[] {
    return this.service.scores(comparisonOf(root)).map((s) => ({ ...s, category: s.category as ScoreCategoryEnum }));
  }

  @FieldResolver(() => [SegmentComparisonType], {
    description: 'Per segment of the project (by name): its URLs, score, health and issue counts in both, the deltas.',
  })
  async segments(@Root() root: AuditComparisonType, @Ctx() ctx: RequestContext): Promise<SegmentComparisonType[]> {
    const rows = await this.service.segments(ctx.db, ctx.principal, comparisonOf(root));
    return rows.map((r) => ({ ...r, base: toAuditSegmentType(r.base), head: toAuditSegmentType(r.head) }));
  }

  @FieldResolver(() => ComparisonTotalsType)
  totals(@Root() root: AuditComparisonType, @Ctx() ctx: RequestContext): Promise<ComparisonTotalsType> {
    return this.service.totals(ctx.em, comparisonOf(root));
  }

  @FieldResolver(() => [CodeComparisonType], {
    description: 'Per check code: most severe first, then the most new URLs. With change: the codes that have some.',
  })
  async codes(
    @Root() root: AuditComparisonType,
    @Arg('change', () => IssueChangeEnum, { nullable: true }) change: IssueChangeEnum | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CodeComparisonType[]> {
    const rows = await this.service.codes(ctx.em, comparisonOf(root), change);
    return rows.map((r) => ({ ...r, severity: r.severity as SeverityEnum, category: r.category as CategoryEnum }));
  }

  @FieldResolver(() => IssueChangeConnection, {
    description: 'The (code, URL) occurrences of one change, optionally of one code, in code then URL order.',
  })
  async issues(
    @Root() root: AuditComparisonType,
    @Arg('change', () => IssueChangeEnum) change: IssueChangeEnum,
    @Arg('code', () => String, { nullable: true }) code: string | null,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-500.' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<IssueChangeConnection> {
    const slice = await this.service.issues(ctx.em, comparisonOf(root), { change, code, first, after });
    return {
      nodes: slice.nodes.map((n) => ({ ...n, change: n.change as IssueChangeEnum })),
      totalCount: slice.totalCount,
      pageInfo: { hasNextPage: slice.hasNextPage, endCursor: slice.endCursor },
    };
  }

  @FieldResolver(() => PageChangeConnection, {
    description: 'URLs added, removed, or changed in status or indexability (any of `changes`; all when empty).',
  })
  async pages(
    @Root() root: AuditComparisonType,
    @Arg('changes', () => [PageChangeEnum], { defaultValue: [] }) changes: PageChangeEnum[],
    @Arg('first', () => Int, { defaultValue: 50, description: '1-500.' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<PageChangeConnection> {
    const slice = await this.service.pages(ctx.em, comparisonOf(root), { changes, first, after });
    return {
      nodes: slice.nodes.map((n) => ({
        url: n.url,
        changes: n.changes as PageChangeEnum[],
        before: pageOf(n.before),
        after: pageOf(n.after),
      })),
      totalCount: slice.totalCount,
      pageInfo: { hasNextPage: slice.hasNextPage, endCursor: slice.endCursor },
    };
  }

  @FieldResolver(() => [ExtractionComparisonType], {
    description:
      'Per custom extractor either audit ran, in the order they were added: its value changes on the URLs crawled ' +
      'by both (empty when neither audit ran an extractor).',
  })
  async extractions(
    @Root() root: AuditComparisonType,
    @Ctx() ctx: RequestContext,
  ): Promise<ExtractionComparisonType[]> {
    const rows = await this.service.extractions(ctx.db, comparisonOf(root));
    return rows.map((r) => ({
      ...r,
      column: `${r.kind === 'CONTAINS' || r.kind === 'NOT_CONTAINS' ? 'search' : 'extract'}.${r.key}`,
    }));
  }

  @FieldResolver(() => ExtractionChangeConnection, {
    description:
      'The URLs crawled by both audits whose value of one extractor changed (any of `changes`; all when empty), in ' +
      'URL order, with the value before and after. BAD_USER_INPUT for a key neither audit ran.',
  })
  async extractionPages(
    @Root() root: AuditComparisonType,
    @Arg('key', () => String) key: string,
    @Arg('changes', () => [ExtractionChangeEnum], { defaultValue: [] }) changes: ExtractionChangeEnum[],
    @Arg('first', () => Int, { defaultValue: 50, description: '1-500.' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<ExtractionChangeConnection> {
    const slice = await this.service.extractionPages(ctx.db, comparisonOf(root), { key, changes, first, after });
    return {
      nodes: slice.nodes.map((n) => ({ ...n, change: n.change as ExtractionChangeEnum })),
      totalCount: slice.totalCount,
      pageInfo: { hasNextPage: slice.hasNextPage, endCursor: slice.endCursor },
    };
  }

  @FieldResolver(() => UrlComparisonType, {
    nullable: true,
    description: 'One URL before and after; null when neither audit crawled it or found an issue on it.',
  })
  async url(
    @Root() root: AuditComparisonType,
    @Arg('url', () => String) url: string,
    @Ctx() ctx: RequestContext,
  ): Promise<UrlComparisonType | null> {
    const found = await this.service.url(ctx.em, comparisonOf(root), url);
    if (!found) return null;
    return {
      url: found.url,
      before: pageOf(found.before),
      after: pageOf(found.after),
      changes: found.changes as PageChangeEnum[],
      issues: found.issues.map((i) => ({
        ...i,
        severity: i.severity as SeverityEnum,
        category: i.category as CategoryEnum,
        change: i.change as IssueChangeEnum,
      })),
    };
  }

  @FieldResolver(() => ComparisonCsvPieceType, {
    description:
      'The comparison as CSV, in pieces (issues: change,code,title,severity,category,url, one row per occurrence ' +
      'by change: new, fixed, gone, not checked, newly checked, persisting; pages: url,changes,' +
      'statusBefore,statusAfter,indexableBefore,indexableAfter).',
  })
  csv(
    @Root() root: AuditComparisonType,
    @Arg('rows', () => ComparisonRowsEnum) rows: ComparisonRowsEnum,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    // Not `first`: the query cost limit multiplies by `first`, and a piece is one string, not a list.
    @Arg('size', () => Int, { defaultValue: 2000, description: 'Rows per piece, 1-5000.' }) size: number,
    @Ctx() ctx: RequestContext,
  ): Promise<ComparisonCsvPieceType> {
    return this.service.csvPiece(ctx.em, comparisonOf(root), rows, { after, size });
  }
}
