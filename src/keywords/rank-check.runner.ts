import type { MikroORM } from '../platform/db/orm.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { findPosition, SerpProviderError, type SerpProvider } from '../serp/index.js';
import { rankJobOptions, type RankQueue } from './rank-jobs.js';

export interface RankCheckOptions {
  /** Results requested per keyword (each page of 10 is one provider call for most providers). */
  depth: number;
  /** Top results kept in the snapshot (competitor positions come from it). */
  snapshotSize: number;
  retryDelayMs: number;
}

export type KeywordCheckOutcome = { status: 'OK'; position: number | null } | { status: 'FAILED'; error: string } | { status: 'SKIPPED' };

/** The provider-side failure that should be retried by the queue (429, 5xx, network). */
export class RetryableRankError extends Error {
  override name = 'RetryableRankError';
}

const NO_PROVIDER = 'No SERP provider is configured: set SERP_PROVIDER and its credentials to check rankings.';

/** Worker-side rank checks: one job per project fans out to one job per keyword (rate-limited by the worker). */
export class RankCheckRunner {
  constructor(
    private readonly orm: MikroORM,
    private readonly queue: RankQueue,
    private readonly provider: SerpProvider | null,
    private readonly options: RankCheckOptions,
    private readonly logger: Logger,
  ) {}

  async checkProject(projectId: string, runId: string): Promise<number> {
    const em = this.orm.em.fork();
    const keywords = await nativeQuery<{ id: string }>(em, 'SELECT id FROM keyword WHERE project_id = $1 ORDER BY created_at', [projectId]);
    const run = runId.replace(/[^A-Za-z0-9_-]/g, '_');
    await this.queue.addBulk(
      keywords.map((k) => ({
        name: 'check-keyword',
        data: { kind: 'check-keyword' as const, keywordId: k.id },
        // One check per keyword per run, even if the project job is retried.
        opts: { ...rankJobOptions(this.options.retryDelayMs), jobId: `kw-${k.id}-${run}` },
      })),
    );
    return keywords.length;
  }

  /**
   * Checks one keyword: a snapshot of the top results and the project's position (null when absent within the
   * depth). Provider errors are recorded as a failed check with their message — never a fake position.
   * Retryable errors are rethrown until the last attempt.
   */
  async checkKeyword(keywordId: string, lastAttempt: boolean): Promise<KeywordCheckOutcome> {
    const em = this.orm.em.fork();
    const [keyword] = await nativeQuery<{ id: string; term: string; country: string; language: string; device: 'desktop' | 'mobile'; domain: string; settings: { rankIncludeSubdomains?: boolean } }>(
      em,
      `SELECT k.id, k.term, k.country, k.language, k.device, p.domain, p.settings FROM keyword k JOIN project p ON p.id = k.project_id WHERE k.id = $1`,
      [keywordId],
    );
    if (!keyword) return { status: 'SKIPPED' };
    if (!this.provider) return this.fail(keywordId, 'none', NO_PROVIDER);
    try {
      const snapshot = await this.provider.search({ keyword: keyword.term, country: keyword.country, language: keyword.language, device: keyword.device, depth: this.options.depth });
      const hit = findPosition(snapshot.results, keyword.domain, { includeSubdomains: keyword.settings?.rankIncludeSubdomains ?? false });
      const snapshotId = newId();
      const results = snapshot.results.slice(0, this.options.snapshotSize).map((r) => ({ position: r.position, url: r.url, domain: r.domain, title: r.title }));
      await nativeQuery(em, 'INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results) VALUES ($1, $2, $3, $4, $5, $6)', [
        snapshotId,
        keywordId,
        snapshot.provider,
        snapshot.fetchedAt,
        snapshot.requests,
        JSON.stringify(results),
      ]);
      await nativeQuery(em, `INSERT INTO ranking (id, keyword_id, status, position, url, provider, snapshot_id, checked_at) VALUES ($1, $2, 'OK', $3, $4, $5, $6, $7)`, [
        newId(),
        keywordId,
        hit?.position ?? null,
        hit?.url ?? null,
        snapshot.provider,
        snapshotId,
        snapshot.fetchedAt,
      ]);
      return { status: 'OK', position: hit?.position ?? null };
    } catch (err) {
      const retryable = err instanceof SerpProviderError ? err.retryable : true;
      const message = err instanceof Error ? err.message : String(err);
      if (retryable && !lastAttempt) throw new RetryableRankError(message);
      this.logger.warn({ keywordId, err: message }, 'rank check failed');
      return this.fail(keywordId, this.provider.name, message);
    }
  }

  private async fail(keywordId: string, provider: string, error: string): Promise<KeywordCheckOutcome> {
    await nativeQuery(this.orm.em.fork(), `INSERT INTO ranking (id, keyword_id, status, provider, error, checked_at) VALUES ($1, $2, 'FAILED', $3, $4, now())`, [
      newId(),
      keywordId,
      provider,
      error.slice(0, 1000),
    ]);
    return { status: 'FAILED', error };
  }
}
