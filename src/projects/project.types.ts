import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('ProjectCounts', { description: 'Counters of a project; modules that own the counted rows resolve each field.' })
export class ProjectCountsType {
  /** Not exposed: lets field resolvers of other modules batch by project. */
  projectId!: string;
  @Field(() => Int) audits!: number;
  @Field(() => Int) keywords!: number;
  @Field(() => Int) competitors!: number;
}

@ObjectType('Project', { description: 'A website tracked by an organization.' })
export class ProjectType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'Normalized start URL.' }) url!: string;
  @Field(() => String, { description: 'Host name of the start URL.' }) domain!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => ProjectCountsType) counts!: ProjectCountsType;
  @Field(() => Int, { nullable: true, description: 'Overall score of the latest completed audit.' })
  lastAuditScore!: number | null;
}

@InputType('CreateProjectInput')
export class CreateProjectInput {
  @Field(() => String, { description: 'Website URL (http or https).' }) url!: string;
  @Field(() => String, { nullable: true, description: 'Defaults to the host name.' }) name?: string | null;
}

@ObjectType('DeleteProjectPayload')
export class DeleteProjectPayload {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) success!: boolean;
}
