import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, ID, Info, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { selectedFields } from '../platform/graphql-selection.js';
import type { ProjectCountRegistry } from './project-counts.js';
import type { ProjectRecord, ProjectScheduleColumns } from './project.entity.js';
import { auditScheduleOf, nextAuditRunAt } from './audit-schedule.js';
import type { ProjectService } from './project.service.js';
import { type ProjectListRow } from './project.service.js';
import {
  type AuditScheduleFrequencyEnum,
  type AuditScheduleType,
  CreateProjectInput,
  DeleteProjectPayload,
  ProjectOrganizationType,
  ProjectType,
  UpdateProjectInput,
  type ProjectSettingsType,
  type CrawlListModeEnum,
  type QueryParameterModeEnum,
  type RenderingModeEnum,
} from './project.types.js';

/**
 * Entity -> API shape; counters and scores are filled by the owning modules' field resolvers. An instance,
 * not a plain object: type-graphql otherwise copies the root into a new ProjectType for every field
 * resolver call (twice per project and field in a list). Assigned field by field: this runs for every row.
 */
export function toProjectType(project: ProjectRecord | ProjectListRow): ProjectType {
  const type = new ProjectType();
  type.id = project.id;
  type.name = project.name;
  type.domain = project.domain;
  type.createdAt = project.createdAt;
  type.lastAuditScore = null;
  // A list whose operation selects neither reads neither (see ProjectService.list).
  if (project.url !== undefined) type.url = project.url;
  if (project.settings !== undefined) type.settings = toSettingsType(project.settings);
  // The schedule's columns are read all together or not at all.
  if (project.auditScheduleFrequency !== undefined) type.auditSchedule = toAuditScheduleType(project as ProjectRecord);
  return type;
}

/** The stored schedule and its next run from now (computed here: it depends on the time of the read). */
export function toAuditScheduleType(columns: ProjectScheduleColumns): AuditScheduleType {
  const schedule = auditScheduleOf(columns);
  return {
    ...schedule,
    frequency: schedule.frequency as AuditScheduleFrequencyEnum,
    nextRunAt: nextAuditRunAt(schedule, Date.now()),
  };
}

function toSettingsType(settings: ProjectRecord['settings'] | null | undefined): ProjectSettingsType {
  return {
    maxPages: settings?.maxPages ?? null,
    maxDepth: settings?.maxDepth ?? null,
    crawlDelayMs: settings?.crawlDelayMs ?? null,
    userAgent: settings?.userAgent ?? null,
    respectRobots: settings?.respectRobots ?? null,
    rankCountry: settings?.rankCountry ?? null,
    rankLanguage: settings?.rankLanguage ?? null,
    rankDevice: settings?.rankDevice ?? null,
    rankIncludeSubdomains: settings?.rankIncludeSubdomains ?? null,
    // The enums' values are the stored strings.
    renderingMode: (settings?.renderingMode as RenderingModeEnum | undefined) ?? null,
    includePatterns: settings?.includePatterns ?? [],
    excludePatterns: settings?.excludePatterns ?? [],
    crawlSubdomains: settings?.crawlSubdomains ?? null,
    listMode: (settings?.listMode as CrawlListModeEnum | undefined) ?? null,
    startUrls: settings?.startUrls ?? [],
    queryParameters: (settings?.queryParameters as QueryParameterModeEnum | undefined) ?? null,
    droppedParameters: settings?.droppedParameters ?? [],
  };
}

@Resolver(() => ProjectType)
export class ProjectResolver {
  constructor(
    private readonly service: ProjectService,
    private readonly counts: ProjectCountRegistry,
  ) {}

  @Query(() => [ProjectType], { description: "The organization's projects, oldest first." })
  async projects(@Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo): Promise<ProjectType[]> {
    // Only the columns the operation reads: the V1 and Surface B lists select neither url nor settings.
    const selected = selectedFields(info);
    const columns = {
      url: selected.has('url'),
      settings: selected.has('settings'),
      schedule: selected.has('auditSchedule'),
    };
    const projects = (await this.service.list(ctx.db, ctx.principal, columns)).rows.map(toProjectType);
    if (selected.has('counts')) this.counts.fill(projects, await this.counts.read(ctx.db, projects));
    return projects;
  }

  @Query(() => ProjectType, {
    description: 'One project; NOT_FOUND when it is missing or belongs to another organization.',
  })
  async project(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProjectType> {
    return this.withCounts(ctx, info, toProjectType(await this.service.get(ctx.em, ctx.principal, id)));
  }

  @Query(() => ProjectOrganizationType, {
    description:
      'The organization that owns a project, when the signed-in user is one of its members (a shared link opens in ' +
      'it); NOT_FOUND otherwise, as for a missing project. With an API key: its own organization only.',
  })
  projectOrganization(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ProjectOrganizationType> {
    return this.service.organizationOf(ctx.db, ctx.principal, id);
  }

  @Mutation(() => ProjectType)
  async createProject(
    @Arg('input', () => CreateProjectInput) input: CreateProjectInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProjectType> {
    return this.withCounts(ctx, info, toProjectType(await this.service.create(ctx.em, ctx.principal, input)));
  }

  @Mutation(() => ProjectType, {
    description: 'Renames a project, changes its start URL, its crawl and rank settings or its audit schedule.',
  })
  async updateProject(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateProjectInput) input: UpdateProjectInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProjectType> {
    return this.withCounts(ctx, info, toProjectType(await this.service.update(ctx.em, ctx.principal, id, input)));
  }

  @Mutation(() => DeleteProjectPayload, {
    description: 'Deletes the project and all its data; cancels its running jobs.',
  })
  async deleteProject(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<DeleteProjectPayload> {
    const project = await this.service.delete(ctx.em, ctx.principal, id);
    return { id: project.id, success: true };
  }

  /** `Project.counts` has no resolver of its own: every resolver that returns projects fills it when selected. */
  private async withCounts(ctx: RequestContext, info: GraphQLResolveInfo, project: ProjectType): Promise<ProjectType> {
    if (selectedFields(info).has('counts')) this.counts.fill([project], await this.counts.read(ctx.db, [project]));
    return project;
  }
}
