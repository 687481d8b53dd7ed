import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { rankingUrlVariants } from '../seo/page/index.js';
import { RankingPagesRepository } from './ranking-pages.repository.js';
import { RankingPages, type RankingPageFacts } from './ranking-pages.js';

const repo = new RankingPagesRepository();

const pageKey = (projectId: string, url: string) => `${projectId} ${url}`;

/**
 * Per-request batch loaders of the ranking-page join (ranking-pages.ts): two statements for the crawled pages of a
 * whole keyword list (the projects' latest completed audits, then each audit's pages), one more for a project's
 * ranking keywords, never one per keyword, page or issue.
 */
export const rankingPageLoaders = (ctx: RequestContext) => {
  /**
   * Per (project, ranking URL): the pages of the project's latest completed audit crawled under each variant of the
   * URL, nearest variant first (null where the variant was not crawled; none when the project has no such audit).
   */
  const crawledPages = ctx.loaders.get(
    'audits.rankingCrawledPages',
    () =>
      new DataLoader<string, (RankingPageFacts | null)[]>(async (keys) => {
        const pairs = keys.map((key) => key.split(' ', 2) as [string, string]);
        const latest = await repo.latestCompletedAudits(ctx.db, [...new Set(pairs.map(([projectId]) => projectId))]);
        // A project without a completed audit asks for nothing more: its URLs are not even varied.
        const variants = pairs.map(([projectId, url]) => (latest.has(projectId) ? rankingUrlVariants(url) : []));
        const wanted = new Map<string, Set<string>>();
        pairs.forEach(([projectId], i) => {
          for (const url of variants[i])
            (wanted.get(projectId) ?? wanted.set(projectId, new Set()).get(projectId)!).add(url);
        });
        // Per project, its crawled pages by URL (no key made per variant: a list of 1,000 keywords has ~7,000).
        const found = new Map<string, Map<string, RankingPageFacts>>();
        await Promise.all(
          [...wanted].map(async ([projectId, urls]) => {
            const rows = await repo.rankingPageFacts(ctx.db, projectId, latest.get(projectId)!, [...urls]);
            found.set(projectId, new Map(rows.map((r) => [r.url, r])));
          }),
        );
        return pairs.map(([projectId], i) => {
          const pages = found.get(projectId);
          return variants[i].map((url) => pages?.get(url) ?? null);
        });
      }),
  );
  /** The crawled pages under each variant of a ranking URL, nearest variant first. */
  const pagesOf = (projectId: string, rankingUrl: string): Promise<(RankingPageFacts | null)[]> =>
    crawledPages.load(pageKey(projectId, rankingUrl));
  return {
    pagesOf,
    /** Per project: its ranking keywords joined to its latest completed audit's pages. */
    project: ctx.loaders.get(
      'audits.rankingPages',
      () =>
        new DataLoader<string, RankingPages>(async (projectIds) => {
          const rows = await repo.latestRankingPages(ctx.db, projectIds);
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
