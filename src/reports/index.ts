export { ReportService, MAX_EXPORT_PAGE } from './report.service.js';
