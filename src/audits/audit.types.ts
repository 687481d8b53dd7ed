import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

export enum AuditStatusEnum {
  QUEUED = 'QUEUED',
  RUNNING = 'RUNNING',
  COMPLETED = 'COMPLETED',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(AuditStatusEnum, { name: 'AuditStatus', description: 'QUEUED -> RUNNING -> COMPLETED | FAILED; QUEUED | RUNNING -> CANCELLED.' });

export enum SeverityEnum {
  CRITICAL = 'CRITICAL',
  WARNING = 'WARNING',
  NOTICE = 'NOTICE',
}
registerEnumType(SeverityEnum, { name: 'Severity' });

export enum CategoryEnum {
  META = 'META',
  CONTENT = 'CONTENT',
  LINKS = 'LINKS',
  TECHNICAL = 'TECHNICAL',
  PERFORMANCE = 'PERFORMANCE',
}
registerEnumType(CategoryEnum, { name: 'IssueCategory' });

@ObjectType('IssueCounts')
export class IssueCountsType {
  @Field(() => Int) critical!: number;
  @Field(() => Int) warning!: number;
  @Field(() => Int) notice!: number;
}

@ObjectType('PageInfo')
export class PageInfoType {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ObjectType('IssueOccurrence', { description: 'One page on which an issue was found, with its evidence.' })
export class IssueOccurrenceType {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => GraphQLJSON, { nullable: true }) evidence!: unknown;
}

@ObjectType('IssueOccurrenceConnection')
export class IssueOccurrenceConnection {
  @Field(() => [IssueOccurrenceType]) nodes!: IssueOccurrenceType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
}

@ObjectType('Issue', { description: 'One check that failed in an audit, with the pages it affects.' })
export class IssueType {
  @Field(() => ID) id!: string;
  auditId!: string;
  @Field(() => String, { description: 'Stable check code, e.g. META_DESCRIPTION_MISSING.' }) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => String) description!: string;
  @Field(() => Int) affectedPages!: number;
  @Field(() => Int, { description: 'Pages the check applied to (site checks: 1).' }) applicablePages!: number;
}

@ObjectType('Audit')
export class AuditType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => ID) jobId!: string;
  @Field(() => AuditStatusEnum) status!: AuditStatusEnum;
  @Field(() => Int, { nullable: true }) overallScore!: number | null;
  @Field(() => Int, { nullable: true }) metaScore!: number | null;
  @Field(() => Int, { nullable: true }) contentScore!: number | null;
  @Field(() => Int, { nullable: true }) linksScore!: number | null;
  @Field(() => Int, { nullable: true }) technicalScore!: number | null;
  @Field(() => Int, { nullable: true }) performanceScore!: number | null;
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => Int) pagesQueued!: number;
  @Field(() => Int) maxPages!: number;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
}

@ObjectType('AuditConnection')
export class AuditConnection {
  @Field(() => [AuditType]) nodes!: AuditType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int) totalCount!: number;
}

@ObjectType('JobProgress')
export class JobProgressType {
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => Int) pagesQueued!: number;
}

@ObjectType('Job', { description: 'A queued audit job; its state comes from the audit (the source of truth).' })
export class JobType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'queued, running, completed, failed or cancelled' }) state!: string;
  @Field(() => JobProgressType) progress!: JobProgressType;
  @Field(() => ID) auditId!: string;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('StartAuditPayload')
export class StartAuditPayload {
  @Field(() => String) message!: string;
  @Field(() => ID) jobId!: string;
  @Field(() => ID) auditId!: string;
  @Field(() => Boolean, { description: 'false when an audit was already queued or running for the project' }) created!: boolean;
  @Field(() => AuditType) audit!: AuditType;
}
