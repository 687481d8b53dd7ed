import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { rankingUrlVariants } from '../seo/page/index.js';
import { KeywordRepository } from '../keywords/index.js';
import { AuditRepository } from './audit.repository.js';
import { RankingPages, type RankingPageFacts } from './ranking-pages.js';

const audits = new AuditRepository();
const keywords = new KeywordRepository();

const pageKey = (projectId: string, url: string) => `${projectId} ${url}`;

/**
 * Per-request batch loaders of the ranking-page join (ranking-pages.ts): one statement for the crawled pages of a
 * whole keyword list, one more for a project's ranking keywords, never one per keyword, page or issue.
 */
export const rankingPageLoaders = (ctx: RequestContext) => {
  /** Per (project, URL): the page of the project's latest completed audit crawled under that exact URL, or null. */
  const crawledPage = ctx.loaders.get(
    'audits.rankingCrawledPage',
    () =>
      new DataLoader<string, RankingPageFacts | null>(async (keys) => {
        const pairs = keys.map((key) => key.split(' ', 2) as [string, string]);
        const rows = await audits.rankingPageFacts(
          ctx.db,
          pairs.map(([projectId]) => projectId),
          pairs.map(([, url]) => url),
        );
        const by = new Map(rows.map((r) => [pageKey(r.projectId, r.url), r]));
        return keys.map((key) => by.get(key) ?? null);
      }),
  );
  /** The crawled pages under each variant of a ranking URL, nearest variant first. */
  const pagesOf = async (projectId: string, rankingUrl: string): Promise<(RankingPageFacts | null)[]> => {
    const variants = rankingUrlVariants(rankingUrl);
    if (!variants.length) return [];
    const loaded = await crawledPage.loadMany(variants.map((url) => pageKey(projectId, url)));
    return loaded.map((page) => {
      if (page instanceof Error) throw page;
      return page;
    });
  };
  return {
    pagesOf,
    /** Per project: its ranking keywords joined to its latest completed audit's pages. */
    project: ctx.loaders.get(
      'audits.rankingPages',
      () =>
        new DataLoader<string, RankingPages>(async (projectIds) => {
          const rows = await keywords.latestRankingPages(ctx.db, projectIds);
          const joined = await Promise.all(
            rows.map(async (keyword) => ({ keyword, pages: await pagesOf(keyword.projectId, keyword.url) })),
          );
          return projectIds.map((projectId) =>
            RankingPages.join(joined.filter((entry) => entry.keyword.projectId === projectId)),
          );
        }),
    ),
  };
};
