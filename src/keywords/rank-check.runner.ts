import type { MikroORM } from '../platform/db/orm.js';
import type { Logger } from '../platform/logger.js';
import { newId } from '../platform/ids.js';
import { findPosition, normalizeDomain, SerpProviderError, type SerpProvider } from '../serp/index.js';
import { KeywordRepository } from './keyword.repository.js';
import { rankJobOptions, type RankQueue } from './rank-jobs.js';

export interface RankCheckOptions {
  /** Results requested per keyword (each page of 10 is one provider call for most providers). */
  depth: number;
  /** Top results kept in the snapshot (competitor positions come from it). */
  snapshotSize: number;
  retryDelayMs: number;
}

export type KeywordCheckOutcome =
  { status: 'OK'; position: number | null } | { status: 'FAILED'; error: string } | { status: 'SKIPPED' };

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
    private readonly repo = new KeywordRepository(),
  ) {}

  async checkProject(projectId: string, runId: string): Promise<number> {
    const em = this.orm.em.fork();
    const keywordIds = await this.repo.idsForProject(em, projectId);
    const run = runId.replace(/[^A-Za-z0-9_-]/g, '_');
    await this.queue.addBulk(
      keywordIds.map((id) => ({
        name: 'check-keyword',
        data: { kind: 'check-keyword' as const, keywordId: id },
        // One check per keyword per run, even if the project job is retried.
        opts: { ...rankJobOptions(this.options.retryDelayMs), jobId: `kw-${id}-${run}` },
      })),
    );
    return keywordIds.length;
  }

  /**
   * Checks one keyword: a snapshot of the top results and the project's position (null when absent within the
   * depth). Provider errors are recorded as a failed check with their message — never a fake position.
   * Retryable errors are rethrown until the last attempt.
   */
  async checkKeyword(keywordId: string, lastAttempt: boolean): Promise<KeywordCheckOutcome> {
    const em = this.orm.em.fork();
    const keyword = await this.repo.findToCheck(em, keywordId);
    if (!keyword) return { status: 'SKIPPED' };
    if (!this.provider) return this.fail(keywordId, 'none', NO_PROVIDER);
    try {
      const snapshot = await this.provider.search({
        keyword: keyword.term,
        country: keyword.country,
        language: keyword.language,
        device: keyword.device,
        depth: this.options.depth,
      });
      const hit = findPosition(snapshot.results, keyword.domain, {
        includeSubdomains: keyword.settings?.rankIncludeSubdomains ?? false,
      });
      const snapshotId = newId();
      const results = snapshot.results
        .slice(0, this.options.snapshotSize)
        .map((r) => ({ position: r.position, url: r.url, domain: r.domain, title: r.title }));
      await this.repo.insertSnapshot(em, {
        id: snapshotId,
        keywordId,
        provider: snapshot.provider,
        checkedAt: snapshot.fetchedAt,
        requests: snapshot.requests,
        results,
        siteNeedle: normalizeDomain(keyword.domain),
      });
      await this.repo.insertRanking(em, {
        id: newId(),
        keywordId,
        position: hit?.position ?? null,
        url: hit?.url ?? null,
        provider: snapshot.provider,
        snapshotId,
        checkedAt: snapshot.fetchedAt,
      });
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
    await this.repo.insertFailedRanking(this.orm.em.fork(), {
      id: newId(),
      keywordId,
      provider,
      error: error.slice(0, 1000),
    });
    return { status: 'FAILED', error };
  }
}
