/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { ProjectResolver, toProjectType } from './project.resolver.js';
export {
  ProjectType,
  ProjectCountsType,
  CreateProjectInput,
  DeleteProjectPayload,
  UpdateProjectInput,
  ProjectSettingsType,
  ProjectOrganizationType,
  AuditScheduleType,
  AuditScheduleInput,
  AuditScheduleFrequencyEnum,
} from './project.types.js';
export { OrganizationUsageResolver } from './organization-usage.resolver.js';
export { OrganizationUsageType } from './organization-usage.types.js';
export { CrawlLoginResolver } from './crawl-login.resolver.js';
export { CrawlLoginType, CrawlLoginInput, CrawlLoginFieldInput, CrawlLoginKindEnum } from './crawl-login.types.js';
export { CustomExtractorResolver } from './custom-extractor.resolver.js';
export {
  CustomExtractorType,
  CustomExtractorInput,
  ExtractorKindEnum,
  ExtractorMatchEnum,
  ExtractorOutputEnum,
} from './custom-extractor.types.js';
