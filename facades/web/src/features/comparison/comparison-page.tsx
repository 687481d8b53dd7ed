import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useClient, useQuery, type OperationResult } from 'urql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { SelectField } from '../../components/select-field';
import { Callout, EmptyState, ErrorMessage, Loading, PageLoadError } from '../../components/status';
import {
  AuditComparisonDocument,
  ComparisonCsvDocument,
  ComparisonIssueUrlsDocument,
  ComparisonPagesDocument,
  ComparisonUrlDocument,
  type ComparedPageFragment,
  type ComparisonCsvQuery,
  type ComparisonRows,
  type IssueChange,
  type PageChange,
  type Severity,
} from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatDateTime, formatNumber, plural } from '../../lib/format';
import { ProjectSectionHeader } from '../projects/project-section-header';
import { PageLink } from '../audits/page-link';
import { saveFile } from '../reports/save-file';
import type { ComparisonSearch, ComparisonTab } from './search-params';

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
const CATEGORY_LABEL: Record<string, string> = {
  OVERALL: 'Overall',
  META: 'Meta',
  CONTENT: 'Content',
  LINKS: 'Links',
  TECHNICAL: 'Technical',
  PERFORMANCE: 'Performance',
};
const CHANGE_LABEL: Record<PageChange, string> = {
  ADDED: 'New URL',
  REMOVED: 'No longer crawled',
  STATUS_CHANGED: 'Status changed',
  INDEXABILITY_CHANGED: 'Indexability changed',
};
const ISSUE_CHANGE_LABEL: Record<IssueChange, string> = {
  NEW: 'New',
  FIXED: 'Fixed',
  GONE: 'Gone with its page',
  NOT_CHECKED: 'Not checked',
  NEWLY_CHECKED: 'Newly checked',
  PERSISTING: 'Persisting',
};
/** The changes whose URL is shown as the earlier audit saw it: the later one no longer has the issue. */
const SEEN_BEFORE: ReadonlySet<IssueChange> = new Set(['FIXED', 'GONE', 'NOT_CHECKED']);

interface Pair {
  projectId: string;
  base: string;
  head: string;
}

/** When an audit finished (or started, for one that never did). */
const when = (a: { completedAt: string | null; createdAt: string }) => formatDateTime(a.completedAt ?? a.createdAt);

const auditLabel = (a: { completedAt: string | null; createdAt: string; overallScore: number | null }) =>
  `${formatDateTime(a.completedAt ?? a.createdAt)} · score ${a.overallScore ?? '—'}`;

/** A signed change in points, with an arrow, said in words for screen readers. */
function Delta({ delta, settingsChanged }: { delta: number | null; settingsChanged: boolean }) {
  if (delta === null) return <span className="muted">{settingsChanged ? 'Not comparable' : '—'}</span>;
  if (delta === 0) return <span className="change change-none">±0</span>;
  const up = delta > 0;
  return (
    <span className={`change ${up ? 'change-up' : 'change-down'}`}>
      <span aria-hidden="true">{up ? '▲' : '▼'}</span>
      {Math.abs(delta)}
      <span className="visually-hidden">{up ? ' points better' : ' points worse'}</span>
    </span>
  );
}

/** A score scored again under the checks both audits ran, when that differs from the stored one. */
function SameChecks({ score, comparable }: { score: number | null; comparable: number | null }) {
  if (comparable === null || comparable === score) return null;
  return <span className="muted small cell-note">{comparable} with the same checks</span>;
}

const severityBadge = (s: Severity | null) =>
  s ? <span className={`badge badge-${s.toLowerCase()}`}>{s.toLowerCase()}</span> : null;

function PageSide({ side }: { side: ComparedPageFragment | null }) {
  if (!side) return <span className="muted">Not crawled</span>;
  return (
    <span>
      {side.statusCode ?? 'No response'} · {side.indexable ? 'indexable' : 'not indexable'}
    </span>
  );
}

