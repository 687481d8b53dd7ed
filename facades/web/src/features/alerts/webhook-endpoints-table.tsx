import { Button } from '../../components/button';
import { formatDateTime, formatRelative } from '../../lib/format';
import type { Endpoint } from './delivery-log';
import { WIDE } from './delivery-log';

/** How the last delivery to an endpoint went, and when. */
function LastDelivery({ delivery }: { delivery: Endpoint['lastDelivery'] }) {
  if (!delivery) return <span className="muted">None yet</span>;
  return (
    <>
      {delivery.succeeded ? 'Delivered' : delivery.status === 'ABANDONED' ? 'Abandoned' : 'Failed'}{' '}
      <time dateTime={delivery.createdAt} title={formatDateTime(delivery.createdAt)}>
        {formatRelative(delivery.createdAt)}
      </time>
      {delivery.status === 'ABANDONED' && delivery.reason && <span className="muted small"> {delivery.reason}</span>}
    </>
  );
}

/** The endpoints with their status, last delivery and actions (the dialogs stay with the section). */
export function EndpointsTable({
  endpoints,
  testPending,
  onSelect,
  onTest,
  onToggle,
  onRotate,
  onDelete,
}: {
  endpoints: readonly Endpoint[];
  testPending: boolean;
  onSelect(endpoint: Endpoint): void;
  onTest(endpoint: Endpoint): void;
  onToggle(endpoint: Endpoint): void;
  onRotate(endpoint: Endpoint): void;
  onDelete(endpoint: Endpoint): void;
}) {
  return (
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
                <LastDelivery delivery={e.lastDelivery} />
              </td>
              <td className="cell-actions">
                <Button onPress={() => onSelect(e)} aria-label={`Delivery log of ${e.url}`}>
                  Delivery log
                </Button>
                <Button onPress={() => onTest(e)} isPending={testPending} aria-label={`Send test event to ${e.url}`}>
                  Send test event
                </Button>
                <Button onPress={() => onToggle(e)} aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}>
                  {e.enabled ? 'Disable' : 'Enable'}
                </Button>
                <Button onPress={() => onRotate(e)} aria-label={`Rotate secret of ${e.url}`}>
                  Rotate secret
                </Button>
                <Button variant="danger" onPress={() => onDelete(e)} aria-label={`Delete ${e.url}`}>
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
