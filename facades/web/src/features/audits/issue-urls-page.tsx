import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { AboutCheckLink } from '../checks';
import type { Column } from '../../components/data-table';
import { SeverityBadge } from '../../components/severity';
import { Loading } from '../../components/status';
import { IssueUrlsDocument, type IssueUrlsQuery, type WontFixMarkFragment } from '../../gql/graphql';
import { CATEGORY_LABEL } from '../../lib/labels';
import { formatNumber, plural } from '../../lib/format';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { extentText } from './audit-counts';
import type { IssueUrlsSearch } from './search-params';
import { SegmentPicker } from './segment-picker';
import { UrlTableSection, type UrlTableRow } from './url-table';
import { ISSUE_DEFAULT_COLUMNS, tableFilter } from './url-table-view';
import { WontFixControl } from './wont-fix';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/issues/$issueId');

type Issue = IssueUrlsQuery['audit']['issue'];

/** What the issue is, why it matters and how to fix it, above its URLs. */
function IssueSummary({ issue }: { issue: Issue }) {
  return (
    <div className="card issue-summary">
      <p>
        <SeverityBadge severity={issue.severity} /> {CATEGORY_LABEL[issue.category]} · {extentText(issue)}
        {issue.fixes && <> · {issue.fixes.summary}</>}
        {issue.rankingPages > 0 && (
          <span className="badge badge-ranking issue-ranking">{plural(issue.rankingPages, 'ranking page')}</span>
        )}
        {issue.wontFixCount > 0 && (
          <span className="badge issue-wont-fix">{formatNumber(issue.wontFixCount)} won't fix</span>
        )}
      </p>
      <p>{issue.description}</p>
      {issue.chargedElsewhere > 0 && (
        <p className="small">
          {plural(issue.chargedElsewhere, 'URL')} of these {issue.chargedElsewhere === 1 ? 'is' : 'are'} linked from
          crawled pages: charged once in the score, as their broken links' fix.
        </p>
      )}
      {(issue.whyItMatters || issue.howToFix) && (
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
      )}
      <p className="muted small">
        Check <code>{issue.code}</code> · <AboutCheckLink code={issue.code} />
      </p>
    </div>
  );
}

/**
 * The "Won't fix" column: on the first row of each occurrence (an occurrence whose evidence lists several items has a
 * row per item, ids `<occurrence>-<n>`), who marked it and Undo, or the button that asks why.
 */
function wontFixColumn(
  scope: { projectId: string; auditId: string; code: string },
  markings: ReadonlyMap<string, WontFixMarkFragment>,
): Column<UrlTableRow> {
  return {
    id: 'wont-fix',
    header: "Won't fix",
    className: 'cell-wont-fix',
    cell: (row) =>
      /-(?!1$)\d+$/.test(row.id) ? null : (
        <WontFixControl {...scope} url={row.url} marking={markings.get(row.url) ?? null} />
      ),
  };
}

/** An issue's affected URLs: the URL table of its check, its evidence as columns, ranking pages first by default. */
export function IssueUrlsPage() {
  const { projectId, auditId, issueId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }] = useQuery({
    query: IssueUrlsDocument,
    variables: { projectId, auditId, issueId },
  });
  const setSearch = (patch: Partial<IssueUrlsSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  if (fetching && !data) return <Loading label="Loading the issue…" />;
  if (!data) return <AuditLoadError projectId={projectId} error={error} />;
  const issue = data.audit.issue;
  const markings = new Map(data.project.wontFixes.filter((w) => w.code === issue.code).map((w) => [w.url, w]));
  const scope = { projectId, auditId, code: issue.code };

  return (
    <section className="page" aria-labelledby="audit-title">
      <UrlTableSection
        projectId={projectId}
        auditId={auditId}
        checkCode={issue.code}
        search={search}
        setSearch={setSearch}
        filter={tableFilter(search)}
        segment={search.seg ?? null}
        quickFilters={
          <SegmentPicker projectId={projectId} segment={search.seg} onChange={(seg) => setSearch({ seg })} />
        }
        defaults={ISSUE_DEFAULT_COLUMNS}
        storage="issue"
        label="Affected URLs"
        documentTitle={{ prefix: issue.title, fallback: issue.title }}
        heading={(table) => (
          <>
            <AuditHeading
              projectId={projectId}
              projectName={table.project.name}
              audit={table.audit}
              view="issue"
              issueTitle={issue.title}
            />
            <IssueSummary issue={issue} />
          </>
        )}
        extraColumns={data.audit.status === 'COMPLETED' ? [wontFixColumn(scope, markings)] : []}
        tableClassName="table-issue"
        emptyText={{
          title: 'No URLs to show',
          filtered: "None of this issue's URLs matches these filters.",
          none: 'This issue names no URL.',
        }}
      />
    </section>
  );
}
