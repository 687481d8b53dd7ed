import type { AuditLinkPosition } from './audit-page-rows.js';

/**
 * A page's inlinks: one definition for every surface that shows them — the pages explorer (`AuditPage.inlinks`), the
 * URL table's `inlinks` and `inlinks_<position>` fields and their CSV/XLSX exports, the page view's count
 * (`inlinkCount`) and its list (`inlinks { totalCount nodes }`), the pages CSV export.
 *
 * The distinct crawled pages that have a link to the page's URL in the audit's link graph (`audit_link`: every
 * http(s) `<a>`/`<area>` link the analysed HTML pages read, nofollow ones included: they are links on the page, and
 * the list shows their rel). A page counts once however many times it links; a page's links to itself do not count.
 * Filtered by position, only the links at that position on the linking page. Links past a page's per-page cap were not
 * read and are in no count (the linking page says how many: `linksNotRead`).
 *
 * A completed audit stores the counts with its pages (`audit_page.inlinks`, `inlinks_<position>`: storedInlinksSql,
 * run by the completion); a running audit's are counted from the same rows (inlinksOfSql).
 */
export const INLINKS_DESCRIPTION =
  'Crawled pages that link to it: distinct pages (one however many links it has to it, nofollow links included), ' +
  'its own links not counted.';

/** The audit_page column holding a completed audit's inlinks (all positions, or one). */
export const STORED_INLINKS: Record<AuditLinkPosition | 'ALL', string> = {
  ALL: 'inlinks',
  CONTENT: 'inlinks_content',
  NAVIGATION: 'inlinks_navigation',
  HEADER: 'inlinks_header',
  ASIDE: 'inlinks_aside',
  FOOTER: 'inlinks_footer',
};

/** The links `alias` of the definition: the linking page is not the page itself. */
const notSelf = (alias: string) => `${alias}.source_url <> ${alias}.target_url`;
/** Each linking page once. */
const linkingPages = (alias: string) => `count(DISTINCT ${alias}.source_url)`;

/**
 * The inlinks of the URL `url` (an SQL expression) in audit `$1`, counted from its links (at `position`, an SQL
 * expression, when given): an int subquery.
 */
export function inlinksOfSql(url: string, position?: string): string {
  return `(SELECT ${linkingPages('l')} FROM audit_link l WHERE l.audit_id = $1 AND l.target_url = ${url}
    AND ${notSelf('l')}${position === undefined ? '' : ` AND l.position = ${position}`})::int`;
}

/**
 * The inlinks of the audit_page row `p` of audit `$1`: stored once the audit completed, counted from its links before
 * (a running audit), or when it never completed (failed, cancelled).
 */
export function pageInlinksSql(): string {
  return `CASE WHEN (SELECT a.status FROM audit a WHERE a.id = $1) = 'COMPLETED' THEN p.${STORED_INLINKS.ALL}
    ELSE ${inlinksOfSql('p.url')} END`;
}

/**
 * The statement storing a completed audit's inlinks (`$1` the audit): every linked page's count, in all and by
 * position, in one pass over the audit's links.
 */
export function storedInlinksSql(): string {
  const byPosition = (position: AuditLinkPosition) =>
    `${linkingPages('k')} FILTER (WHERE k.position = '${position}')::int AS ${STORED_INLINKS[position]}`;
  const positions = (['CONTENT', 'NAVIGATION', 'HEADER', 'ASIDE', 'FOOTER'] as const).map((position) => ({
    column: STORED_INLINKS[position],
    select: byPosition(position),
  }));
  return `UPDATE audit_page p SET ${STORED_INLINKS.ALL} = l.${STORED_INLINKS.ALL},
      ${positions.map(({ column }) => `${column} = l.${column}`).join(', ')}
    FROM (SELECT k.target_url AS url, ${linkingPages('k')}::int AS ${STORED_INLINKS.ALL},
            ${positions.map(({ select }) => select).join(',\n            ')}
          FROM audit_link k WHERE k.audit_id = $1 AND ${notSelf('k')}
          GROUP BY k.target_url) l
    WHERE p.audit_id = $1 AND p.url = l.url`;
}
