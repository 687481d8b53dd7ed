/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { ReportResolver } from './report.resolver.js';
export {
  AuditReportType,
  ClientReportType,
  ReportPdfType,
  ExportChunkType,
  ExportFormatEnum,
  ExportKindEnum,
  OccurrenceExportConnection,
  OccurrenceExportRowType,
  ReportScoresType,
} from './report.types.js';
