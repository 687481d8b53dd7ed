import { useRef, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Menu, MenuItem, Popover } from 'react-aria-components';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { AuditStatusBadge } from '../../components/audit-status';
import { useDocumentTitle } from '../../components/document-title';
import { ScoreBadge, ScoreChange } from '../../components/score';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import { DashboardProjectsDocument, type DashboardProjectsQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { PREFETCHED } from '../../lib/urql';
import { formatDateTime, formatRelative } from '../../lib/format';
import { PLAN_LABEL } from '../../lib/plan';
import { DeleteProjectDialog, NewProjectDialog, RenameProjectDialog, type ProjectRef } from './project-dialogs';

type ProjectRow = DashboardProjectsQuery['projects'][number];

/** The projects list's columns; the last opens a project's actions menu. */
function projectColumns(
  openFor: string | null,
  openActions: (p: ProjectRow, trigger: HTMLButtonElement) => void,
): Column<ProjectRow>[] {
  return [
    {
      id: 'project',
      header: 'Project',
      rowHeader: true,
      className: 'cell-main',
      cell: (p) => (
        <>
          <Link to="/projects/$projectId" params={{ projectId: p.id }} className="strong-link">
            {p.name}
          </Link>
          <span className="url-text muted small">{p.url}</span>
        </>
      ),
    },
    {
      id: 'score',
      header: 'Score',
      cell: (p) => (
        <span className="score-cell">
          <ScoreBadge score={p.lastAuditScore} />
          <ScoreChange change={p.scoreChange} withheld={p.scoreChangeWithheld} />
        </span>
      ),
    },
    {
      id: 'last',
      header: 'Last audit',
      cell: (p) => {
        const audit = p.latestAudit;
        const when = audit ? (audit.completedAt ?? audit.createdAt) : null;
        return when ? (
          <time dateTime={when} title={formatDateTime(when)}>
            {formatRelative(when)}
          </time>
        ) : (
          <span className="muted">Never audited</span>
        );
      },
    },
    {
      id: 'status',
      header: 'Status',
      cell: (p) =>
        p.latestAudit ? <AuditStatusBadge status={p.latestAudit.status} /> : <span className="muted">—</span>,
    },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      className: 'cell-actions',
      headerClassName: '',
      cell: (p) => (
        <button
          type="button"
          className="btn btn-quiet btn-icon"
          aria-label={`Actions for ${p.name}`}
          aria-haspopup="menu"
          aria-expanded={openFor === p.id}
          onClick={(e) => openActions(p, e.currentTarget)}
          // Keys open it on keydown, as react-aria's own trigger does: opened by the click that
          // follows Enter, the menu kept focus on itself instead of its first item.
          onKeyDown={(e) => {
            if (e.key !== 'Enter' && e.key !== ' ' && e.key !== 'ArrowDown') return;
            e.preventDefault();
            openActions(p, e.currentTarget);
          }}
        >
          <span aria-hidden="true">⋯</span>
        </button>
      ),
    },
  ];
}

export function DashboardPage() {
  useDocumentTitle('Projects');
  const navigate = useNavigate();
  const [{ data, fetching, error }, refetch] = useQuery({ query: DashboardProjectsDocument, ...PREFETCHED });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ProjectRef | null>(null);
  const [deleting, setDeleting] = useState<ProjectRef | null>(null);
  // One actions menu for the whole table, opened from each row's button. A react-aria menu per row (50 closed
  // menus, each building its collection) made the server's render of a 50-project dashboard 40 ms instead of
  // 28 ms, and the browser paid for them again in hydration.
  const actionsTrigger = useRef<HTMLButtonElement | null>(null);
  const [actionsFor, setActionsFor] = useState<ProjectRef | null>(null);
  const openActions = (project: ProjectRef, trigger: HTMLButtonElement) => {
    actionsTrigger.current = trigger;
    setActionsFor(project);
  };

  const usage = data?.viewer.organization.usage;
  const atQuota = usage ? usage.projects >= usage.projectsLimit : false;
  const plan = data ? PLAN_LABEL[data.viewer.organization.plan] : '';
  const projects = data?.projects ?? [];

  return (
    <section className="page" aria-labelledby="projects-title">
      <div className="page-header">
        <h1 id="projects-title">Projects</h1>
        <div className="page-actions">
          {atQuota && usage && (
            <p id="quota-note" className="muted small">
              The {plan} plan allows {usage.projectsLimit} {usage.projectsLimit === 1 ? 'project' : 'projects'}. Delete
              one to add another.
            </p>
          )}
          <Button
            variant="primary"
            onPress={() => setCreating(true)}
            isDisabled={!data || atQuota}
            aria-describedby={atQuota ? 'quota-note' : undefined}
          >
            New project
          </Button>
        </div>
      </div>

      {fetching && !data && <Loading label="Loading projects…" />}
      <ErrorMessage problem={problemOf(error)} title="The projects could not be loaded">
        <Button onPress={() => refetch({ requestPolicy: 'network-only' })}>Try again</Button>
      </ErrorMessage>

      {data && projects.length === 0 && (
        <EmptyState title="No projects yet">
          <p>
            A project is a website you audit and track. Add your first one with its URL; you can run its first audit
            right away.
          </p>
          <Button variant="primary" onPress={() => setCreating(true)} isDisabled={atQuota}>
            Add your first project
          </Button>
        </EmptyState>
      )}

      {projects.length > 0 && (
        <>
          <DataTable
            label="Projects"
            caption="Projects with their latest audit"
            columns={projectColumns(actionsFor?.id ?? null, openActions)}
            rows={projects}
            rowKey={(p) => p.id}
          />
          <Popover
            className="popover"
            placement="bottom end"
            triggerRef={actionsTrigger}
            aria-label={actionsFor ? `Actions for ${actionsFor.name}` : undefined}
            isOpen={actionsFor !== null}
            onOpenChange={(open) => !open && setActionsFor(null)}
          >
            {actionsFor && (
              <Menu
                className="menu"
                aria-label={`Actions for ${actionsFor.name}`}
                autoFocus="first"
                onAction={(key) => {
                  const project = actionsFor;
                  setActionsFor(null);
                  if (key === 'open') void navigate({ to: '/projects/$projectId', params: { projectId: project.id } });
                  if (key === 'edit') setRenaming(project);
                  if (key === 'delete') setDeleting(project);
                }}
              >
                <MenuItem id="open" className="menu-item">
                  Open
                </MenuItem>
                <MenuItem id="edit" className="menu-item">
                  Edit
                </MenuItem>
                <MenuItem id="delete" className="menu-item menu-item-danger">
                  Delete…
                </MenuItem>
              </Menu>
            )}
          </Popover>
        </>
      )}

      <NewProjectDialog
        isOpen={creating}
        onOpenChange={setCreating}
        onCreated={(id) => void navigate({ to: '/projects/$projectId', params: { projectId: id } })}
      />
      <RenameProjectDialog project={renaming} onClose={() => setRenaming(null)} />
      <DeleteProjectDialog
        project={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          setDeleting(null);
          refetch({ requestPolicy: 'network-only' });
        }}
      />
    </section>
  );
}
