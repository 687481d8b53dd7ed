import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum ScheduledRunOutcomeEnum {
  STARTED = 'STARTED',
  SKIPPED = 'SKIPPED',
}
registerEnumType(ScheduledRunOutcomeEnum, {
  name: 'ScheduledRunOutcome',
  description: 'STARTED: the run time started an audit; SKIPPED: it started none (see the reason).',
});

export enum ScheduledRunSkipReasonEnum {
  ALREADY_RUNNING = 'ALREADY_RUNNING',
  PLAN_LIMIT = 'PLAN_LIMIT',
  NOT_ALLOWED = 'NOT_ALLOWED',
}
registerEnumType(ScheduledRunSkipReasonEnum, {
  name: 'ScheduledRunSkipReason',
  description:
    "ALREADY_RUNNING: an audit of the project was queued or running; PLAN_LIMIT: the organization's plan quota " +
    'refused it; NOT_ALLOWED: the plan does not allow it.',
});

@ObjectType('ScheduledAuditRun', {
  description: 'One run time of the audit schedule, recorded once when it fired: the audit it started or why none.',
})
export class ScheduledAuditRunType {
  @Field(() => ID) id!: string;
  @Field(() => Date, { description: 'The run time the schedule fired for.' }) scheduledAt!: Date;
  @Field(() => ScheduledRunOutcomeEnum) outcome!: ScheduledRunOutcomeEnum;
  @Field(() => ScheduledRunSkipReasonEnum, { nullable: true }) reason!: ScheduledRunSkipReasonEnum | null;
  @Field(() => String, { nullable: true, description: 'Why it was skipped, for a person.' }) message!: string | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The audit it started; for ALREADY_RUNNING, the audit that was running.',
  })
  auditId!: string | null;
  @Field(() => Date, { description: 'When it was recorded (after a delay or an outage, later than scheduledAt).' })
  recordedAt!: Date;
}
