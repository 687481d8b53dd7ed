import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { SerpResult } from '../serp/index.js';
import { competitorHostname, competitorMetrics, type KeywordSnapshot } from './competitor-metrics.js';
import type { CompetitorHomepageType, CompetitorType } from './competitor.types.js';
import { enqueueCompetitorProfile, type CompetitorQueue } from './competitor-jobs.js';

interface CompetitorRow {
  id: string;
  projectId: string;
  domain: string;
  createdAt: Date;
  profile: (CompetitorHomepageType & { overallScore: number | null }) | null;
  profileCheckedAt: Date | null;
}

/**
 * A host from "example.com", "https://www.example.com/path" or "WWW.Example.COM." — www. removed; a
 * non-default port is kept (it is part of where the homepage lives) but ignored when matching SERP results.
 */
export function normalizeCompetitorDomain(input: string): string {
  const raw = input.trim();
  const fail = () => badInput('domain must be a host name or an http(s) URL, e.g. example.com', [{ path: 'domain', message: 'invalid' }]);
  if (!raw || raw.length > 2048) throw fail();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw fail();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw fail();
  const hostname = url.hostname.replace(/\.$/, '').replace(/^www\./, '');
  if (!hostname.includes('.') || hostname.startsWith('[') || /^\d+(\.\d+){3}$/.test(hostname)) throw fail();
  return url.port ? `${hostname}:${url.port}` : hostname;
}

export class CompetitorService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas' | 'SERP_RETRY_DELAY_MS'>,
    private readonly projects: ProjectService,
    private readonly queue: CompetitorQueue,
  ) {}

  async list(em: EntityManager, principal: Principal | null, projectId: string): Promise<CompetitorType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    const rows = await nativeQuery<CompetitorRow>(
      em,
      `SELECT id, project_id AS "projectId", domain, created_at AS "createdAt", profile, profile_checked_at AS "profileCheckedAt"
       FROM competitor WHERE project_id = $1 ORDER BY created_at, domain`,
      [project.id],
    );
    if (!rows.length) return [];
    const snapshots = await this.latestSnapshots(em, project.id);
    return rows.map((row) => this.toType(row, snapshots));
  }

  /** The latest SERP snapshot of each keyword of the project: competitors' positions come from these. */
  private async latestSnapshots(em: EntityManager, projectId: string): Promise<KeywordSnapshot[]> {
    return nativeQuery<KeywordSnapshot>(
      em,
      `SELECT DISTINCT ON (s.keyword_id) s.keyword_id AS "keywordId", k.term, s.checked_at AS "checkedAt", s.results
       FROM serp_snapshot s JOIN keyword k ON k.id = s.keyword_id
       WHERE k.project_id = $1 ORDER BY s.keyword_id, s.checked_at DESC`,
      [projectId],
    ) as Promise<(KeywordSnapshot & { results: SerpResult[] })[]>;
  }

  private toType(row: CompetitorRow, snapshots: KeywordSnapshot[]): CompetitorType {
    const metrics = competitorMetrics(row.domain, snapshots);
    const lastChecked = [metrics.lastChecked, row.profileCheckedAt].filter((d): d is Date => !!d).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    const { overallScore = null, ...homepage } = row.profile ?? {};
    return {
      id: row.id,
      projectId: row.projectId,
      domain: row.domain,
      createdAt: row.createdAt,
      overallScore: overallScore ?? null,
      keywordsInTop10: metrics.keywordsInTop10,
      averagePosition: metrics.averagePosition,
      visibility: metrics.visibility,
      lastChecked,
      positions: metrics.positions,
      homepage: row.profile ? (homepage as CompetitorHomepageType) : null,
    };
  }

  async add(em: EntityManager, principal: Principal | null, projectId: string, domainInput: string): Promise<CompetitorType> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const domain = normalizeCompetitorDomain(domainInput);
    // Its homepage is fetched: an internal-only name is refused as a project URL would be.
    this.projects.assertFetchableTarget(`https://${domain}/`, { path: 'domain', noun: 'domain' });
    if (competitorHostname(domain) === project.domain.replace(/^www\./, '')) throw badInput("A competitor cannot be the project's own domain.", [{ path: 'domain', message: 'own domain' }]);
    const max = quotaFor(this.config, p.plan).competitorsPerProject;
    const id = newId();
    await em.transactional(async (tx) => {
      // Deleted since findOwned: without the row the insert below would fail on its foreign key (a 500).
      const locked = await tx.execute<unknown[]>('SELECT 1 FROM project WHERE id = ? FOR UPDATE', [project.id]);
      if (!locked.length) throw notFound('Project');
      const [{ n }] = await tx.execute<{ n: number }[]>('SELECT count(*)::int AS n FROM competitor WHERE project_id = ?', [project.id]);
      const [{ dup }] = await tx.execute<{ dup: number }[]>('SELECT count(*)::int AS dup FROM competitor WHERE project_id = ? AND domain = ?', [project.id, domain]);
      if (dup) throw new DomainError('BAD_USER_INPUT', `${domain} is already tracked as a competitor.`, [{ path: 'domain', message: 'already tracked' }]);
      assertWithinQuota(n, max, max === 1 ? 'competitor per project' : 'competitors per project', p.plan);
      await tx.execute('INSERT INTO competitor (id, project_id, domain, created_at) VALUES (?, ?, ?, now())', [id, project.id, domain]);
    });
    await enqueueCompetitorProfile(this.queue, id, this.config.SERP_RETRY_DELAY_MS);
    const [row] = await nativeQuery<CompetitorRow>(
      em,
      `SELECT id, project_id AS "projectId", domain, created_at AS "createdAt", profile, profile_checked_at AS "profileCheckedAt" FROM competitor WHERE id = $1`,
      [id],
    );
    return this.toType(row, await this.latestSnapshots(em, project.id));
  }

  async remove(em: EntityManager, principal: Principal | null, competitorId: string): Promise<CompetitorType> {
    const p = assertApiAccess(principal, 'write');
    const rows = isUuid(competitorId)
      ? await nativeQuery<CompetitorRow>(
          em,
          `SELECT c.id, c.project_id AS "projectId", c.domain, c.created_at AS "createdAt", c.profile, c.profile_checked_at AS "profileCheckedAt"
           FROM competitor c JOIN project pr ON pr.id = c.project_id WHERE c.id = $1 AND pr.organization_id = $2`,
          [competitorId, p.organizationId],
        )
      : [];
    if (!rows[0]) throw notFound('Competitor');
    await nativeQuery(em, 'DELETE FROM competitor WHERE id = $1', [rows[0].id]);
    return this.toType(rows[0], []);
  }
}