/** Downloads the comparison's issue or URL rows as CSV, asked for over GraphQL in pieces. */
function CsvButtons({ pair }: { pair: Pair }) {
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

/** One page of a code's URLs for a change; "Load more" adds the next page below. */
function CodeUrlPage({
  pair,
  change,
  code,
  after,
  onOpen,
}: {
  pair: Pair;
  change: IssueChange;
  code: string;
  after: string | null;
  onOpen(url: string): void;
}) {
  const [next, setNext] = useState<string | null>(null);
  const [{ data, fetching, error }] = useQuery({
    query: ComparisonIssueUrlsDocument,
    variables: { ...pair, change, code, after },
  });
  if (fetching && !data) return <Loading label="Loading URLs…" />;
  const connection = data?.auditComparison.issues;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The URLs could not be loaded" />;
  // An issue the later audit no longer has is shown as the earlier audit saw it; the others as the later one does.
  const auditId = SEEN_BEFORE.has(change) ? pair.base : pair.head;
  return (
    <>
      <ul className="url-list">
        {connection.nodes.map((n) => (
          <li key={n.url}>
            <PageLink scope={{ projectId: pair.projectId, auditId }} url={n.url} className="url-text">
              {n.url}
            </PageLink>{' '}
            <Button variant="quiet" onPress={() => onOpen(n.url)} aria-label={`Before / after ${n.url}`}>
              Before / after
            </Button>
          </li>
        ))}
      </ul>
      {next ? (
        <CodeUrlPage pair={pair} change={change} code={code} after={next} onOpen={onOpen} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <Button onPress={() => setNext(connection.pageInfo.endCursor)}>Load more URLs</Button>
        )
      )}
    </>
  );
}

