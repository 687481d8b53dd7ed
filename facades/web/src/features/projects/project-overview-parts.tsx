import type { RefObject } from 'react';
import { Link } from '@tanstack/react-router';
import { AuditStatusBadge } from '../../components/audit-status';
import { Button } from '../../components/button';
import { Callout } from '../../components/status';
import type { ProjectOverviewQuery } from '../../gql/graphql';
import { formatDateTime, formatNumber, formatRelative, plural } from '../../lib/format';
import { AuditLinks, isHttpUrl } from './latest-result';
import type { ScorePoint } from './score-history-chart';

type Audits = ProjectOverviewQuery['audits']['nodes'];

/** The completed audits, oldest first, as the score history chart draws them. */
export function scoreHistory(audits: Audits): ScorePoint[] {
  return audits
    .filter((a) => a.status === 'COMPLETED' && a.completedAt)
    .reverse()
    .map((a) => ({
      completedAt: a.completedAt!,
      overall: a.overallScore,
      meta: a.metaScore,
      content: a.contentScore,
      links: a.linksScore,
      technical: a.technicalScore,
      performance: a.performanceScore,
      settingChanges: a.settingChanges?.length ? a.settingChanges.map((c) => c.description) : null,
    }));
}

/** The breadcrumb, the project's name and start URL, and "Run audit". */
export function ProjectHead({
  name,
  url,
  runButton,
  onRun,
  running,
}: {
  name: string;
  url: string;
  runButton: RefObject<HTMLButtonElement | null>;
  onRun(): void;
  running: boolean;
}) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{name}</span>
      </nav>
      <div className="page-header">
        <div>
          <h1 id="project-title">{name}</h1>
          <p className="muted url-text">
            {isHttpUrl(url) ? (
              <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                {url}
              </a>
            ) : (
              url
            )}
          </p>
        </div>
        <div className="page-actions">
          {/* Pending, not disabled, while an audit runs: the button keeps the focus it has. */}
          <Button ref={runButton} variant="primary" onPress={onRun} isPending={running}>
            Run audit
          </Button>
        </div>
      </div>
    </>
  );
}

/** Why the latest audit failed (with "Use http://… and run again" when that may help), or that it was cancelled. */
export function LatestOutcome({
  projectId,
  latest,
  http,
  switching,
  onSwitch,
}: {
  projectId: string;
  latest: Audits[number];
  http: string | null;
  switching: boolean;
  onSwitch(url: string): void;
}) {
  return (
    <>
      {latest.status === 'FAILED' && (
        <div className="callout callout-error" role="alert">
          <strong>The latest audit failed</strong>
          <p>{latest.error ?? 'No reason was recorded.'}</p>
          <p className="muted small">
            Started {formatDateTime(latest.createdAt)}. Fix the cause and run the audit again
            {http ? '' : ', or change the start URL in the settings'}.
          </p>
          {http ? (
            <p className="actions">
              <Button variant="primary" onPress={() => onSwitch(http)} isPending={switching}>
                Use {http} and run again
              </Button>
              <Link to="/projects/$projectId/settings" params={{ projectId }}>
                Project settings
              </Link>
            </p>
          ) : (
            <p>
              <Link to="/projects/$projectId/settings" params={{ projectId }}>
                Change the start URL
              </Link>
            </p>
          )}
        </div>
      )}
      {latest.status === 'CANCELLED' && (
        <Callout tone="warning" title="The latest audit was cancelled">
          <p>
            {latest.error ?? 'Cancelled.'} {`${plural(latest.pagesCrawled, 'URL')} had been crawled; they are kept. `}
            <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId: latest.id }}>
              See the pages
            </Link>
          </p>
        </Callout>
      )}
    </>
  );
}

/** The project's audits, newest first, each with its links (and the comparison with the one before). */
export function AuditsCard({
  projectId,
  audits,
  totalCount,
}: {
  projectId: string;
  audits: Audits;
  totalCount: number;
}) {
  return (
    <section className="card" aria-labelledby="audits-title">
      <h2 id="audits-title">Audits</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col">Overall</th>
              <th scope="col">Pages</th>
              <th scope="col">Issues</th>
              <th scope="col">
                <span className="visually-hidden">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {audits.map((a, i) => (
              <tr key={a.id}>
                <td>
                  <time dateTime={a.createdAt} title={formatDateTime(a.createdAt)}>
                    {formatRelative(a.createdAt)}
                  </time>
                </td>
                <td>
                  <AuditStatusBadge status={a.status} />
                  {a.status === 'FAILED' && a.error && <span className="muted small cell-note">{a.error}</span>}
                </td>
                <td>
                  {a.overallScore ?? '—'}
                  {a.settingChanges?.length ? (
                    <span className="muted small cell-note">
                      Other check settings: {a.settingChanges.map((c) => c.description).join('; ')}
                    </span>
                  ) : null}
                </td>
                <td>{formatNumber(a.pagesCrawled)}</td>
                <td>
                  {a.status === 'COMPLETED'
                    ? `${a.issueCounts.critical} / ${a.issueCounts.warning} / ${a.issueCounts.notice}`
                    : '—'}
                </td>
                <td>
                  {(a.status === 'COMPLETED' || a.pagesCrawled > 0) && (
                    <AuditLinks
                      projectId={projectId}
                      auditId={a.id}
                      previous={
                        a.status === 'COMPLETED'
                          ? audits.slice(i + 1).find((b) => b.status === 'COMPLETED')?.id
                          : undefined
                      }
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {totalCount > audits.length && (
        <p className="muted small">
          Showing the latest {audits.length} of {totalCount} audits.
        </p>
      )}
    </section>
  );
}
