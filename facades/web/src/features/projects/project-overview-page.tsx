import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { isActiveAudit } from '../../components/audit-status';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, ErrorMessage, Loading, PageLoadError } from '../../components/status';
import {
  CancelAuditDocument,
  ProjectOverviewDocument,
  StartAuditDocument,
  UpdateProjectSettingsDocument,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { PREFETCHED } from '../../lib/urql';
import { useLivePoll } from '../../lib/use-live-poll';
import { AuditProgress, checkingExternalLinks } from './audit-progress';
import { ScoreHistoryChart, type ScorePoint } from './score-history-chart';
import { ProjectTabs } from '../../components/project-tabs';
import { LatestResult, httpAlternative } from './latest-result';
import { AuditsCard, LatestOutcome, ProjectHead, scoreHistory } from './project-overview-parts';

const route = getRouteApi('/app/projects/$projectId');

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

  // While an audit is queued or running, or completed with its external verdicts still to fold in: polled with
  // back-off, started over when its status or phase changes.
  const folding = lastCompleted && !lastCompleted.externalLinksFinal ? lastCompleted : null;
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: !!active || !!folding,
    // The wait for links to other sites, after the last page, counts as a phase of its own.
    resetKey: active
      ? `${active.id}:${active.status}:${active.phase ?? ''}:${checkingExternalLinks(active)}`
      : folding && `${folding.id}:folding`,
  });

  const history: ScorePoint[] = useMemo(() => scoreHistory(audits), [audits]);

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
      <ProjectHead
        name={project.name}
        url={project.url}
        runButton={runButton}
        onRun={() => void run()}
        running={started.fetching || !!active}
      />
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

      {latest && (
        <LatestOutcome
          projectId={projectId}
          latest={latest}
          http={http}
          switching={switched.fetching}
          onSwitch={(url) => void switchToHttp(url)}
        />
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

      {audits.length > 0 && <AuditsCard projectId={projectId} audits={audits} totalCount={data.audits.totalCount} />}
    </section>
  );
}
