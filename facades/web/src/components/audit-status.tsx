import type { AuditStatus } from '../gql/graphql';

const LABEL: Record<AuditStatus, string> = {
  QUEUED: 'Queued',
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

export const auditStatusLabel = (status: AuditStatus): string => LABEL[status];

export const isActiveAudit = (status: AuditStatus): boolean => status === 'QUEUED' || status === 'RUNNING';

export function AuditStatusBadge({ status }: { status: AuditStatus }) {
  return <span className={`badge badge-status-${status.toLowerCase()}`}>{LABEL[status]}</span>;
}
