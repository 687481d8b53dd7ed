import { Suspense, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { FIRST_SCREEN, serverRows } from '../../lib/first-screen';
import { Checkbox, Label, SearchField, Input } from 'react-aria-components';
import { useDocumentTitle } from '../../components/document-title';
import { SelectField } from '../../components/select-field';
import { EmptyState, Loading, StreamedListPlaceholder } from '../../components/status';
import {
  AuditIssueListDocument,
  AuditIssuesDocument,
  type AuditStatus,
  type IssueCategory,
  type Severity,
} from '../../gql/graphql';
import { PREFETCHED } from '../../lib/urql';
import { useLivePoll } from '../../lib/use-live-poll';
import { useStreamedQuery } from '../../lib/streamed-query';
import { CATEGORY_LABEL } from '../../lib/labels';
import { formatNumber, plural } from '../../lib/format';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { ExportButtons } from '../../components/export-buttons';
import { SeverityFilter } from '../../components/severity';
import { CATEGORIES, type IssueSearch } from './search-params';
import type { Row } from './issue-rows';
import { buildRows } from './issue-rows';
import { GroupHeading, IssueItem } from './issue-item';
import { SegmentPicker, SegmentSummary } from './segment-picker';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId');

export function AuditIssuesPage() {
  const { projectId, auditId } = route.useParams();
  const { seg } = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }, refetch] = useQuery({
    query: AuditIssuesDocument,
    variables: { projectId, auditId },
    ...PREFETCHED,
  });
  useDocumentTitle(data ? `Issues · ${data.project.name}` : 'Audit issues');
  // A completed audit whose external verdicts are still to fold in: polled until they do (the list is read again).
  const folding = data?.audit.status === 'COMPLETED' && !data.audit.externalLinksFinal;
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), { active: folding, resetKey: auditId });

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
      {audit.status === 'COMPLETED' && (
        <>
          <SegmentPicker
            projectId={projectId}
            segment={seg}
            onChange={(next) => void navigate({ search: (prev) => ({ ...prev, seg: next }), replace: true })}
          />
          {seg && <SegmentSummary projectId={projectId} auditId={auditId} segmentId={seg} />}
        </>
      )}
      {/* The list: streamed by the server after the heading (lib/streamed-query.ts). */}
      <Suspense fallback={<StreamedListPlaceholder label="Loading the issues…" />}>
        <IssueList projectId={projectId} auditId={auditId} status={audit.status} final={audit.externalLinksFinal} />
      </Suspense>
    </section>
  );
}

/** The issues by severity (a segment's list: its checks, as the audit's counts are). */
function severityCounts(issues: readonly { severity: Severity }[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { CRITICAL: 0, WARNING: 0, NOTICE: 0 };
  for (const i of issues) counts[i.severity] += 1;
  return counts;
}

/** The window virtualizer of the issue list, measured from where the list starts on the page. */
function useIssueVirtualizer(rows: Row[], hasList: boolean) {
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window virtualizer counts from the top of the document.
  const [listTop, setListTop] = useState(0);
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
  return { listRef, virtualizer };
}

/** The audit's issues: filters, counts and the virtual list. */
function IssueList({
  projectId,
  auditId,
  status,
  final,
}: {
  projectId: string;
  auditId: string;
  status: AuditStatus;
  /** False while the external verdicts are still to fold in: read again once they did. */
  final: boolean;
}) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  // Narrowed to the chosen segment: its issues only, counted on its URLs (without one, the variables the server's
  // stream and the route's prefetch use).
  const [{ data, fetching, error }, refetch] = useStreamedQuery({
    query: AuditIssueListDocument,
    variables: search.seg ? { projectId, auditId, segment: search.seg } : { projectId, auditId },
    ...PREFETCHED,
  });
  const wasFinal = useRef(final);
  useEffect(() => {
    if (final && !wasFinal.current) refetch({ requestPolicy: 'network-only' });
    wasFinal.current = final;
  }, [final, refetch]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [text, setText] = useState(search.q ?? '');
  const deferredText = useDeferredValue(text);

  const issues = data?.audit.issues;
  const rows = useMemo(() => (issues ? buildRows(issues, search, deferredText) : []), [issues, search, deferredText]);
  const { listRef, virtualizer } = useIssueVirtualizer(rows, issues !== undefined);

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
        <SeverityFilter
          value={search.severity}
          onChange={(severity) => setSearch({ severity })}
          counts={
            search.seg
              ? severityCounts(audit.issues)
              : {
                  CRITICAL: audit.issueCounts.critical,
                  WARNING: audit.issueCounts.warning,
                  NOTICE: audit.issueCounts.notice,
                }
          }
        />
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
          <p>
            {search.seg ? "Every check passed on this segment's URLs." : 'Every check passed on every crawled page.'}
          </p>
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
                <GroupHeading category={row.category} counts={row.counts} />
              ) : (
                <IssueItem
                  issue={row.issue}
                  expanded={expanded.has(row.issue.id)}
                  projectId={projectId}
                  auditId={auditId}
                  showCategory={!search.group}
                  segment={search.seg}
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
