import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, EmptyState, ErrorMessage, FormProblem, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { ApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument, ViewerDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { PREFETCHED } from '../../lib/urql';
import { formatDateTime, formatRelative } from '../../lib/format';
import { API_ACCESS_TEXT, PLAN_LABEL } from '../../lib/plan';
import { CopyButton } from '../../components/copy-button';

interface KeyRef {
  id: string;
  name: string;
  prefix: string;
}

function CreateKeyDialog({
  isOpen,
  onOpenChange,
  onCreated,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  onCreated(): void;
}) {
  const [result, create] = useMutation(CreateApiKeyDocument);
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const problem = submitted ? problemOf(result.error, { name: 'Name' }) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const res = await create({ name: String(new FormData(event.currentTarget).get('name') ?? '').trim() });
    if (res.data) {
      setShown({ key: res.data.createApiKey.key, name: res.data.createApiKey.apiKey.name });
      onCreated();
    }
  }
  // The key lives only in this component's state: it is gone when the dialog closes.
  const close = () => {
    setShown(null);
    setSubmitted(false);
    onOpenChange(false);
  };

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={(open) => (open ? onOpenChange(true) : close())}
      title={shown ? 'Your new API key' : 'Create API key'}
      isDismissable={!shown}
    >
      {shown ? (
        <div className="form">
          <Callout tone="warning" title="Copy the key now">
            <p>
              It will not be shown again: only its fingerprint is stored. If you lose it, revoke it and create another.
            </p>
          </Callout>
          <TextField label={`API key “${shown.name}”`} value={shown.key} isReadOnly className="key-field" />
          <CopyButton text={shown.key} label="Copy key" what="key" />
          <p className="muted small">
            Send it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>/api/v1</code> or <code>/graphql</code>.
          </p>
          <div className="dialog-actions">
            <Button variant="primary" onPress={close}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <Form className="form" onSubmit={(event) => void submit(event)} validationErrors={problem?.fields}>
          <FormProblem problem={problem} />
          <TextField
            name="name"
            label="Name"
            isRequired
            autoFocus
            maxLength={100}
            description="What the key is for, e.g. “CI pipeline” or “Looker dashboard”."
          />
          <div className="dialog-actions">
            <Button onPress={close}>Cancel</Button>
            <Button type="submit" variant="primary" isPending={result.fetching}>
              Create key
            </Button>
          </div>
        </Form>
      )}
    </FormDialog>
  );
}

export function ApiKeysPage() {
  useDocumentTitle('API keys');
  const [viewer, refetchViewer] = useQuery({ query: ViewerDocument, ...PREFETCHED });
  const role = viewer.data?.viewer.role;
  const manages = role === 'owner' || role === 'admin';
  const [keys, refetchKeys] = useQuery({ query: ApiKeysDocument, pause: !manages });
  const [revokeResult, revoke] = useMutation(RevokeApiKeyDocument);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<KeyRef | null>(null);

  if (viewer.fetching && !viewer.data) return <Loading label="Loading API keys…" />;
  const org = viewer.data?.viewer.organization;
  if (!org) return <ErrorMessage problem={problemOf(viewer.error)} title="Settings could not be loaded" />;
  const usage = org.usage;
  const atLimit = usage.apiKeys >= usage.apiKeysLimit;
  const refresh = () => {
    refetchKeys({ requestPolicy: 'network-only' });
    refetchViewer({ requestPolicy: 'network-only' });
  };
  async function confirmRevoke() {
    if (!revoking) return;
    const res = await revoke({ id: revoking.id });
    if (!res.error) {
      setRevoking(null);
      refresh();
    }
  }

  return (
    <div className="settings-section">
      <div className="section-header">
        <div>
          <h2>API keys</h2>
          <p className="muted">
            Keys let scripts and dashboards use the REST API (/api/v1) and GraphQL for {org.name}.
          </p>
        </div>
        {manages && (
          <div className="page-actions">
            {atLimit && (
              <p id="key-limit" className="muted small">
                At most {usage.apiKeysLimit} active keys per organization. Revoke one to create another.
              </p>
            )}
            <Button
              variant="primary"
              onPress={() => setCreating(true)}
              isDisabled={atLimit}
              aria-describedby={atLimit ? 'key-limit' : undefined}
            >
              Create API key
            </Button>
          </div>
        )}
      </div>

      <Callout tone={org.apiAccess === 'NONE' ? 'warning' : 'info'} title={`${PLAN_LABEL[org.plan]} plan`}>
        <p>{API_ACCESS_TEXT[org.apiAccess]}</p>
      </Callout>

      {!manages ? (
        <Callout title="Owners and admins manage API keys">
          <p>Your role in this organization is “{role}”. Ask an owner or admin for a key.</p>
        </Callout>
      ) : keys.fetching && !keys.data ? (
        <Loading label="Loading API keys…" />
      ) : !keys.data ? (
        <ErrorMessage problem={problemOf(keys.error)} title="The keys could not be loaded" />
      ) : keys.data.apiKeys.length === 0 ? (
        <EmptyState title="No API keys yet">
          <p>Create a key to call the API from scripts, CI pipelines or dashboards.</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">API keys of {org.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.apiKeys.map((k) => (
                <tr key={k.id} className={k.revokedAt ? 'row-muted' : undefined}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>
                    <time dateTime={k.createdAt}>{formatDateTime(k.createdAt)}</time>
                  </td>
                  <td>
                    {k.lastUsedAt ? (
                      <time dateTime={k.lastUsedAt} title={formatDateTime(k.lastUsedAt)}>
                        {formatRelative(k.lastUsedAt)}
                      </time>
                    ) : (
                      <span className="muted">Never</span>
                    )}
                  </td>
                  <td className="cell-actions">
                    {k.revokedAt ? (
                      <span className="badge badge-status-cancelled">Revoked {formatRelative(k.revokedAt)}</span>
                    ) : (
                      <Button variant="danger" onPress={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <CreateKeyDialog isOpen={creating} onOpenChange={setCreating} onCreated={refresh} />
      <ConfirmDialog
        isOpen={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={revoking ? `Revoke “${revoking.name}”?` : 'Revoke key'}
        confirmLabel="Revoke key"
        isPending={revokeResult.fetching}
        onConfirm={() => void confirmRevoke()}
      >
        <p>
          Requests with the key <code>{revoking?.prefix}…</code> are refused from now on (401). This cannot be undone.
        </p>
        {revokeResult.error && (
          <p className="field-error" role="alert">
            {problemOf(revokeResult.error)?.message}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
