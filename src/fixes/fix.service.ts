import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import { nativeQuery } from '../platform/db/native-query.js';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { CheckCode } from '../seo/checks/index.js';
import { extractFixContext, suggestFix, type FixInput, type FixPageContext } from '../seo/fixes/index.js';
import { decodeDocument, firstHeader } from '../seo/page/index.js';
import type { LlmClient } from '../llm/index.js';
import type { FixSourceEnum, FixSuggestionType } from './fix.types.js';

interface IssueRow {
  id: string;
  auditId: string;
  code: CheckCode;
}

const SELECT_SUGGESTION = `SELECT id, issue_id AS "issueId", url, summary, steps, code, source, model, created_at AS "createdAt" FROM fix_suggestion`;

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
  ) {}

  async suggest(em: EntityManager, principal: Principal | null, projectId: string, input: { issueId: string; url?: string | null }): Promise<FixSuggestionType> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.projects.findOwned(em, p, projectId);
    const [issue] = isUuid(input.issueId)
      ? await nativeQuery<IssueRow>(
          em,
          `SELECT i.id, i.audit_id AS "auditId", i.code FROM audit_issue i JOIN audit a ON a.id = i.audit_id WHERE i.id = $1 AND a.project_id = $2`,
          [input.issueId, project.id],
        )
      : [];
    if (!issue) throw notFound('Issue');

    const occurrence = await this.occurrence(em, issue, input.url ?? null);
    const url = occurrence?.url ?? input.url ?? project.url;
    const [cached] = await nativeQuery<FixSuggestionType>(em, `${SELECT_SUGGESTION} WHERE issue_id = $1 AND url = $2`, [issue.id, url]);
    if (cached) return cached;

    const fixInput: FixInput = { code: issue.code, url, evidence: (occurrence?.evidence as Record<string, unknown> | null) ?? null, page: await this.pageContext(url) };
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
        this.logger?.warn({ err: err instanceof Error ? err.message : String(err), code: issue.code }, 'language model failed; using the rules engine');
      }
    }
    const [row] = await nativeQuery<FixSuggestionType>(
      em,
      `INSERT INTO fix_suggestion (id, issue_id, url, summary, steps, code, source, model, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (issue_id, url) DO UPDATE SET url = EXCLUDED.url
       RETURNING id, issue_id AS "issueId", url, summary, steps, code, source, model, created_at AS "createdAt"`,
      [newId(), issue.id, url, proposal.summary, JSON.stringify(proposal.steps), proposal.code ?? null, source, model],
    ).catch((err: unknown) => {
      // 23503: the issue's audit (or project) was deleted meanwhile.
      throw (err as { code?: string }).code === '23503' ? notFound('Issue') : err;
    });
    return row;
  }

  /** The occurrence the fix is about: the one on `url`, or the issue's first. */
  private async occurrence(em: EntityManager, issue: IssueRow, url: string | null): Promise<{ url: string; evidence: unknown } | null> {
    const rows = await nativeQuery<{ url: string; evidence: unknown }>(
      em,
      `SELECT url, evidence FROM issue_occurrence WHERE audit_id = $1 AND code = $2 AND ($3::text IS NULL OR url = $3) ORDER BY id LIMIT 1`,
      [issue.auditId, issue.code, url],
    );
    if (url && !rows.length) {
      const [any] = await nativeQuery<{ n: number }>(em, 'SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 AND code = $2', [issue.auditId, issue.code]);
      if (any.n > 0) throw badInput('url is not one of the pages this issue was found on', [{ path: 'url', message: 'not affected by this issue' }]);
    }
    return rows[0] ?? null;
  }

  /** The page as it is now, through the safe client; without it the rules work from the stored evidence. */
  private async pageContext(url: string): Promise<FixPageContext | null> {
    try {
      const response = await this.http.request(url, { maxBytes: 2 * 1024 * 1024, onBodyLimit: 'truncate', totalTimeoutMs: 15_000 });
      const contentType = firstHeader(response.headers, 'content-type') ?? '';
      if (!/html/i.test(contentType)) return null;
      return extractFixContext(decodeDocument(response.body, contentType), response.finalUrl);
    } catch {
      return null;
    }
  }
}
