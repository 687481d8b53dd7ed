import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { normalizeDomain } from '../serp/index.js';
import {
  MAX_CANNIBALISATION_DAYS,
  MAX_CANNIBALISING_URLS,
  MIN_CANNIBALISING_URLS,
  groupCannibalisation,
  type KeywordCannibalisation,
} from './cannibalisation.js';
import { parseTarget, parseTerms } from './keyword-terms.js';
import { KeywordRepository } from './keyword.repository.js';
import type {
  KeywordChangeType,
  KeywordRankingsType,
  KeywordType,
  RankCheckPayload,
  RankTrackingType,
} from './keyword.types.js';
import { KEYWORD_CHANGE_KINDS as KIND, type KeywordChangeKind } from './keyword-change-kinds.js';
import { rankJobOptions, scheduleDailyRankCheck, type RankQueue } from './rank-jobs.js';

export const MAX_RANKING_DAYS = 365;
/** Keywords one keywordRankings call may name (the plans' largest per-project quota fits). */
export const MAX_RANKING_KEYWORD_IDS = 1000;

/** Which rankings a history read returns, beyond its days. */
export interface RankingsOptions {
  /** Only these keywords of the project (undefined or null: every keyword). */
  keywordIds?: string[] | null;
  /** Failed checks too, as points without a position and with their error. */
  includeFailed?: boolean | null;
}

/** What `keywordChange` reads of a keyword: its two latest successful checks and how many found it. */
export type KeywordChangeInput = Pick<
  KeywordType,
  'position' | 'previousPosition' | 'previousChecked' | 'lastChecked' | 'rankedChecks'
>;

/**
 * The one rule of a keyword's change between its two latest successful checks. Found now: MOVED when it was found
 * at the check before too; else BACK when an earlier check had found it (it ranked, dropped out, came back), NEW
 * when no earlier check ever did (the first time it ranks, its first check included). Not found now: DROPPED when
 * found at the check before, else ABSENT; NONE before the first successful check.
 */
export function keywordChange(k: KeywordChangeInput): KeywordChangeType {
  const none = (kind: KeywordChangeKind): KeywordChangeType => ({ kind, delta: null });
  if (!k.lastChecked) return none(KIND.NONE);
  if (k.position !== null) {
    if (k.previousChecked && k.previousPosition !== null) {
      return { kind: KIND.MOVED, delta: k.previousPosition - k.position };
    }
    return none(k.rankedChecks > 1 ? KIND.BACK : KIND.NEW);
  }
  if (k.previousChecked && k.previousPosition !== null) return none(KIND.DROPPED);
  return none(KIND.ABSENT);
}

