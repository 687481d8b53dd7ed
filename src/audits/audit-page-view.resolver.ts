import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { findCheck, guidanceFor, presentEvidence } from '../seo/checks/index.js';
import type { AuditPageService, AuditPageView, PageOccurrenceRecord } from './audit-page.service.js';
import type { VitalsRecord } from './audit-engine.js';
import { AuditLinkConnection, AuditPageViewType, type PageIssueType } from './audit-page-view.types.js';
import type { AuditPageKindEnum, CategoryEnum, SeverityEnum } from './audit.types.js';
import type { EvidenceKindEnum, EvidenceViewType } from './evidence.types.js';

/** An occurrence's evidence as facts and tables (the presenter in src/seo/checks holds the rules per code). */
export function evidenceView(code: string, evidence: unknown, url: string): EvidenceViewType | null {
  const view = presentEvidence(code, (evidence ?? null) as Record<string, unknown> | null, url);
  if (!view) return null;
  const cell = (c: { text: string; url?: string }) => ({ text: c.text, url: c.url ?? null });
  return {
    kind: view.kind as EvidenceKindEnum,
    facts: view.facts.map((f) => ({ label: f.label, value: cell(f.value) })),
    tables: view.tables.map((t) => ({ ...t, rows: t.rows.map((row) => row.map(cell)) })),
  };
}

const SEVERITY_ORDER: Record<SeverityEnum, number> = { CRITICAL: 0, WARNING: 1, NOTICE: 2 } as Record<
  SeverityEnum,
  number
>;

const codePoints = (text: string | null): number | null => (text === null ? null : [...text].length);

export function toPageView(
  auditId: string,
  page: AuditPageView & { occurrences: PageOccurrenceRecord[]; vitals: (VitalsRecord & { measuredAt: Date })[] },
): AuditPageViewType {
  const d = page.details ?? {};
  const issues = page.occurrences
    .map((o): PageIssueType | null => {
      const check = findCheck(o.code);
      if (!check) return null;
      return {
        id: o.id,
        issueId: o.issueId,
        code: o.code,
        title: check.title,
        severity: check.severity as SeverityEnum,
        category: check.category as CategoryEnum,
        howToFix: guidanceFor(o.code)?.fix ?? null,
        evidence: o.evidence,
        details: evidenceView(o.code, o.evidence, page.url),
      };
    })
    .filter((i): i is PageIssueType => i !== null)
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return {
    auditId,
    id: page.id,
    url: page.url,
    finalUrl: page.finalUrl,
    kind: page.kind as AuditPageKindEnum | null,
    statusCode: page.statusCode,
    redirects: d.redirects ?? [],
    contentType: d.contentType ?? null,
    depth: page.depth,
    title: page.title,
    titleLength: codePoints(page.title),
    metaDescription: page.metaDescription,
    metaDescriptionLength: codePoints(page.metaDescription),
    h1: d.h1 ?? [],
    wordCount: page.wordCount,
    lang: d.lang ?? null,
    hreflang: d.hreflang ?? [],
    structuredDataTypes: d.structuredData ?? [],
    indexable: page.indexable,
    nonIndexableReason: d.nonIndexable ?? null,
    canonical: page.canonical,
    robotsMeta: d.robotsMeta ?? [],
    xRobotsTag: d.xRobotsTag ?? [],
    robotsTxt: d.robotsTxt ?? null,
    responseTimeMs: page.responseTimeMs,
    bytes: page.bytes,
    bodyCapped: d.bodyCapped ?? false,
    resources: d.resources ?? [],
    vitals: page.vitals.map((v) => ({ ...v, device: v.device, source: v.source })),
    inlinkCount: page.inlinks,
    outlinkCount: page.outlinks,
    error: page.error,
    issues,
  };
}

/** The link graph around one page: inlinks and outlinks in keyset pages. */
@Resolver(() => AuditPageViewType)
export class AuditPageViewResolver {
  constructor(private readonly pageService: AuditPageService) {}

  @FieldResolver(() => AuditLinkConnection, {
    description: "Links to this URL from crawled pages, in crawl order, with the linking page's status and title.",
  })
  inlinks(
    @Root() page: AuditPageViewType,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    return this.links(page, 'IN', first, after, ctx);
  }

  @FieldResolver(() => AuditLinkConnection, {
    description: "This page's followable links (internal and external), with the target's status when crawled.",
  })
  outlinks(
    @Root() page: AuditPageViewType,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    return this.links(page, 'OUT', first, after, ctx);
  }

  private async links(
    page: AuditPageViewType,
    direction: 'IN' | 'OUT',
    first: number,
    after: string | null,
    ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    const list = await this.pageService.links(ctx.db, ctx.principal, page.auditId, page.url, direction, first, after);
    return {
      nodes: list.rows,
      pageInfo: { hasNextPage: list.hasNext, endCursor: list.endCursor },
      totalCount: list.totalCount,
    };
  }
}
