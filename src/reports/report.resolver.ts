import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { ReportService } from './report.service.js';
import { AuditReportType, OccurrenceExportConnection } from './report.types.js';

@Resolver()
export class ReportResolver {
  constructor(private readonly service: ReportService) {}

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
}
