import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { AuditStatusBadge, isActiveAudit } from '../../components/audit-status';
import { useDocumentTitle } from '../../components/document-title';
import { ScoreChange, ScoreRing } from '../../components/score';
import { Callout, EmptyState, ErrorMessage, Loading, PageLoadError } from '../../components/status';
import {
  CancelAuditDocument,
  ProjectOverviewDocument,
  StartAuditDocument,
  UpdateProjectSettingsDocument,
  type OverviewAuditFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { PREFETCHED } from '../../lib/urql';
import { useLivePoll } from '../../lib/use-live-poll';
import { formatDateTime, formatNumber, formatRelative, plural } from '../../lib/format';
import { AuditProgress } from './audit-progress';
import { ScoreWhy } from './score-why';
import { CrawlNotes } from '../audits/crawl-notes';
import { ScoreHistoryChart, type ScorePoint } from './score-history-chart';
import { ProjectTabs } from './project-tabs';

const route = getRouteApi('/app/projects/$projectId');

const CATEGORIES: { key: keyof OverviewAuditFragment; label: string }[] = [
  { key: 'metaScore', label: 'Meta' },
  { key: 'contentScore', label: 'Content' },
  { key: 'linksScore', label: 'Links' },
  { key: 'technicalScore', label: 'Technical' },
  { key: 'performanceScore', label: 'Performance' },
];

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);

/** The project's URL over http when its audit failed on TLS over https (an http-only site, a bad certificate). */
function httpAlternative(url: string, error: string | null): string | null {
  if (!error || !/TLS connection failed|certificate|SSL/i.test(error) || !/^https:\/\//i.test(url)) return null;
  return `http://${url.slice('https://'.length)}`;
}

/** A score change in words: "Up 3 points", "Down 2 points", "No change". */
const scoreChangeWords = (change: number) =>
  change === 0 ? 'No change' : `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change)} points`;

/** An audit's pages, and for a completed audit with a completed one before it, what changed since that one. */
function AuditLinks({ projectId, auditId, previous }: { projectId: string; auditId: string; previous?: string }) {
  return (
    <span className="inline-links">
      <Link to="/projects/$projectId/audits/$auditId" params={{ projectId, auditId }}>
        Issues
      </Link>
      <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId }}>
        Pages
      </Link>
      {previous && (
        <Link to="/projects/$projectId/compare" params={{ projectId }} search={{ base: previous, head: auditId }}>
          Changes
        </Link>
      )}
    </span>
  );
}

function LatestResult({
  projectId,
  audit,
  change,
  withheld,
}: {
  projectId: string;
  audit: OverviewAuditFragment;
  change: number | null;
  /** Scored with different check settings than the audit before: no change is shown. */
  withheld: boolean;
}) {
  return (
    <section className="card" aria-labelledby="scores-title">
      <div className="card-head">
        <h2 id="scores-title">Latest scores</h2>
        <span className="muted small">
          Audit of {formatDateTime(audit.completedAt ?? audit.createdAt)} · {plural(audit.pagesCrawled, 'URL')} crawled
        </span>
      </div>
      {audit.blockers.length > 0 && (
        <div role="alert" className="blocker-banner">
          <Callout tone="warning" title="This site cannot be indexed: the overall score is capped at 50">
            <ul>
              {audit.blockers.map((b) => (
                <li key={b.code}>{b.message}</li>
              ))}
            </ul>
          </Callout>
        </div>
      )}
      <div className="scores">
        <div className="score-main">
          <ScoreRing score={audit.overallScore} label="Overall" />
          {change === null && !withheld ? (
            <ScoreChange change={change} />
          ) : (
            <Link
              to="/projects/$projectId/compare"
              params={{ projectId }}
              search={{ head: audit.id }}
              className="score-change-link"
              aria-label={
                withheld
                  ? 'Scored with different check settings than the previous audit: see what changed'
                  : `${scoreChangeWords(change ?? 0)} since the previous audit: see what changed`
              }
            >
              <ScoreChange change={change} withheld={withheld} />
            </Link>
          )}
        </div>
        <div className="score-categories">
          {CATEGORIES.map((c) => (
            <ScoreRing key={c.key} score={audit[c.key] as number | null} label={c.label} size="small" />
          ))}
        </div>
      </div>
      <CrawlNotes audit={audit} />
      <ScoreWhy projectId={projectId} auditId={audit.id} />
      <div className="issue-summary">
        <span className="badge badge-critical">{audit.issueCounts.critical} critical</span>
        <span className="badge badge-warning">{plural(audit.issueCounts.warning, 'warning')}</span>
        <span className="badge badge-notice">{plural(audit.issueCounts.notice, 'notice')}</span>
        <Link
          to="/projects/$projectId/audits/$auditId"
          params={{ projectId, auditId: audit.id }}
          className="btn btn-primary"
        >
          View issues
        </Link>
        <Link
          to="/projects/$projectId/audits/$auditId/pages"
          params={{ projectId, auditId: audit.id }}
          className="btn btn-secondary"
        >
          Crawled pages
        </Link>
      </div>
    </section>
  );
}

