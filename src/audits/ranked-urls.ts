import type { NativeDb } from '../platform/db/native-query.js';
import { rankingUrlVariants } from '../seo/page/index.js';
import { RankingPagesRepository } from './ranking-pages.repository.js';
import { keywordsByRankingPage } from './ranking-pages.js';

/** Per crawled URL of an audit that a tracked keyword ranks: how many keywords and their best position. */
export interface RankedUrls {
  urls: string[];
  keywords: number[];
  best: number[];
}

const repo = new RankingPagesRepository();

/**
 * The URL table's ranking columns (ranking keywords, best position; its issue tables' ranking URLs first): the
 * project's keywords whose latest check ranks a page, matched to the audit's crawled URLs by the one match the
 * ranking-page join uses (keywordsByRankingPage), so that a page ranking as `https://Host/a/` and crawled as
 * `https://host/a` has its keywords here as in Issue.rankingPages and the page view. Two statements: the keywords,
 * then the audit's pages under their URLs' variants (none when no keyword ranks).
 */
export async function rankedUrlsOf(db: NativeDb, projectId: string, auditId: string): Promise<RankedUrls> {
  const keywords = await repo.latestRankingPages(db, [projectId]);
  const ranked: RankedUrls = { urls: [], keywords: [], best: [] };
  if (!keywords.length) return ranked;
  const variants = keywords.map((k) => rankingUrlVariants(k.url));
  const crawled = await repo.crawledStatuses(db, auditId, [...new Set(variants.flat())]);
  const byUrl = new Map(crawled.map((page) => [page.url, page]));
  const joined = keywordsByRankingPage(
    keywords.map((keyword, i) => ({ keyword, pages: variants[i].map((url) => byUrl.get(url) ?? null) })),
  );
  for (const [url, entry] of joined) {
    ranked.urls.push(url);
    ranked.keywords.push(entry.keywords.length);
    ranked.best.push(entry.keywords[0].position);
  }
  return ranked;
}
