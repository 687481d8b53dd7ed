import { useRef, useState, type KeyboardEvent } from 'react';
import { useClient, type OperationResult } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/status';
import { ComparisonCsvDocument, type ComparisonCsvQuery, type ComparisonRows } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { saveFile } from '../../components/save-file';
import type { ComparisonTab } from './search-params';
import type { Pair } from './comparison-parts';

/** Downloads the comparison's issue or URL rows as CSV, asked for over GraphQL in pieces. */
export function CsvButtons({ pair }: { pair: Pair }) {
  const client = useClient();
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState<ComparisonRows | null>(null);
  const download = async (rows: ComparisonRows) => {
    setBusy(rows);
    setProblem(null);
    try {
      const parts: string[] = [];
      let after: string | null = null;
      let filename = '';
      let count = 0;
      do {
        const result: OperationResult<ComparisonCsvQuery> = await client
          .query(ComparisonCsvDocument, { ...pair, rows, after }, { requestPolicy: 'network-only' })
          .toPromise();
        if (!result.data) {
          setProblem(problemOf(result.error));
          setStatus('');
          return;
        }
        const piece = result.data.auditComparison.csv;
        filename ||= piece.filename;
        parts.push(piece.content);
        count += piece.rows;
        after = piece.nextCursor;
        setStatus(`Preparing ${filename}… ${formatNumber(count)} rows`);
      } while (after);
      saveFile(parts, 'text/csv;charset=utf-8', filename);
      setStatus(`Downloaded ${filename} (${plural(count, 'row')}).`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="export-buttons">
      <div className="export-buttons-row" role="group" aria-label="Export the comparison">
        <Button onPress={() => void download('ISSUES')} isDisabled={busy !== null}>
          Issues CSV
        </Button>
        <Button onPress={() => void download('PAGES')} isDisabled={busy !== null}>
          Changed URLs CSV
        </Button>
      </div>
      <p className="muted small" role="status" aria-live="polite">
        {status}
      </p>
      <ErrorMessage problem={problem} />
    </div>
  );
}

/**
 * The change tabs (WAI-ARIA tabs): one tab selected at a time, aria-selected on it alone; arrows, Home and End move
 * between tabs and select them, Tab leaves the list for the panel.
 */
export function ChangeTabs({
  tabs,
  selected,
  onSelect,
}: {
  tabs: { tab: ComparisonTab; label: string }[];
  selected: ComparisonTab;
  onSelect(tab: ComparisonTab): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.tab === selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    onSelect(tabs[to].tab);
    list.current?.querySelector<HTMLButtonElement>(`#changes-tab-${tabs[to].tab}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Changes" className="tabs-nav" ref={list} onKeyDown={move}>
      {tabs.map((t) => (
        <button
          key={t.tab}
          type="button"
          role="tab"
          id={`changes-tab-${t.tab}`}
          aria-selected={t.tab === selected}
          // Only the selected tab's panel is in the page.
          aria-controls={t.tab === selected ? `changes-panel-${t.tab}` : undefined}
          tabIndex={t.tab === selected ? 0 : -1}
          onClick={() => onSelect(t.tab)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
