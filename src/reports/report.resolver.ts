import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { ReportService } from './report.service.js';
import type { ExportService } from './export.service.js';
import type { ClientReportService } from './client-report.service.js';
import {
  AuditReportType,
  ClientReportType,
  ExportChunkType,
  ExportFormatEnum,
  ExportKindEnum,
  OccurrenceExportConnection,
  ReportPdfType,
} from './report.types.js';

@Resolver()
export class ReportResolver {
  constructor(
    private readonly service: ReportService,
    private readonly exports: ExportService,
    private readonly clientReports: ClientReportService,
  ) {}

  @Query(() => [AuditReportType], {
    description: "A project's audits summarized for reports, newest first (one when auditId is given).",
  })
  reports(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditReportType[]> {
    return this.service.list(ctx.em, ctx.principal, projectId, auditId);
  }

  @Query(() => OccurrenceExportConnection, {
    description: 'Every issue occurrence of an audit, in pages of up to 5,000 (for exports).',
  })
  auditOccurrences(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID) auditId: string,
    @Arg('first', () => Int, { defaultValue: 1000 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<OccurrenceExportConnection> {
    return this.service.occurrences(ctx.em, ctx.principal, projectId, auditId, first, after);
  }

  @Query(() => ExportChunkType, {
    description:
      "A piece of an export (an audit's issues or pages, the project's keywords) as CSV or JSON: ask again with " +
      'after = nextCursor until it is null. Issues and pages default to the latest completed audit.',
  })
  exportFile(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('kind', () => ExportKindEnum) kind: ExportKindEnum,
    @Arg('format', () => ExportFormatEnum) format: ExportFormatEnum,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    // Not `first`: the query cost limit multiplies by `first`, and a piece is one string, not a list.
    @Arg('size', () => Int, { defaultValue: 2000, description: 'Rows per piece, 1-5000.' }) size: number,
    @Ctx() ctx: RequestContext,
  ): Promise<ExportChunkType> {
    return this.exports.chunk(ctx.em, ctx.principal, { projectId, kind, format, auditId, after, first: size });
  }

  @Query(() => ClientReportType, {
    description: 'The printable client report of a project: the audit named by auditId, else the latest completed one.',
  })
  clientReport(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<ClientReportType> {
    return this.clientReports.report(ctx.em, ctx.principal, projectId, auditId);
  }

  @Query(() => ReportPdfType, {
    description:
      'The client report as a PDF (base64), rendered by headless Chromium; UNAVAILABLE when CHROMIUM_PATH is unset.',
  })
  clientReportPdf(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<ReportPdfType> {
    return this.clientReports.pdfReport(ctx.em, ctx.principal, projectId, auditId);
  }
}
