import { useQuery } from 'urql';
import { SelectField } from '../../components/select-field';
import { AuditSegmentSummaryDocument, ProjectSegmentChoicesDocument } from '../../gql/graphql';
import { formatNumber } from '../../lib/format';

const ALL = 'all';

/**
 * The segment selector of an audit's views: "All URLs" or one of the project's segments (Project settings →
 * Segments). Nothing is shown while the project has none.
 */
export function SegmentPicker({
  projectId,
  segment,
  onChange,
}: {
  projectId: string;
  segment: string | undefined;
  onChange: (segment: string | undefined) => void;
}) {
  const [{ data }] = useQuery({ query: ProjectSegmentChoicesDocument, variables: { projectId } });
  const segments = data?.project.segments ?? [];
  if (!segments.length) return null;
  return (
    <SelectField
      className="segment-picker"
      label="Segment"
      options={[{ id: ALL, label: 'All URLs' }, ...segments.map((s) => ({ id: s.id, label: s.name }))]}
      value={segment && segments.some((s) => s.id === segment) ? segment : ALL}
      onChange={(id) => onChange(id === ALL ? undefined : id)}
    />
  );
}

/** One segment in the audit: its URLs, score, health and issue counts (the audit's scoring over its URLs). */
export function SegmentSummary({
  projectId,
  auditId,
  segmentId,
}: {
  projectId: string;
  auditId: string;
  segmentId: string;
}) {
  const [{ data, error }] = useQuery({
    query: AuditSegmentSummaryDocument,
    variables: { projectId, auditId, segmentId },
  });
  if (error) return <p className="muted small">This segment is not part of the project any more.</p>;
  const s = data?.audit.segment;
  if (!s) return null;
  return (
    <section className="card segment-summary" aria-label={`Segment ${s.segment.name}`}>
      <h2 className="h3">Segment: {s.segment.name}</h2>
      <dl className="facts">
        <div>
          <dt>URLs</dt>
          <dd>{formatNumber(s.urls)}</dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>{s.scores.overall}</dd>
        </div>
        <div>
          <dt>Health</dt>
          <dd>{s.health}%</dd>
        </div>
        <div>
          <dt>Critical</dt>
          <dd>{formatNumber(s.issueCounts.critical)}</dd>
        </div>
        <div>
          <dt>Warnings</dt>
          <dd>{formatNumber(s.issueCounts.warning)}</dd>
        </div>
        <div>
          <dt>Notices</dt>
          <dd>{formatNumber(s.issueCounts.notice)}</dd>
        </div>
      </dl>
    </section>
  );
}
