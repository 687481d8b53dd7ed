import { Link } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { AuditScoreBreakdownDocument, type AuditScoreBreakdownQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { CATEGORY_LABEL } from '../../lib/labels';
import { ErrorMessage } from '../../components/status';

/** The costs shown before "Show all": what takes most off the overall score first (docs/scores.md). */
const TOP = 5;

const points = (value: number) => `−${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)}`;

/**
 * "Why this score": health (the share of pages without a critical issue, half of the overall score) and the issues
 * that cost the most points, each linked to its place in the issues list. Loaded after the scores it explains.
 */
export function ScoreWhy({ projectId, auditId }: { projectId: string; auditId: string }) {
  const [{ data, error }] = useQuery({ query: AuditScoreBreakdownDocument, variables: { projectId, auditId } });
  const breakdown = data?.audit.scoreBreakdown;
  return (
    <section className="score-why" aria-labelledby="score-why-title">
      <h3 id="score-why-title">Why this score</h3>
      <ErrorMessage problem={problemOf(error)} title="The breakdown could not be loaded" />
      {data && !breakdown && (
        <p className="muted small">This audit was scored before breakdowns were kept; run an audit to see one.</p>
      )}
      {breakdown && (
        <>
          <p className="small">
            Half the overall score is health: <strong>{breakdown.health}%</strong> of the HTML pages (
            {formatNumber(breakdown.htmlPages - breakdown.pagesWithCritical)} of{' '}
            {plural(breakdown.htmlPages, 'HTML page')}) have no critical issue
            {breakdown.pagesShownWorse > 0 && (
              <>
                , {formatNumber(breakdown.pagesShownWorse)} of them counting 2/3: their on-page basics are missing, so
                search shows them worse
              </>
            )}
            . The other half is the categories, each 100 minus what its issues cost; a defect repeated by a template is
            one fix, charged once by the pages it is on.
          </p>
          {breakdown.cappedFrom !== null && (
            <p className="small">
              <strong>Capped at 50</strong> (from {breakdown.cappedFrom}): {breakdown.blockers.join(', ')} keeps search
              engines from the whole site.
            </p>
          )}
          {breakdown.wontFixExcluded > 0 && (
            <p className="small">
              {plural(breakdown.wontFixExcluded, 'occurrence')} marked “won't fix” by the project{' '}
              {breakdown.wontFixExcluded === 1 ? 'is' : 'are'} left out of this score (they stay listed in their
              issues).
            </p>
          )}
          {breakdown.indexability && (
            <p className="muted small">
              {plural(breakdown.indexability.indexable, 'indexable page')} of {plural(breakdown.htmlPages, 'page')}{' '}
              crawled.
            </p>
          )}
          {breakdown.costs.length === 0 ? (
            <p className="muted small">No issue costs any points.</p>
          ) : (
            <CostTable projectId={projectId} auditId={auditId} costs={breakdown.costs} />
          )}
        </>
      )}
    </section>
  );
}

type Cost = NonNullable<AuditScoreBreakdownQuery['audit']['scoreBreakdown']>['costs'][number];

function CostTable({ projectId, auditId, costs }: { projectId: string; auditId: string; costs: Cost[] }) {
  const shown = costs.slice(0, TOP);
  return (
    <div className="table-wrap">
      <table className="table table-compact">
        <caption className="visually-hidden">What costs points: what takes most off the overall score first</caption>
        <thead>
          <tr>
            <th scope="col">Issue</th>
            <th scope="col" className="col-category">
              Category
            </th>
            <th scope="col">Pages</th>
            <th scope="col" className="numeric">
              Points
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((c) => (
            <tr key={c.code}>
              <th scope="row">
                <Link
                  to="/projects/$projectId/audits/$auditId"
                  params={{ projectId, auditId }}
                  search={{ q: c.title }}
                  className="strong-link"
                >
                  {c.title}
                </Link>
                <span className={`badge badge-${c.severity.toLowerCase()} small`}>{c.severity.toLowerCase()}</span>
                {c.fixes && <span className="issue-fixes">{c.fixes.summary}</span>}
              </th>
              <td className="col-category">{CATEGORY_LABEL[c.category]}</td>
              <td>{c.scope === 'site' ? 'site' : formatNumber(c.affectedPages)}</td>
              <td className="numeric">{points(c.points)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {costs.length > TOP && (
        <p className="muted small">
          {plural(costs.length - TOP, 'more issue')} cost{costs.length - TOP === 1 ? 's' : ''} points too;{' '}
          <Link to="/projects/$projectId/audits/$auditId" params={{ projectId, auditId }} search={{}}>
            see every issue
          </Link>
          .
        </p>
      )}
    </div>
  );
}
