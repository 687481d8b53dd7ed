import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { AuditScheduleFrequency, ProjectScheduleColumns } from './audit-schedule.js';

export type { ProjectScheduleColumns } from './audit-schedule.js';

export interface ProjectSettings {
  maxPages?: number;
  maxDepth?: number;
  crawlDelayMs?: number;
  userAgent?: string;
  respectRobots?: boolean;
  rankCountry?: string;
  rankLanguage?: string;
  rankDevice?: 'desktop' | 'mobile';
  rankIncludeSubdomains?: boolean;
  /** `html` (default) or `browser` (pages rendered in headless Chromium). */
  renderingMode?: 'html' | 'browser';
  /** Crawl scope (CrawlScope in src/crawler/crawl.types.ts): include/exclude patterns on path and query. */
  includePatterns?: string[];
  excludePatterns?: string[];
  crawlSubdomains?: boolean;
  /** List mode: `urls` audits startUrls only, `sitemap` the sitemap's URLs only; `off` (default) crawls links. */
  listMode?: 'off' | 'urls' | 'sitemap';
  startUrls?: string[];
  queryParameters?: 'keep' | 'drop-all' | 'drop-listed';
  droppedParameters?: string[];
}

export const ProjectEntity = defineEntity({
  name: 'Project',
  tableName: 'project',
  properties: (p) => ({
    id: p.uuid().primary(),
    organizationId: p.string(),
    name: p.string(),
    url: p.string(),
    domain: p.string(),
    settings: p.json<ProjectSettings>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    // The audit schedule (src/projects/audit-schedule.ts); columns, not settings JSON, so that the reconciler finds
    // the scheduled projects through an index and the database checks the values.
    auditScheduleFrequency: p.string().$type<AuditScheduleFrequency>(),
    auditScheduleTime: p.string(),
    auditScheduleTimeZone: p.string(),
    auditScheduleDayOfWeek: p.smallint().nullable(),
    auditScheduleDayOfMonth: p.smallint().nullable(),
    /** When the schedule last changed: a slot before it is never caught up. */
    auditScheduleChangedAt: p.datetime().nullable(),
  }),
});
export type Project = InferEntity<typeof ProjectEntity>;

/** A project as plain data (list reads skip entity hydration). */
export interface ProjectRecord extends ProjectScheduleColumns {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  domain: string;
  settings: ProjectSettings;
  createdAt: Date;
}
