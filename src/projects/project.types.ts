import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('ProjectCounts', { description: 'Counters of a project (audits, keywords, competitors).' })
export class ProjectCountsType {
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
  /**
   * Filled by the resolvers that return projects, when selected (ProjectCountRegistry.fill: one statement per list).
   */
  @Field(() => ProjectCountsType) counts?: ProjectCountsType;
  @Field(() => Int, { nullable: true, description: 'Overall score of the latest completed audit.' })
  lastAuditScore!: number | null;
  @Field(() => ProjectSettingsType) settings!: ProjectSettingsType;
}

@InputType('CreateProjectInput')
export class CreateProjectInput {
  @Field(() => String, {
    description: 'Website URL (http or https); a bare domain (example.com) is tried over https, then http.',
  })
  url!: string;
  @Field(() => String, { nullable: true, description: 'Defaults to the host name.' }) name?: string | null;
}

@ObjectType('DeleteProjectPayload')
export class DeleteProjectPayload {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) success!: boolean;
}

@ObjectType('ProjectSettings', {
  description: 'How the project is crawled and ranked; unset fields use the platform defaults.',
})
export class ProjectSettingsType {
  @Field(() => Int, { nullable: true, description: 'Pages per audit, at most the plan quota.' }) maxPages!:
    number | null;
  @Field(() => Int, { nullable: true, description: 'Link depth from the start URL (0-50).' }) maxDepth!: number | null;
  @Field(() => Int, { nullable: true, description: 'Minimum delay between requests, ms (0-60000).' }) crawlDelayMs!:
    number | null;
  @Field(() => String, { nullable: true }) userAgent!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Honour robots.txt (default true).' }) respectRobots!:
    boolean | null;
  @Field(() => String, { nullable: true }) rankCountry!: string | null;
  @Field(() => String, { nullable: true }) rankLanguage!: string | null;
  @Field(() => String, { nullable: true }) rankDevice!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Count subdomains as the project when finding its position.' })
  rankIncludeSubdomains!: boolean | null;
}

@InputType('ProjectSettingsInput')
export class ProjectSettingsInput {
  @Field(() => Int, { nullable: true }) maxPages?: number | null;
  @Field(() => Int, { nullable: true }) maxDepth?: number | null;
  @Field(() => Int, { nullable: true }) crawlDelayMs?: number | null;
  @Field(() => String, { nullable: true }) userAgent?: string | null;
  @Field(() => Boolean, { nullable: true }) respectRobots?: boolean | null;
  @Field(() => String, { nullable: true }) rankCountry?: string | null;
  @Field(() => String, { nullable: true }) rankLanguage?: string | null;
  @Field(() => String, { nullable: true }) rankDevice?: string | null;
  @Field(() => Boolean, { nullable: true }) rankIncludeSubdomains?: boolean | null;
}

@InputType('UpdateProjectInput')
export class UpdateProjectInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'A new start URL (http or https; a bare domain is tried over https, then http). Past audits keep theirs.',
  })
  url?: string | null;
  @Field(() => ProjectSettingsInput, {
    nullable: true,
    description: 'Fields given replace the stored ones; null clears one.',
  })
  settings?: ProjectSettingsInput | null;
}

@ObjectType('ProjectOrganization', {
  description: 'The organization that owns a project, as one of its members sees it (to open a shared link in it).',
})
export class ProjectOrganizationType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
}
