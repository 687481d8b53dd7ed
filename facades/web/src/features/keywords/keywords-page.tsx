import { Suspense, memo, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Input, Label, SearchField } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import {
  Callout,
  EmptyState,
  ErrorMessage,
  Loading,
  PageLoadError,
  StreamedListPlaceholder,
} from '../../components/status';
import {
  CheckProjectRankingsDocument,
  KeywordHistoryDocument,
  KeywordListDocument,
  KeywordsPageDocument,
  RemoveProjectKeywordDocument,
  type KeywordRowFragment,
} from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { useLivePoll } from '../../lib/use-live-poll';
import { PREFETCHED } from '../../lib/urql';
import { useStreamedQuery } from '../../lib/streamed-query';
import { ExportButtons } from '../reports';
import { ProjectSectionHeader } from '../projects';
import { SelectField } from '../../components/select-field';
import { AddKeywordsDialog, type AddOutcome } from './add-keywords-dialog';
import { KeywordTable } from './keyword-table';
import { visibleKeywords } from './keyword-rows';
import { PositionChart } from './position-chart';
import {
  CHART_DAYS,
  DEVICES,
  MAX_COMPARED,
  type ChartDays,
  type KeywordDevice,
  type KeywordSearch,
  type KeywordSort,
} from './search-params';

const route = getRouteApi('/app/projects/$projectId/keywords');
/** How often the list is read again while a rank check runs, and for how long at most. */
const POLL_MS = 3000;
const POLL_FOR_MS = 5 * 60_000;
/** The search box writes the URL after a pause in typing (the table filters at once). */
const URL_DELAY_MS = 300;

/** A rank check the user started: each keyword's latest check time then; done when all of them changed. */
interface RunningCheck {
  before: Map<string, string | null>;
  until: number;
}

function ProviderMissing() {
  return (
    <div className="callout callout-warning" role="note" aria-labelledby="no-provider-title">
      <strong id="no-provider-title">No SERP provider is configured, so no position can be checked</strong>
      <p>
        Positions come from a search results provider, and this server has none: a rank check is recorded as failed with
        that reason — a position is never guessed. To track rankings, set <code>SERP_PROVIDER</code> (
        <code>serpapi</code>, <code>serper</code>, <code>dataforseo</code> or <code>searxng</code>) with its credentials
        (<code>SERP_API_KEY</code>, or <code>SERP_LOGIN</code> and <code>SERP_PASSWORD</code> for DataForSEO, or{' '}
        <code>SERP_BASE_URL</code> of your SearXNG instance) in the environment of the API and the rank worker, then
        restart them. The README&apos;s configuration table lists every setting.
      </p>
    </div>
  );
}

const DEVICE_LABEL: Record<KeywordDevice, string> = { desktop: 'Desktop', mobile: 'Mobile' };

function DaysSelect({ value, onChange, id }: { value: ChartDays; onChange(days: ChartDays): void; id: string }) {
  const options = CHART_DAYS.map((d) => ({ id: String(d), label: d === 365 ? 'Last year' : `Last ${d} days` }));
  return (
    <SelectField
      className="days-select"
      id={id}
      label="Period"
      options={options}
      value={String(value)}
      onChange={(key) => onChange(Number(key) as ChartDays)}
    />
  );
}

/**
 * Positions of one or several keywords over the chosen period, read when shown. Memoized: filtering or sorting the
 * table re-renders the page, never the chart (20 lines of a year are redrawn only when their data changes).
 */
const HistoryChart = memo(function HistoryChart({
  projectId,
  keywordIds,
  days,
  caption,
  refreshKey,
}: {
  projectId: string;
  keywordIds: string[];
  days: ChartDays;
  caption: string;
  refreshKey: string;
}) {
  const [{ data, fetching, error }, refetch] = useQuery({
    query: KeywordHistoryDocument,
    variables: { projectId, days, keywordIds },
  });
  // New checks arrived (the page's list changed): read the history again.
  useEffect(() => {
    if (refreshKey) refetch({ requestPolicy: 'network-only' });
  }, [refreshKey, refetch]);
  const series = useMemo(() => {
    const order = new Map(keywordIds.map((id, i) => [id, i]));
    return [...(data?.keywordRankings ?? [])].sort((a, b) => order.get(a.keywordId)! - order.get(b.keywordId)!);
  }, [data, keywordIds]);
  // As tall as the chart it stands for, so the table below does not move when the chart arrives.
  if (!data && fetching)
    return (
      <div className="chart-pending">
        <Loading label="Loading the position history…" />
      </div>
    );
  if (!data) return <ErrorMessage problem={problemOf(error)} title="The history could not be loaded" />;
  return <PositionChart series={series} caption={caption} />;
});

