import { useState } from 'react';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage, Loading } from '../../components/status';
import {
  ComparisonExtractionPagesDocument,
  type AuditComparisonQuery,
  type ComparisonExtractionPagesQuery,
  type ExtractionChange,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import type { Pair } from './comparison-parts';

type Extraction = AuditComparisonQuery['auditComparison']['extractions'][number];
type ValueChange = ComparisonExtractionPagesQuery['auditComparison']['extractionPages']['nodes'][number];

const VALUE_CHANGE_LABEL: Record<ExtractionChange, string> = {
  CHANGED: 'Changed',
  APPEARED: 'Appeared',
  DISAPPEARED: 'Disappeared',
};

/** An extracted value as text (crawled content is never rendered as HTML); a dash for none. */
const valueCell = (value: string | null) =>
  value === null ? <span className="muted">—</span> : <span className="url-text">{value}</span>;

const VALUE_COLUMNS: Column<ValueChange>[] = [
  {
    id: 'url',
    header: 'URL',
    rowHeader: true,
    className: 'cell-url',
    cell: (n) => <span className="url-text">{n.url}</span>,
  },
  { id: 'change', header: 'Change', cell: (n) => VALUE_CHANGE_LABEL[n.change] },
  { id: 'before', header: 'Before', cell: (n) => valueCell(n.before) },
  { id: 'after', header: 'After', cell: (n) => valueCell(n.after) },
];

/** One page of an extractor's changed URLs; "Load more" adds the next page below. */
function ExtractionPagesPage({
  pair,
  extraction,
  after,
}: {
  pair: Pair;
  extraction: Extraction;
  after: string | null;
}) {
  const [next, setNext] = useState<string | null>(null);
  const [{ data, fetching, error }] = useQuery({
    query: ComparisonExtractionPagesDocument,
    variables: { ...pair, key: extraction.key, after },
  });
  if (fetching && !data) return <Loading label="Loading changed values…" />;
  const connection = data?.auditComparison.extractionPages;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The changed values could not be loaded" />;
  return (
    <>
      <DataTable
        label={`Pages whose ${extraction.name} changed`}
        caption={after === null ? `Pages whose “${extraction.name}” changed, before and after` : undefined}
        className="table table-compact"
        columns={VALUE_COLUMNS}
        rows={connection.nodes}
        rowKey={(n) => n.url}
      />
      {next ? (
        <ExtractionPagesPage pair={pair} extraction={extraction} after={next} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <Button onPress={() => setNext(connection.pageInfo.endCursor)}>Load more pages</Button>
        )
      )}
    </>
  );
}

function ExtractionRow({ pair, extraction }: { pair: Pair; extraction: Extraction }) {
  const [open, setOpen] = useState(false);
  const total = extraction.changed + extraction.appeared + extraction.disappeared;
  const panelId = `extraction-pages-${extraction.key}`;
  const ran = !extraction.inBase
    ? ' (new: only the later audit ran it)'
    : !extraction.inHead
      ? ' (only the earlier audit ran it)'
      : '';
  return (
    <li className="comparison-code">
      <div className="comparison-code-head">
        <span>
          <strong>{extraction.name}</strong> <code className="muted small">{extraction.column}</code>
          <span className="muted small">{ran}</span>
        </span>
        <span className="numeric">
          {formatNumber(extraction.changed)} changed · {formatNumber(extraction.appeared)} appeared ·{' '}
          {formatNumber(extraction.disappeared)} disappeared
        </span>
        {total > 0 && (
          <Button
            onPress={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={panelId}
            aria-label={`${open ? 'Hide' : 'Show'} pages whose ${extraction.name} changed (${formatNumber(total)})`}
          >
            {open ? 'Hide pages' : 'Show pages'}
          </Button>
        )}
      </div>
      {open && (
        <div id={panelId}>
          <ExtractionPagesPage pair={pair} extraction={extraction} after={null} />
        </div>
      )}
    </li>
  );
}

/**
 * Custom extraction between the audits: per extractor either ran, how many pages crawled by both had its value
 * changed, appeared or disappeared, and those pages with the value before and after (docs/custom-extraction.md).
 */
export function ExtractionChanges({ pair, extractions }: { pair: Pair; extractions: readonly Extraction[] }) {
  if (!extractions.length) return null;
  const changed = extractions.filter((e) => e.changed + e.appeared + e.disappeared > 0);
  return (
    <section className="card" aria-labelledby="extraction-changes-title">
      <h2 id="extraction-changes-title">Extracted values</h2>
      <p className="muted small">
        Pages crawled by both audits whose custom extractor’s value changed, appeared (no value before) or disappeared.
      </p>
      {changed.length === 0 ? (
        <p className="muted">No extracted value changed on a page both audits crawled.</p>
      ) : (
        <ul className="comparison-codes" aria-label="Extractors with changed values">
          {changed.map((e) => (
            <ExtractionRow key={e.key} pair={pair} extraction={e} />
          ))}
        </ul>
      )}
    </section>
  );
}
