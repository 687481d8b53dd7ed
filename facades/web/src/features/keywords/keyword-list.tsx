import { useCallback, useEffect, useMemo, useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Button } from '../../components/button';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import { KeywordListDocument, type KeywordRowFragment } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { PREFETCHED } from '../../lib/urql';
import { useStreamedQuery } from '../../lib/streamed-query';
import { KeywordTable } from './keyword-table';
import { visibleKeywords } from './keyword-rows';
import { MAX_COMPARED, type ChartDays, type KeywordSearch, type KeywordSort } from './search-params';
import { DaysSelect, HistoryChart, KeywordSelects } from './keyword-history';

/** The search box writes the URL after a pause in typing (the table filters at once). */
export const URL_DELAY_MS = 300;

/** Changes whenever a check lands, so that open charts read their history again. */
export const checksKeyOf = (keywords: readonly KeywordRowFragment[]) =>
  keywords.map((k) => k.lastCheck?.checkedAt ?? '').join('|');

/** The tracked keywords: the comparison chart, the filters and the table. */
export function KeywordList({
  projectId,
  search,
  setSearch,
  onAdd,
  onChart,
  onRemove,
}: {
  projectId: string;
  search: KeywordSearch;
  setSearch(patch: Partial<KeywordSearch>): void;
  onAdd(): void;
  onChart(keyword: KeywordRowFragment): void;
  onRemove(keyword: KeywordRowFragment): void;
}) {
  const [{ data, fetching, error }] = useStreamedQuery({
    query: KeywordListDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  const [text, setText] = useState(search.q ?? '');

  // The search box filters at once; the URL follows after a pause in typing.
  useEffect(() => {
    const q = text.trim() || undefined;
    if (q === search.q) return;
    const timer = setTimeout(() => setSearch({ q }), URL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const all = useMemo(() => data?.keywords ?? [], [data]);
  const shown = useMemo(() => visibleKeywords(all, { ...search, q: text.trim() || undefined }), [all, search, text]);
  const countries = useMemo(() => [...new Set(all.map((k) => k.country))].sort(), [all]);
  // Keyed by the ids' text, so that another change of the URL (filter, sort) keeps the same array for the chart.
  const compareKey = (search.compare ?? []).join(',');
  const compared = useMemo(() => {
    const ids = new Set(all.map((k) => k.id));
    return compareKey ? compareKey.split(',').filter((id) => ids.has(id)) : [];
  }, [compareKey, all]);
  // Stable, so that typing in the search box re-renders neither the table (memoized) nor the selects.
  const toggleCompare = useCallback(
    (id: string, on: boolean) => {
      const next = on ? [...compared.filter((x) => x !== id), id] : compared.filter((x) => x !== id);
      setSearch({ compare: next.length ? next.slice(0, MAX_COMPARED) : undefined });
    },
    [compared, setSearch],
  );
  const sortBy = useCallback((sort: KeywordSort, dir: 'asc' | 'desc') => setSearch({ sort, dir }), [setSearch]);
  const days: ChartDays = search.days ?? 30;
  const checksKey = useMemo(() => checksKeyOf(all), [all]);

  if (fetching && !data) return <Loading label="Loading keywords…" />;
  if (!data) return <ErrorMessage problem={problemOf(error)} title="The keywords could not be loaded" />;
  const filtered = !!(search.q || search.device || search.country);

  if (all.length === 0)
    return (
      <EmptyState title="No keywords yet">
        <p>Add the search terms you want this site to rank for; their positions are checked daily.</p>
        <Button variant="primary" onPress={onAdd}>
          Add keywords
        </Button>
      </EmptyState>
    );
  return (
    <>
      {compared.length > 0 && (
        <section className="card" aria-labelledby="compare-title">
          <div className="card-head">
            <h2 id="compare-title">Comparing {plural(compared.length, 'keyword')}</h2>
            <div className="actions">
              <DaysSelect id="compare-days" value={days} onChange={(d) => setSearch({ days: d })} />
              <Button variant="quiet" onPress={() => setSearch({ compare: undefined })}>
                Clear comparison
              </Button>
            </div>
          </div>
          <HistoryChart
            projectId={projectId}
            keywordIds={compared}
            days={days}
            refreshKey={checksKey}
            caption={
              `Positions of ${plural(compared.length, 'keyword')} over the last ${days} days ` +
              '(1 is the top result; gaps: failed or not found)'
            }
          />
        </section>
      )}

      <div className="filters card" role="search" aria-label="Filter keywords">
        <SearchField className="field search-field" value={text} onChange={setText} onClear={() => setText('')}>
          <Label className="field-label">Search keywords or URLs</Label>
          <Input className="input" placeholder="Type to filter" />
        </SearchField>
        <KeywordSelects device={search.device} country={search.country} countries={countries} onChange={setSearch} />
      </div>

      <p className="muted" role="status" aria-live="polite">
        {shown.length === all.length
          ? `${plural(all.length, 'keyword')}`
          : `${formatNumber(shown.length)} of ${plural(all.length, 'keyword')} match`}
        {compared.length === 0 && ' · tick keywords to compare their positions in one chart'}
      </p>
      {shown.length === 0 ? (
        <EmptyState title="No keyword matches">
          <p>{filtered ? 'No tracked keyword matches these filters.' : 'No keywords.'}</p>
        </EmptyState>
      ) : (
        <KeywordTable
          keywords={shown}
          search={search}
          compared={compared}
          onSort={sortBy}
          onCompare={toggleCompare}
          onChart={onChart}
          onRemove={onRemove}
        />
      )}
    </>
  );
}
