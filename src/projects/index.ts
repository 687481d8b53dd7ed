export {
  ProjectEntity,
  type Project,
  type ProjectRecord,
  type ProjectSettings,
  type ProjectScheduleColumns,
} from './project.entity.js';
export {
  ProjectService,
  type ProjectDeletionHook,
  type ProjectScheduleHook,
  type CreateProjectData,
  type ScheduledProjectRow,
} from './project.service.js';
export {
  AUDIT_SCHEDULE_FREQUENCIES,
  DEFAULT_AUDIT_SCHEDULE,
  auditScheduleOf,
  auditScheduleRepeat,
  canonicalTimeZone,
  isAuditScheduleSlot,
  nextAuditRunAt,
  parseAuditSchedule,
  previousAuditRunAt,
  type AuditSchedule,
  type AuditScheduleFrequency,
  type AuditScheduleInput,
  type AuditScheduleRepeat,
} from './audit-schedule.js';
export { normalizeProjectUrl, parseProjectUrl, resolveStartUrl, withScheme } from './project-url.js';
export {
  ProjectCountRegistry,
  type ProjectCountField,
  type ProjectCountRows,
  type ProjectCountSource,
} from './project-counts.js';
export { OrganizationUsageService } from './organization-usage.service.js';
// Login crawls as a project setting: the stored, sealed login (the crawler holds the login mechanics).
export { CrawlLoginService, crawlKeyMaterial, crawlLoginBox } from './crawl-login.service.js';
export type { CrawlLoginFacts } from './crawl-login.model.js';
// Custom extraction and search: a project's extractors (the evaluator is src/seo/extraction).
export {
  CustomExtractorService,
  extractorColumn,
  extractorSpec,
  type CustomExtractorInput,
  type CustomExtractorView,
} from './custom-extractor.service.js';
