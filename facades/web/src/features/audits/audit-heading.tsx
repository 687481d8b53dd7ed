import { Link } from '@tanstack/react-router';
import { AuditStatusBadge } from '../../components/audit-status';
import type { CombinedError } from '@urql/core';
import { PageLoadError } from '../../components/status';
import type { AuditHeadingFragment } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';
import { countsText } from './audit-counts';
import { CrawlNotes } from './crawl-notes';

/** Breadcrumb, title and the audit's two views (issues, pages); an issue's URLs are under its issues. */
export function AuditHeading({
  projectId,
  projectName,
  audit,
  view,
  issueTitle,
}: {
  projectId: string;
  projectName: string;
  audit: AuditHeadingFragment;
  view: 'issues' | 'pages' | 'page' | 'issue';
  /** The issue's title (view "issue"): the page's title. */
  issueTitle?: string;
}) {
  const when = formatDateTime(audit.completedAt ?? audit.createdAt);
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <Link to="/projects/$projectId" params={{ projectId }}>
          {projectName}
        </Link>
        <span aria-hidden="true">/</span>
        {view === 'issue' ? (
          <>
            <Link to="/projects/$projectId/audits/$auditId" params={{ projectId, auditId: audit.id }}>
              Audit of {when}
            </Link>
            <span aria-hidden="true">/</span>
            <span aria-current="page">{issueTitle}</span>
          </>
        ) : (
          <span aria-current="page">Audit of {when}</span>
        )}
      </nav>
      <div className="page-header">
        <div>
          <h1 id="audit-title">
            {view === 'issue'
              ? issueTitle
              : view === 'issues'
                ? 'Audit issues'
                : view === 'pages'
                  ? 'Crawled pages'
                  : 'Crawled page'}
          </h1>
          <p className="muted">
            {projectName} · {when} · {countsText(audit.counts ?? null, audit.pagesCrawled)} ·{' '}
            <AuditStatusBadge status={audit.status} />
            {audit.overallScore !== null && <> · overall score {audit.overallScore}</>}
          </p>
        </div>
      </div>
      <CrawlNotes audit={audit} />
      <nav aria-label="Audit views" className="tabs-nav">
        <Link
          to="/projects/$projectId/audits/$auditId"
          params={{ projectId, auditId: audit.id }}
          activeOptions={{ exact: true, includeSearch: false }}
          activeProps={{ 'aria-current': 'page' }}
        >
          Issues
        </Link>
        <Link
          to="/projects/$projectId/audits/$auditId/pages"
          params={{ projectId, auditId: audit.id }}
          activeOptions={{ includeSearch: false }}
          activeProps={{ 'aria-current': 'page' }}
        >
          Pages
        </Link>
      </nav>
    </>
  );
}

/** An audit page whose query failed, with the way back to its project. */
export function AuditLoadError({ projectId, error }: { projectId: string; error: CombinedError | undefined }) {
  return (
    <PageLoadError problem={problemOf(error)} what="Audit">
      <Link to="/projects/$projectId" params={{ projectId }}>
        Back to the project
      </Link>
    </PageLoadError>
  );
}
