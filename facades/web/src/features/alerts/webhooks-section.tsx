import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { useMutation } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { Callout, EmptyState, ErrorMessage, FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  CreateAlertWebhookDocument,
  DeleteAlertWebhookDocument,
  RotateAlertWebhookSecretDocument,
  SendAlertTestWebhookDocument,
  UpdateAlertWebhookDocument,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { CopyButton } from '../../components/copy-button';
import type { Endpoint } from './delivery-log';
import { DeliveryLog } from './delivery-log';
import { EndpointsTable } from './webhook-endpoints-table';

/** The secret of a new endpoint, or of a rotated one: shown here once, copied, then gone with the dialog. */
function SecretDialog({ shown, onClose }: { shown: { url: string; secret: string } | null; onClose(): void }) {
  return (
    <FormDialog
      isOpen={shown !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Signing secret"
      isDismissable={false}
    >
      {shown && (
        <div className="form">
          <Callout tone="warning" title="Copy the secret now">
            <p>
              It will not be shown again. Your receiver checks each request’s <code>X-Signature</code> header with it
              (docs/alerts.md in the manual has a verification snippet). Lost it? Rotate the secret.
            </p>
          </Callout>
          <TextField label={`Signing secret for ${shown.url}`} value={shown.secret} isReadOnly className="key-field" />
          <CopyButton text={shown.secret} label="Copy secret" what="secret" />
          <div className="dialog-actions">
            <Button variant="primary" onPress={onClose}>
              Done
            </Button>
          </div>
        </div>
      )}
    </FormDialog>
  );
}

function AddEndpointForm({ projectId, onAdded }: { projectId: string; onAdded(url: string, secret: string): void }) {
  const [result, create] = useMutation(CreateAlertWebhookDocument);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const problem = submitted ? problemOf(result.error, { url: 'Endpoint URL', description: 'Description' }) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const res = await create({ projectId, input: { url: url.trim(), description: description.trim() || null } });
    if (res.data) {
      setUrl('');
      setDescription('');
      setSubmitted(false);
      onAdded(res.data.createWebhookEndpoint.endpoint.url, res.data.createWebhookEndpoint.secret);
    }
  }

  return (
    <Form className="form" onSubmit={(e) => void submit(e)} validationErrors={problem?.fields}>
      <FormProblem problem={problem} />
      <TextField
        name="url"
        label="Endpoint URL"
        value={url}
        onChange={setUrl}
        isRequired
        maxLength={2048}
        placeholder="https://hooks.example.com/seo"
        description={
          'Alerts are POSTed here as signed JSON. Private addresses are refused unless the server allows them.'
        }
      />
      <TextField
        name="description"
        label="Description"
        value={description}
        onChange={setDescription}
        maxLength={200}
        description="Optional: what the endpoint is for, e.g. “Slack relay”."
      />
      <div>
        <Button type="submit" variant="primary" isPending={result.fetching}>
          Add endpoint
        </Button>
      </div>
    </Form>
  );
}

/**
 * The project's webhook endpoints: add one (its secret shown once), send a test event, enable or disable it, rotate
 * its secret, delete it, and read its delivery log with redeliver.
 */
export function WebhooksSection({
  projectId,
  endpoints,
  onChanged,
}: {
  projectId: string;
  endpoints: readonly Endpoint[];
  onChanged(message: string): void;
}) {
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [test, sendTest] = useMutation(SendAlertTestWebhookDocument);
  const [toggle, update] = useMutation(UpdateAlertWebhookDocument);
  const [rotation, rotate] = useMutation(RotateAlertWebhookSecretDocument);
  const [removal, remove] = useMutation(DeleteAlertWebhookDocument);
  const shown = endpoints.find((e) => e.id === selected) ?? null;

  async function confirmRotate() {
    if (!rotating) return;
    const res = await rotate({ id: rotating.id });
    if (res.data) {
      setRotating(null);
      setSecret({ url: res.data.rotateWebhookSecret.endpoint.url, secret: res.data.rotateWebhookSecret.secret });
      onChanged('Secret rotated: the old one no longer verifies.');
    }
  }
  async function confirmDelete() {
    if (!deleting) return;
    const res = await remove({ id: deleting.id });
    if (!res.error) {
      if (selected === deleting.id) setSelected(null);
      setDeleting(null);
      onChanged('Endpoint deleted.');
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhook endpoints</h2>
        <p className="muted small">
          Each alert of a rule sending to webhooks is POSTed as JSON to every enabled endpoint, signed with the
          endpoint’s secret, and retried with growing delays until it is answered 2xx.
        </p>
        <AddEndpointForm
          projectId={projectId}
          onAdded={(url, s) => {
            setSecret({ url, secret: s });
            onChanged(`Endpoint ${url} added.`);
          }}
        />
        {(test.error ?? toggle.error) && (
          <ErrorMessage problem={problemOf(test.error ?? toggle.error)} title="The endpoint was not changed" />
        )}
        {endpoints.length === 0 ? (
          <EmptyState title="No webhook endpoints yet">
            <p>Add one above; rules that send to webhooks deliver to it.</p>
          </EmptyState>
        ) : (
          <EndpointsTable
            endpoints={endpoints}
            testPending={test.fetching}
            onSelect={(e) => setSelected(e.id)}
            onTest={(e) =>
              void sendTest({ endpointId: e.id }).then((r) => !r.error && onChanged(`Test event queued for ${e.url}.`))
            }
            onToggle={(e) =>
              void update({ id: e.id, input: { enabled: !e.enabled } }).then(
                (r) => !r.error && onChanged(`${e.url} ${e.enabled ? 'disabled' : 'enabled'}.`),
              )
            }
            onRotate={setRotating}
            onDelete={setDeleting}
          />
        )}
      </section>

      {shown && <DeliveryLog key={shown.id} endpoint={shown} onChanged={onChanged} />}

      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        isOpen={rotating !== null}
        onOpenChange={(open) => !open && setRotating(null)}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        onConfirm={() => void confirmRotate()}
        isPending={rotation.fetching}
      >
        <p>
          Deliveries to {rotating?.url} are signed with a new secret from now on; requests checked with the old one fail
          until the receiver has the new one.
        </p>
        {rotation.error && <p role="alert">{problemOf(rotation.error)?.message}</p>}
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() => void confirmDelete()}
        isPending={removal.fetching}
      >
        <p>{deleting?.url} will receive no more alerts, and its delivery log is deleted with it.</p>
        {removal.error && <p role="alert">{problemOf(removal.error)?.message}</p>}
      </ConfirmDialog>
    </>
  );
}
