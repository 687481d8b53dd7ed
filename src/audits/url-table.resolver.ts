import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { AuditType } from './audit.types.js';
import { OPERATORS_BY_TYPE, UrlTableService, type UrlColumn } from './url-table.service.js';
import { UrlTableExportService } from './url-table-export.js';
import {
  UrlTableConnection,
  UrlTableExportFormatEnum,
  UrlTableExportPieceType,
  UrlTableFieldType,
  UrlTableFilterInput,
  UrlTableSortInput,
} from './url-table.types.js';

const toFieldType = (f: UrlColumn): UrlTableFieldType => ({
  key: f.key,
  label: f.label,
  type: f.type,
  description: f.description,
  sortable: f.sortable,
  filterable: f.filterable,
  options: [...(f.options ?? [])],
  operators: f.filterable ? [...(f.operators ?? OPERATORS_BY_TYPE[f.type])] : [],
});

/** The URL table: an audit's URLs with chosen columns, a filter model, a sort on any column, keyset pages. */
@Resolver(() => AuditType)
export class UrlTableResolver {
  constructor(
    /** The platform's secret (`config.authSecret`): the export's cursors are signed with a key derived from it. */
    exportCursorKey: string,
    private readonly service = new UrlTableService(),
    private readonly exports = new UrlTableExportService(exportCursorKey),
  ) {}

  @Query(() => [UrlTableFieldType], {
    description: "The URL table's fields: the columns to choose, sort and filter on, with their filter operators.",
  })
  async urlTableFields(
    @Arg('auditId', () => ID, {
      nullable: true,
      description: "An audit: its custom extractors' columns (extract.<key>, search.<key>) are listed too.",
    })
    auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<UrlTableFieldType[]> {
    return (await this.service.fields(ctx.db, ctx.principal, auditId ?? null)).map(toFieldType);
  }

  @FieldResolver(() => UrlTableConnection, {
    description:
      "This audit's URLs as a table: chosen columns (default url, status, indexable, title, words, depth, inlinks, " +
      'issues), a filter (groups of conditions, AND/OR), a sort on any sortable field (ties by row id, missing ' +
      'values last) and keyset pages with opaque cursors. With checkCode: the URLs of that check, one row per ' +
      'occurrence, ranking URLs first unless a sort is given. BAD_USER_INPUT for an unknown field, an operator ' +
      "that does not fit its type, a bad value or an invalid regular expression. segment: only that segment's URLs; " +
      'the filter field "segment" (eq: in, neq: not in, the value a segment id) combines segments.',
  })
  async urlTable(
    @Root() audit: AuditType,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-1000' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('columns', () => [String], { nullable: true, description: 'Field keys (urlTableFields).' })
    columns: string[] | null,
    @Arg('sort', () => UrlTableSortInput, { nullable: true }) sort: UrlTableSortInput | null,
    @Arg('filter', () => UrlTableFilterInput, { nullable: true }) filter: UrlTableFilterInput | null,
    @Arg('checkCode', () => String, { nullable: true, description: "One check's URLs (an issue's code)." })
    checkCode: string | null,
    @Arg('segment', () => ID, {
      nullable: true,
      description: "Only this segment's URLs (a segment id of the audit's project; NOT_FOUND otherwise).",
    })
    segment: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<UrlTableConnection> {
    const page = await this.service.list(
      ctx.db,
      ctx.principal,
      audit.id,
      { first, after, columns, sort, filter, checkCode, segment },
      { signal: ctx.signal },
    );
    return {
      columns: page.columns.map(toFieldType),
      rows: page.rows,
      pageInfo: { hasNextPage: page.hasNext, endCursor: page.endCursor },
      totalCount: page.totalCount ?? 0,
    };
  }

  @FieldResolver(() => UrlTableExportPieceType, {
    description:
      'Export as shown: the URL table with these columns, filter, sort and check as CSV (RFC 4180, UTF-8 with a ' +
      "BOM, the columns' labels as header), JSON ({ auditId, checkCode, exportedAt, columns, rows: [{ key: value }] " +
      '}) or XLSX (one worksheet, base64 pieces), in pieces of `size` table rows (1-1000).',
  })
  urlTableExport(
    @Root() audit: AuditType,
    @Arg('format', () => UrlTableExportFormatEnum) format: UrlTableExportFormatEnum,
    @Arg('columns', () => [String], { nullable: true }) columns: string[] | null,
    @Arg('sort', () => UrlTableSortInput, { nullable: true }) sort: UrlTableSortInput | null,
    @Arg('filter', () => UrlTableFilterInput, { nullable: true }) filter: UrlTableFilterInput | null,
    @Arg('checkCode', () => String, { nullable: true }) checkCode: string | null,
    @Arg('segment', () => ID, { nullable: true, description: "Only this segment's URLs." }) segment: string | null,
    @Arg('after', () => String, {
      nullable: true,
      description: 'nextCursor of the previous piece (signed: any other value is refused); none for the first piece.',
    })
    after: string | null | undefined,
    @Arg('size', () => Int, { defaultValue: 1000 }) size: number,
    @Ctx() ctx: RequestContext,
  ): Promise<UrlTableExportPieceType> {
    return this.exports.piece(
      ctx.db,
      ctx.principal,
      audit.id,
      format,
      { columns, sort, filter, checkCode, segment },
      after,
      size,
      ctx.signal,
    );
  }
}
