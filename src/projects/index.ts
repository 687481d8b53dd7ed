export { ProjectEntity, type Project, type ProjectRecord, type ProjectSettings } from './project.entity.js';
export { ProjectService, type ProjectDeletionHook, type CreateProjectData } from './project.service.js';
export { normalizeProjectUrl, parseProjectUrl, resolveStartUrl, withScheme } from './project-url.js';
export {
  ProjectCountRegistry,
  type ProjectCountField,
  type ProjectCountRows,
  type ProjectCountSource,
} from './project-counts.js';
export { OrganizationUsageService } from './organization-usage.service.js';
