import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { EvidenceView, PageRenderingRecord, RenderSideDigest } from '../seo/checks/index.js';
import type { AuditPageService, AuditPageView, MeasuredVitals, PageIssue } from './audit-page.service.js';
import {
  AuditLinkConnection,
  AuditPageViewType,
  LinkPositionEnum,
  type PageIssueType,
  type PageRenderSideType,
  type PageRenderingType,
} from './audit-page-view.types.js';
import type { AuditPageKindEnum, CategoryEnum, SeverityEnum } from './audit.types.js';
import type { EvidenceKindEnum, EvidenceViewType } from './evidence.types.js';

/** An evidence view as GraphQL gives it: a URL cell's `url`, or null. */
export function toEvidenceViewType(view: EvidenceView | null): EvidenceViewType | null {
  if (!view) return null;
  const cell = (c: { text: string; url?: string }) => ({ text: c.text, url: c.url ?? null });
  return {
    kind: view.kind as EvidenceKindEnum,
    facts: view.facts.map((f) => ({ label: f.label, value: cell(f.value) })),
    tables: view.tables.map((t) => ({ ...t, rows: t.rows.map((row) => row.map(cell)) })),
  };
}

const codePoints = (text: string | null): number | null => (text === null ? null : [...text].length);

export function toPageView(
  audit: { id: string; projectId: string },
  page: AuditPageView & { issues: PageIssue[]; vitals: MeasuredVitals[] },
): AuditPageViewType {
  const d = page.details ?? {};
  const issues = page.issues.map((issue): PageIssueType => ({
    ...issue,
    severity: issue.severity as SeverityEnum,
    category: issue.category as CategoryEnum,
    details: toEvidenceViewType(issue.details),
  }));
  return {
    auditId: audit.id,
    projectId: audit.projectId,
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
    vitals: page.vitals,
    inlinkCount: page.inlinks,
    outlinkCount: page.outlinks,
    linkCount: d.linkCount ?? null,
    linksNotRead: d.linksNotRead ?? 0,
    error: page.error,
    rendering: toRenderingType(page.rendering),
    issues,
  };
}

function toRenderSide(side: RenderSideDigest | null | undefined): PageRenderSideType | null {
  if (!side) return null;
  return {
    title: side.title ?? null,
    description: side.description ?? null,
    canonical: side.canonical ?? null,
    noindex: side.robots?.noindex ?? false,
    nofollow: side.robots?.nofollow ?? false,
    h1: side.h1 ?? [],
    wordCount: side.wordCount ?? 0,
    internalLinks: side.internalLinks ?? 0,
  };
}

/** The stored raw-versus-rendered record as GraphQL gives it (null in html mode). */
function toRenderingType(record: PageRenderingRecord | null | undefined): PageRenderingType | null {
  if (!record) return null;
  return {
    raw: toRenderSide(record.raw),
    rendered: toRenderSide(record.rendered),
    renderMs: record.renderMs ?? null,
    consoleErrorCount: record.consoleErrorCount ?? 0,
    consoleErrors: record.consoleErrors ?? [],
    failedRequestCount: record.failedRequestCount ?? 0,
    failedRequests: record.failedRequests ?? [],
    blockedByRobots: record.blockedByRobots ?? [],
    renderError: record.renderError ?? null,
  };
}

const POSITION_ARG =
  'Only links at this position on the linking page (rows, link counts and totalCount); all links when absent.';

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
    @Arg('position', () => LinkPositionEnum, { nullable: true, description: POSITION_ARG })
    position: LinkPositionEnum | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    return this.links(page, 'IN', first, after, position, ctx);
  }

  @FieldResolver(() => AuditLinkConnection, {
    description: "This page's followable links (internal and external), with the target's status when crawled.",
  })
  outlinks(
    @Root() page: AuditPageViewType,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('position', () => LinkPositionEnum, { nullable: true, description: POSITION_ARG })
    position: LinkPositionEnum | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    return this.links(page, 'OUT', first, after, position, ctx);
  }

  private async links(
    page: AuditPageViewType,
    direction: 'IN' | 'OUT',
    first: number,
    after: string | null,
    position: LinkPositionEnum | null,
    ctx: RequestContext,
  ): Promise<AuditLinkConnection> {
    const list = await this.pageService.links(
      ctx.db,
      ctx.principal,
      page.auditId,
      page.url,
      direction,
      first,
      after,
      position,
    );
    return {
      nodes: list.rows.map((row) => ({
        ...row,
        position: row.position as LinkPositionEnum | null,
        positions: row.positions as LinkPositionEnum[],
      })),
      pageInfo: { hasNextPage: list.hasNext, endCursor: list.endCursor },
      totalCount: list.totalCount,
    };
  }
}
