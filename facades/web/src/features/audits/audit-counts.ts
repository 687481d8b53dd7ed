import type { AuditCountsLineFragment } from '../../gql/graphql';
import { formatNumber, plural } from '../../lib/format';

/**
 * The audit's three counts as every surface names them (docs/counts.md): "1,170 URLs crawled · 1,169 HTML pages ·
 * 1,169 indexable"; an audit without stored counts says what it kept.
 */
export function countsText(counts: AuditCountsLineFragment | null, pagesCrawled: number): string {
  if (!counts) return `${plural(pagesCrawled, 'URL')} crawled`;
  return (
    `${plural(counts.urlsCrawled, 'URL')} crawled · ${plural(counts.htmlPages, 'HTML page')} · ` +
    `${formatNumber(counts.indexablePages)} indexable`
  );
}

/** What each cap left, as N of M: external links, resources, lab vitals. */
export function checkedText(counts: AuditCountsLineFragment): string {
  const e = counts.externalLinks;
  // Worded as the CLI and the reports word it (externalLinkGaps, src/audits/audit.entity.ts).
  const otherNotTried = e.notTried - e.overCap - e.outOfTime - e.noNetwork - e.pending - e.workerStopped;
  const unchecked = [
    e.workerStopped
      ? `${formatNumber(e.workerStopped)} not checked: the audit's worker stopped before they answered`
      : '',
    e.refusedByPolicy ? `${formatNumber(e.refusedByPolicy)} refused by policy` : '',
    e.addressCap ? `${formatNumber(e.addressCap)} not sent: per-address cap` : '',
    e.noAnswer ? `${formatNumber(e.noAnswer)} no answer` : '',
    e.overCap ? `${formatNumber(e.overCap)} not tried: over the cap` : '',
    e.outOfTime ? `${formatNumber(e.outOfTime)} not tried: out of time` : '',
    e.noNetwork
      ? `no outside network: ${formatNumber(e.noNetwork)} external link${e.noNetwork === 1 ? '' : 's'} not checked`
      : '',
    otherNotTried > 0 ? `${formatNumber(otherNotTried)} not tried` : '',
  ].filter(Boolean);
  // While the checks go on, the figures kept at the readable completion are already behind: the external links are
  // said once, live, by the note above (CrawlNotes).
  const external = e.pending
    ? ''
    : `External links ${formatNumber(e.checked)} of ${formatNumber(e.found)} checked` +
      (unchecked.length ? ` (${unchecked.join(', ')})` : '') +
      ' · ';
  return (
    external +
    `${external ? 'resources' : 'Resources'} ${formatNumber(counts.resources.checked)} of ` +
    `${formatNumber(counts.resources.found)}` +
    ` · lab vitals on ${formatNumber(counts.labPages.measured)} of ${plural(counts.labPages.eligible, 'page')}` +
    linksNotReadText(counts.links)
  );
}

/**
 * The links a page's cap left unread, worded as linksNotReadNote (src/audits/audit.entity.ts): " · 2,000 links past
 * the per-page cap on 1 page were not checked"; nothing when every link was read.
 */
function linksNotReadText(links: AuditCountsLineFragment['links']): string {
  if (!links || links.notRead <= 0) return '';
  return (
    ` · ${plural(links.notRead, 'link')} past the per-page cap on ${plural(links.pagesOverCap, 'page')} ` +
    `${links.notRead === 1 ? 'was' : 'were'} not checked`
  );
}

/**
 * A page's links as the page view says them, worded as pageLinksNote (src/audits/audit.entity.ts): "12,000 links;
 * 2,000 past the 10,000 read were not checked", or "12,000 links" when every one was read.
 */
export function pageLinksText(linkCount: number, notRead: number): string {
  const links = plural(linkCount, 'link');
  if (notRead <= 0) return links;
  const verb = notRead === 1 ? 'was' : 'were';
  return `${links}; ${formatNumber(notRead)} past the ${formatNumber(linkCount - notRead)} read ${verb} not checked`;
}

/**
 * An issue's extent: "18 of 1,170 pages", or "site" for a site-level check (charged once), with the pages it names
 * when there are several ("site, 4 pages": duplicate titles).
 */
export function extentText(issue: { scope: string; affectedPages: number; applicablePages: number }): string {
  if (issue.scope === 'site') return issue.affectedPages > 1 ? `site, ${plural(issue.affectedPages, 'page')}` : 'site';
  return (
    `${formatNumber(issue.affectedPages)}` +
    (issue.applicablePages > 1 ? ` of ${formatNumber(issue.applicablePages)}` : '') +
    ` ${issue.affectedPages === 1 && issue.applicablePages <= 1 ? 'page' : 'pages'}`
  );
}
