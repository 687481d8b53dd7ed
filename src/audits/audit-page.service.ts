import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import type { AuditPageKind, VitalsRecord } from './audit-engine.js';
import {
  AuditRepository,
  SORT_KEYS,
  type AuditLinkRecord,
  type AuditPageOrder,
  type AuditPageRecord,
  type AuditPageView,
  type PageOccurrenceRecord,
  type SortDirection,
  type StatusClass,
} from './audit.repository.js';

export type {
  AuditLinkRecord,
  AuditPageOrder,
  AuditPageRecord,
  AuditPageView,
  PageOccurrenceRecord,
  SortDirection,
  StatusClass,
} from './audit.repository.js';

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

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(
  after: string,
  auditId: string,
  orderBy: AuditPageOrder,
  direction: SortDirection,
): { value: string | number | null; id: string } {
  const invalid = () =>
    badInput('after is not a cursor of this list: pass pageInfo.endCursor of a previous page.', [
      { path: 'after', message: 'not a cursor of this list' },
    ]);
  if (!/^[A-Za-z0-9_-]+$/.test(after)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) throw invalid();
  const [audit, order, dir, value, id] = parsed as unknown[];
  if (typeof id !== 'string' || !ROW_ID.test(id)) throw invalid();
  if (audit !== auditId || order !== orderBy || dir !== direction) {
    throw badInput('after belongs to another list (another audit, orderBy or direction): start again without it.', [
      { path: 'after', message: 'cursor of another list' },
    ]);
  }
  const key = SORT_KEYS[orderBy];
  const fits =
    value === null
      ? key.nullable
      : key.kind === 'int'
        ? Number.isSafeInteger(value) && Math.abs(value as number) <= INT32_MAX
        : typeof value === 'string';
  if (!fits) throw invalid();
  return { value: value as string | number | null, id };
}

/**
 * The pages explorer: an audit's crawled pages, sorted on one key (ties by id, missing values last in both
 * directions), filtered, in keyset pages with opaque cursors. The audit is checked against the caller's
 * organization here too, so the rows are never reachable through an unchecked Audit.
 */
export class AuditPageService {
  constructor(private readonly repo = new AuditRepository()) {}

  async list(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    query: AuditPageQuery,
  ): Promise<AuditPageList> {
    const p = assertApiAccess(principal, 'read');
    const { first, after, orderBy, direction, filter } = query;
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGES_PER_REQUEST) {
      throw badInput(`first must be between 1 and ${MAX_PAGES_PER_REQUEST}.`, [
        { path: 'first', message: `must be 1-${MAX_PAGES_PER_REQUEST}` },
      ]);
    }
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
        ? encodeCursor([auditId, orderBy, direction, last[SORT_KEYS[orderBy].field] as string | number | null, last.id])
        : null,
      totalCount: total,
    };
  }

  /**
   * The page view of one crawled URL: the row with its details, its issue occurrences and lab vitals. NOT_FOUND when
   * the audit is not the caller's organization's, or the URL was not crawled in it.
   */
  async page(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    url: string,
  ): Promise<AuditPageView & { occurrences: PageOccurrenceRecord[]; vitals: (VitalsRecord & { measuredAt: Date })[] }> {
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
    return { ...page, occurrences, vitals };
  }

  /**
   * Anchor texts of links, by "source target", for evidence tables (sources and targets as the evidence names them).
   * Audits crawled before the link graph existed give none.
   */
  async linkAnchors(
    db: NativeDb,
    auditId: string,
    pairs: readonly { source: string; target: string }[],
  ): Promise<Map<string, string>> {
    const rows = await this.repo.linkAnchors(
      db,
      auditId,
      pairs.map((p) => p.source),
      pairs.map((p) => p.target),
    );
    return new Map(rows.map((r) => [`${r.sourceUrl} ${r.targetUrl}`, r.anchor]));
  }

  /**
   * A page's inlinks (links to it from crawled pages) or outlinks (its followable links), in the order they were
   * crawled, in keyset pages. The cursor is the last link id, tied to the audit, the URL and the direction.
   */
  async links(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    url: string,
    direction: 'IN' | 'OUT',
    first: number,
    after: string | null,
  ): Promise<{ rows: AuditLinkRecord[]; hasNext: boolean; endCursor: string | null; totalCount: number }> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGES_PER_REQUEST) {
      throw badInput(`first must be between 1 and ${MAX_PAGES_PER_REQUEST}.`, [
        { path: 'first', message: `must be 1-${MAX_PAGES_PER_REQUEST}` },
      ]);
    }
    const scope = `${auditId} ${direction} ${url}`;
    let afterId: string | null = null;
    if (after) {
      const decoded = decodeLinkCursor(after);
      if (decoded === null) {
        throw badInput('after is not a cursor of this list: pass pageInfo.endCursor of a previous page.', [
          { path: 'after', message: 'not a cursor of this list' },
        ]);
      }
      if (decoded.scope !== scope) {
        throw badInput('after belongs to another list (another audit, page or direction): start again without it.', [
          { path: 'after', message: 'cursor of another list' },
        ]);
      }
      afterId = decoded.id;
    }
    const { rows, total } = await this.repo.listLinks(db, {
      auditId,
      organizationId: p.organizationId,
      url,
      direction,
      first,
      after: afterId,
    });
    const page = rows.slice(0, first);
    const last = page.at(-1);
    return {
      rows: page,
      hasNext: rows.length > first,
      endCursor: last ? Buffer.from(JSON.stringify([scope, last.id])).toString('base64url') : null,
      totalCount: total,
    };
  }
}

function decodeLinkCursor(after: string): { scope: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(after)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [scope, id] = parsed as unknown[];
    return typeof scope === 'string' && typeof id === 'string' && ROW_ID.test(id) ? { scope, id } : null;
  } catch {
    return null;
  }
}
