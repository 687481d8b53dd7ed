import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { normalizeDomain } from '../serp/index.js';
import { CTR_CURVE, competitorHostname, competitorMetrics, type KeywordSnapshot } from './competitor-metrics.js';
import { CompetitorRepository, type CompetitorRow } from './competitor.repository.js';
import type { CompetitorHomepageType, CompetitorOverviewType, CompetitorType } from './competitor.types.js';
import { enqueueCompetitorProfile, type CompetitorQueue } from './competitor-jobs.js';

/**
 * A host from "example.com", "https://www.example.com/path" or "WWW.Example.COM." — www. removed; a
 * non-default port is kept (it is part of where the homepage lives) but ignored when matching SERP results.
 */
export function normalizeCompetitorDomain(input: string): string {
  const raw = input.trim();
  const fail = () =>
    badInput('domain must be a host name or an http(s) URL, e.g. example.com', [
      { path: 'domain', message: 'invalid' },
    ]);
  if (!raw || raw.length > 2048) throw fail();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw fail();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw fail();
  const hostname = url.hostname.replace(/\.$/, '').replace(/^www\./, '');
  // A host name of at least two labels, none empty: "..", "a..", ".example.com" and "example..com" are no hosts.
  const labels = hostname.split('.');
  if (labels.length < 2 || labels.includes('') || hostname.startsWith('[') || /^\d+(\.\d+){3}$/.test(hostname))
    throw fail();
  return url.port ? `${hostname}:${url.port}` : hostname;
}

/** The longest visibility history one request may ask for. */
export const MAX_HISTORY_DAYS = 365;

export class CompetitorService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas' | 'SERP_RETRY_DELAY_MS' | 'SERP_PROVIDER'>,
    private readonly projects: ProjectService,
    private readonly queue: CompetitorQueue,
    private readonly repo = new CompetitorRepository(),
  ) {}

  async list(em: EntityManager, principal: Principal | null, projectId: string): Promise<CompetitorType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    const rows = await this.repo.listForProject(em, project.id);
    if (!rows.length) return [];
    const snapshots = await this.repo.latestSnapshots(em, project.id);
    return rows.map((row) => this.toType(row, snapshots));
  }

  /**
   * The project against its competitors: the same share-of-voice rule for the project's own domain (its subdomains
   * per its rankIncludeSubdomains setting, as its rank checks) and for each competitor, now and per day over the
   * last `days` days.
   */
  async overview(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    days: number,
  ): Promise<CompetitorOverviewType> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(days) || days < 1 || days > MAX_HISTORY_DAYS)
      throw badInput(`days must be an integer from 1 to ${MAX_HISTORY_DAYS}`, [
        { path: 'days', message: `must be 1-${MAX_HISTORY_DAYS}` },
      ]);
    const project = await this.projects.findOwned(em, p, projectId);
    const rows = await this.repo.listForProject(em, project.id);
    const snapshots = await this.repo.latestSnapshots(em, project.id);
    const includeSubdomains = project.settings?.rankIncludeSubdomains ?? false;
    const own = normalizeDomain(project.domain);
    const { lastChecked: _checked, ...mine } = competitorMetrics(own, snapshots, { includeSubdomains });
    const targets = [
      { domain: own, includeSubdomains },
      ...rows.map((r) => ({ domain: normalizeDomain(competitorHostname(r.domain)), includeSubdomains: true })),
    ];
    const history = snapshots.length ? await this.repo.visibilityHistory(em, project.id, days, targets, CTR_CURVE) : [];
    // History rows carry the normalized host; report each competitor under its stored domain (which may have a port).
    const shown = new Map(targets.map((t, i) => [t.domain, i === 0 ? own : rows[i - 1].domain]));
    return {
      serpProvider: this.config.SERP_PROVIDER || null,
      keywordsTracked: await this.repo.keywordCount(em, project.id),
      keywordsChecked: snapshots.length,
      project: { domain: own, ...mine },
      competitors: rows.map((row) => this.toType(row, snapshots)),
      history: history.map((h) => ({ ...h, domain: shown.get(h.domain) ?? h.domain })),
    };
  }

  private toType(row: CompetitorRow, snapshots: KeywordSnapshot[]): CompetitorType {
    const metrics = competitorMetrics(row.domain, snapshots);
    const lastChecked =
      [metrics.lastChecked, row.profileCheckedAt]
        .filter((d): d is Date => !!d)
        .sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
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

  async add(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    domainInput: string,
  ): Promise<CompetitorType> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const domain = normalizeCompetitorDomain(domainInput);
    // Its homepage is fetched: an internal-only name is refused as a project URL would be.
    this.projects.assertFetchableTarget(`https://${domain}/`, { path: 'domain', noun: 'domain' });
    if (competitorHostname(domain) === project.domain.replace(/^www\./, ''))
      throw badInput("A competitor cannot be the project's own domain.", [{ path: 'domain', message: 'own domain' }]);
    const max = quotaFor(this.config, p.plan).competitorsPerProject;
    const id = newId();
    // The rules run under the project's lock, so they hold under concurrent adds.
    const inserted = await this.repo.insertLocked(em, { id, projectId: project.id, domain }, ({ count, duplicate }) => {
      if (duplicate)
        throw new DomainError('BAD_USER_INPUT', `${domain} is already tracked as a competitor.`, [
          { path: 'domain', message: 'already tracked' },
        ]);
      assertWithinQuota(count, max, max === 1 ? 'competitor per project' : 'competitors per project', p.plan);
    });
    // Deleted since findOwned: without the row the insert would fail on its foreign key (a 500).
    if (!inserted) throw notFound('Project');
    await enqueueCompetitorProfile(this.queue, id, this.config.SERP_RETRY_DELAY_MS);
    const row = (await this.repo.findById(em, id)) as CompetitorRow; // just inserted
    return this.toType(row, await this.repo.latestSnapshots(em, project.id));
  }

  async remove(em: EntityManager, principal: Principal | null, competitorId: string): Promise<CompetitorType> {
    const p = assertApiAccess(principal, 'write');
    const row = isUuid(competitorId) ? await this.repo.findOwned(em, competitorId, p.organizationId) : undefined;
    if (!row) throw notFound('Competitor');
    await this.repo.deleteById(em, row.id);
    return this.toType(row, []);
  }
}
