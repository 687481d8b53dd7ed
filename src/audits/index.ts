export {
  AuditEntity,
  AuditIssueEntity,
  AUDIT_STATUSES,
  ACTIVE_STATUSES,
  AUDIT_PHASES,
  withNotTried,
  externalLinkGaps,
  linksNotReadNote,
  pageLinksNote,
  type ExternalLinkCounts,
  type LinkCounts,
  type Audit,
  type AuditIssue,
  type AuditStatus,
  type AuditPhase,
} from './audit.entity.js';
export { AuditService, SEVERITY_ORDER, type StartedAudit } from './audit.service.js';
export {
  AuditPageService,
  MAX_PAGES_PER_REQUEST,
  MAX_PAGE_SEARCH_LENGTH,
  type AuditPageQuery,
  type AuditPageList,
} from './audit-page.service.js';
export {
  UrlTableService,
  URL_TABLE_FIELDS,
  OPERATORS_BY_TYPE,
  MAX_URL_TABLE_PAGE,
  type UrlTableQuery,
  type UrlTablePage,
  type UrlField,
} from './url-table.service.js';
export {
  UrlTableExportService,
  urlTableExportTarget,
  type UrlTableExportFormat,
  type UrlTableExportPiece,
} from './url-table-export.js';
export {
  SegmentService,
  scoreSegment,
  MAX_SEGMENTS_PER_PROJECT,
  type SegmentResult,
  type SegmentView,
  type SegmentInput,
} from './segment.service.js';
export { AUDIT_COUNT_SOURCE } from './audit.loaders.js';
export { AUDIT_JOB_NAME, JOB_STATE_BY_STATUS, type AuditJobData } from './audit-job.js';
export {
  runAuditEngine,
  AuditFailedError,
  type AuditSink,
  type AuditCounts,
  type AuditOutcome,
  type StoppedAudit,
  type AuditPageRow,
  type OccurrenceRecord,
  type LabMeter,
  type VitalsRecord,
} from './audit-engine.js';
export { WontFixService, WONT_FIX_REASON_MAX, type WontFixView, type MarkWontFixInput } from './wont-fix.service.js';
export { AuditJobRunner, type AuditRunResult } from './audit-job-runner.js';
/** The audit state machine: the only writer of audit.status (its transition table is in its doc comment). */
export * as auditLifecycle from './audit-lifecycle.js';
export { AuditSweeper, DEFAULT_MAX_RUNS, heartbeatGraceOf, type SweepReport } from './audit-sweeper.js';
export { auditCrawlOptions, type AuditCrawlSettings } from './audit-crawl-options.js';
export { readAuditBaseline, type StoredAuditBaseline } from './audit-baseline.js';
export { countAuditsByStatus } from './audit-dashboard.repository.js';
export { INLINKS_DESCRIPTION, pageInlinksSql } from './inlinks.js';
