import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { ProjectType } from '../projects/graphql.js';
import type { ScheduledRunRow } from './audit-schedule.repository.js';
import type { AuditScheduleService } from './audit-schedule.service.js';
import {
  ScheduledAuditRunType,
  type ScheduledRunOutcomeEnum,
  type ScheduledRunSkipReasonEnum,
} from './audit-schedule.types.js';

export const toScheduledRunType = (r: ScheduledRunRow): ScheduledAuditRunType => ({
  id: r.id,
  scheduledAt: r.slotAt,
  outcome: r.outcome as ScheduledRunOutcomeEnum,
  reason: r.reason as ScheduledRunSkipReasonEnum | null,
  message: r.message,
  auditId: r.auditId,
  recordedAt: r.createdAt,
});

/** The scheduled runs of a project: a field of Project, batched over a list (one statement per `first`). */
@Resolver(() => ProjectType)
export class AuditScheduleResolver {
  constructor(private readonly schedules: AuditScheduleService) {}

  @FieldResolver(() => [ScheduledAuditRunType], {
    description: 'The latest run times of the audit schedule, latest first, with what each did (at most 100).',
  })
  async scheduledRuns(
    @Root() project: ProjectType,
    @Arg('first', () => Int, { defaultValue: 10 }) first: number,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduledAuditRunType[]> {
    // The project was reached through a tenant-checked read: its runs are the caller's to see.
    const loader = ctx.loaders.get(
      `audits.scheduledRuns.${first}`,
      () =>
        new DataLoader<string, ScheduledRunRow[]>(async (ids) => {
          const by = await this.schedules.runsOf(ctx.db, ids, first);
          return ids.map((id) => by.get(id) ?? []);
        }),
    );
    return (await loader.load(project.id)).map(toScheduledRunType);
  }
}
