import type { AuditCrawlNotesFragment } from '../../gql/graphql';
import { formatNumber, plural } from '../../lib/format';
import { checkedText } from './audit-counts';

/**
 * What an audit's crawl did not cover, said where its results are read: the external link checks still going on
 * (their verdicts not yet in the scores), the page cap that cut it (the scores cover the pages crawled) and the
 * external links it could not check (not counted as broken). Nothing when none.
 */
export function CrawlNotes({ audit }: { audit: AuditCrawlNotesFragment }) {
  const unchecked = audit.uncheckedLinks;
  const counts = audit.counts;
  if (!audit.truncated && unchecked.length === 0 && !counts && audit.externalLinksFinal) return null;
  return (
    <>
      {!audit.externalLinksFinal && (
        <div className="callout" role="status" aria-labelledby={`external-pending-${audit.id}`}>
          <strong id={`external-pending-${audit.id}`}>
            External links: {formatNumber(audit.externalLinksChecked)} of {formatNumber(audit.externalLinksFound)}{' '}
            checked
          </strong>
          <p>
            The pages, scores and issues are ready. Other sites are still answering: broken external links (and
            canonicals, hreflang, AMP and pagination links to other sites) fold in when their answers arrive, and the
            scores may change then. Until then this audit is left out of comparisons and alerts.
          </p>
        </div>
      )}
      {counts && <p className="muted small crawl-checked">{checkedText(counts)}</p>}
      {audit.truncated && (
        <div className="callout callout-warning" role="note" aria-labelledby={`capped-${audit.id}`}>
          <strong id={`capped-${audit.id}`}>
            The first {formatNumber(audit.pagesCrawled)} of at least {formatNumber(audit.pagesDiscovered ?? 0)} pages
          </strong>
          <p>
            The page cap of this audit ({formatNumber(audit.maxPages)} pages, from the plan or the project&apos;s
            settings) stopped the crawl while pages were left. The scores and issues cover the pages crawled, not the
            whole site; orphan pages are not judged.
          </p>
        </div>
      )}
      {unchecked.length > 0 && (
        <details className="callout crawl-unchecked">
          <summary>
            {plural(unchecked.length, 'external link')} tried could not be checked — not counted as broken
          </summary>
          <ul>
            {unchecked.map((link) => (
              <li key={link.url}>
                <span className="break">{link.url}</span> <span className="muted">— {link.reason}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
