import { Suspense, useRef, type KeyboardEvent } from 'react';
import { StreamedListPlaceholder } from '../../components/status';
import type { KeywordRowFragment } from '../../gql/graphql';
import { CannibalisationSection } from './cannibalisation-section';
import { KeywordList } from './keyword-list';
import type { KeywordSearch, KeywordView } from './search-params';

const TABS: { view: KeywordView; label: string }[] = [
  { view: 'keywords', label: 'Tracked keywords' },
  { view: 'cannibalisation', label: 'Cannibalisation' },
];

export const viewPanelId = (view: KeywordView) => `keywords-panel-${view}`;
export const viewTabId = (view: KeywordView) => `keywords-tab-${view}`;

/**
 * The keywords page's views (WAI-ARIA tabs): one selected at a time; arrows, Home and End move between them and select
 * them, Tab leaves the list for the panel.
 */
export function KeywordViewTabs({ selected, onSelect }: { selected: KeywordView; onSelect(view: KeywordView): void }) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex((t) => t.view === selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    onSelect(TABS[to].view);
    list.current?.querySelector<HTMLButtonElement>(`#${viewTabId(TABS[to].view)}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Keyword views" className="tabs-nav" ref={list} onKeyDown={move}>
      {TABS.map((t) => (
        <button
          key={t.view}
          type="button"
          role="tab"
          id={viewTabId(t.view)}
          aria-selected={t.view === selected}
          // Only the selected view's panel is in the page.
          aria-controls={t.view === selected ? viewPanelId(t.view) : undefined}
          tabIndex={t.view === selected ? 0 : -1}
          onClick={() => onSelect(t.view)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The view chosen in the URL under its tabs: the tracked keywords, or their cannibalisation (once any is tracked). */
export function KeywordViews({
  count,
  projectId,
  search,
  setSearch,
  onAdd,
  onChart,
  onRemove,
}: {
  count: number;
  projectId: string;
  search: KeywordSearch;
  setSearch(patch: Partial<KeywordSearch>): void;
  onAdd(): void;
  onChart(keyword: KeywordRowFragment): void;
  onRemove(keyword: KeywordRowFragment): void;
}) {
  const view = count > 0 ? (search.view ?? 'keywords') : 'keywords';
  const list = (
    // The list: streamed by the server after the rest of the page (lib/streamed-query.ts).
    <Suspense fallback={<StreamedListPlaceholder label="Loading keywords…" />}>
      <KeywordList
        projectId={projectId}
        search={search}
        setSearch={setSearch}
        onAdd={onAdd}
        onChart={onChart}
        onRemove={onRemove}
      />
    </Suspense>
  );
  if (count === 0) return list;
  return (
    <>
      <KeywordViewTabs selected={view} onSelect={(v) => setSearch({ view: v === 'keywords' ? undefined : v })} />
      <div role="tabpanel" id={viewPanelId(view)} aria-labelledby={viewTabId(view)}>
        {view === 'cannibalisation' ? (
          <CannibalisationSection projectId={projectId} search={search} setSearch={setSearch} />
        ) : (
          list
        )}
      </div>
    </>
  );
}
