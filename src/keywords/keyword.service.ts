import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { parseTarget, parseTerms } from './keyword-terms.js';
import type { KeywordRankingsType, KeywordType, RankCheckPayload, RankCheckStatusEnum } from './keyword.types.js';
import { rankJobOptions, scheduleDailyRankCheck, type RankQueue } from './rank-jobs.js';

export const MAX_RANKING_DAYS = 365;

/** Keywords with their latest successful ranking and the error of their latest check, in one query. */
const KEYWORD_SELECT = `
  SELECT k.id, k.project_id AS "projectId", k.term, k.country, k.language, k.device, k.created_at AS "createdAt",
         ok.position, ok.url, ok.checked_at AS "lastChecked",
         CASE WHEN last.status = 'FAILED' THEN last.error END AS "lastError",
         last.status AS "lastCheckStatus", last.checked_at AS "lastCheckAt"
  FROM keyword k
  LEFT JOIN LATERAL (SELECT position, url, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC LIMIT 1) ok ON true
  LEFT JOIN LATERAL (SELECT status, error, checked_at FROM ranking r WHERE r.keyword_id = k.id ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true`;

type KeywordRow = Omit<KeywordType, 'lastCheck'> & { lastCheckStatus: RankCheckStatusEnum | null; lastCheckAt: Date | null };

/** The latest check, whatever its outcome: a failed one carries its reason (the runner stores it). */
const toKeyword = ({ lastCheckStatus, lastCheckAt, ...k }: KeywordRow): KeywordType => ({
  ...k,
  lastCheck: lastCheckStatus && lastCheckAt ? { status: lastCheckStatus, checkedAt: lastCheckAt, error: k.lastError } : null,
});

export class KeywordService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas' | 'SERP_RETRY_DELAY_MS'>,
    private readonly projects: ProjectService,
    private readonly queue: RankQueue,
  ) {}

  async list(em: EntityManager, principal: Principal | null, projectId: string): Promise<KeywordType[]> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    return (await nativeQuery<KeywordRow>(em, `${KEYWORD_SELECT} WHERE k.project_id = $1 ORDER BY k.created_at, k.id`, [project.id])).map(toKeyword);
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
    const target = parseTarget(input, { country: settings.rankCountry, language: settings.rankLanguage, device: settings.rankDevice });
    const max = quotaFor(this.config, p.plan).keywordsPerProject;
    const ids = await em.transactional(async (tx) => {
      // Serializes adds per project so the quota holds under concurrency.
      // Deleted since findOwned: without the row the insert below would fail on its foreign key (a 500).
      const locked = await tx.execute<unknown[]>('SELECT 1 FROM project WHERE id = ? FOR UPDATE', [project.id]);
      if (!locked.length) throw notFound('Project');
      const [{ n }] = await tx.execute<{ n: number }[]>('SELECT count(*)::int AS n FROM keyword WHERE project_id = ?', [project.id]);
      const existing = new Set(
        (
          await tx.execute<{ term_key: string }[]>(
            'SELECT term_key FROM keyword WHERE project_id = ? AND country = ? AND language = ? AND device = ?',
            [project.id, target.country, target.language, target.device],
          )
        ).map((r) => r.term_key),
      );
      const fresh = terms.filter((t) => !existing.has(t.key));
      if (fresh.length === 0) return [];
      assertWithinQuota(n, max, 'keywords per project', p.plan, fresh.length);
      const rows = fresh.map((t) => ({ id: newId(), term: t.term, key: t.key }));
      await tx.execute(
        `INSERT INTO keyword (id, project_id, term, term_key, country, language, device, created_at)
         SELECT r.id, ?, r.term, r.key, ?, ?, ?, now() FROM jsonb_to_recordset(?::jsonb) AS r(id uuid, term text, key text)
         ON CONFLICT DO NOTHING`,
        [project.id, target.country, target.language, target.device, jsonParam(rows)],
      );
      return rows.map((r) => r.id);
    });
    if (!ids.length) return [];
    await scheduleDailyRankCheck(this.queue, project.id);
    return (await nativeQuery<KeywordRow>(em, `${KEYWORD_SELECT} WHERE k.id = ANY($1::uuid[]) ORDER BY k.created_at, k.id`, [ids])).map(toKeyword);
  }

  async remove(em: EntityManager, principal: Principal | null, keywordId: string): Promise<KeywordType> {
    const p = assertApiAccess(principal, 'write');
    const keyword = await this.findOwned(em, p, keywordId);
    await nativeQuery(em, 'DELETE FROM keyword WHERE id = $1', [keyword.id]);
    return keyword;
  }

  private async findOwned(em: EntityManager, p: Principal, keywordId: string): Promise<KeywordType> {
    const rows = isUuid(keywordId)
      ? (
          await nativeQuery<KeywordRow>(
            em,
            `${KEYWORD_SELECT} JOIN project pr ON pr.id = k.project_id WHERE k.id = $1 AND pr.organization_id = $2`,
            [keywordId, p.organizationId],
          )
        ).map(toKeyword)
      : [];
    if (!rows[0]) throw notFound('Keyword');
    return rows[0];
  }

  /** Ranking history of every keyword of the project, oldest first, successful checks within `days`. */
  async rankings(em: EntityManager, principal: Principal | null, projectId: string, days: number): Promise<KeywordRankingsType[]> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(days) || days < 1 || days > MAX_RANKING_DAYS) {
      throw badInput(`days must be an integer from 1 to ${MAX_RANKING_DAYS}`, [{ path: 'days', message: `must be 1-${MAX_RANKING_DAYS}` }]);
    }
    const project = await this.projects.findOwned(em, p, projectId);
    const rows = await nativeQuery<{ keywordId: string; term: string; position: number | null; url: string | null; checkedAt: Date | null }>(
      em,
      `SELECT k.id AS "keywordId", k.term, r.position, r.url, r.checked_at AS "checkedAt"
       FROM keyword k LEFT JOIN ranking r ON r.keyword_id = k.id AND r.status = 'OK' AND r.checked_at >= now() - make_interval(days => $2)
       WHERE k.project_id = $1 ORDER BY k.created_at, k.id, r.checked_at`,
      [project.id, days],
    );
    const out: KeywordRankingsType[] = [];
    for (const row of rows) {
      let entry = out.at(-1);
      if (!entry || entry.keywordId !== row.keywordId) {
        entry = { keywordId: row.keywordId, term: row.term, history: [] };
        out.push(entry);
      }
      if (row.checkedAt) entry.history.push({ position: row.position, url: row.url, checkedAt: row.checkedAt });
    }
    return out;
  }

  /** "Check now": one job per project per minute at most (the job id dedupes double clicks). */
  async checkNow(em: EntityManager, principal: Principal | null, projectId: string): Promise<RankCheckPayload> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const [{ n }] = await nativeQuery<{ n: number }>(em, 'SELECT count(*)::int AS n FROM keyword WHERE project_id = $1', [project.id]);
    if (n === 0) throw new DomainError('BAD_USER_INPUT', 'The project has no keywords to check.');
    const jobId = `rank-now-${project.id}-${Math.floor(Date.now() / 60_000)}`;
    await this.queue.add('check-project', { kind: 'check-project', projectId: project.id }, { ...rankJobOptions(this.config.SERP_RETRY_DELAY_MS), jobId });
    return { message: 'Rank check queued', jobId, keywords: n };
  }
}
