import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { DomainError, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import { suggestFix } from '../seo/fixes/index.js';
import { blockerNotices, fixesSummary } from '../seo/scoring/index.js';
import { findCheck, type CheckCode } from '../seo/checks/index.js';
import { SegmentService, withNotTried } from '../audits/index.js';
import { ReportRepository, type TopIssueRow } from './report.repository.js';
import type { ClientReportType, KeywordMoveType, ReportFixType, ReportPdfType } from './report.types.js';
import { clientReportHtml } from './report-html.js';
import type { ReportPdfRenderer } from './report-pdf.js';

const CATEGORIES = ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] as const;
const SCORE_OF = {
  META: 'meta',
  CONTENT: 'content',
  LINKS: 'links',
  TECHNICAL: 'technical',
  PERFORMANCE: 'performance',
} as const;
const TOP_ISSUES = 10;
const URLS_PER_ISSUE = 5;
/** The widest fixes a fix-grouped issue lists (a target and the pages linking to it). */
const WIDEST_FIXES = 5;
const VITALS_PAGES = 20;
const MOVERS = 5;

export const PDF_NEEDS_CHROMIUM =
  'PDF reports are rendered with headless Chromium, which this server does not have: set CHROMIUM_PATH to a ' +
  "Chromium binary (Debian: apt-get install chromium; CHROMIUM_PATH=/usr/bin/chromium) and restart. The browser's " +
  'own Print still works.';

/** The fix of an issue: the suggestion stored for it, else the rules engine on its first occurrence's evidence. */
function fixOf(issue: TopIssueRow): ReportFixType | null {
  if (issue.fixSummary) {
    const steps = Array.isArray(issue.fixSteps) ? issue.fixSteps.filter((s): s is string => typeof s === 'string') : [];
    return { summary: issue.fixSummary, steps, source: 'STORED' };
  }
  try {
    const evidence =
      issue.evidence && typeof issue.evidence === 'object' ? (issue.evidence as Record<string, unknown>) : null;
    // No page is fetched for a report: the rules work from the evidence the audit stored.
    const proposal = suggestFix({ code: issue.code as CheckCode, url: issue.urls[0] ?? '', evidence, page: null });
    return { summary: proposal.summary, steps: proposal.steps, source: 'RULES' };
  } catch {
    return null; // a code without a rule
  }
}

/**
 * The printable client report: everything assembled here, server-side (the web app only renders it, and the
 * PDF is rendered from the same data).
 */
export class ClientReportService {
  constructor(
    private readonly projects: ProjectService,
    private readonly pdf: ReportPdfRenderer | null,
    private readonly repo = new ReportRepository(),
    private readonly segmentResults = new SegmentService(),
  ) {}

  async report(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId?: string | null,
  ): Promise<ClientReportType> {
    const p = assertApiAccess(principal, 'read');
    const project = await this.projects.findOwned(em, p, projectId);
    if (auditId && !isUuid(auditId)) throw notFound('Audit');
    const audit = await this.repo.auditSummary(em, project.id, auditId ?? null);
    if (auditId && !audit) throw notFound('Audit');

    const [counts, issues, vitals, movers, segments] = await Promise.all([
      audit ? this.repo.categoryCounts(em, audit.id) : Promise.resolve([]),
      audit ? this.repo.topIssues(em, audit.id, TOP_ISSUES, URLS_PER_ISSUE) : Promise.resolve([]),
      this.repo.latestVitals(em, project.id, VITALS_PAGES),
      this.repo.movers(em, project.id),
      audit ? this.segmentResults.results(em, principal, audit.id) : Promise.resolve([]),
    ]);
    const byCategory = new Map(counts.map((c) => [c.category, c]));
    const moves: KeywordMoveType[] = movers.map((m) => ({ ...m, change: m.previousPosition - m.position }));
    const total = (key: 'critical' | 'warning' | 'notice') => counts.reduce((n, c) => n + c[key], 0);
    return {
      projectId: project.id,
      projectName: project.name,
      domain: project.domain,
      url: project.url,
      generatedAt: new Date(),
      audit: audit && {
        id: audit.id,
        status: audit.status,
        createdAt: audit.createdAt,
        completedAt: audit.completedAt,
        pagesCrawled: audit.pagesCrawled,
        counts: audit.counts && withNotTried(audit.counts),
        scores: {
          overall: audit.overall,
          meta: audit.meta,
          content: audit.content,
          links: audit.links,
          technical: audit.technical,
          performance: audit.performance,
        },
        issueCounts: { critical: total('critical'), warning: total('warning'), notice: total('notice') },
        blockers: audit.breakdown ? blockerNotices(audit.breakdown) : [],
      },
      categories: audit
        ? CATEGORIES.map((category) => ({
            category,
            score: audit[SCORE_OF[category]],
            critical: byCategory.get(category)?.critical ?? 0,
            warning: byCategory.get(category)?.warning ?? 0,
            notice: byCategory.get(category)?.notice ?? 0,
          }))
        : [],
      topIssues: issues.map((i) => ({
        code: i.code,
        title: i.title,
        severity: i.severity,
        category: i.category,
        description: i.description,
        affectedPages: i.affectedPages,
        scope: findCheck(i.code)?.scope ?? 'page',
        urls: i.urls,
        fixesSummary: i.fixes ? fixesSummary(i.code, i.fixes) : null,
        widestFixes: (i.fixes?.listed ?? []).slice(0, WIDEST_FIXES).map((f) => ({ cause: f.cause, pages: f.pages })),
        fix: fixOf(i),
      })),
      vitals,
      // The stored kind is one of SegmentKind's values (the table's check constraint).
      segments: segments as ClientReportType['segments'],
      keywordGains: moves
        .filter((m) => m.change > 0)
        .sort((a, b) => b.change - a.change || a.term.localeCompare(b.term))
        .slice(0, MOVERS),
      keywordLosses: moves
        .filter((m) => m.change < 0)
        .sort((a, b) => a.change - b.change || a.term.localeCompare(b.term))
        .slice(0, MOVERS),
      pdfAvailable: this.pdf !== null,
    };
  }

  /** The report as a PDF, rendered by headless Chromium from server-made HTML with every request blocked. */
  async pdfReport(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    auditId?: string | null,
  ): Promise<ReportPdfType> {
    const report = await this.report(em, principal, projectId, auditId);
    if (!this.pdf) throw new DomainError('UNAVAILABLE', PDF_NEEDS_CHROMIUM);
    const bytes = await this.pdf.render(clientReportHtml(report));
    const day = report.generatedAt.toISOString().slice(0, 10);
    return {
      filename: `${report.domain}-report-${day}.pdf`.replace(/[^A-Za-z0-9._-]+/g, '-'),
      contentType: 'application/pdf',
      base64: Buffer.from(bytes).toString('base64'),
    };
  }
}
