import { defineEntity, type InferEntity } from '@mikro-orm/core';

export interface ProjectSettings {
  maxPages?: number;
  maxDepth?: number;
  crawlDelayMs?: number;
  userAgent?: string;
  respectRobots?: boolean;
  rankCountry?: string;
  rankLanguage?: string;
  rankDevice?: 'desktop' | 'mobile';
  rankIncludeSubdomains?: boolean;
}

export const ProjectEntity = defineEntity({
  name: 'Project',
  tableName: 'project',
  properties: (p) => ({
    id: p.uuid().primary(),
    organizationId: p.string(),
    name: p.string(),
    url: p.string(),
    domain: p.string(),
    settings: p.json<ProjectSettings>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type Project = InferEntity<typeof ProjectEntity>;

/** A project as plain data (list reads skip entity hydration). */
export interface ProjectRecord {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  domain: string;
  settings: ProjectSettings;
  createdAt: Date;
}
