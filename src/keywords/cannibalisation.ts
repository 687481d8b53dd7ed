import { isSiteResult, type FindPositionOptions } from '../serp/index.js';

/**
 * Keyword cannibalisation: several of the site's own URLs ranking for one keyword, read from the stored SERP
 * snapshots (every successful check keeps its top results, `serp_snapshot.results`). Pure: the repository reads the
 * snapshots, this groups them.
 *
 * "The site's URLs" are the results `isSiteResult` (src/serp) accepts, the rule the ranking position uses too: the
 * result's host is the project's domain with scheme, case, port and `www.` ignored, and its subdomains only when the
 * project's `rankIncludeSubdomains` setting is on. Two results are two URLs when their addresses differ once the
 * fragment is dropped (http and https, or with and without a trailing slash, are two URLs: the engine ranked both).
 */

/** Windows the views offer, in days; the query accepts any whole number of days from 1 to MAX_CANNIBALISATION_DAYS. */
export const CANNIBALISATION_DAYS = [7, 14, 30] as const;
export const DEFAULT_CANNIBALISATION_DAYS = 14;
export const MAX_CANNIBALISATION_DAYS = 90;
/** The fewest distinct site URLs that make a keyword cannibalised, and the most a filter may ask for. */
export const MIN_CANNIBALISING_URLS = 2;
export const MAX_CANNIBALISING_URLS = 20;

/** A stored result as the rank worker keeps it (anything else in the JSON is ignored). */
export interface StoredSerpResult {
  position: number;
  url: string;
  domain?: string | null;
}

/** One snapshot of a keyword (the repository may hand only results that could be the site's). */
export interface KeywordSnapshotRow {
  keywordId: string;
  term: string;
  country: string;
  language: string;
  device: string;
  checkedAt: Date;
  results: StoredSerpResult[];
}

/** One site URL at one check. */
export interface UrlPosition {
  checkedAt: Date;
  position: number;
}

export interface CannibalisingUrl {
  url: string;
  /** Its best position within the window, and at the keyword's latest check (null: not among the results then). */
  bestPosition: number;
  latestPosition: number | null;
  /** Each check of the window at which it ranked, oldest first. */
  positions: UrlPosition[];
}

export interface KeywordCannibalisation {
  keywordId: string;
  term: string;
  country: string;
  language: string;
  device: string;
  /** Successful checks of the window (each keeps a snapshot). */
  checks: number;
  /** The most site URLs that ranked at one check, and how many ranked at the latest one. */
  maxUrlsAtOneCheck: number;
  latestUrls: number;
  latestCheckedAt: Date;
  /** Distinct site URLs that ranked within the window: best latest position first, then best position. */
  urls: CannibalisingUrl[];
}

/** The site URLs of one snapshot, best position first, each URL once (its best position). */
export function siteUrlsOf(
  results: readonly StoredSerpResult[],
  domain: string,
  opts: FindPositionOptions = {},
): { url: string; position: number }[] {
  const best = new Map<string, number>();
  for (const r of results) {
    if (typeof r?.url !== 'string' || typeof r.position !== 'number') continue;
    if (!isSiteResult({ url: r.url, domain: r.domain ?? '' }, domain, opts)) continue;
    const url = r.url.replace(/#.*$/, '');
    const had = best.get(url);
    if (had === undefined || r.position < had) best.set(url, r.position);
  }
  return [...best].map(([url, position]) => ({ url, position })).sort((a, b) => a.position - b.position);
}

/**
 * The keywords for which at least `minUrls` distinct site URLs ranked within the snapshots given (at one check or
 * across checks: a switch of ranking URL counts as much as two URLs at once), in the order of the rows' keywords.
 * `rows` must be ordered by keyword, then check time.
 */
export function groupCannibalisation(
  rows: readonly KeywordSnapshotRow[],
  domain: string,
  opts: FindPositionOptions & { minUrls?: number } = {},
): KeywordCannibalisation[] {
  const minUrls = opts.minUrls ?? MIN_CANNIBALISING_URLS;
  const out: KeywordCannibalisation[] = [];
  let current: { head: KeywordSnapshotRow; checks: KeywordSnapshotRow[] } | null = null;
  const flush = () => {
    if (!current) return;
    const grouped = groupKeyword(current.head, current.checks, domain, opts);
    if (grouped.urls.length >= minUrls) out.push(grouped);
  };
  for (const row of rows) {
    if (current?.head.keywordId !== row.keywordId) {
      flush();
      current = { head: row, checks: [] };
    }
    current.checks.push(row);
  }
  flush();
  return out;
}

function groupKeyword(
  head: KeywordSnapshotRow,
  checks: readonly KeywordSnapshotRow[],
  domain: string,
  opts: FindPositionOptions,
): KeywordCannibalisation {
  const byUrl = new Map<string, UrlPosition[]>();
  let maxUrlsAtOneCheck = 0;
  let latest: { url: string; position: number }[] = [];
  for (const check of checks) {
    const urls = siteUrlsOf(check.results, domain, opts);
    maxUrlsAtOneCheck = Math.max(maxUrlsAtOneCheck, urls.length);
    latest = urls;
    for (const { url, position } of urls) {
      const list = byUrl.get(url) ?? [];
      list.push({ checkedAt: check.checkedAt, position });
      byUrl.set(url, list);
    }
  }
  const latestOf = new Map(latest.map((u) => [u.url, u.position]));
  const urls: CannibalisingUrl[] = [...byUrl].map(([url, positions]) => ({
    url,
    bestPosition: Math.min(...positions.map((p) => p.position)),
    latestPosition: latestOf.get(url) ?? null,
    positions,
  }));
  urls.sort(
    (a, b) =>
      (a.latestPosition ?? Infinity) - (b.latestPosition ?? Infinity) ||
      a.bestPosition - b.bestPosition ||
      a.url.localeCompare(b.url),
  );
  return {
    keywordId: head.keywordId,
    term: head.term,
    country: head.country,
    language: head.language,
    device: head.device,
    checks: checks.length,
    maxUrlsAtOneCheck,
    latestUrls: latest.length,
    latestCheckedAt: checks[checks.length - 1].checkedAt,
    urls,
  };
}