/** The device and country filters: rendered again only when they or the countries change, not as one types. */
const KeywordSelects = memo(function KeywordSelects({
  device,
  country,
  countries,
  onChange,
}: {
  device: KeywordDevice | undefined;
  country: string | undefined;
  countries: readonly string[];
  onChange(patch: Partial<KeywordSearch>): void;
}) {
  return (
    <>
      <SelectField
        label="Device"
        options={[{ id: 'all', label: 'All devices' }, ...DEVICES.map((d) => ({ id: d, label: DEVICE_LABEL[d] }))]}
        value={device ?? 'all'}
        onChange={(key) => onChange({ device: key === 'all' ? undefined : (key as KeywordDevice) })}
      />
      <SelectField
        label="Country"
        options={[{ id: 'all', label: 'All countries' }, ...countries.map((c) => ({ id: c, label: c.toUpperCase() }))]}
        value={country ?? 'all'}
        onChange={(key) => onChange({ country: key === 'all' ? undefined : key })}
      />
    </>
  );
});

export function KeywordsPage() {
  const { projectId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }, refetchPage] = useQuery({
    query: KeywordsPageDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  // The list as the page's actions need it (a rank check's progress, the add dialog's repeats): the query KeywordList
  // renders, shared with it.
  const [{ data: list }, refetchList] = useQuery({
    query: KeywordListDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  const [checkState, checkRankings] = useMutation(CheckProjectRankingsDocument);
  const [removeState, removeKeyword] = useMutation(RemoveProjectKeywordDocument);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<KeywordRowFragment | null>(null);
  const [charted, setCharted] = useState<KeywordRowFragment | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState<RunningCheck | null>(null);
  useDocumentTitle(data ? `Keywords · ${data.project.name}` : 'Keywords');

  const setSearch = useCallback(
    (patch: Partial<KeywordSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const openAdd = useCallback(() => setAdding(true), []);

  const all = useMemo(() => list?.keywords ?? [], [list]);
  const chartedId = charted?.id;
  const chartedIds = useMemo(() => (chartedId ? [chartedId] : []), [chartedId]);
  const days: ChartDays = search.days ?? 30;
  const checksKey = useMemo(() => checksKeyOf(all), [all]);
  /** After a change of the list: its count (the page's query) and the list read again. */
  const reread = () => {
    refetchPage({ requestPolicy: 'network-only' });
    refetchList({ requestPolicy: 'network-only' });
  };

  const pending = running
    ? all.filter((k) => running.before.has(k.id) && (k.lastCheck?.checkedAt ?? null) === running.before.get(k.id))
    : [];
  const done = running ? running.before.size - pending.length : 0;
  useEffect(() => {
    if (running && list && pending.length === 0) {
      setRunning(null);
      setNotice(`Rank check finished: ${plural(running.before.size, 'keyword')} checked.`);
    }
  }, [running, list, pending.length]);
  useLivePoll(
    () => {
      if (running && Date.now() > running.until) {
        setRunning(null);
        setNotice('The rank check is taking longer than expected; results will appear here as they arrive.');
        return;
      }
      refetchList({ requestPolicy: 'network-only' });
    },
    { active: !!running, firstMs: POLL_MS, maxMs: POLL_MS },
  );

  if (fetching && !data) return <Loading label="Loading keywords…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const project = data.project;
  const tracking = data.rankTracking;
  const limit = data.viewer.organization.usage.keywordsPerProjectLimit;
  const settings = project.settings;
  const count = project.counts.keywords;

  async function startCheck() {
    setProblem(null);
    setNotice(null);
    const res = await checkRankings({ projectId });
    if (res.error || !res.data) {
      setProblem(problemOf(res.error));
      return;
    }
    if (!res.data.checkRankings.queued) {
      // The same minute's check (the API runs one per project per minute): its results are the latest.
      setNotice('A rank check of this project already ran this minute: the list shows its results.');
      refetchList({ requestPolicy: 'network-only' });
      return;
    }
    setRunning({
      before: new Map(all.map((k) => [k.id, k.lastCheck?.checkedAt ?? null])),
      until: Date.now() + POLL_FOR_MS,
    });
    setNotice(`Rank check queued for ${plural(res.data.checkRankings.keywords, 'keyword')}.`);
  }

  async function confirmRemove() {
    if (!removing) return;
    setProblem(null);
    const res = await removeKeyword({ id: removing.id });
    if (res.error) setProblem(problemOf(res.error));
    else {
      setNotice(`Removed “${removing.term}” and its ranking history.`);
      if (search.compare?.includes(removing.id))
        setSearch({ compare: search.compare.filter((id) => id !== removing.id) });
    }
    setRemoving(null);
    reread();
  }

  const onAdded = ({ added, skipped }: AddOutcome) => {
    setNotice(
      `Added ${plural(added, 'keyword')}` +
        (skipped ? `; ${plural(skipped, 'line')} skipped (repeats or already tracked).` : '.'),
    );
    reread();
  };

  return (
    <section className="page" aria-labelledby="keywords-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Keywords"
        titleId="keywords-title"
        description={
          <p className="muted">
            {plural(count, 'keyword')} tracked for {project.name}
            {tracking.provider ? ` · positions from ${tracking.provider}` : ''}
          </p>
        }
        actions={
          <>
            {count > 0 && <ExportButtons projectId={projectId} kind="keywords" />}
            <Button onPress={openAdd}>Add keywords</Button>
            <Button
              variant="primary"
              onPress={() => void startCheck()}
              isPending={checkState.fetching}
              isDisabled={count === 0 || !list || !!running}
            >
              Check rankings now
            </Button>
          </>
        }
      />

      {!tracking.providerConfigured && <ProviderMissing />}
      <ErrorMessage problem={problem} title="That did not work" />
      <div role="status" aria-live="polite" className="keyword-status">
        {running ? (
          <Callout title="Checking rankings…">
            <p>
              {done} of {plural(running.before.size, 'keyword')} checked. The list updates as results arrive
              {typeof document !== 'undefined' && document.visibilityState === 'hidden' ? ' (paused while hidden)' : ''}
              .
            </p>
          </Callout>
        ) : (
          notice && <p className="notice">{notice}</p>
        )}
      </div>

      {/* The list: streamed by the server after the rest of the page (lib/streamed-query.ts). */}
      <Suspense fallback={<StreamedListPlaceholder label="Loading keywords…" />}>
        <KeywordList
          projectId={projectId}
          search={search}
          setSearch={setSearch}
          onAdd={openAdd}
          onChart={setCharted}
          onRemove={setRemoving}
        />
      </Suspense>

      {adding && (
        <AddKeywordsDialog
          isOpen={adding}
          onOpenChange={setAdding}
          projectId={projectId}
          keywords={all}
          limit={limit}
          plan={data.viewer.organization.plan}
          defaults={{
            country: settings.rankCountry ?? 'us',
            language: settings.rankLanguage ?? 'en',
            device: settings.rankDevice === 'mobile' ? 'mobile' : 'desktop',
          }}
          onAdded={onAdded}
        />
      )}

      <FormDialog isOpen={!!charted} onOpenChange={(open) => !open && setCharted(null)} title="Position history">
        {charted && (
          <div className="keyword-history">
            <div className="card-head">
              <p>
                <strong>{charted.term}</strong>{' '}
                <span className="muted">
                  · {charted.country.toUpperCase()} · {charted.device} · {charted.language}
                </span>
              </p>
              <DaysSelect id="history-days" value={days} onChange={(d) => setSearch({ days: d })} />
            </div>
            <HistoryChart
              projectId={projectId}
              keywordIds={chartedIds}
              days={days}
              refreshKey={checksKey}
              caption={
                `Position of “${charted.term}” over the last ${days} days ` +
                '(1 is the top result; gaps: failed or not found)'
              }
            />
            <div className="dialog-actions">
              <Button slot="close" onPress={() => setCharted(null)}>
                Close
              </Button>
            </div>
          </div>
        )}
      </FormDialog>

      <ConfirmDialog
        isOpen={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove this keyword?"
        confirmLabel="Remove keyword"
        onConfirm={() => void confirmRemove()}
        isPending={removeState.fetching}
      >
        <p>“{removing?.term}” will no longer be tracked, and its ranking history is deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

/** Changes whenever a check lands, so that open charts read their history again. */
const checksKeyOf = (keywords: readonly KeywordRowFragment[]) =>
  keywords.map((k) => k.lastCheck?.checkedAt ?? '').join('|');

/** The tracked keywords: the comparison chart, the filters and the table. */
function KeywordList({
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
