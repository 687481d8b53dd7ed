import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import { findCheck, guidanceFor, presentEvidence, type EvidenceView, type Severity } from '../seo/checks/index.js';
import type { AuditPageKind } from './audit-engine.js';
import type { AuditLinkPosition } from './audit-page-rows.js';
import { SEVERITY_ORDER } from './audit.service.js';
import {
  AuditPagesRepository,
  SORT_KEYS,
  type AuditLinkRecord,
  type AuditPageOrder,
  type AuditPageRecord,
  type AuditPageView,
  type MeasuredVitals,
  type PageOccurrenceRecord,
  type SortDirection,
  type StatusClass,
} from './audit-pages.repository.js';

/** One issue occurrence on a page, with its check and its evidence as a person reads it. */
export interface PageIssue extends PageOccurrenceRecord {
  title: string;
  severity: Severity;
  category: string;
  howToFix: string | null;
  details: EvidenceView | null;
}

export type {
  AuditLinkRecord,
  AuditPageOrder,
  AuditPageRecord,
  AuditPageView,
  MeasuredVitals,
  PageOccurrenceRecord,
  SortDirection,
  StatusClass,
} from './audit-pages.repository.js';

export const MAX_PAGES_PER_REQUEST = 100;
export const MAX_PAGE_SEARCH_LENGTH = 200;
/** Longest URL the page view looks up (the crawler keeps none longer). */
export const MAX_PAGE_URL_LENGTH = 2_048;
/** Issue occurrences the page view lists for one URL. */
const MAX_PAGE_OCCURRENCES = 200;

export interface AuditPageFilter {
  statusClass?: readonly StatusClass[] | null;
  kind?: readonly AuditPageKind[] | null;
  hasIssues?: boolean | null;
  search?: string | null;
}

export interface AuditPageQuery {
  first: number;
  after?: string | null;
  orderBy: AuditPageOrder;
  direction: SortDirection;
  filter?: AuditPageFilter | null;
}

export interface AuditPageList {
  rows: AuditPageRecord[];
  hasNext: boolean;
  endCursor: string | null;
  totalCount: number;
}

const INT32_MAX = 2_147_483_647;
const ROW_ID = /^[1-9][0-9]{0,17}$/;

/** A position in one listing: the sort value and the row id of the last row, tied to the audit and the ordering. */
type Cursor = [
  auditId: string,
  order: AuditPageOrder,
  direction: SortDirection,
  value: string | number | null,
  id: string,
];

/** An opaque cursor: its parts as JSON in base64url (the pages explorer's and the link lists'). */
const encodeCursor = (parts: readonly unknown[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

const notACursor = () =>
  badInput('after is not a cursor of this list: pass pageInfo.endCursor of a previous page.', [
    { path: 'after', message: 'not a cursor of this list' },
  ]);

const foreignCursor = (lists: string) =>
  badInput(`after belongs to another list (${lists}): start again without it.`, [
    { path: 'after', message: 'cursor of another list' },
  ]);

/** The parts of a cursor encodeCursor made, `length` of them; BAD_USER_INPUT for anything else. */
function cursorParts(after: string, length: number): unknown[] {
  if (!/^[A-Za-z0-9_-]+$/.test(after)) throw notACursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== length) throw notACursor();
  return parsed as unknown[];
}

function assertPageSize(first: number): void {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGES_PER_REQUEST) {
    throw badInput(`first must be between 1 and ${MAX_PAGES_PER_REQUEST}.`, [
      { path: 'first', message: `must be 1-${MAX_PAGES_PER_REQUEST}` },
    ]);
  }
}

function decodeCursor(
  after: string,
  auditId: string,
  orderBy: AuditPageOrder,
  direction: SortDirection,
): { value: string | number | null; id: string } {
  const [audit, order, dir, value, id] = cursorParts(after, 5);
  if (typeof id !== 'string' || !ROW_ID.test(id)) throw notACursor();
  if (audit !== auditId || order !== orderBy || dir !== direction)
    throw foreignCursor('another audit, orderBy or direction');
  const key = SORT_KEYS[orderBy];
  const fits =
    value === null
      ? key.nullable
      : key.kind === 'int'
        ? Number.isSafeInteger(value) && Math.abs(value as number) <= INT32_MAX
        : typeof value === 'string';
  if (!fits) throw notACursor();
  return { value: value as string | number | null, id };
}

/**
 * The pages explorer: an audit's crawled pages, sorted on one key (ties by id, missing values last in both
 * directions), filtered, in keyset pages with opaque cursors. The audit is checked against the caller's
 * organization here too, so the rows are never reachable through an unchecked Audit.
 */
export class AuditPageService {
  constructor(private readonly repo = new AuditPagesRepository()) {}

  async list(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    query: AuditPageQuery,
  ): Promise<AuditPageList> {
    const p = assertApiAccess(principal, 'read');
    const { first, after, orderBy, direction, filter } = query;
    assertPageSize(first);
    const search = filter?.search ?? '';
    if (search.length > MAX_PAGE_SEARCH_LENGTH) {
      throw badInput(`filter.search must be at most ${MAX_PAGE_SEARCH_LENGTH} characters.`, [
        { path: 'filter.search', message: `at most ${MAX_PAGE_SEARCH_LENGTH} characters` },
      ]);
    }
    const cursor = after ? decodeCursor(after, auditId, orderBy, direction) : null;
    const { rows, owned, total } = await this.repo.listPages(db, {
      auditId,
      organizationId: p.organizationId,
      first,
      orderBy,
      direction,
      cursor,
      statusClasses: filter?.statusClass ?? [],
      kinds: filter?.kind ?? [],
      hasIssues: filter?.hasIssues ?? null,
      term: search.trim(),
    });
    if (!owned) throw notFound('Audit');
    const page = rows.slice(0, first);
    const last = page.at(-1);
    return {
      rows: page,
      hasNext: rows.length > first,
      endCursor: last
        ? encodeCursor([
            auditId,
            orderBy,
            direction,
            last[SORT_KEYS[orderBy].field] as string | number | null,
            last.id,
          ] satisfies Cursor)
        : null,
      totalCount: total,
    };
  }

