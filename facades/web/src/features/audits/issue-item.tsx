import { AboutCheckLink } from '../checks';
import { useQuery } from 'urql';
import { IssueGuidanceDocument, type IssueCategory, type Severity } from '../../gql/graphql';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { formatNumber, plural } from '../../lib/format';
import { Link } from '@tanstack/react-router';
import { extentText } from './audit-counts';
import { SeverityBadge } from '../../components/severity';
import { SEVERITIES } from './search-params';
import type { IssueRow } from './issue-rows';

/** "Why it matters" and "How to fix" from the catalog, asked for when the issue is opened. */
export function IssueGuidance(scope: { projectId: string; auditId: string; issueId: string }) {
  const [{ data }] = useQuery({ query: IssueGuidanceDocument, variables: scope, requestPolicy: 'cache-first' });
  const issue = data?.audit.issue;
  if (!issue?.whyItMatters && !issue?.howToFix) return null;
  return (
    <dl className="issue-guidance">
      {issue.whyItMatters && (
        <>
          <dt>Why it matters</dt>
          <dd>{issue.whyItMatters}</dd>
        </>
      )}
      {issue.howToFix && (
        <>
          <dt>How to fix</dt>
          <dd>{issue.howToFix}</dd>
        </>
      )}
    </dl>
  );
}

/** The fixes shown in an opened issue: the widest first, with the pages each is on. */
const FIXES_SHOWN = 5;

/** A fix-grouped issue's widest fixes: each cause (a target URL, a repeated element) once, with its reach. */
function IssueFixes({ fixes }: { fixes: NonNullable<IssueRow['fixes']> }) {
  const shown = fixes.listed.slice(0, FIXES_SHOWN);
  return (
    <div className="issue-fix-list">
      <p className="small">
        <strong>{plural(fixes.count, 'fix', 'fixes')}</strong>: each is charged once, by the pages it is on.
      </p>
      <ul className="small">
        {shown.map((f) => (
          <li key={f.cause}>
            <code className="url-text">{f.cause}</code> <span className="muted">{plural(f.pages, 'page')}</span>
          </li>
        ))}
      </ul>
      {fixes.count > shown.length && (
        <p className="muted small">and {plural(fixes.count - shown.length, 'more fix', 'more fixes')}.</p>
      )}
    </div>
  );
}

export function IssueItem({
  issue,
  expanded,
  onToggle,
  projectId,
  auditId,
  showCategory,
  segment,
}: {
  issue: IssueRow;
  /** In one list across categories, each issue says which it belongs to. */
  showCategory: boolean;
  expanded: boolean;
  onToggle(): void;
  projectId: string;
  auditId: string;
  /** The segment the list is narrowed to: the issue's URLs open narrowed to it too. */
  segment?: string;
}) {
  const panelId = `issue-panel-${issue.id}`;
  return (
    <div className={`issue ${expanded ? 'issue-open' : ''}`}>
      <h3 className="issue-heading">
        <button
          type="button"
          className="issue-toggle"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
        >
          <SeverityBadge severity={issue.severity} />
          <span className="issue-title">
            {issue.title}
            {issue.rankingPages > 0 && (
              <span className="badge badge-ranking issue-ranking">{plural(issue.rankingPages, 'ranking page')}</span>
            )}
            {issue.wontFixCount > 0 && (
              <span className="badge issue-wont-fix">{formatNumber(issue.wontFixCount)} won't fix</span>
            )}
            {issue.fixes && <span className="issue-fixes">{issue.fixes.summary}</span>}
          </span>
          <span className="issue-category">{showCategory ? CATEGORY_LABEL[issue.category] : ''}</span>
          <span className="issue-pages">
            {issue.segmentOccurrences != null
              ? `${plural(issue.affectedPages, 'page')}, ${plural(issue.segmentOccurrences, 'occurrence')} in segment`
              : extentText(issue)}
          </span>
          <span className="chevron" aria-hidden="true">
            {expanded ? '▴' : '▾'}
          </span>
        </button>
      </h3>
      {expanded && (
        <div id={panelId} className="issue-panel">
          <p>{issue.description}</p>
          {issue.fixes && <IssueFixes fixes={issue.fixes} />}
          {issue.chargedElsewhere > 0 && (
            <p className="small">
              {plural(issue.chargedElsewhere, 'URL')} of these {issue.chargedElsewhere === 1 ? 'is' : 'are'} linked from
              crawled pages: listed here, and charged once in the score, as their broken links' fix.
            </p>
          )}
          <IssueGuidance projectId={projectId} auditId={auditId} issueId={issue.id} />
          <p className="muted small">
            Check <code>{issue.code}</code> · <AboutCheckLink code={issue.code} />
          </p>
          <p>
            <Link
              to="/projects/$projectId/audits/$auditId/issues/$issueId"
              params={{ projectId, auditId, issueId: issue.id }}
              search={segment ? { seg: segment } : {}}
              className="btn btn-secondary"
            >
              Open its {plural(issue.affectedPages, 'affected URL')}
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}

/** A category's heading in the grouped list, with its issues per severity. */
export function GroupHeading({ category, counts }: { category: IssueCategory; counts: Record<Severity, number> }) {
  return (
    <h2 className="group-heading">
      {CATEGORY_LABEL[category]}
      <span className="group-counts">
        {SEVERITIES.filter((s) => counts[s]).map((s) => (
          <SeverityBadge key={s} severity={s}>
            {plural(counts[s], SEVERITY_LABEL[s].toLowerCase(), s === 'CRITICAL' ? 'critical' : undefined)}
          </SeverityBadge>
        ))}
      </span>
    </h2>
  );
}
