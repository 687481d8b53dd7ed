import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { Callout, EmptyState, ErrorMessage, FormProblem, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  AlertWebhookDeliveriesDocument,
  CreateAlertWebhookDocument,
  DeleteAlertWebhookDocument,
  RedeliverAlertWebhookDocument,
  RotateAlertWebhookSecretDocument,
  SendAlertTestWebhookDocument,
  UpdateAlertWebhookDocument,
  type AlertEndpointFieldsFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime, formatNumber, formatRelative } from '../../lib/format';
import { CopyButton } from '../../components/copy-button';

type Endpoint = AlertEndpointFieldsFragment;
/** A URL or answer column keeps room to read at 375 px (the table scrolls inside .table-wrap). */
const WIDE = { minWidth: '12rem' };

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
              (the README’s “Alerts” section has a verification snippet). Lost it? Rotate the secret.
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
 * Where the delivery an attempt belongs to stands: delivered, retrying (when), given up or skipped with the reason.
 * Attempts logged before deliveries were recorded have no status: nothing is shown.
 */
function DeliveryStatus({
  d,
}: {
  d: { status?: string | null; reason?: string | null; nextAttemptAt?: string | null };
}) {
  switch (d.status) {
    case 'DELIVERED':
      return <span className="badge badge-status-completed">Delivered</span>;
    case 'PENDING':
      return (
        <>
          <span className="badge badge-status-queued">Retrying</span>
          {d.nextAttemptAt && (
            <span className="muted small">
              {' '}
              <time dateTime={d.nextAttemptAt} title={formatDateTime(d.nextAttemptAt)}>
                {formatRelative(d.nextAttemptAt)}
              </time>
            </span>
          )}
        </>
      );
    case 'ABANDONED':
    case 'SKIPPED':
      return (
        <>
          <span className="badge badge-status-failed">{d.status === 'ABANDONED' ? 'Abandoned' : 'Skipped'}</span>
          {d.reason && <span className="small"> {d.reason}</span>}
        </>
      );
    default:
      return <span className="muted">—</span>;
  }
}

