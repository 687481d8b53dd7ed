export { ReportService, MAX_EXPORT_PAGE } from './report.service.js';
export { ReportResolver } from './report.resolver.js';
export { AuditReportType, OccurrenceExportConnection, OccurrenceExportRowType, ReportScoresType } from './report.types.js';
