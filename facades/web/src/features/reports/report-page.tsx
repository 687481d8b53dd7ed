import { Link, getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, Loading, PageLoadError } from '../../components/status';
import { ClientReportDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';
import { ProjectTabs } from '../../components/project-tabs';
import { checkedText, countsText } from '../audits';
import { Movers, PdfButton, categoryName, counts } from './report-parts';
import { CategoryTable, TopIssue, VitalsTable } from './report-sections';

const route = getRouteApi('/app/projects/$projectId/report');

/** The printable client report of a project's latest completed audit (the server assembles it; this renders it). */
export function ReportPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({ query: ClientReportDocument, variables: { projectId } });
  useDocumentTitle(data ? `Report · ${data.clientReport.projectName}` : 'Report');
  if (fetching && !data) return <Loading label="Preparing the report…" />;
  if (!data)
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to the projects</Link>
      </PageLoadError>
    );
  const r = data.clientReport;
  const audit = r.audit;

  return (
    <section className="page report-page" aria-labelledby="report-title">
      <nav aria-label="Breadcrumb" className="breadcrumb no-print">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <Link to="/projects/$projectId" params={{ projectId }}>
          {r.projectName}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">Report</span>
      </nav>
      <div className="page-header">
        <div>
          <h1 id="report-title">SEO report: {r.projectName}</h1>
          <p className="muted url-text">
            {r.url} · generated {formatDateTime(r.generatedAt)}
          </p>
        </div>
        <div className="page-actions no-print">
          <Button onPress={() => window.print()}>Print</Button>
          <PdfButton projectId={projectId} available={r.pdfAvailable} />
        </div>
      </div>
      <div className="no-print">
        <ProjectTabs projectId={projectId} />
      </div>

      {!audit ? (
        <EmptyState title="No completed audit yet">
          <p>Run an audit from the project's overview; its report appears here when it completes.</p>
        </EmptyState>
      ) : (
        <>
          <p>
            Audit of {formatDateTime(audit.completedAt ?? audit.createdAt)}: overall score{' '}
            {audit.scores.overall === null ? 'not available' : `${audit.scores.overall}/100`};{' '}
            {countsText(audit.counts ?? null, audit.pagesCrawled)}; {counts(audit.issueCounts)}.
          </p>
          {audit.counts && <p className="muted small">{checkedText(audit.counts)}.</p>}

          <h2>Scores</h2>
          <ul className="report-scores" aria-label="Scores">
            <li className="card">
              <span>Overall</span>
              <strong>{audit.scores.overall ?? '—'}</strong>
            </li>
            {r.categories.map((c) => (
              <li key={c.category} className="card">
                <span>{categoryName(c.category)}</span>
                <strong>{c.score ?? '—'}</strong>
              </li>
            ))}
          </ul>

          <h2>Category breakdown</h2>
          <CategoryTable categories={r.categories} />

          <h2>Top issues and how to fix them</h2>
          {!r.topIssues.length && <p>No issues: every check passed on every crawled page.</p>}
          {r.topIssues.map((i) => (
            <TopIssue key={i.code} issue={i} />
          ))}
        </>
      )}

      <h2>Core Web Vitals</h2>
      {!r.vitals.length ? <p className="muted">No Core Web Vitals measured yet.</p> : <VitalsTable vitals={r.vitals} />}

      <h2>Keyword movers</h2>
      {!r.keywordGains.length && !r.keywordLosses.length ? (
        <p className="muted">No keyword changed position between its last two checks.</p>
      ) : (
        <>
          <Movers title="Biggest gains since the previous check" moves={r.keywordGains} />
          <Movers title="Biggest losses since the previous check" moves={r.keywordLosses} />
        </>
      )}
    </section>
  );
}
