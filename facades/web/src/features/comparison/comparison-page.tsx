import { Link, getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { DataTable, type Column } from '../../components/data-table';
import { useDocumentTitle } from '../../components/document-title';
import { SelectField } from '../../components/select-field';
import { Callout, EmptyState, Loading, PageLoadError } from '../../components/status';
import { AuditComparisonDocument, type AuditComparisonQuery, type IssueChange } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime, formatNumber } from '../../lib/format';
import { ProjectSectionHeader } from '../../components/section-header';
import type { ComparisonSearch, ComparisonTab } from './search-params';
import type { Pair } from './comparison-parts';
import { CATEGORY_LABEL, Delta, SameChecks, WontFixNote } from './comparison-parts';
import { CodeRow, PagesPage, UrlPanel } from './comparison-urls';
import { ChangeTabs, CsvButtons } from './comparison-controls';
import { ExtractionChanges } from './comparison-extractions';

const route = getRouteApi('/app/projects/$projectId/compare');

/**
 * The tabs, each with what its empty list says. "Newly checked" is only shown when it has rows (a check switched on
 * between the audits); the others always are, so that "0 fixed" can be read.
 */
const TABS: { tab: ComparisonTab; label: string; change?: IssueChange; empty: string }[] = [
  {
    tab: 'new',
    label: 'New issues',
    change: 'NEW',
    empty: 'The later audit found no issue on a URL that the earlier one did not.',
  },
  {
    tab: 'fixed',
    label: 'Fixed',
    change: 'FIXED',
    empty: 'No issue of the earlier audit is gone from a page that is still crawled and indexable.',
  },
  {
    tab: 'gone',
    label: 'Gone with their page',
    change: 'GONE',
    empty: 'No issue went away with its page (removed, now an error, or no longer indexable).',
  },
  {
    tab: 'not-checked',
    label: 'No longer checked',
    change: 'NOT_CHECKED',
    empty: 'The later audit ran every check that found an issue in the earlier one.',
  },
  {
    tab: 'newly-checked',
    label: 'Newly checked',
    change: 'NEWLY_CHECKED',
    empty: 'Every issue of the later audit comes from a check the earlier one also ran.',
  },
  { tab: 'persisting', label: 'Persisting', change: 'PERSISTING', empty: 'No issue is in both audits.' },
  { tab: 'pages', label: 'Changed URLs', empty: '' },
];
/** When an audit finished (or started, for one that never did). */
const when = (a: { completedAt: string | null; createdAt: string }) => formatDateTime(a.completedAt ?? a.createdAt);

const auditLabel = (a: { completedAt: string | null; createdAt: string; overallScore: number | null }) =>
  `${formatDateTime(a.completedAt ?? a.createdAt)} · score ${a.overallScore ?? '—'}`;

type ScoreChange = AuditComparisonQuery['auditComparison']['scores'][number];

function scoreColumns(settingsChanged: boolean, wontFixMarked: boolean): Column<ScoreChange>[] {
  const basis = [settingsChanged && 'with the same checks', wontFixMarked && 'before “won’t fix”']
    .filter(Boolean)
    .join(', ');
  return [
    { id: 'score', header: 'Score', rowHeader: true, cell: (s) => CATEGORY_LABEL[s.category] },
    {
      id: 'before',
      header: 'Before',
      numeric: true,
      cell: (s) => (
        <>
          {s.before ?? '—'}
          <SameChecks score={s.before} comparable={s.comparableBefore} basis={basis} />
        </>
      ),
    },
    {
      id: 'after',
      header: 'After',
      numeric: true,
      cell: (s) => (
        <>
          {s.after ?? '—'}
          <SameChecks score={s.after} comparable={s.comparableAfter} basis={basis} />
        </>
      ),
    },
    {
      id: 'change',
      header: 'Change',
      numeric: true,
      cell: (s) => <Delta delta={s.delta} settingsChanged={settingsChanged} />,
    },
  ];
}

