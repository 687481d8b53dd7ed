import type { IssueCategory, Severity } from '../../gql/graphql';

/** The catalog page's filters, in its URL (shareable; the server renders the filtered list too). */
export interface CatalogSearch {
  category?: IssueCategory;
  severity?: Severity;
  q?: string;
}

const CATEGORIES: readonly IssueCategory[] = ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'];
const SEVERITIES: readonly Severity[] = ['CRITICAL', 'WARNING', 'NOTICE'];

export function parseCatalogSearch(search: Record<string, unknown>): CatalogSearch {
  const out: CatalogSearch = {};
  if (CATEGORIES.includes(search.category as IssueCategory)) out.category = search.category as IssueCategory;
  if (SEVERITIES.includes(search.severity as Severity)) out.severity = search.severity as Severity;
  if (typeof search.q === 'string' && search.q.trim()) out.q = search.q.slice(0, 100);
  return out;
}

export { CATEGORIES as CATALOG_CATEGORIES, SEVERITIES as CATALOG_SEVERITIES };
