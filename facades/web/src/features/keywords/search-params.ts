/** Filters, sort and chosen charts of the keywords page, kept in the URL so that a view can be shared and reloaded. */
export interface KeywordSearch {
  /** Text search in the term and the ranking URL. */
  q?: string;
  device?: KeywordDevice;
  /** An ISO 3166-1 alpha-2 code, lower case. */
  country?: string;
  sort?: KeywordSort;
  dir?: 'asc' | 'desc';
  /** Keywords drawn together in the comparison chart (ids). */
  compare?: string[];
  /** The period of the charts, in days. */
  days?: ChartDays;
  /** The view shown: the tracked keywords (default) or their cannibalisation. */
  view?: KeywordView;
  /** Cannibalisation: its window in days, the fewest site URLs, and a search in the terms. */
  cDays?: CannibalisationDays;
  cMin?: CannibalisationMin;
  cq?: string;
}

export const VIEWS = ['keywords', 'cannibalisation'] as const;
export type KeywordView = (typeof VIEWS)[number];
/** The API's windows (keywordCannibalisation takes 1-90 days; these are the ones offered). */
export const CANNIBALISATION_DAYS = [7, 14, 30] as const;
export type CannibalisationDays = (typeof CANNIBALISATION_DAYS)[number];
export const CANNIBALISATION_MIN = [2, 3, 4, 5] as const;
export type CannibalisationMin = (typeof CANNIBALISATION_MIN)[number];

export type KeywordDevice = 'desktop' | 'mobile';
export const DEVICES: KeywordDevice[] = ['desktop', 'mobile'];

export const SORTS = ['term', 'position', 'change', 'best', 'url', 'target', 'checked'] as const;
export type KeywordSort = (typeof SORTS)[number];

export const CHART_DAYS = [7, 30, 90, 365] as const;
export type ChartDays = (typeof CHART_DAYS)[number];

/** At most this many keywords in the comparison chart (the API takes up to 1,000; a legend of 20 stays readable). */
export const MAX_COMPARED = 20;

const ID = /^[0-9a-f-]{36}$/i;

const oneOf = <T extends string | number>(value: unknown, allowed: readonly T[]): T | undefined =>
  allowed.find((a) => String(a) === String(value));
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.slice(0, 200) : undefined;
const ids = (value: unknown): string[] | undefined => {
  const list = (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []).filter(
    (v): v is string => typeof v === 'string' && ID.test(v),
  );
  return list.length ? [...new Set(list)].slice(0, MAX_COMPARED) : undefined;
};

export function parseKeywordSearch(search: Record<string, unknown>): KeywordSearch {
  const country = typeof search.country === 'string' ? search.country.toLowerCase() : '';
  return {
    q: text(search.q),
    device: oneOf(search.device, DEVICES),
    country: /^[a-z]{2}$/.test(country) ? country : undefined,
    sort: oneOf(search.sort, SORTS),
    dir: oneOf(search.dir, ['asc', 'desc'] as const),
    compare: ids(search.compare),
    days: oneOf(search.days, CHART_DAYS),
    view: oneOf(search.view, VIEWS),
    cDays: oneOf(search.cDays, CANNIBALISATION_DAYS),
    cMin: oneOf(search.cMin, CANNIBALISATION_MIN),
    cq: text(search.cq),
  };
}