export function ProjectOverviewPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }, refetch] = useQuery({
    query: ProjectOverviewDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  const [started, startAudit] = useMutation(StartAuditDocument);
  const [cancelled, cancelAudit] = useMutation(CancelAuditDocument);
  const [switched, updateProject] = useMutation(UpdateProjectSettingsDocument);
  const [actionProblem, setActionProblem] = useState<ReturnType<typeof problemOf>>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const runButton = useRef<HTMLButtonElement>(null);
  useDocumentTitle(data?.project.name ?? 'Project');

  const audits = data?.audits.nodes ?? [];
  const latest = audits[0] ?? null;
  const active = latest && isActiveAudit(latest.status) ? latest : null;
  const lastCompleted = audits.find((a) => a.status === 'COMPLETED') ?? null;

  // When the audit ends, its progress card (and the Cancel button in it) goes away: focus that was in it, now on
  // the page itself, moves to the action that remains.
  const activeId = active?.id ?? null;
  const wasActive = useRef<string | null>(null);
  useEffect(() => {
    if (wasActive.current && !activeId && (document.activeElement === document.body || !document.activeElement))
      runButton.current?.focus();
    wasActive.current = activeId;
  }, [activeId]);

  // While an audit is queued or running: polled with back-off, started over when its status or phase changes.
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: !!active,
    resetKey: active && `${active.id}:${active.status}:${active.phase ?? ''}`,
  });

  const history: ScorePoint[] = useMemo(
    () =>
      audits
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
        })),
    [audits],
  );

  if (fetching && !data) return <Loading label="Loading the project…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }

  const project = data.project;

  async function run() {
    setActionProblem(null);
    const res = await startAudit({ projectId });
    if (res.error) setActionProblem(problemOf(res.error));
    refetch({ requestPolicy: 'network-only' });
  }

  async function cancel() {
    if (!active) return;
    setActionProblem(null);
    const res = await cancelAudit({ projectId, auditId: active.id });
    setConfirmCancel(false);
    if (res.error) setActionProblem(problemOf(res.error));
    refetch({ requestPolicy: 'network-only' });
  }

  /** "Use http://…": the start URL over http, then a new audit, in one click. */
  async function switchToHttp(url: string) {
    setActionProblem(null);
    const res = await updateProject({ id: projectId, input: { url } });
    if (res.error) {
      setActionProblem(problemOf(res.error));
      return;
    }
    runButton.current?.focus();
    await run();
  }

  const http = latest?.status === 'FAILED' ? httpAlternative(project.url, latest.error) : null;

  return (
    <section className="page" aria-labelledby="project-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{project.name}</span>
      </nav>
      <div className="page-header">
        <div>
          <h1 id="project-title">{project.name}</h1>
          <p className="muted url-text">
            {isHttpUrl(project.url) ? (
              <a href={project.url} target="_blank" rel="noopener noreferrer nofollow">
                {project.url}
              </a>
            ) : (
              project.url
            )}
          </p>
        </div>
        <div className="page-actions">
          {/* Pending, not disabled, while an audit runs: the button keeps the focus it has. */}
          <Button ref={runButton} variant="primary" onPress={() => void run()} isPending={started.fetching || !!active}>
            Run audit
          </Button>
        </div>
      </div>
      <ProjectTabs projectId={projectId} />

      <ErrorMessage problem={actionProblem} title="That did not work" />

      {active && (
        <AuditProgress
          projectId={projectId}
          audit={active}
          onCancel={() => setConfirmCancel(true)}
          cancelling={cancelled.fetching}
        />
      )}
      <ConfirmDialog
        isOpen={confirmCancel && !!active}
        onOpenChange={setConfirmCancel}
        title="Cancel this audit?"
        confirmLabel="Cancel audit"
        cancelLabel="Keep it running"
        isPending={cancelled.fetching}
        onConfirm={() => void cancel()}
      >
        <p>
          The crawl stops now. The pages crawled so far are kept, but the audit gets no scores; you can run a new one at
          any time.
        </p>
      </ConfirmDialog>

      {latest?.status === 'FAILED' && (
        <div className="callout callout-error" role="alert">
          <strong>The latest audit failed</strong>
          <p>{latest.error ?? 'No reason was recorded.'}</p>
          <p className="muted small">
            Started {formatDateTime(latest.createdAt)}. Fix the cause and run the audit again
            {http ? '' : ', or change the start URL in the settings'}.
          </p>
          {http ? (
            <p className="actions">
              <Button variant="primary" onPress={() => void switchToHttp(http)} isPending={switched.fetching}>
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
      {latest?.status === 'CANCELLED' && (
        <Callout tone="warning" title="The latest audit was cancelled">
          <p>
            {latest.error ?? 'Cancelled.'} {`${plural(latest.pagesCrawled, 'URL')} had been crawled; they are kept. `}
            <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId: latest.id }}>
              See the pages
            </Link>
          </p>
        </Callout>
      )}

      {lastCompleted ? (
        <LatestResult
          projectId={projectId}
          audit={lastCompleted}
          change={project.scoreChange}
          withheld={project.scoreChangeWithheld}
        />
      ) : (
        !active && (
          <EmptyState title="No completed audit yet">
            <p>Run an audit to crawl {project.domain}, check every page and get its scores and issues.</p>
          </EmptyState>
        )
      )}

      {history.length > 0 && (
        <section className="card" aria-labelledby="history-title">
          <h2 id="history-title">Score history</h2>
          <ScoreHistoryChart points={history} />
        </section>
      )}

      {audits.length > 0 && (
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
          {data.audits.totalCount > audits.length && (
            <p className="muted small">
              Showing the latest {audits.length} of {data.audits.totalCount} audits.
            </p>
          )}
        </section>
      )}
    </section>
  );
}
