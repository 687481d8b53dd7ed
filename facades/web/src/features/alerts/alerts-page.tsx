import { useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { Checkbox } from 'react-aria-components';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, EmptyState, ErrorMessage, Loading, PageLoadError } from '../../components/status';
import {
  DeleteAlertRuleDocument,
  ProjectAlertsDocument,
  SetAlertEmailPreferenceDocument,
  type AlertEmailFieldsFragment,
  type AlertRuleFieldsFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { ProjectSectionHeader } from '../../components/section-header';
import { RuleDialog } from './rule-dialog';
import { WebhooksSection } from './webhooks-section';

const route = getRouteApi('/app/projects/$projectId/alerts');

const CHANNEL_LABEL = { EMAIL: 'E-mail', WEBHOOK: 'Webhooks' } as const;

function RulesTable({
  rules,
  onEdit,
  onDelete,
}: {
  rules: readonly AlertRuleFieldsFragment[];
  onEdit(rule: AlertRuleFieldsFragment): void;
  onDelete(rule: AlertRuleFieldsFragment): void;
}) {
  const columns: Column<AlertRuleFieldsFragment>[] = [
    { id: 'when', header: 'Alert when', cell: (r) => r.description, rowHeader: true },
    { id: 'to', header: 'Sent to', cell: (r) => r.channels.map((c) => CHANNEL_LABEL[c]).join(', ') },
    { id: 'status', header: 'Status', cell: (r) => (r.enabled ? 'Enabled' : 'Disabled') },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      className: 'cell-actions',
      cell: (r) => (
        <>
          <Button onPress={() => onEdit(r)} aria-label={`Edit rule: ${r.description}`}>
            Edit
          </Button>
          <Button variant="danger" onPress={() => onDelete(r)} aria-label={`Delete rule: ${r.description}`}>
            Delete
          </Button>
        </>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rules}
      rowKey={(r) => r.id}
      label="Alert rules"
      caption="Alert rules of the project"
      rowClassName={(r) => (r.enabled ? undefined : 'row-muted')}
    />
  );
}

/** The signed-in member's own alert e-mails for this project; each choice is saved as it is made. */
function EmailPreferences({ projectId, pref }: { projectId: string; pref: AlertEmailFieldsFragment }) {
  const [result, save] = useMutation(SetAlertEmailPreferenceDocument);
  const [saved, setSaved] = useState('');
  async function set(input: { immediate?: boolean; weeklyDigest?: boolean }) {
    setSaved('');
    const res = await save({ projectId, input });
    if (!res.error) setSaved('Saved.');
  }
  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">E-mail</h2>
      <p className="muted small">Your own choice, sent to {pref.email}; every e-mail has an unsubscribe link.</p>
      {!pref.mailConfigured && (
        <Callout tone="warning" title="Mail is not configured on this server">
          <p>
            Your choices are kept, and nothing is sent until <code>SMTP_URL</code> is set.
          </p>
        </Callout>
      )}
      <div className="radio-group">
        <Checkbox
          className="checkbox"
          isSelected={pref.immediate}
          onChange={(v) => void set({ immediate: v })}
          isDisabled={result.fetching}
        >
          <span className="checkbox-box" aria-hidden="true" />
          E-mail me each alert of this project as it happens
        </Checkbox>
        <Checkbox
          className="checkbox"
          isSelected={pref.weeklyDigest}
          onChange={(v) => void set({ weeklyDigest: v })}
          isDisabled={result.fetching}
        >
          <span className="checkbox-box" aria-hidden="true" />
          E-mail me a weekly digest (score trend, new critical issues, keyword movers)
        </Checkbox>
      </div>
      <p className="muted small" role="status">
        {saved}
      </p>
      {result.error && <ErrorMessage problem={problemOf(result.error)} title="Not saved" />}
    </section>
  );
}

export function AlertsPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }, refetch] = useQuery({ query: ProjectAlertsDocument, variables: { projectId } });
  const [editing, setEditing] = useState<AlertRuleFieldsFragment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AlertRuleFieldsFragment | null>(null);
  const [removal, remove] = useMutation(DeleteAlertRuleDocument);
  const [notice, setNotice] = useState('');
  useDocumentTitle(data ? `Alerts · ${data.project.name}` : 'Alerts');

  if (fetching && !data) return <Loading label="Loading alerts…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const { project, alertRules: rules, webhookEndpoints: endpoints, alertEmailPreference: pref } = data;
  const changed = (message: string) => {
    setNotice(message);
    refetch({ requestPolicy: 'network-only' });
  };

  async function confirmDelete() {
    if (!deleting) return;
    const res = await remove({ id: deleting.id });
    if (!res.error) {
      setDeleting(null);
      changed('Rule deleted.');
    }
  }

  return (
    <section className="page" aria-labelledby="alerts-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Alerts"
        titleId="alerts-title"
        description={
          <p className="muted">
            Rules that tell you, by e-mail or webhook, when {project.domain} gets worse: checked when an audit completes
            and after each rank check.
          </p>
        }
        actions={
          <Button variant="primary" onPress={() => setEditing('new')}>
            Add rule
          </Button>
        }
      />
      <p className="muted small" role="status">
        {notice}
      </p>

      <section className="card" aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        {rules.length === 0 ? (
          <EmptyState title="No alert rules yet">
            <p>Add a rule, e.g. “the overall score drops by 5 points” or “a keyword leaves the top 10”.</p>
          </EmptyState>
        ) : (
          <RulesTable rules={rules} onEdit={setEditing} onDelete={setDeleting} />
        )}
      </section>

      <EmailPreferences projectId={projectId} pref={pref} />
      <WebhooksSection projectId={projectId} endpoints={endpoints} onChanged={changed} />

      {editing && (
        <RuleDialog
          key={editing === 'new' ? 'new' : editing.id}
          isOpen
          onOpenChange={(open) => !open && setEditing(null)}
          projectId={projectId}
          rule={editing === 'new' ? null : editing}
          onSaved={changed}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete rule?"
        confirmLabel="Delete rule"
        onConfirm={() => void confirmDelete()}
        isPending={removal.fetching}
      >
        <p>“{deleting?.description}” will raise no more alerts. Alerts it sent stay in the delivery logs.</p>
        {removal.error && <p role="alert">{problemOf(removal.error)?.message}</p>}
      </ConfirmDialog>
    </section>
  );
}
