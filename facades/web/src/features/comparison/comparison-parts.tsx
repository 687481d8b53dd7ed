import { type ComparedPageFragment, type IssueChange, type PageChange, type Severity } from '../../gql/graphql';
import { Callout } from '../../components/status';

export const CATEGORY_LABEL: Record<string, string> = {
  OVERALL: 'Overall',
  META: 'Meta',
  CONTENT: 'Content',
  LINKS: 'Links',
  TECHNICAL: 'Technical',
  PERFORMANCE: 'Performance',
};
export const CHANGE_LABEL: Record<PageChange, string> = {
  ADDED: 'New URL',
  REMOVED: 'No longer crawled',
  STATUS_CHANGED: 'Status changed',
  INDEXABILITY_CHANGED: 'Indexability changed',
};
export const ISSUE_CHANGE_LABEL: Record<IssueChange, string> = {
  NEW: 'New',
  FIXED: 'Fixed',
  GONE: 'Gone with its page',
  NOT_CHECKED: 'Not checked',
  NEWLY_CHECKED: 'Newly checked',
  PERSISTING: 'Persisting',
};
/** The changes whose URL is shown as the earlier audit saw it: the later one no longer has the issue. */
export const SEEN_BEFORE: ReadonlySet<IssueChange> = new Set(['FIXED', 'GONE', 'NOT_CHECKED']);

export interface Pair {
  projectId: string;
  base: string;
  head: string;
}

/** A signed change in points, with an arrow, said in words for screen readers. */
export function Delta({ delta, settingsChanged }: { delta: number | null; settingsChanged: boolean }) {
  if (delta === null) return <span className="muted">{settingsChanged ? 'Not comparable' : '—'}</span>;
  if (delta === 0) return <span className="change change-none">±0</span>;
  const up = delta > 0;
  return (
    <span className={`change ${up ? 'change-up' : 'change-down'}`}>
      <span aria-hidden="true">{up ? '▲' : '▼'}</span>
      {Math.abs(delta)}
      <span className="visually-hidden">{up ? ' points better' : ' points worse'}</span>
    </span>
  );
}

/**
 * A score scored again under the checks both audits ran and before "won't fix" markings (what the change compares),
 * when that differs from the stored one.
 */
export function SameChecks({
  score,
  comparable,
  basis = 'with the same checks',
}: {
  score: number | null;
  comparable: number | null;
  basis?: string;
}) {
  if (comparable === null || comparable === score) return null;
  return (
    <span className="muted small cell-note">
      {comparable} {basis}
    </span>
  );
}

/** Why the score changes compare marked audits as scored before their "won't fix" markings. */
export function WontFixNote() {
  return (
    <Callout tone="info" title="Some issues are marked “won’t fix”">
      <p>
        Marked issues are left out of an audit’s own scores. Their change below compares both audits as scored before
        any marking: accepting an issue is not progress, and undoing a marking is not a drop.
      </p>
    </Callout>
  );
}

export const severityBadge = (s: Severity | null) =>
  s ? <span className={`badge badge-${s.toLowerCase()}`}>{s.toLowerCase()}</span> : null;

export function PageSide({ side }: { side: ComparedPageFragment | null }) {
  if (!side) return <span className="muted">Not crawled</span>;
  return (
    <span>
      {side.statusCode ?? 'No response'} · {side.indexable ? 'indexable' : 'not indexable'}
    </span>
  );
}
