import { parseBuiltFilter, parseColumns, type BuiltFilter } from './url-table-view';
import type {
  AuditPageKind,
  IssueCategory,
  LinkPosition,
  Severity,
  SortDirection,
  StatusClass,
} from '../../gql/graphql';

/** Filters of the issues page, kept in the URL so that a filtered view can be shared and reloaded. */
export interface IssueSearch {
  severity?: Severity[];
  category?: IssueCategory;
  q?: string;
  /** Grouped by category; by default one list, the most severe first and by priority within a severity. */
  group?: 'category';
  /** A segment of the project (its id): its score, health and issue counts above the list. */
  seg?: string;
}

export const SEVERITIES: Severity[] = ['CRITICAL', 'WARNING', 'NOTICE'];
export const CATEGORIES: IssueCategory[] = ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'];

const listOf = <T extends string>(value: unknown, allowed: readonly T[]): T[] | undefined => {
  const items = (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []).filter((v): v is T =>
    allowed.includes(v as T),
  );
  return items.length ? [...new Set(items)] : undefined;
};
const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | undefined =>
  allowed.includes(value as T) ? (value as T) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.slice(0, 200) : undefined;

export function parseIssueSearch(search: Record<string, unknown>): IssueSearch {
  return {
    severity: listOf(search.severity, SEVERITIES),
    category: oneOf(search.category, CATEGORIES),
    q: text(search.q),
    group: oneOf(search.group, ['category'] as const),
    seg: parseSegment(search.seg),
  };
}

/**
 * The pages explorer's whole view, kept in the URL so that it can be bookmarked and shared: the URL table's columns
 * (`cols`), sort (a field key) and direction, the quick filters, and the filter builder's rows (`f`).
 */
export interface PageSearch {
  cols?: string[];
  sort?: string;
  dir?: SortDirection;
  status?: StatusClass[];
  kind?: AuditPageKind[];
  issues?: boolean;
  q?: string;
  f?: BuiltFilter;
  /** A segment of the project (its id): only its URLs. */
  seg?: string;
}
export const STATUS_CLASSES: StatusClass[] = ['SUCCESS', 'REDIRECT', 'CLIENT_ERROR', 'SERVER_ERROR', 'FAILED'];
export const PAGE_KINDS: AuditPageKind[] = ['HTML', 'REDIRECT', 'ERROR', 'FILE', 'FAILED'];

export function parsePageSearch(search: Record<string, unknown>): PageSearch {
  return {
    cols: parseColumns(search.cols),
    sort: typeof search.sort === 'string' && /^[A-Za-z0-9_.]{1,200}$/.test(search.sort) ? search.sort : undefined,
    dir: oneOf(search.dir, ['ASC', 'DESC'] as const),
    status: listOf(search.status, STATUS_CLASSES),
    kind: listOf(search.kind, PAGE_KINDS),
    issues: search.issues === true || search.issues === 'true' ? true : undefined,
    q: text(search.q),
    f: parseBuiltFilter(search.f),
    seg: parseSegment(search.seg),
  };
}

/**
 * An issue's URLs: the URL table's columns, sort and filter builder's rows (its ranking pages first unsorted), and
 * the segment it is narrowed to.
 */
export type IssueUrlsSearch = Pick<PageSearch, 'cols' | 'sort' | 'dir' | 'f' | 'seg'>;

export function parseIssueUrlsSearch(search: Record<string, unknown>): IssueUrlsSearch {
  const { cols, sort, dir, f, seg } = parsePageSearch(search);
  return { cols, sort, dir, f, seg };
}

/** A segment id from the URL (`seg`), or undefined. */
export function parseSegment(value: unknown): string | undefined {
  return typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value) ? value : undefined;
}

/** The page view: which crawled URL of the audit, and where on their pages its inlinks and outlinks sit. */
export interface PageViewSearch {
  url: string;
  /** Only the inlinks from this position on the linking page. */
  inpos?: LinkPosition;
  /** Only the outlinks in this position on the page. */
  outpos?: LinkPosition;
}

export const LINK_POSITIONS: LinkPosition[] = ['HEADER', 'NAVIGATION', 'CONTENT', 'ASIDE', 'FOOTER'];

export function parsePageViewSearch(search: Record<string, unknown>): PageViewSearch {
  return {
    url: typeof search.url === 'string' ? search.url.slice(0, 2048) : '',
    inpos: oneOf(search.inpos, LINK_POSITIONS),
    outpos: oneOf(search.outpos, LINK_POSITIONS),
  };
}
