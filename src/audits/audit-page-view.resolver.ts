import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { findCheck, guidanceFor, presentEvidence, type EvidenceContext } from '../seo/checks/index.js';
import type { AuditPageService, AuditPageView, PageOccurrenceRecord } from './audit-page.service.js';
import type { VitalsRecord } from './audit-engine.js';
import { AuditLinkConnection, AuditPageViewType, type PageIssueType } from './audit-page-view.types.js';
import type { AuditPageKindEnum, CategoryEnum, SeverityEnum } from './audit.types.js';
import type { EvidenceKindEnum, EvidenceViewType } from './evidence.types.js';

/** An occurrence of a check, as evidence views read it. */
interface EvidenceItem {
  code: string;
  evidence: unknown;
  url: string;
}

/** The link targets an occurrence's evidence names (`links: ["url"]` or `links: [{ url }]`). */
function linkTargetsOf(evidence: unknown): string[] {
  const links = (evidence as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return [];
  return links
    .map((l) => (typeof l === 'string' ? l : (l as { url?: unknown } | null)?.url))
    .filter((u): u is string => typeof u === 'string');
}

/**
 * Occurrences' evidence as facts and tables (the presenter in src/seo/checks holds the rules per code), the links
 * named with their anchor text from the audit's link graph: one lookup for the whole list.
 */
export async function evidenceViews(
  pageService: AuditPageService,
  ctx: RequestContext,
  auditId: string,
  items: readonly EvidenceItem[],
): Promise<(EvidenceViewType | null)[]> {
  const pairs = items.flatMap((item) => linkTargetsOf(item.evidence).map((target) => ({ source: item.url, target })));
  const anchors = pairs.length ? await pageService.linkAnchors(ctx.db, auditId, pairs) : new Map<string, string>();
  return items.map((item) =>
    evidenceView(item.code, item.evidence, item.url, {
      anchorOf: anchors.size ? (target) => anchors.get(`${item.url} ${target}`) : undefined,
    }),
  );
}

function evidenceView(code: string, evidence: unknown, url: string, context: EvidenceContext): EvidenceViewType | null {
  const view = presentEvidence(code, (evidence ?? null) as Record<string, unknown> | null, url, context);
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
  details: readonly (EvidenceViewType | null)[],
): AuditPageViewType {
  const d = page.details ?? {};
  const issues = page.occurrences
    .map((o, index): PageIssueType | null => {
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
        details: details[index] ?? null,
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
