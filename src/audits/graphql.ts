/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export {
  AuditResolver,
  IssueResolver,
  ProjectAuditFieldsResolver,
  toAuditType,
  toJobType,
  toSettingChangeType,
} from './audit.resolver.js';
export { AuditCheckSettingType, CheckSettingChangeType, CheckSettingChangeKindEnum } from './audit-settings.types.js';
export { WontFixIssueResolver, WontFixOccurrenceResolver, WontFixResolver } from './wont-fix.resolver.js';
export { MarkWontFixInput, WontFixType } from './wont-fix.types.js';
export { AuditPageViewResolver } from './audit-page-view.resolver.js';
export { UrlTableResolver } from './url-table.resolver.js';
export { AuditSegmentResolver, SegmentResolver, toAuditSegmentType, toSegmentType } from './segment.resolver.js';
export { AuditSegmentType, SegmentInput, SegmentKindEnum, SegmentScoresType, SegmentType } from './segment.types.js';
export {
  UrlTableConnection,
  UrlTableExportFormatEnum,
  UrlTableExportPieceType,
  UrlTableFieldType,
  UrlTableFilterInput,
  UrlTableRowType,
  UrlTableSortInput,
} from './url-table.types.js';
export {
  AuditPageViewRankingResolver,
  IssueOccurrenceRankingResolver,
  KeywordRankingPageResolver,
} from './ranking-pages.resolver.js';
export { KeywordRankingPageType, RankingKeywordType, RankingPageIssueType } from './ranking-pages.types.js';
export {
  AuditType,
  IssueType,
  JobType,
  StartAuditPayload,
  AuditConnection,
  BlockerNoticeType,
  IssueCountsType,
  AuditCountsType,
  PageInfoType,
  AuditPageType,
  AuditPageConnection,
  AuditPageKindEnum,
  CategoryEnum,
  SeverityEnum,
} from './audit.types.js';
