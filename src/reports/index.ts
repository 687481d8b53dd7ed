export { ReportService, MAX_EXPORT_PAGE } from './report.service.js';
export {
  ExportService,
  EXPORT_KINDS,
  DEFAULT_EXPORT_CHUNK,
  MAX_EXPORT_CHUNK,
  type ExportChunk,
  type ExportFormat,
  type ExportKind,
} from './export.service.js';
export { ClientReportService, PDF_NEEDS_CHROMIUM } from './client-report.service.js';
export { createReportPdfRenderer, type ReportPdfRenderer, type ReportPdfOptions } from './report-pdf.js';
export { clientReportHtml } from './report-html.js';
