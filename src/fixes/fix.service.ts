import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import {
  extractFixContext,
  fixReadsTitleTwins,
  suggestFix,
  twinTitleCandidateList,
  type FixInput,
  type FixPageContext,
} from '../seo/fixes/index.js';
import { decodeDocument, firstHeader } from '../seo/page/index.js';
import type { LlmClient } from '../llm/index.js';
import type { FixSourceEnum, FixSuggestionType } from './fix.types.js';
import { FixRepository, type IssueRow } from './fix.repository.js';

/**
 * Fix suggestions for audit issues: a language model when one is configured (validated JSON), else — or
 * when it fails — the deterministic rules engine. Cached per (issue, page URL).
 */
export class FixService {
  constructor(
    private readonly projects: ProjectService,
    private readonly http: SafeHttpClient,
    private readonly llm: LlmClient | null,
    private readonly logger?: Logger,
    private readonly repo = new FixRepository(),
  ) {}

  async suggest(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    input: { issueId: string; url?: string | null },
  ): Promise<FixSuggestionType> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const issue = isUuid(input.issueId) ? await this.repo.findIssue(em, project.id, input.issueId) : null;
    if (!issue) throw notFound('Issue');

    const occurrence = await this.occurrence(em, issue, input.url ?? null);
    const url = occurrence?.url ?? input.url ?? project.url;
    const cached = await this.repo.findSuggestion(em, issue.id, url);
    if (cached) return cached;

    const evidence = (occurrence?.evidence as Record<string, unknown> | null) ?? null;
    let page = await this.pageContext(em, issue, url);
    if (fixReadsTitleTwins(issue.code) && page) page = await this.withTitleTwins(em, issue, evidence, page);
    const fixInput: FixInput = { code: issue.code, url, evidence, page };
    let proposal = suggestFix(fixInput);
    let source: FixSourceEnum = 'RULES' as FixSourceEnum;
    let model: string | null = null;
    if (this.llm) {
      try {
        const answer = await this.llm.suggestFix(fixInput);
        proposal = answer.proposal;
        source = 'LLM' as FixSourceEnum;
        model = answer.model;
      } catch (err) {
        this.logger?.warn(
          { err: err instanceof Error ? err.message : String(err), code: issue.code },
          'language model failed; using the rules engine',
        );
      }
    }
    const row = await this.repo
      .insertSuggestion(em, {
        id: newId(),
        issueId: issue.id,
        url,
        summary: proposal.summary,
        steps: JSON.stringify(proposal.steps),
        code: proposal.code ?? null,
        source,
        model,
      })
      .catch((err: unknown) => {
        // 23503: the issue's audit (or project) was deleted meanwhile.
        throw (err as { code?: string }).code === '23503' ? notFound('Issue') : err;
      });
    return row;
  }

  /**
   * A duplicate title's fix gives each page sharing the title a different new one: the page learns its twins (the
   * audit's pages with that title, and their h1) and which of the titles they may be given the site already has.
   */
  private async withTitleTwins(
    em: EntityManager,
    issue: IssueRow,
    evidence: Record<string, unknown> | null,
    page: FixPageContext,
  ): Promise<FixPageContext> {
    const title = typeof evidence?.title === 'string' ? evidence.title : page.title;
    if (!title) return page;
    const titleTwins = await this.repo.pagesTitled(em, issue.auditId, title);
    if (titleTwins.length < 2) return page;
    const takenTitles = await this.repo.existingTitles(em, issue.auditId, [
      title,
      ...twinTitleCandidateList(titleTwins, page),
    ]);
    return { ...page, titleTwins, takenTitles };
  }

  /** The occurrence the fix is about: the one on `url`, or the issue's first. */
  private async occurrence(
    em: EntityManager,
    issue: IssueRow,
    url: string | null,
  ): Promise<{ url: string; evidence: unknown } | null> {
    const occurrence = await this.repo.firstOccurrence(em, issue, url);
    if (url && !occurrence && (await this.repo.countOccurrences(em, issue)) > 0) {
      throw badInput('url is not one of the pages this issue was found on', [
        { path: 'url', message: 'not affected by this issue' },
      ]);
    }
    return occurrence;
  }

  /**
   * The page as it is now, through the safe client, with the titles of the audit's other pages (a proposed title
   * follows the pattern they share); null when it cannot be read, and the rules work from the stored evidence.
   */
  private async pageContext(em: EntityManager, issue: IssueRow, url: string): Promise<FixPageContext | null> {
    const otherTitles = await this.repo.otherPageTitles(em, issue.auditId, url);
    try {
      const response = await this.http.request(url, {
        maxBytes: 2 * 1024 * 1024,
        onBodyLimit: 'truncate',
        totalTimeoutMs: 15_000,
      });
      const contentType = firstHeader(response.headers, 'content-type') ?? '';
      if (!/html/i.test(contentType)) return null;
      return extractFixContext(decodeDocument(response.body, contentType), response.finalUrl, { otherTitles });
    } catch {
      return null;
    }
  }
}