export function ComparisonPage() {
  const { projectId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }] = useQuery({
    query: AuditComparisonDocument,
    variables: { projectId, base: search.base ?? null, head: search.head ?? null },
  });
  useDocumentTitle(data ? `Changes · ${data.project.name}` : 'Changes between audits');
  const setSearch = (patch: Partial<ComparisonSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  if (!data && fetching) return <Loading label="Comparing audits…" />;
  const problem = problemOf(error);
  if (!data?.auditComparison) {
    if (problem?.code === 'NOT_FOUND' && !search.base && !search.head)
      return (
        <section className="page narrow" aria-labelledby="compare-title">
          <h1 id="compare-title">Changes between audits</h1>
          <EmptyState title="Nothing to compare yet">
            <p>A comparison needs two completed audits of this project. Run another audit, then come back.</p>
          </EmptyState>
          <Link to="/projects/$projectId" params={{ projectId }}>
            Back to the project
          </Link>
        </section>
      );
    return (
      <PageLoadError problem={problem} what="Comparison">
        <Link to="/projects/$projectId/compare" params={{ projectId }} search={{}}>
          Compare the latest two audits
        </Link>
      </PageLoadError>
    );
  }

  const c = data.auditComparison;
  const pair: Pair = { projectId, base: c.base.id, head: c.head.id };
  const completed = data.audits.nodes.filter((a) => a.status === 'COMPLETED');
  const options = completed.map((a) => ({ id: a.id, label: auditLabel(a) }));
  // An audit named in the URL but older than the 50 listed is still offered.
  for (const a of [c.base, c.head])
    if (!options.some((o) => o.id === a.id)) options.push({ id: a.id, label: auditLabel(a) });
  const count: Record<ComparisonTab, number> = {
    new: c.totals.newIssues,
    fixed: c.totals.fixedIssues,
    gone: c.totals.goneIssues,
    'not-checked': c.totals.notCheckedIssues,
    'newly-checked': c.totals.newlyCheckedIssues,
    persisting: c.totals.persistingIssues,
    // Each changed URL once, whatever its changes: the rows of the list.
    pages: c.totals.changedUrls,
  };
  const tabs = TABS.filter((t) => t.tab !== 'newly-checked' || count[t.tab] > 0 || search.tab === t.tab);
  const tab = tabs.some((t) => t.tab === search.tab) ? search.tab! : 'new';
  const current = tabs.find((t) => t.tab === tab)!;
  const open = (url: string) => setSearch({ url });
  const urlsOf: Record<IssueChange, (r: (typeof c.codes)[number]) => number> = {
    NEW: (r) => r.newUrls,
    FIXED: (r) => r.fixedUrls,
    GONE: (r) => r.goneUrls,
    NOT_CHECKED: (r) => r.notCheckedUrls,
    NEWLY_CHECKED: (r) => r.newlyCheckedUrls,
    PERSISTING: (r) => r.persistingUrls,
  };
  const codes = current.change
    ? c.codes.map((r) => ({ ...r, urls: urlsOf[current.change!](r) })).filter((r) => r.urls > 0)
    : [];

  return (
    <section className="page" aria-labelledby="compare-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={data.project.name}
        section="Changes"
        title="Changes between audits"
        titleId="compare-title"
        description={`From the audit of ${when(c.base)} to the audit of ${when(c.head)}.`}
      />

      <div className="filters card" role="group" aria-label="Audits compared">
        <SelectField
          label="Earlier audit"
          options={options}
          value={c.base.id}
          onChange={(id) => setSearch({ base: id, head: c.head.id, url: undefined })}
        />
        <SelectField
          label="Later audit"
          options={options}
          value={c.head.id}
          onChange={(id) => setSearch({ head: id, base: c.base.id, url: undefined })}
        />
      </div>

      {c.settingsChanged && (
        <Callout tone="warning" title="Scored with different check settings">
          <p>
            {c.settingChanges.map((x) => x.description).join('; ')}.{' '}
            {c.scores[0].delta === null
              ? 'The scores cannot be compared: their difference would be the settings’, not the site’s.'
              : 'Below, both audits are compared under the checks both ran: a setting alone changes nothing.'}{' '}
            Issues of a check switched off are listed as no longer checked, never as fixed.
          </p>
        </Callout>
      )}

      {c.wontFixMarked && <WontFixNote />}

      <section className="card" aria-labelledby="score-changes-title">
        <h2 id="score-changes-title">Scores</h2>
        <DataTable
          label="Scores"
          className="table table-compact table-scores"
          columns={scoreColumns(c.settingsChanged, c.wontFixMarked)}
          rows={c.scores}
          rowKey={(s) => s.category}
        />
      </section>

      <ExtractionChanges pair={pair} extractions={c.extractions} />

      {search.url && <UrlPanel pair={pair} url={search.url} onClose={() => setSearch({ url: undefined })} />}

      <div className="list-toolbar">
        <ChangeTabs
          tabs={tabs.map((t) => ({ tab: t.tab, label: `${t.label} (${formatNumber(count[t.tab])})` }))}
          selected={tab}
          onSelect={(t) => setSearch({ tab: t === 'new' ? undefined : t, base: c.base.id, head: c.head.id })}
        />
        <CsvButtons pair={pair} />
      </div>

      <div role="tabpanel" id={`changes-panel-${tab}`} aria-labelledby={`changes-tab-${tab}`}>
        {current.change ? (
          codes.length === 0 ? (
            <EmptyState title={`No ${current.label.toLowerCase()}`}>
              <p>{current.empty}</p>
            </EmptyState>
          ) : (
            <ul className="comparison-codes" aria-label={current.label}>
              {codes.map((r) => (
                <CodeRow
                  key={`${current.change}-${r.code}`}
                  pair={pair}
                  change={current.change!}
                  row={r}
                  onOpen={open}
                />
              ))}
            </ul>
          )
        ) : (
          <PagesPage key={`${pair.base}-${pair.head}`} pair={pair} after={null} onOpen={open} />
        )}
      </div>
    </section>
  );
}
