import type { MikroORM } from '../platform/db/orm.js';
import { isSafeHttpError, type SafeHttpClient } from '../platform/safe-http/index.js';
import { CheckAggregator, runPageChecks } from '../seo/checks/index.js';
import { extractPageFacts, firstHeader } from '../seo/page/index.js';
import { computeScores } from '../seo/scoring/index.js';
import { CompetitorRepository } from './competitor.repository.js';

/**
 * A competitor's homepage facts and scores from a single-page analysis, fetched through the safe HTTP
 * client (https first, http as fallback). Failures are stored as the profile's error, not thrown.
 */
export class CompetitorProfileRunner {
  constructor(
    private readonly orm: MikroORM,
    private readonly client: SafeHttpClient,
    private readonly repo = new CompetitorRepository(),
  ) {}

  async run(competitorId: string): Promise<'done' | 'skipped'> {
    const em = this.orm.em.fork();
    const domain = await this.repo.domainOf(em, competitorId);
    if (domain === undefined) return 'skipped';
    const profile = await this.analyze(domain);
    await this.repo.saveProfile(em, competitorId, profile);
    return 'done';
  }

  async analyze(domain: string) {
    let lastError = 'unreachable';
    for (const url of [`https://${domain}/`, `http://${domain}/`]) {
      try {
        const response = await this.client.request(url, { totalTimeoutMs: 20_000 });
        const html = /html/i.test(firstHeader(response.headers, 'content-type') ?? '');
        const facts = html
          ? extractPageFacts(response.body, {
              url: response.finalUrl,
              headers: response.headers,
              status: response.status,
            })
          : null;
        const aggregator = new CheckAggregator({ maxOccurrencesPerCode: 0 });
        aggregator.addPageResults(
          response.finalUrl,
          runPageChecks(facts, {
            url,
            finalUrl: response.finalUrl,
            status: response.status,
            depth: 0,
            redirects: response.redirects,
            bytes: response.bytes,
            headers: response.headers,
            responseMs: response.timings.ttfbMs,
          }),
        );
        // One page, the homepage: a share of one HTML page (none when it did not answer HTML).
        const pages = { html: facts ? 1 : 0, withCritical: aggregator.pagesWithCritical([response.finalUrl]) };
        const scores = computeScores(aggregator.aggregates(), { pages, startUrlStatus: response.status });
        return {
          url: response.finalUrl,
          status: response.status,
          https: response.finalUrl.startsWith('https:'),
          title: facts?.titles[0] ?? null,
          description: facts?.descriptions[0] ?? null,
          overallScore: scores.overall,
          metaScore: scores.meta,
          contentScore: scores.content,
          technicalScore: scores.technical,
          error: null as string | null,
        };
      } catch (err) {
        lastError = isSafeHttpError(err) ? `${err.code}: ${err.message}` : 'unreachable';
      }
    }
    return {
      url: `https://${domain}/`,
      status: null,
      https: false,
      title: null,
      description: null,
      overallScore: null,
      metaScore: null,
      contentScore: null,
      technicalScore: null,
      error: lastError,
    };
  }
}
