import { rankingWeight } from '../seo/scoring/index.js';
import type { RankingKeywordRow, RankingPageFactsRow } from './ranking-pages.repository.js';
import { SEVERITY_ORDER } from './audit.service.js';

/*
 * Rankings joined to audits: which crawled page of a project's latest completed audit each tracked keyword ranks with,
 * seen from both sides (a keyword's ranking page and its issues; a page's or an issue's ranking keywords). Only the
 * latest check of a keyword counts, and only when it is OK with a position and a URL: a failed check, or "not within
 * the checked depth", ranks no page. A keyword ranks at most one crawled page (chooseRankingPage), so that a page and
 * its redirecting http:// or www. twin are not counted as two ranking pages.
 */

export type RankingPageFacts = RankingPageFactsRow;

/** A tracked keyword ranking a page, as the page and the issue views list it. */
export interface RankingKeyword {
  keywordId: string;
  term: string;
  position: number;
  device: string;
  country: string;
}

/** Issues a keyword's ranking page lists (its counts cover them all). */
export const MAX_RANKING_PAGE_ISSUES = 10;

/** A keyword's ranking page with its audit facts (GraphQL Keyword.rankingPage). */
export interface KeywordRankingPage {
  url: string;
  auditId: string;
  statusCode: number | null;
  indexable: boolean;
  issueCounts: { critical: number; warning: number; notice: number };
  issues: RankingPageFacts['issues'];
  lcpMs: number | null;
}

/** What the choice of a ranking page needs of a crawled page. */
export interface CrawledPage {
  /** As crawled. */
  url: string;
  statusCode: number | null;
}

const isRedirect = (page: CrawledPage) => page.statusCode !== null && page.statusCode >= 300 && page.statusCode < 400;

/**
 * The crawled page a ranking URL names, given its variants (rankingUrlVariants, nearest first) and the page crawled
 * under each (null: none): a page that does not redirect before one that does (the document the results show, not
 * its http:// or www. redirect), then the nearest variant.
 */
export function chooseRankingPage<P extends CrawledPage>(pages: readonly (P | null)[]): P | null {
  let best: P | null = null;
  for (const page of pages) {
    if (page && (!best || (isRedirect(best) && !isRedirect(page)))) best = page;
  }
  return best;
}

const byPosition = (a: RankingKeyword, b: RankingKeyword) => a.position - b.position || a.term.localeCompare(b.term);

/**
 * The one match of ranking URLs to crawled pages, for every view that joins them (Keyword.rankingPage,
 * Issue.rankingPages, the page view's and the URL table's ranking keywords): each keyword, given the page crawled
 * under each variant of its ranking URL (rankingUrlVariants: scheme, case of the host, default port, "www.", trailing
 * slash and fragment; nearest first), ranks the page chooseRankingPage picks, or none. Per crawled URL: its page and
 * the keywords ranking it, best position first.
 */
export function keywordsByRankingPage<P extends CrawledPage>(
  keywords: readonly { keyword: RankingKeywordRow; pages: readonly (P | null)[] }[],
): Map<string, { page: P; keywords: RankingKeyword[] }> {
  const byUrl = new Map<string, { page: P; keywords: RankingKeyword[] }>();
  for (const { keyword: k, pages: candidates } of keywords) {
    const page = chooseRankingPage(candidates);
    if (!page) continue;
    const entry = byUrl.get(page.url) ?? byUrl.set(page.url, { page, keywords: [] }).get(page.url)!;
    entry.keywords.push({
      keywordId: k.keywordId,
      term: k.term,
      position: k.position,
      device: k.device,
      country: k.country,
    });
  }
  for (const { keywords: list } of byUrl.values()) list.sort(byPosition);
  return byUrl;
}

/** A keyword's ranking page as Keyword.rankingPage gives it; the lab LCP of the keyword's device when measured. */
export function toKeywordRankingPage(page: RankingPageFacts, device: string): KeywordRankingPage {
  const issues = [...page.issues].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.code.localeCompare(b.code),
  );
  const count = (severity: keyof typeof SEVERITY_ORDER) => issues.filter((i) => i.severity === severity).length;
  const lcp = page.labLcp.find((v) => v.device === device) ?? page.labLcp[0];
  return {
    url: page.url,
    auditId: page.auditId,
    statusCode: page.statusCode,
    indexable: page.indexable,
    issueCounts: { critical: count('CRITICAL'), warning: count('WARNING'), notice: count('NOTICE') },
    issues: issues.slice(0, MAX_RANKING_PAGE_ISSUES),
    lcpMs: lcp?.lcpMs ?? null,
  };
}

/** Per issue code: the affected pages that rank, and the position weights of their keywords. */
interface CodeReach {
  pages: number;
  weight: number;
}

/**
 * A project's ranking keywords joined to the pages of its latest completed audit. Asked about another audit of the
 * project (an older one, or one running), it knows no ranking page: rankings are joined to the latest results only.
 */
export class RankingPages {
  private readonly byCode = new Map<string, CodeReach>();

  private constructor(
    /** The audit the pages are of; null when no keyword ranks a crawled page (or there is no completed audit). */
    readonly auditId: string | null,
    private readonly keywordsByUrl: ReadonlyMap<string, RankingKeyword[]>,
    pages: readonly RankingPageFacts[],
  ) {
    for (const page of pages) {
      const keywords = keywordsByUrl.get(page.url) ?? [];
      const weight = rankingWeight([keywords.map((k) => k.position)]);
      for (const { code } of page.issues) {
        const reach = this.byCode.get(code) ?? { pages: 0, weight: 0 };
        reach.pages += 1;
        reach.weight += weight;
        this.byCode.set(code, reach);
      }
    }
  }

  static readonly NONE = new RankingPages(null, new Map(), []);

  /**
   * A project's ranking keywords, each with the crawled page under each variant of its ranking URL (nearest first),
   * joined: each keyword to the page chooseRankingPage picks.
   */
  static join(
    keywords: readonly { keyword: RankingKeywordRow; pages: readonly (RankingPageFacts | null)[] }[],
  ): RankingPages {
    const joined = keywordsByRankingPage(keywords);
    if (!joined.size) return RankingPages.NONE;
    const keywordsByUrl = new Map([...joined].map(([url, entry]) => [url, entry.keywords]));
    const pages = [...joined.values()].map((entry) => entry.page);
    return new RankingPages(pages[0].auditId, keywordsByUrl, pages);
  }

  /** The keywords ranking the page crawled as `url` in `auditId`, best position first. */
  keywordsOf(auditId: string, url: string): RankingKeyword[] {
    return auditId === this.auditId ? (this.keywordsByUrl.get(url) ?? []) : [];
  }

  /** How many of the issue's affected pages in `auditId` carry a ranking keyword. */
  rankingPagesOf(auditId: string, code: string): number {
    return auditId === this.auditId ? (this.byCode.get(code)?.pages ?? 0) : 0;
  }

  /** The issue's ranking weight in `auditId` (issuePriority's `ranking`): Σ over those pages of their keywords'. */
  rankingWeightOf(auditId: string, code: string): number {
    return auditId === this.auditId ? (this.byCode.get(code)?.weight ?? 0) : 0;
  }
}
