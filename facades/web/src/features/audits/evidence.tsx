import { useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { formatNumber } from '../../lib/format';
import { opensPageView, PageLink, type PageScope } from '../../components/page-link';

/** One cell of an occurrence's evidence as GraphQL gives it (`IssueOccurrence.details`). */
export interface EvidenceCellData {
  text: string;
  /** The absolute URL when the cell is one, else null. */
  url: string | null;
}

export interface EvidenceFactData {
  label: string;
  value: EvidenceCellData;
}

export interface EvidenceTableData {
  caption: string;
  columns: string[];
  rows: EvidenceCellData[][];
  /** Rows the server did not list. */
  omitted: number;
}

/** The server's reading of the check's evidence (src/seo/checks/evidence-view.ts): facts and small tables. */
export interface EvidenceViewData {
  kind: string;
  facts: EvidenceFactData[];
  tables: EvidenceTableData[];
}

/** Which cell's URL was just copied, and whether the clipboard took it. */
type CopyState = { cell: string; ok: boolean } | null;

/**
 * An occurrence's evidence: facts as a description list, lists as tables. Everything in it comes from the crawled
 * site, so it is rendered as React text only, never as markup.
 */
export function Evidence({ view, scope }: { view: EvidenceViewData | null; scope: PageScope }) {
  const [copied, setCopied] = useState<CopyState>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  if (!view || (view.facts.length === 0 && view.tables.length === 0)) return null;

  async function copy(cell: string, url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied({ cell, ok: true });
    } catch {
      setCopied({ cell, ok: false });
    }
  }
  const cell = (id: string, data: EvidenceCellData) => (
    <EvidenceCell id={id} cell={data} scope={scope} copied={copied?.cell === id && copied.ok} onCopy={copy} />
  );

  return (
    <div className="evidence-view" data-kind={view.kind.toLowerCase()}>
      {view.facts.length > 0 && (
        <dl className="evidence">
          {view.facts.map((fact, i) => (
            <div key={i}>
              <dt>{fact.label}</dt>
              <dd>{cell(`f${i}`, fact.value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {view.tables.map((table, t) => (
        <div key={t} className="evidence-table-wrap">
          <table className="evidence-table">
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                {table.columns.map((column, c) => (
                  <th key={c} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((data, c) => (
                    <td key={c}>{cell(`t${t}r${r}c${c}`, data)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {table.omitted > 0 && <p className="evidence-more">+ {formatNumber(table.omitted)} more</p>}
        </div>
      ))}
      <span className="visually-hidden" role="status" aria-live="polite">
        {copied ? (copied.ok ? 'Copied' : 'Copying failed: select the URL and copy it by hand') : ''}
      </span>
    </div>
  );
}

/** Plain text, or a URL: a link to the app's page for it when there is one, and a copy button. */
function EvidenceCell({
  id,
  cell,
  scope,
  copied,
  onCopy,
}: {
  id: string;
  cell: EvidenceCellData;
  scope: PageScope;
  copied: boolean;
  onCopy(id: string, url: string): Promise<void>;
}) {
  if (!cell.url) return <>{cell.text}</>;
  const url = cell.url;
  return (
    <span className="evidence-url">
      {opensPageView(scope, url) ? (
        <PageLink scope={scope} url={url} className="evidence-url-text">
          {cell.text}
        </PageLink>
      ) : (
        <span className="evidence-url-text">{cell.text}</span>
      )}
      <Button variant="quiet" className="evidence-copy" aria-label="Copy URL" onPress={() => void onCopy(id, url)}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </span>
  );
}
