import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { ProjectEntity, type Project, type ProjectRecord } from './project.entity.js';
import { normalizeProjectUrl } from './project-url.js';

export interface CreateProjectData {
  url: string;
  name?: string | null;
}

/** Called before a project's rows go, so modules can cancel work (e.g. queued audits). */
export type ProjectDeletionHook = (em: EntityManager, project: Project) => Promise<void>;

export class ProjectService {
  private readonly deletionHooks: ProjectDeletionHook[] = [];

  constructor(private readonly config: Pick<AppConfig, 'quotas'>) {}

  onDelete(hook: ProjectDeletionHook): void {
    this.deletionHooks.push(hook);
  }

  /** Plain rows, not managed entities: lists are read-only and hydration would cost more than the query. */
  async list(em: EntityManager, principal: Principal | null): Promise<ProjectRecord[]> {
    const p = assertApiAccess(principal, 'read');
    return nativeQuery<ProjectRecord>(
      em,
      `SELECT id, organization_id AS "organizationId", name, url, domain, settings, created_at AS "createdAt"
       FROM project WHERE organization_id = $1 ORDER BY created_at, id`,
      [p.organizationId],
    );
  }

  async get(em: EntityManager, principal: Principal | null, id: string): Promise<Project> {
    const p = assertApiAccess(principal, 'read');
    return this.findOwned(em, p, id);
  }

  /** Another organization's project is indistinguishable from a missing one. */
  async findOwned(em: EntityManager, p: Principal, id: string): Promise<Project> {
    const project = isUuid(id) ? await em.findOne(ProjectEntity, { id, organizationId: p.organizationId }) : null;
    if (!project) throw notFound('Project');
    return project;
  }

  async create(em: EntityManager, principal: Principal | null, data: CreateProjectData): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    const { url, domain } = normalizeProjectUrl(data.url);
    const name = (data.name ?? '').trim() || domain;
    if (name.length > 100) throw badInput('name must be at most 100 characters', [{ path: 'name', message: 'must be at most 100 characters' }]);
    const max = quotaFor(this.config, p.plan).projects;
    return em.transactional(async (tx) => {
      // Serializes creates per organization so the quota holds under concurrency.
      await tx.execute('SELECT 1 FROM "organization" WHERE id = ? FOR UPDATE', [p.organizationId]);
      const count = await tx.count(ProjectEntity, { organizationId: p.organizationId });
      assertWithinQuota(count, max, max === 1 ? 'project' : 'projects', p.plan);
      if (await tx.count(ProjectEntity, { organizationId: p.organizationId, url })) {
        throw new DomainError('BAD_USER_INPUT', `A project for ${url} already exists.`, [{ path: 'url', message: 'already tracked' }]);
      }
      const project = tx.create(ProjectEntity, { id: newId(), organizationId: p.organizationId, name, url, domain, settings: {}, createdAt: new Date() });
      await tx.flush();
      return project;
    });
  }

  async delete(em: EntityManager, principal: Principal | null, id: string): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.findOwned(em, p, id);
    for (const hook of this.deletionHooks) await hook(em, project);
    // Child rows go with ON DELETE CASCADE in one statement.
    await em.nativeDelete(ProjectEntity, { id: project.id, organizationId: p.organizationId });
    return project;
  }
}
