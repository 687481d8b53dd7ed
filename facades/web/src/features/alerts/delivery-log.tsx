import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage, Loading } from '../../components/status';
import {
  AlertWebhookDeliveriesDocument,
  RedeliverAlertWebhookDocument,
  type AlertEndpointFieldsFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime, formatNumber, formatRelative } from '../../lib/format';

export type Endpoint = AlertEndpointFieldsFragment;
/** A URL or answer column keeps room to read at 375 px (the table scrolls inside .table-wrap). */
export const WIDE = { minWidth: '12rem' };

/**
 * Where the delivery an attempt belongs to stands: delivered, retrying (when), given up or skipped with the reason.
 * Attempts logged before deliveries were recorded have no status: nothing is shown.
 */
export function DeliveryStatus({
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
export function DeliveryLog({ endpoint, onChanged }: { endpoint: Endpoint; onChanged(message: string): void }) {
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
