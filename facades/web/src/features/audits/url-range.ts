import { formatNumber } from '../../lib/format';

/**
 * The URL table's position line: "URLs 1–3 of 3". A page of results holds up to its page size of URLs, and an issue's
 * URL table has one row per item of a URL's evidence (each broken target of a page its own row): the range counts the
 * URLs, and the rows are said beside it when there are more of them ("URLs 1–3 of 3 · 4 rows").
 */
export function urlRangeText(rows: readonly { url: string }[], firstRow: number, totalCount: number): string {
  const urls = new Set(rows.map((r) => r.url)).size;
  const last = firstRow + urls - 1;
  return (
    `URLs ${formatNumber(firstRow)}–${formatNumber(last)} of ${formatNumber(totalCount)}` +
    (rows.length > urls ? ` · ${formatNumber(rows.length)} rows` : '')
  );
}
