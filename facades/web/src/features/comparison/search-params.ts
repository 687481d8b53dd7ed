/** What the comparison shows, kept in the URL so that a view can be shared and reloaded. */
export type ComparisonTab = 'new' | 'fixed' | 'gone' | 'not-checked' | 'newly-checked' | 'persisting' | 'pages';
export interface ComparisonSearch {
  base?: string;
  head?: string;
  tab?: ComparisonTab;
  /** The URL whose before and after is open. */
  url?: string;
}

const TABS: readonly ComparisonTab[] = ['new', 'fixed', 'gone', 'not-checked', 'newly-checked', 'persisting', 'pages'];
const AUDIT_ID = /^[0-9a-f-]{36}$/i;
const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() && value.length <= max ? value : undefined;

export function parseComparisonSearch(search: Record<string, unknown>): ComparisonSearch {
  const id = (v: unknown) => (typeof v === 'string' && AUDIT_ID.test(v) ? v : undefined);
  return {
    base: id(search.base),
    head: id(search.head),
    tab: TABS.includes(search.tab as ComparisonTab) ? (search.tab as ComparisonTab) : undefined,
    url: text(search.url, 4096),
  };
}