function CodeRow({
  pair,
  change,
  row,
  onOpen,
}: {
  pair: Pair;
  change: IssueChange;
  row: { code: string; title: string; severity: Severity; urls: number };
  onOpen(url: string): void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `urls-${change}-${row.code}`;
  return (
    <li className="comparison-code">
      <div className="comparison-code-head">
        {severityBadge(row.severity)}
        <span>
          <strong>{row.title}</strong> <code className="muted small">{row.code}</code>
        </span>
        <span className="numeric">{plural(row.urls, 'URL')}</span>
        <Button onPress={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={panelId}>
          {open ? 'Hide URLs' : 'Show URLs'}
        </Button>
      </div>
      {open && (
        <div id={panelId}>
          <CodeUrlPage pair={pair} change={change} code={row.code} after={null} onOpen={onOpen} />
        </div>
      )}
    </li>
  );
}

function PagesPage({ pair, after, onOpen }: { pair: Pair; after: string | null; onOpen(url: string): void }) {
  const [next, setNext] = useState<string | null>(null);
  const [{ data, fetching, error }] = useQuery({ query: ComparisonPagesDocument, variables: { ...pair, after } });
  if (fetching && !data) return <Loading label="Loading changed URLs…" />;
  const connection = data?.auditComparison.pages;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The changed URLs could not be loaded" />;
  if (after === null && connection.totalCount === 0)
    return <p className="muted">Both audits crawled the same URLs, with the same status and indexability.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="table table-pages">
          {after === null && (
            <caption className="visually-hidden">URLs added, removed, or changed in status or indexability</caption>
          )}
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Change</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {connection.nodes.map((p) => (
              <tr key={p.url}>
                <th scope="row" className="cell-url">
                  <Button variant="quiet" className="url-text" onPress={() => onOpen(p.url)}>
                    {p.url}
                  </Button>
                </th>
                <td>{p.changes.map((c) => CHANGE_LABEL[c]).join(', ')}</td>
                <td>
                  <PageSide side={p.before} />
                </td>
                <td>
                  <PageSide side={p.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next ? (
        <PagesPage pair={pair} after={next} onOpen={onOpen} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <Button onPress={() => setNext(connection.pageInfo.endCursor)}>Load more URLs</Button>
        )
      )}
    </>
  );
}

/** One URL before and after: its page in each audit and its issues, new first. */
function UrlPanel({ pair, url, onClose }: { pair: Pair; url: string; onClose(): void }) {
  const [{ data, fetching, error }] = useQuery({ query: ComparisonUrlDocument, variables: { ...pair, url } });
  const found = data?.auditComparison.url;
  let body: ReactNode;
  if (fetching && !data) body = <Loading label="Loading the URL…" />;
  else if (!data) body = <ErrorMessage problem={problemOf(error)} title="The URL could not be loaded" />;
  else if (!found) body = <p className="muted">Neither audit crawled this URL or found an issue on it.</p>;
  else
    body = (
      <>
        <dl className="facts">
          <div>
            <dt>Before</dt>
            <dd>
              <PageSide side={found.before} />
              {found.before && (
                <>
                  {' · '}
                  <PageLink scope={{ projectId: pair.projectId, auditId: pair.base }} url={url}>
                    Page in the earlier audit
                  </PageLink>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>After</dt>
            <dd>
              <PageSide side={found.after} />
              {found.after && (
                <>
                  {' · '}
                  <PageLink scope={{ projectId: pair.projectId, auditId: pair.head }} url={url}>
                    Page in the later audit
                  </PageLink>
                </>
              )}
            </dd>
          </div>
          {found.changes.length > 0 && (
            <div>
              <dt>Change</dt>
              <dd>{found.changes.map((c) => CHANGE_LABEL[c]).join(', ')}</dd>
            </div>
          )}
        </dl>
        {found.issues.length === 0 ? (
          <p className="muted">No issues on this URL in either audit.</p>
        ) : (
          <table className="table table-compact">
            <caption className="visually-hidden">Issues of this URL in both audits</caption>
            <thead>
              <tr>
                <th scope="col">Change</th>
                <th scope="col">Issue</th>
                <th scope="col">Severity</th>
              </tr>
            </thead>
            <tbody>
              {found.issues.map((i) => (
                <tr key={i.code}>
                  <td>
                    <span className={`badge badge-change-${i.change.toLowerCase()}`}>
                      {ISSUE_CHANGE_LABEL[i.change]}
                    </span>
                  </td>
                  <td>
                    {i.title} <code className="muted small">{i.code}</code>
                  </td>
                  <td>{severityBadge(i.severity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>
    );
  return (
    <section className="card" aria-labelledby="url-compare-title">
      <div className="card-head">
        <h2 id="url-compare-title" className="url-text">
          {url}
        </h2>
        <Button onPress={onClose}>Close</Button>
      </div>
      {body}
    </section>
  );
}

/**
 * The change tabs (WAI-ARIA tabs): one tab selected at a time, aria-selected on it alone; arrows, Home and End move
 * between tabs and select them, Tab leaves the list for the panel.
 */
function ChangeTabs({
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

      <section className="card" aria-labelledby="score-changes-title">
        <h2 id="score-changes-title">Scores</h2>
        <div className="table-wrap">
          <table className="table table-compact table-scores">
            <thead>
              <tr>
                <th scope="col">Score</th>
                <th scope="col" className="numeric">
                  Before
                </th>
                <th scope="col" className="numeric">
                  After
                </th>
                <th scope="col" className="numeric">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {c.scores.map((s) => (
                <tr key={s.category}>
                  <th scope="row">{CATEGORY_LABEL[s.category]}</th>
                  <td className="numeric">
                    {s.before ?? '—'}
                    <SameChecks score={s.before} comparable={s.comparableBefore} />
                  </td>
                  <td className="numeric">
                    {s.after ?? '—'}
                    <SameChecks score={s.after} comparable={s.comparableAfter} />
                  </td>
                  <td className="numeric">
                    <Delta delta={s.delta} settingsChanged={c.settingsChanged} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

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
