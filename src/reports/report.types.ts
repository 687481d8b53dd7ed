import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { IssueCountsType, PageInfoType } from '../audits/graphql.js';

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
