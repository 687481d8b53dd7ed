import { Suspense, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { AboutCheckLink } from '../checks/about-check-link';
import { useQuery } from 'urql';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { FIRST_SCREEN, serverRows } from '../../lib/first-screen';
import { Checkbox, CheckboxGroup, Label, SearchField, Input } from 'react-aria-components';
import { useDocumentTitle } from '../../components/document-title';
import { SelectField } from '../../components/select-field';
import { EmptyState, Loading, StreamedListPlaceholder } from '../../components/status';
import {
  AuditIssueListDocument,
  AuditIssuesDocument,
  IssueGuidanceDocument,
  type AuditIssueListQuery,
  type AuditStatus,
  type IssueCategory,
  type Severity,
} from '../../gql/graphql';
import { PREFETCHED } from '../../lib/urql';
import { useStreamedQuery } from '../../lib/streamed-query';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { formatNumber, plural } from '../../lib/format';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { IssueOccurrences } from './issue-occurrences';
import { siteHostOf } from './page-link';
import { extentText } from './audit-counts';
import { ExportButtons } from '../reports';
import { CATEGORIES, SEVERITIES, type IssueSearch } from './search-params';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId');

type IssueRow = AuditIssueListQuery['audit']['issues'][number];
type Row =
  { kind: 'group'; category: IssueCategory; counts: Record<Severity, number> } | { kind: 'issue'; issue: IssueRow };

const SEVERITY_RANK: Record<Severity, number> = { CRITICAL: 0, WARNING: 1, NOTICE: 2 };

/**
 * Larger priority first (what fixing it gives back: its cost, more on pages that rank for tracked keywords), then the
 * more severe, the wider, the code.
 */
const byPriority = (a: IssueRow, b: IssueRow) =>
  b.priority - a.priority ||
  SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
  b.affectedPages - a.affectedPages ||
  a.code.localeCompare(b.code);

/**
 * The issues the filters let through: one list in priority order, or (search.group) in category groups, by priority
 * within each.
 */
function buildRows(issues: readonly IssueRow[], search: IssueSearch, text: string): Row[] {
  const needle = text.trim().toLowerCase();
  const shown = issues.filter(
    (i) =>
      (!search.severity || search.severity.includes(i.severity)) &&
      (!search.category || i.category === search.category) &&
      (!needle ||
        i.title.toLowerCase().includes(needle) ||
        i.code.toLowerCase().includes(needle) ||
        i.description.toLowerCase().includes(needle)),
  );
  if (!search.group) return [...shown].sort(byPriority).map((issue): Row => ({ kind: 'issue', issue }));
  const rows: Row[] = [];
  for (const category of CATEGORIES) {
    const inGroup = shown.filter((i) => i.category === category).sort(byPriority);
    if (!inGroup.length) continue;
    const counts = { CRITICAL: 0, WARNING: 0, NOTICE: 0 };
    for (const i of inGroup) counts[i.severity] += 1;
    rows.push({ kind: 'group', category, counts }, ...inGroup.map((issue): Row => ({ kind: 'issue', issue })));
  }
  return rows;
}

/** "Why it matters" and "How to fix" from the catalog, asked for when the issue is opened. */
function IssueGuidance(scope: { projectId: string; auditId: string; issueId: string }) {
  const [{ data }] = useQuery({ query: IssueGuidanceDocument, variables: scope, requestPolicy: 'cache-first' });
  const issue = data?.audit.issue;
  if (!issue?.whyItMatters && !issue?.howToFix) return null;
  return (
    <dl className="issue-guidance">
      {issue.whyItMatters && (
        <>
          <dt>Why it matters</dt>
          <dd>{issue.whyItMatters}</dd>
        </>
      )}
      {issue.howToFix && (
        <>
          <dt>How to fix</dt>
          <dd>{issue.howToFix}</dd>
        </>
      )}
    </dl>
  );
}

function IssueItem({
  issue,
  expanded,
  onToggle,
  projectId,
  auditId,
  siteHost,
  onResize,
  showCategory,
}: {
  issue: IssueRow;
  /** The audited site's host: its URLs in the evidence open the page view. */
  siteHost: string | null;
  /** In one list across categories, each issue says which it belongs to. */
  showCategory: boolean;
  expanded: boolean;
  onToggle(): void;
  projectId: string;
  auditId: string;
  onResize(): void;
}) {
  const panelId = `issue-panel-${issue.id}`;
  return (
    <div className={`issue ${expanded ? 'issue-open' : ''}`}>
      <h3 className="issue-heading">
        <button
          type="button"
          className="issue-toggle"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
        >
          <span className={`badge badge-${issue.severity.toLowerCase()}`}>{SEVERITY_LABEL[issue.severity]}</span>
          <span className="issue-title">
            {issue.title}
            {issue.rankingPages > 0 && (
              <span className="badge badge-ranking issue-ranking">{plural(issue.rankingPages, 'ranking page')}</span>
            )}
          </span>
          <span className="issue-category">{showCategory ? CATEGORY_LABEL[issue.category] : ''}</span>
          <span className="issue-pages">{extentText(issue)}</span>
          <span className="chevron" aria-hidden="true">
            {expanded ? '▴' : '▾'}
          </span>
        </button>
      </h3>
      {expanded && (
        <div id={panelId} className="issue-panel">
          <p>{issue.description}</p>
          <IssueGuidance projectId={projectId} auditId={auditId} issueId={issue.id} />
          <p className="muted small">
            Check <code>{issue.code}</code> · <AboutCheckLink code={issue.code} />
          </p>
          <IssueOccurrences
            projectId={projectId}
            auditId={auditId}
            siteHost={siteHost}
            issueId={issue.id}
            onLoaded={onResize}
          />
        </div>
      )}
    </div>
  );
}

export function AuditIssuesPage() {
  const { projectId, auditId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({
    query: AuditIssuesDocument,
    variables: { projectId, auditId },
    ...PREFETCHED,
  });
  useDocumentTitle(data ? `Issues · ${data.project.name}` : 'Audit issues');

  if (fetching && !data) return <Loading label="Loading the audit…" />;
  if (!data) return <AuditLoadError projectId={projectId} error={error} />;
  const audit = data.audit;

  return (
    <section className="page" aria-labelledby="audit-title">
      <AuditHeading projectId={projectId} projectName={data.project.name} audit={audit} view="issues" />
      {audit.status !== 'COMPLETED' && (
        <p className="callout callout-info">
          Issues are listed when an audit completes. This audit is {audit.status.toLowerCase()}.
        </p>
      )}
      {/* The list: streamed by the server after the heading (lib/streamed-query.ts). */}
      <Suspense fallback={<StreamedListPlaceholder label="Loading the issues…" />}>
        <IssueList
          projectId={projectId}
          auditId={auditId}
          status={audit.status}
          siteHost={siteHostOf(data.project.url)}
        />
      </Suspense>
    </section>
  );
}

/** The audit's issues: filters, counts and the virtual list. */
function IssueList({
  projectId,
  auditId,
  status,
  siteHost,
}: {
  projectId: string;
  auditId: string;
  status: AuditStatus;
  siteHost: string | null;
}) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }] = useStreamedQuery({
    query: AuditIssueListDocument,
    variables: { projectId, auditId },
    ...PREFETCHED,
  });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [text, setText] = useState(search.q ?? '');
  const deferredText = useDeferredValue(text);

  const issues = data?.audit.issues;
  const rows = useMemo(() => (issues ? buildRows(issues, search, deferredText) : []), [issues, search, deferredText]);
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window virtualizer counts from the top of the document.
  const [listTop, setListTop] = useState(0);
  const hasList = issues !== undefined;
  useLayoutEffect(() => {
    const measure = () =>
      setListTop(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [hasList]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => (rows[i].kind === 'group' ? 52 : 58),
    overscan: 10,
    scrollMargin: listTop,
    initialRect: FIRST_SCREEN,
    getItemKey: (i) => {
      const row = rows[i];
      return row.kind === 'group' ? `g-${row.category}` : row.issue.id;
    },
  });

  const setSearch = (patch: Partial<IssueSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  if (fetching && !data) return <Loading label="Loading the issues…" />;
  if (!data) return <AuditLoadError projectId={projectId} error={error} />;

  const audit = data.audit;
  const byCategory = Object.fromEntries(
    CATEGORIES.map((c) => [c, audit.issues.filter((i) => i.category === c).length]),
  ) as Record<IssueCategory, number>;
  const shownIssues = rows.filter((r) => r.kind === 'issue').length;

  return (
    <>
      <div className="filters card" role="search" aria-label="Filter issues">
        <CheckboxGroup
          className="filter-group"
          value={search.severity ?? []}
          onChange={(value) => setSearch({ severity: value.length ? (value as Severity[]) : undefined })}
        >
          <Label className="field-label">Severity</Label>
          <div className="checkbox-row">
            {SEVERITIES.map((s) => (
              <Checkbox key={s} value={s} className="checkbox">
                <span className="checkbox-box" aria-hidden="true" />
                {SEVERITY_LABEL[s]} ({audit.issueCounts[s.toLowerCase() as 'critical' | 'warning' | 'notice']})
              </Checkbox>
            ))}
          </div>
        </CheckboxGroup>
        <SelectField
          label="Category"
          options={[
            { id: 'ALL', label: `All categories (${audit.issues.length})` },
            ...CATEGORIES.map((c) => ({ id: c, label: `${CATEGORY_LABEL[c]} (${byCategory[c]})` })),
          ]}
          value={search.category ?? 'ALL'}
          onChange={(id) => setSearch({ category: id === 'ALL' ? undefined : (id as IssueCategory) })}
        />
        <SearchField
          className="field search-field"
          value={text}
          onChange={setText}
          onSubmit={(value) => setSearch({ q: value || undefined })}
          onClear={() => setSearch({ q: undefined })}
        >
          <Label className="field-label">Search issues</Label>
          <Input className="input" placeholder="Title, code or description" />
        </SearchField>
      </div>

      <div className="list-toolbar">
        <p className="muted" role="status" aria-live="polite">
          {plural(shownIssues, 'issue')} shown of {formatNumber(audit.issues.length)}
          {audit.scoreBreakdown &&
            ` · ${formatNumber(audit.scoreBreakdown.checksPassed)} of ${formatNumber(
              audit.scoreBreakdown.checksApplied,
            )} checks passed`}
        </p>
        <Checkbox
          className="checkbox"
          isSelected={search.group === 'category'}
          onChange={(on) => setSearch({ group: on ? 'category' : undefined })}
        >
          <span className="checkbox-box" aria-hidden="true" />
          Group by category
        </Checkbox>
        {audit.issues.length > 0 && <ExportButtons projectId={projectId} kind="issues" auditId={auditId} />}
      </div>

      {audit.issues.length === 0 && status === 'COMPLETED' && (
        <EmptyState title="No issues found">
          <p>Every check passed on every crawled page.</p>
        </EmptyState>
      )}

      <div
        ref={listRef}
        className="virtual-list"
        role="list"
        aria-label={search.group ? 'Issues by category' : 'Issues, most costly first'}
        style={{ height: virtualizer.getTotalSize() }}
        {...serverRows()}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              key={item.key}
              role="listitem"
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="virtual-row"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
            >
              {row.kind === 'group' ? (
                <h2 className="group-heading">
                  {CATEGORY_LABEL[row.category]}
                  <span className="group-counts">
                    {SEVERITIES.filter((s) => row.counts[s]).map((s) => (
                      <span key={s} className={`badge badge-${s.toLowerCase()}`}>
                        {plural(
                          row.counts[s],
                          SEVERITY_LABEL[s].toLowerCase(),
                          s === 'CRITICAL' ? 'critical' : undefined,
                        )}
                      </span>
                    ))}
                  </span>
                </h2>
              ) : (
                <IssueItem
                  issue={row.issue}
                  expanded={expanded.has(row.issue.id)}
                  projectId={projectId}
                  auditId={auditId}
                  siteHost={siteHost}
                  onResize={() => virtualizer.measure()}
                  showCategory={!search.group}
                  onToggle={() =>
                    setExpanded((prev) => {
                      const next = new Set(prev);
                      if (!next.delete(row.issue.id)) next.add(row.issue.id);
                      return next;
                    })
                  }
                />
              )}
            </div>
          );
        })}
      </div>
    </>
  );
}