export class KeywordService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas' | 'SERP_RETRY_DELAY_MS' | 'SERP_PROVIDER'>,
    private readonly projects: ProjectService,
    private readonly queue: RankQueue,
    private readonly repo = new KeywordRepository(),
  ) {}

  async list(em: EntityManager, principal: Principal | null, projectId: string): Promise<KeywordType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    return this.repo.listForProject(em, project.id);
  }

  /** Adds terms in bulk: normalized, deduped (also against tracked terms), within the plan's quota — all or nothing. */
  async add(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    input: { keywords: unknown[]; country?: string | null; language?: string | null; device?: string | null },
  ): Promise<KeywordType[]> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const terms = parseTerms(input.keywords);
    const settings = project.settings ?? {};
    const target = parseTarget(input, {
      country: settings.rankCountry,
      language: settings.rankLanguage,
      device: settings.rankDevice,
    });
    const max = quotaFor(this.config, p.plan).keywordsPerProject;
    // Serializes adds per project so the quota holds under concurrency: the rule runs under the project's lock.
    const inserted = await this.repo.insertLocked(em, project.id, target, ({ count, existingKeys }) => {
      const fresh = terms.filter((t) => !existingKeys.has(t.key));
      if (fresh.length === 0) return [];
      assertWithinQuota(count, max, 'keywords per project', p.plan, fresh.length);
      return fresh.map((t) => ({ id: newId(), term: t.term, key: t.key }));
    });
    // Deleted since findOwned: without the row the insert would fail on its foreign key (a 500).
    if (!inserted) throw notFound('Project');
    const ids = inserted.map((r) => r.id);
    if (!ids.length) return [];
    await scheduleDailyRankCheck(this.queue, project.id);
    return this.repo.findByIds(em, ids);
  }

  async remove(em: EntityManager, principal: Principal | null, keywordId: string): Promise<KeywordType> {
    const p = assertApiAccess(principal, 'write');
    const keyword = await this.findOwned(em, p, keywordId);
    await this.repo.deleteById(em, keyword.id);
    return keyword;
  }

  private async findOwned(em: EntityManager, p: Principal, keywordId: string): Promise<KeywordType> {
    const keyword = isUuid(keywordId) ? await this.repo.findOwned(em, keywordId, p.organizationId) : undefined;
    if (!keyword) throw notFound('Keyword');
    return keyword;
  }

  /**
   * Ranking history of the project's keywords (all, or those of `keywordIds`; another project's ids match nothing),
   * oldest first: successful checks within `days`, and failed ones with `includeFailed` (a gap, never a position).
   */
  async rankings(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    days: number,
    options: RankingsOptions = {},
  ): Promise<KeywordRankingsType[]> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(days) || days < 1 || days > MAX_RANKING_DAYS) {
      throw badInput(`days must be an integer from 1 to ${MAX_RANKING_DAYS}`, [
        { path: 'days', message: `must be 1-${MAX_RANKING_DAYS}` },
      ]);
    }
    const keywordIds = options.keywordIds ?? null;
    if (keywordIds && keywordIds.length > MAX_RANKING_KEYWORD_IDS) {
      throw badInput(`keywordIds may name at most ${MAX_RANKING_KEYWORD_IDS} keywords`, [
        { path: 'keywordIds', message: `at most ${MAX_RANKING_KEYWORD_IDS}` },
      ]);
    }
    const badId = keywordIds?.findIndex((id) => !isUuid(id)) ?? -1;
    if (badId >= 0) {
      throw badInput(`keywordIds.${badId} is not a keyword id`, [{ path: `keywordIds.${badId}`, message: 'invalid' }]);
    }
    const project = await this.projects.findOwned(em, p, projectId);
    const rows = await this.repo.rankingHistory(em, project.id, {
      days,
      includeFailed: options.includeFailed ?? false,
      keywordIds,
    });
    const out: KeywordRankingsType[] = [];
    for (const row of rows) {
      let entry = out.at(-1);
      if (!entry || entry.keywordId !== row.keywordId) {
        entry = { keywordId: row.keywordId, term: row.term, history: [] };
        out.push(entry);
      }
      if (row.checkedAt && row.status) {
        entry.history.push({
          position: row.position,
          url: row.url,
          checkedAt: row.checkedAt,
          status: row.status,
          error: row.error,
        });
      }
    }
    return out;
  }

  /**
   * The project's keywords for which at least `minUrls` (2-20) distinct site URLs ranked within the last `days`
   * days (1-90), from the stored SERP snapshots (src/keywords/cannibalisation.ts says what a site URL is); `search`
   * keeps the keywords whose term contains it (case-insensitive).
   */
  async cannibalisation(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    options: { days: number; minUrls: number; search?: string | null },
  ): Promise<KeywordCannibalisation[]> {
    const p = assertApiAccess(principal, 'read');
    const { days, minUrls } = options;
    const details = [];
    if (!Number.isInteger(days) || days < 1 || days > MAX_CANNIBALISATION_DAYS) {
      details.push({ path: 'days', message: `must be a whole number of days from 1 to ${MAX_CANNIBALISATION_DAYS}` });
    }
    if (!Number.isInteger(minUrls) || minUrls < MIN_CANNIBALISING_URLS || minUrls > MAX_CANNIBALISING_URLS) {
      details.push({
        path: 'minUrls',
        message: `must be a whole number from ${MIN_CANNIBALISING_URLS} to ${MAX_CANNIBALISING_URLS}`,
      });
    }
    const search = options.search?.trim().toLocaleLowerCase() ?? '';
    if (search.length > 200) details.push({ path: 'search', message: 'must be at most 200 characters' });
    if (details.length) throw badInput(details.map((d) => `${d.path} ${d.message}`).join('; '), details);
    const project = await this.projects.findOwned(em, p, projectId);
    const domain = normalizeDomain(project.domain);
    if (!domain) return [];
    const rows = await this.repo.snapshotsWithin(em, project.id, { days, needle: domain, minUrls });
    const grouped = groupCannibalisation(rows, domain, {
      includeSubdomains: project.settings?.rankIncludeSubdomains ?? false,
      minUrls,
    });
    return search ? grouped.filter((k) => k.term.toLocaleLowerCase().includes(search)) : grouped;
  }

  /** A keyword's change between its two latest successful checks (the rule: `keywordChange`). */
  changeOf(keyword: KeywordChangeInput): KeywordChangeType {
    return keywordChange(keyword);
  }

  /** Whether rank checks can find positions here: the configured provider's name, never its credentials. */
  rankTracking(principal: Principal | null): RankTrackingType {
    assertApiAccess(principal, 'read');
    const provider = this.config.SERP_PROVIDER?.trim() || null;
    return { providerConfigured: provider !== null, provider };
  }

  /** "Check now": one job per project per minute at most (the job id dedupes double clicks). */
  async checkNow(em: EntityManager, principal: Principal | null, projectId: string): Promise<RankCheckPayload> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const n = await this.repo.countForProject(em, project.id);
    if (n === 0) throw new DomainError('BAD_USER_INPUT', 'The project has no keywords to check.');
    const jobId = `rank-now-${project.id}-${Math.floor(Date.now() / 60_000)}`;
    if (await this.queue.getJob(jobId)) {
      return {
        message: 'A rank check of this project was already queued this minute',
        jobId,
        keywords: n,
        queued: false,
      };
    }
    await this.queue.add(
      'check-project',
      { kind: 'check-project', projectId: project.id },
      { ...rankJobOptions(this.config.SERP_RETRY_DELAY_MS), jobId },
    );
    return { message: 'Rank check queued', jobId, keywords: n, queued: true };
  }
}