  /**
   * The page view of one crawled URL: the row with its details, its issues (most severe first, each with the
   * catalog's title and fix and its evidence view) and lab vitals. NOT_FOUND when the audit is not the caller's
   * organization's, or the URL was not crawled in it.
   */
  async page(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    url: string,
  ): Promise<AuditPageView & { issues: PageIssue[]; vitals: MeasuredVitals[] }> {
    const p = assertApiAccess(principal, 'read');
    if (url.length === 0 || url.length > MAX_PAGE_URL_LENGTH) {
      throw badInput(`url must be 1-${MAX_PAGE_URL_LENGTH} characters.`, [
        { path: 'url', message: `must be 1-${MAX_PAGE_URL_LENGTH} characters` },
      ]);
    }
    const page = await this.repo.readPage(db, auditId, p.organizationId, url);
    if (!page) throw notFound('Page');
    const [occurrences, vitals] = await Promise.all([
      this.repo.pageOccurrences(db, auditId, page.url, MAX_PAGE_OCCURRENCES),
      this.repo.pageVitals(db, auditId, page.url),
    ]);
    const views = await this.evidenceViews(
      db,
      auditId,
      occurrences.map((o) => ({ code: o.code, evidence: o.evidence, url: page.url })),
    );
    const issues: PageIssue[] = [];
    occurrences.forEach((o, index) => {
      const check = findCheck(o.code);
      if (!check) return;
      issues.push({
        ...o,
        title: check.title,
        severity: check.severity,
        category: check.category,
        howToFix: guidanceFor(o.code)?.fix ?? null,
        details: views[index],
      });
    });
    issues.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    return { ...page, issues, vitals };
  }

  /**
   * Occurrences' evidence as facts and tables (the presenter in src/seo/checks holds the rules per code), their links
   * named by anchor text from the audit's link graph: one lookup for the whole list. Audits crawled before the link
   * graph existed get the tables without anchors.
   */
  async evidenceViews(
    db: NativeDb,
    auditId: string,
    items: readonly { code: string; evidence: unknown; url: string }[],
  ): Promise<(EvidenceView | null)[]> {
    const pairs = items.flatMap((item) => linkTargetsOf(item.evidence).map((target) => ({ source: item.url, target })));
    const rows = pairs.length
      ? await this.repo.linkAnchors(
          db,
          auditId,
          pairs.map((pair) => pair.source),
          pairs.map((pair) => pair.target),
        )
      : [];
    const anchors = new Map(rows.map((r) => [`${r.sourceUrl} ${r.targetUrl}`, r.anchor]));
    return items.map((item) =>
      presentEvidence(item.code, (item.evidence ?? null) as Record<string, unknown> | null, item.url, {
        anchorOf: anchors.size ? (target) => anchors.get(`${item.url} ${target}`) : undefined,
      }),
    );
  }

  /**
   * A page's inlinks (links to it from crawled pages) or outlinks (its followable links), in the order they were
   * crawled, in keyset pages, optionally only the links at one position on the linking page. The cursor is the last
   * link id, tied to the audit, the URL, the direction and the position.
   */
  async links(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    url: string,
    direction: 'IN' | 'OUT',
    first: number,
    after: string | null,
    position: AuditLinkPosition | null = null,
  ): Promise<{ rows: AuditLinkRecord[]; hasNext: boolean; endCursor: string | null; totalCount: number }> {
    const p = assertApiAccess(principal, 'read');
    assertPageSize(first);
    // A cursor belongs to one list: the audit, the page, the direction and the position filter.
    const scope = `${auditId} ${direction} ${position ?? 'ALL'} ${url}`;
    let afterId: string | null = null;
    if (after) {
      const [cursorScope, id] = cursorParts(after, 2);
      if (typeof cursorScope !== 'string' || typeof id !== 'string' || !ROW_ID.test(id)) throw notACursor();
      if (cursorScope !== scope) throw foreignCursor('another audit, page, direction or position');
      afterId = id;
    }
    const { rows, total } = await this.repo.listLinks(db, {
      auditId,
      organizationId: p.organizationId,
      url,
      direction,
      first,
      after: afterId,
      position,
    });
    const page = rows.slice(0, first);
    const last = page.at(-1);
    return {
      rows: page,
      hasNext: rows.length > first,
      endCursor: last ? encodeCursor([scope, last.id]) : null,
      totalCount: total,
    };
  }
}

/** The link targets an occurrence's evidence names (`links: ["url"]` or `links: [{ url }]`). */
function linkTargetsOf(evidence: unknown): string[] {
  const links = (evidence as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return [];
  return links
    .map((link) => (typeof link === 'string' ? link : (link as { url?: unknown } | null)?.url))
    .filter((url): url is string => typeof url === 'string');
}
