import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum AuditScheduleFrequencyEnum {
  OFF = 'OFF',
  DAILY = 'DAILY',
  WEEKLY = 'WEEKLY',
  MONTHLY = 'MONTHLY',
}
registerEnumType(AuditScheduleFrequencyEnum, {
  name: 'AuditScheduleFrequency',
  description: 'How often a scheduled audit runs; OFF runs none.',
});

export enum RenderingModeEnum {
  HTML = 'html',
  BROWSER = 'browser',
}
registerEnumType(RenderingModeEnum, {
  name: 'RenderingMode',
  description: 'HTML: the HTML as served is analysed. BROWSER: each page is also rendered in headless Chromium.',
});

export enum CrawlListModeEnum {
  OFF = 'off',
  URLS = 'urls',
  SITEMAP = 'sitemap',
}
registerEnumType(CrawlListModeEnum, {
  name: 'CrawlListMode',
  description:
    'OFF: links are followed from the start URL. URLS: only startUrls are audited; SITEMAP: only the URLs of the ' +
    "site's sitemap. In list mode links are checked but not followed, and orphan pages are not reported.",
});

export enum QueryParameterModeEnum {
  KEEP = 'keep',
  DROP_ALL = 'drop-all',
  DROP_LISTED = 'drop-listed',
}
registerEnumType(QueryParameterModeEnum, {
  name: 'QueryParameterMode',
  description:
    'How query parameters of discovered URLs are treated: KEEP them, DROP_ALL of them, or DROP_LISTED ' +
    '(droppedParameters). URLs that differ only by dropped parameters are one page.',
});

@ObjectType('AuditSchedule', {
  description:
    "When the project is audited without anyone asking: at a local time in the schedule's IANA time zone. A time " +
    'skipped by a daylight-saving change runs an hour later that day; one that occurs twice runs once.',
})
export class AuditScheduleType {
  @Field(() => AuditScheduleFrequencyEnum) frequency!: AuditScheduleFrequencyEnum;
  @Field(() => String, { description: 'Local time of day, HH:MM (24 h).' }) time!: string;
  @Field(() => String, { description: 'IANA time zone name, e.g. Europe/Berlin.' }) timeZone!: string;
  @Field(() => Int, { nullable: true, description: 'Day of the week of a WEEKLY schedule: 1 = Monday ... 7 = Sunday.' })
  dayOfWeek!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Day of the month of a MONTHLY schedule (1-31); in a shorter month, 29-31 run on its last day.',
  })
  dayOfMonth!: number | null;
  @Field(() => Date, { nullable: true, description: 'When the next scheduled audit starts; null when OFF.' })
  nextRunAt!: Date | null;
}

@InputType('AuditScheduleInput', {
  description: 'Fields given replace the stored ones; null resets one to its default (OFF, 09:00, UTC).',
})
export class AuditScheduleInput {
  @Field(() => AuditScheduleFrequencyEnum, { nullable: true }) frequency?: AuditScheduleFrequencyEnum | null;
  @Field(() => String, { nullable: true, description: 'HH:MM, 24 h.' }) time?: string | null;
  @Field(() => String, { nullable: true, description: 'IANA time zone name.' }) timeZone?: string | null;
  @Field(() => Int, { nullable: true, description: '1 = Monday ... 7 = Sunday; required for WEEKLY.' })
  dayOfWeek?: number | null;
  @Field(() => Int, { nullable: true, description: '1-31; required for MONTHLY.' }) dayOfMonth?: number | null;
}

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
  @Field(() => AuditScheduleType) auditSchedule!: AuditScheduleType;
}

@InputType('CreateProjectInput')
export class CreateProjectInput {
  @Field(() => String, {
    description: 'Website URL (http or https); a bare domain (example.com) is tried over https, then http.',
  })
  url!: string;
  @Field(() => String, { nullable: true, description: 'Defaults to the host name.' }) name?: string | null;
  @Field(() => AuditScheduleInput, { nullable: true, description: 'Scheduled audits; default OFF.' })
  auditSchedule?: AuditScheduleInput | null;
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
  @Field(() => RenderingModeEnum, { nullable: true, description: 'How pages are read (default HTML).' })
  renderingMode!: RenderingModeEnum | null;
  @Field(() => [String], {
    description:
      'Crawl scope: a URL is crawled only when its path and query match one of these (when any). A pattern is a glob ' +
      '(`*` within a path segment, `**` across segments, `?` one character; anchored: `/blog/**`) or a regular ' +
      'expression written `/…/flags` (searched anywhere in the path and query: `/[?&]sort=/`).',
  })
  includePatterns!: string[];
  @Field(() => [String], { description: 'Crawl scope: URLs whose path and query match one of these are not crawled.' })
  excludePatterns!: string[];
  @Field(() => Boolean, {
    nullable: true,
    description: "Crawl the start URL's subdomains too (each one's robots.txt is obeyed); default false.",
  })
  crawlSubdomains!: boolean | null;
  @Field(() => CrawlListModeEnum, { nullable: true, description: 'List mode (default OFF).' })
  listMode!: CrawlListModeEnum | null;
  @Field(() => [String], { description: 'The URLs list mode URLS audits (on the project’s site).' })
  startUrls!: string[];
  @Field(() => QueryParameterModeEnum, { nullable: true, description: 'Query-parameter handling (default KEEP).' })
  queryParameters!: QueryParameterModeEnum | null;
  @Field(() => [String], { description: 'The parameter names DROP_LISTED removes.' })
  droppedParameters!: string[];
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
  @Field(() => RenderingModeEnum, { nullable: true }) renderingMode?: RenderingModeEnum | null;
  @Field(() => [String], { nullable: true, description: 'At most 50 patterns of at most 300 characters.' })
  includePatterns?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'At most 50 patterns of at most 300 characters.' })
  excludePatterns?: string[] | null;
  @Field(() => Boolean, { nullable: true }) crawlSubdomains?: boolean | null;
  @Field(() => CrawlListModeEnum, { nullable: true }) listMode?: CrawlListModeEnum | null;
  @Field(() => [String], {
    nullable: true,
    description: "http(s) URLs on the project's site (or a subdomain with crawlSubdomains); at most the plan's pages.",
  })
  startUrls?: string[] | null;
  @Field(() => QueryParameterModeEnum, { nullable: true }) queryParameters?: QueryParameterModeEnum | null;
  @Field(() => [String], { nullable: true, description: 'At most 50 parameter names.' })
  droppedParameters?: string[] | null;
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
  @Field(() => AuditScheduleInput, { nullable: true, description: 'Omitted, the schedule stays as it is.' })
  auditSchedule?: AuditScheduleInput | null;
}

@ObjectType('ProjectOrganization', {
  description: 'The organization that owns a project, as one of its members sees it (to open a shared link in it).',
})
export class ProjectOrganizationType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
}
