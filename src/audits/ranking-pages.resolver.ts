import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { KeywordType } from '../keywords/graphql.js';
import { AuditPageViewType } from './audit-page-view.types.js';
import { IssueOccurrenceType, type SeverityEnum } from './audit.types.js';
import { rankingPageLoaders } from './ranking-pages.loaders.js';
import { chooseRankingPage, toKeywordRankingPage } from './ranking-pages.js';
import { KeywordRankingPageType, RankingKeywordType } from './ranking-pages.types.js';

/*
 * Rankings joined to audits (ranking-pages.ts), as fields on both sides, batched per request. The roots were reached
 * through tenant-checked queries (a project's keywords, an audit of the project), and the join stays inside the root's
 * project: nothing here can reach another organization's rows.
 */

/** Audit facts on keywords: the page a keyword ranks with, as the project's latest completed audit crawled it. */
@Resolver(() => KeywordType)
export class KeywordRankingPageResolver {
  @FieldResolver(() => KeywordRankingPageType, {
    nullable: true,
    description:
      "The page the keyword ranks with, in the project's latest completed audit, with its issues and lab LCP. null " +
      'when the latest check failed or did not find the site, when there is no completed audit, or when the audit ' +
      'did not crawl the ranking URL (nor its www./http/trailing-slash variants).',
  })
  async rankingPage(@Root() keyword: KeywordType, @Ctx() ctx: RequestContext): Promise<KeywordRankingPageType | null> {
    // Only the latest check counts: KeywordType.url is the latest successful one's, which may be older.
    if (keyword.lastCheck?.status !== 'OK' || keyword.position === null || !keyword.url) return null;
    const page = chooseRankingPage(await rankingPageLoaders(ctx).pagesOf(keyword.projectId, keyword.url));
    if (!page) return null;
    const view = toKeywordRankingPage(page, keyword.device);
    return { ...view, issues: view.issues.map((i) => ({ ...i, severity: i.severity as SeverityEnum })) };
  }
}

/** The tracked keywords an issue's affected page ranks for. */
@Resolver(() => IssueOccurrenceType)
export class IssueOccurrenceRankingResolver {
  @FieldResolver(() => [RankingKeywordType], {
    description:
      "Tracked keywords whose latest check ranks this page, best position first; empty unless this is the project's " +
      'latest completed audit.',
  })
  async rankingKeywords(
    @Root() occurrence: IssueOccurrenceType,
    @Ctx() ctx: RequestContext,
  ): Promise<RankingKeywordType[]> {
    const ranking = await rankingPageLoaders(ctx).project.load(occurrence.projectId);
    return ranking.keywordsOf(occurrence.auditId, occurrence.url);
  }
}

/** The tracked keywords a crawled page ranks for, on its page view. */
@Resolver(() => AuditPageViewType)
export class AuditPageViewRankingResolver {
  @FieldResolver(() => [RankingKeywordType], {
    description:
      "Tracked keywords whose latest check ranks this URL, best position first; empty unless this is the project's " +
      'latest completed audit.',
  })
  async rankingKeywords(@Root() page: AuditPageViewType, @Ctx() ctx: RequestContext): Promise<RankingKeywordType[]> {
    const ranking = await rankingPageLoaders(ctx).project.load(page.projectId);
    return ranking.keywordsOf(page.auditId, page.url);
  }
}
