export { ProjectEntity, type Project, type ProjectRecord, type ProjectSettings } from './project.entity.js';
export { ProjectService, type ProjectDeletionHook, type CreateProjectData } from './project.service.js';
export { ProjectResolver, toProjectType } from './project.resolver.js';
export { ProjectType, ProjectCountsType, CreateProjectInput, DeleteProjectPayload, UpdateProjectInput, ProjectSettingsType } from './project.types.js';
export { normalizeProjectUrl } from './project-url.js';
export { ProjectCountRegistry, type ProjectCountField, type ProjectCountRows, type ProjectCountSource } from './project-counts.js';
export { OrganizationUsageService } from './organization-usage.service.js';
export { OrganizationUsageResolver } from './organization-usage.resolver.js';
export { OrganizationUsageType } from './organization-usage.types.js';