/** An endpoint's delivery attempts, newest first, 20 at a time, each failed or not one redeliverable. */
function DeliveryLog({ endpoint, onChanged }: { endpoint: Endpoint; onChanged(message: string): void }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const [{ data, fetching, error }, refetch] = useQuery({
    query: AlertWebhookDeliveriesDocument,
    variables: { endpointId: endpoint.id, after },
    requestPolicy: 'cache-and-network',
  });
  const [redelivery, redeliver] = useMutation(RedeliverAlertWebhookDocument);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const log = data?.webhookDeliveries;

  async function again(id: string) {
    setPendingId(id);
    const res = await redeliver({ deliveryId: id });
    setPendingId(null);
    if (!res.error) onChanged('Redelivery queued: it appears in the log once sent.');
  }

  return (
    <section className="card" aria-labelledby="log-title">
      <div className="card-head">
        <h2 id="log-title">Delivery log</h2>
        <span className="muted small url-text">{endpoint.url}</span>
      </div>
      {redelivery.error && <ErrorMessage problem={problemOf(redelivery.error)} title="Not redelivered" />}
      {fetching && !log ? (
        <Loading label="Loading deliveries…" />
      ) : !log ? (
        <ErrorMessage problem={problemOf(error)} title="The delivery log could not be loaded" />
      ) : log.totalCount === 0 ? (
        <p className="muted">No delivery yet. Send a test event to try the endpoint.</p>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Delivery attempts" tabIndex={0}>
            <table className="table table-compact">
              <caption className="visually-hidden">Delivery attempts to {endpoint.url}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Event</th>
                  <th scope="col" className="numeric">
                    Attempt
                  </th>
                  <th scope="col">Result</th>
                  <th scope="col">Delivery</th>
                  <th scope="col" className="numeric">
                    Latency
                  </th>
                  <th scope="col">Response</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.nodes.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <time dateTime={d.createdAt} title={formatDateTime(d.createdAt)}>
                        {formatRelative(d.createdAt)}
                      </time>
                    </td>
                    <td>
                      <code>{d.eventType}</code> {d.manual && <span className="badge">manual</span>}
                    </td>
                    <td className="numeric">{d.attempt}</td>
                    <td>
                      <span className={`badge ${d.succeeded ? 'badge-status-completed' : 'badge-status-failed'}`}>
                        {d.succeeded ? 'Delivered' : 'Failed'}
                      </span>{' '}
                      {d.statusCode !== null ? `HTTP ${d.statusCode}` : ''}
                      {d.error && <span className="muted small"> {d.error}</span>}
                    </td>
                    <td>
                      <DeliveryStatus d={d} />
                    </td>
                    <td className="numeric">{formatNumber(d.latencyMs)} ms</td>
                    <td className="url-text small" style={WIDE}>
                      {d.responseExcerpt ?? <span className="muted">—</span>}
                    </td>
                    <td className="cell-actions">
                      <Button
                        onPress={() => void again(d.id)}
                        isPending={pendingId === d.id}
                        aria-label={`Redeliver ${d.eventType} attempt ${d.attempt} of ${formatDateTime(d.createdAt)}`}
                      >
                        Redeliver
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="page-actions">
            <span className="muted small">{formatNumber(log.totalCount)} attempts in all</span>
            <Button onPress={() => refetch({ requestPolicy: 'network-only' })}>Refresh</Button>
            {cursors.length > 1 && <Button onPress={() => setCursors([null])}>Newest</Button>}
            {log.pageInfo.hasNextPage && log.pageInfo.endCursor && (
              <Button onPress={() => setCursors([...cursors, log.pageInfo.endCursor])}>Older</Button>
            )}
          </div>
        </>
      )}
    </section>
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
          <div className="table-wrap" role="region" aria-label="Webhook endpoints" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">Webhook endpoints of the project</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last delivery</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((e) => (
                  <tr key={e.id} className={e.enabled ? undefined : 'row-muted'}>
                    <th scope="row" className="url-text" style={WIDE}>
                      {e.url}
                      {e.description && <span className="muted small"> · {e.description}</span>}
                    </th>
                    <td>{e.enabled ? 'Enabled' : 'Disabled'}</td>
                    <td>
                      {e.lastDelivery ? (
                        <>
                          {e.lastDelivery.succeeded
                            ? 'Delivered'
                            : e.lastDelivery.status === 'ABANDONED'
                              ? 'Abandoned'
                              : 'Failed'}{' '}
                          <time dateTime={e.lastDelivery.createdAt} title={formatDateTime(e.lastDelivery.createdAt)}>
                            {formatRelative(e.lastDelivery.createdAt)}
                          </time>
                          {e.lastDelivery.status === 'ABANDONED' && e.lastDelivery.reason && (
                            <span className="muted small"> {e.lastDelivery.reason}</span>
                          )}
                        </>
                      ) : (
                        <span className="muted">None yet</span>
                      )}
                    </td>
                    <td className="cell-actions">
                      <Button onPress={() => setSelected(e.id)} aria-label={`Delivery log of ${e.url}`}>
                        Delivery log
                      </Button>
                      <Button
                        onPress={() =>
                          void sendTest({ endpointId: e.id }).then(
                            (r) => !r.error && onChanged(`Test event queued for ${e.url}.`),
                          )
                        }
                        isPending={test.fetching}
                        aria-label={`Send test event to ${e.url}`}
                      >
                        Send test event
                      </Button>
                      <Button
                        onPress={() =>
                          void update({ id: e.id, input: { enabled: !e.enabled } }).then(
                            (r) => !r.error && onChanged(`${e.url} ${e.enabled ? 'disabled' : 'enabled'}.`),
                          )
                        }
                        aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}
                      >
                        {e.enabled ? 'Disable' : 'Enable'}
                      </Button>
                      <Button onPress={() => setRotating(e)} aria-label={`Rotate secret of ${e.url}`}>
                        Rotate secret
                      </Button>
                      <Button variant="danger" onPress={() => setDeleting(e)} aria-label={`Delete ${e.url}`}>
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
