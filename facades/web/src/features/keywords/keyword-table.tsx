import { memo, useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { getRouteApi } from '@tanstack/react-router';
import type { KeywordRowFragment } from '../../gql/graphql';
import { formatDateTime, formatRelative } from '../../lib/format';
import { DEFAULT_DIR, changeOf, targetText } from './keyword-rows';
import { MAX_COMPARED, type KeywordSearch, type KeywordSort } from './search-params';
import { ChangeCell, RankingPageLine } from './ranking-page-line';

const COLUMNS: { sort: KeywordSort; label: string; numeric?: boolean }[] = [
  { sort: 'term', label: 'Keyword' },
  { sort: 'position', label: 'Position', numeric: true },
  { sort: 'change', label: 'Change', numeric: true },
  { sort: 'best', label: 'Best', numeric: true },
  { sort: 'url', label: 'Ranking URL' },
  { sort: 'target', label: 'Country / device' },
  { sort: 'checked', label: 'Last checked' },
];
const SORT_LABEL = Object.fromEntries(COLUMNS.map((c) => [c.sort, c.label])) as Record<KeywordSort, string>;
const ROW_HEIGHT = 58;
const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);
const route = getRouteApi('/app/projects/$projectId/keywords');

interface RowProps {
  k: KeywordRowFragment;
  projectId: string;
  index: number;
  compared: boolean;
  compareFull: boolean;
  measure: (el: HTMLTableRowElement | null) => void;
  onCompare(id: string, on: boolean): void;
  onChart(k: KeywordRowFragment): void;
  onRemove(k: KeywordRowFragment): void;
}

/**
 * One keyword's row. Its checkbox and buttons are the browser's own, not react-aria's: a sort or a scroll mounts a
 * dozen new rows at once, and react-aria's Checkbox and two Buttons per row (press, hover and focus hooks) were most
 * of the script time of "sort by position" on 1,000 keywords.
 */
const KeywordRow = memo(function KeywordRow({
  k,
  projectId,
  index,
  compared,
  compareFull,
  measure,
  onCompare,
  onChart,
  onRemove,
}: RowProps) {
  const failed = k.lastCheck?.status === 'FAILED';
  return (
    <tr ref={measure} data-index={index} className={failed ? 'row-failed' : undefined}>
      <td className="cell-check">
        <label className="checkbox">
          <input
            type="checkbox"
            className="checkbox-input visually-hidden"
            checked={compared}
            disabled={!compared && compareFull}
            onChange={(e) => onCompare(k.id, e.currentTarget.checked)}
            aria-label={`Compare “${k.term}”`}
          />
          <span className="checkbox-box" aria-hidden="true" />
        </label>
      </td>
      <th scope="row" className="cell-term">
        {k.term}
        {failed && (
          <span className="field-error small keyword-error">
            Last check failed: {k.lastCheck?.error ?? 'no reason given'}
          </span>
        )}
      </th>
      <td className="numeric">
        {k.position ?? (
          <span className="muted" title={k.lastChecked ? undefined : 'Not checked yet'}>
            {k.lastChecked ? 'not found' : '—'}
          </span>
        )}
      </td>
      <td className="numeric">
        <ChangeCell change={changeOf(k)} />
      </td>
      <td className="numeric">{k.bestPosition ?? '—'}</td>
      <td className="cell-url">
        {k.url ? (
          isHttpUrl(k.url) ? (
            <a href={k.url} className="url-text" target="_blank" rel="noopener noreferrer nofollow">
              {k.url}
            </a>
          ) : (
            <span className="url-text">{k.url}</span>
          )
        ) : (
          <span className="muted">—</span>
        )}
        {k.rankingPage && <RankingPageLine projectId={projectId} term={k.term} page={k.rankingPage} />}
      </td>
      <td className="nowrap">{targetText(k)}</td>
      <td className="nowrap">
        {k.lastCheck ? (
          <time dateTime={k.lastCheck.checkedAt} title={formatDateTime(k.lastCheck.checkedAt)}>
            {formatRelative(k.lastCheck.checkedAt)}
          </time>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td className="cell-actions">
        <button
          type="button"
          className="btn btn-quiet"
          onClick={() => onChart(k)}
          aria-label={`History of “${k.term}”`}
        >
          History
        </button>
        <button type="button" className="btn btn-quiet" onClick={() => onRemove(k)} aria-label={`Remove “${k.term}”`}>
          Remove
        </button>
      </td>
    </tr>
  );
});

/**
 * The keywords as a table with sortable columns. Only the rows near the viewport are in the DOM (a window
 * virtualizer; spacer rows keep the scroll height), so a thousand keywords filter and sort without delay.
 */
export const KeywordTable = memo(function KeywordTable({
  keywords,
  search,
  compared,
  onSort,
  onCompare,
  onChart,
  onRemove,
}: {
  keywords: readonly KeywordRowFragment[];
  search: KeywordSearch;
  compared: readonly string[];
  onSort(sort: KeywordSort, dir: 'asc' | 'desc'): void;
  onCompare(id: string, on: boolean): void;
  onChart(k: KeywordRowFragment): void;
  onRemove(k: KeywordRowFragment): void;
}) {
  const { projectId } = route.useParams();
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [bodyTop, setBodyTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () =>
      setBodyTop(bodyRef.current ? bodyRef.current.getBoundingClientRect().top + window.scrollY : 0);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: keywords.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: bodyTop,
    getItemKey: (i) => keywords[i].id,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0].start - virtualizer.options.scrollMargin : 0;
  const after = items.length
    ? virtualizer.getTotalSize() - (items[items.length - 1].end - virtualizer.options.scrollMargin)
    : 0;
  const selected = new Set(compared);
  const full = compared.length >= MAX_COMPARED;
  const sort = search.sort;
  const dir = sort ? (search.dir ?? DEFAULT_DIR[sort]) : undefined;

  return (
    <div className="table-wrap">
      <table className="table table-keywords" aria-rowcount={keywords.length + 1}>
        <caption className="visually-hidden">
          Tracked keywords{sort ? `, sorted by ${SORT_LABEL[sort]} ${dir === 'asc' ? 'ascending' : 'descending'}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="cell-check">
              <span className="visually-hidden">Compare</span>
            </th>
            {COLUMNS.map((c) => {
              const active = c.sort === sort;
              const next = active ? (dir === 'asc' ? 'desc' : 'asc') : DEFAULT_DIR[c.sort];
              return (
                <th
                  key={c.sort}
                  scope="col"
                  aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  className={c.numeric ? 'numeric' : undefined}
                >
                  <button type="button" className="sort-button" onClick={() => onSort(c.sort, next)}>
                    {c.label}
                    <span aria-hidden="true" className="sort-mark">
                      {active ? (dir === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
            <th scope="col" className="cell-actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody ref={bodyRef}>
          {before > 0 && (
            <tr aria-hidden="true" className="spacer-row">
              <td colSpan={COLUMNS.length + 2} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const k = keywords[item.index];
            return (
              <KeywordRow
                key={k.id}
                k={k}
                projectId={projectId}
                index={item.index}
                compared={selected.has(k.id)}
                compareFull={full}
                measure={virtualizer.measureElement}
                onCompare={onCompare}
                onChart={onChart}
                onRemove={onRemove}
              />
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="spacer-row">
              <td colSpan={COLUMNS.length + 2} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
});
