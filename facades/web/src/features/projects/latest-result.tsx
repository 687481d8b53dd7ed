import { Link } from '@tanstack/react-router';
import { ScoreChange, ScoreRing } from '../../components/score';
import { Callout } from '../../components/status';
import { type OverviewAuditFragment } from '../../gql/graphql';
import { formatDateTime, plural } from '../../lib/format';
import { ScoreWhy } from './score-why';
import { CrawlNotes } from '../audits';

export const CATEGORIES: { key: keyof OverviewAuditFragment; label: string }[] = [
  { key: 'metaScore', label: 'Meta' },
  { key: 'contentScore', label: 'Content' },
  { key: 'linksScore', label: 'Links' },
  { key: 'technicalScore', label: 'Technical' },
  { key: 'performanceScore', label: 'Performance' },
];

export const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);

/** The project's URL over http when its audit failed on TLS over https (an http-only site, a bad certificate). */
export function httpAlternative(url: string, error: string | null): string | null {
  if (!error || !/TLS connection failed|certificate|SSL/i.test(error) || !/^https:\/\//i.test(url)) return null;
  return `http://${url.slice('https://'.length)}`;
}

/** A score change in words: "Up 3 points", "Down 2 points", "No change". */
export const scoreChangeWords = (change: number) =>
  change === 0 ? 'No change' : `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change)} points`;

/** An audit's pages, and for a completed audit with a completed one before it, what changed since that one. */
export function AuditLinks({
  projectId,
  auditId,
  previous,
}: {
  projectId: string;
  auditId: string;
  previous?: string;
}) {
  return (
    <span className="inline-links">
      <Link to="/projects/$projectId/audits/$auditId" params={{ projectId, auditId }}>
        Issues
      </Link>
      <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId }}>
        Pages
      </Link>
      {previous && (
        <Link to="/projects/$projectId/compare" params={{ projectId }} search={{ base: previous, head: auditId }}>
          Changes
        </Link>
      )}
    </span>
  );
}

export function LatestResult({
  projectId,
  audit,
  change,
  withheld,
}: {
  projectId: string;
  audit: OverviewAuditFragment;
  change: number | null;
  /** Scored with different check settings than the audit before: no change is shown. */
  withheld: boolean;
}) {
  return (
    <section className="card" aria-labelledby="scores-title">
      <div className="card-head">
        <h2 id="scores-title">Latest scores</h2>
        <span className="muted small">
          Audit of {formatDateTime(audit.completedAt ?? audit.createdAt)} · {plural(audit.pagesCrawled, 'URL')} crawled
        </span>
      </div>
      {audit.blockers.length > 0 && (
        <div role="alert" className="blocker-banner">
          <Callout tone="warning" title="This site cannot be indexed: the overall score is capped at 50">
            <ul>
              {audit.blockers.map((b) => (
                <li key={b.code}>{b.message}</li>
              ))}
            </ul>
          </Callout>
        </div>
      )}
      <div className="scores">
        <div className="score-main">
          <ScoreRing score={audit.overallScore} label="Overall" />
          {change === null && !withheld ? (
            <ScoreChange change={change} />
          ) : (
            <Link
              to="/projects/$projectId/compare"
              params={{ projectId }}
              search={{ head: audit.id }}
              className="score-change-link"
              aria-label={
                withheld
                  ? 'Scored with different check settings than the previous audit: see what changed'
                  : `${scoreChangeWords(change ?? 0)} since the previous audit: see what changed`
              }
            >
              <ScoreChange change={change} withheld={withheld} />
            </Link>
          )}
        </div>
        <div className="score-categories">
          {CATEGORIES.map((c) => (
            <ScoreRing key={c.key} score={audit[c.key] as number | null} label={c.label} size="small" />
          ))}
        </div>
      </div>
      <CrawlNotes audit={audit} />
      <ScoreWhy projectId={projectId} auditId={audit.id} />
      <div className="issue-summary">
        <span className="badge badge-critical">{audit.issueCounts.critical} critical</span>
        <span className="badge badge-warning">{plural(audit.issueCounts.warning, 'warning')}</span>
        <span className="badge badge-notice">{plural(audit.issueCounts.notice, 'notice')}</span>
        <Link
          to="/projects/$projectId/audits/$auditId"
          params={{ projectId, auditId: audit.id }}
          className="btn btn-primary"
        >
          View issues
        </Link>
        <Link
          to="/projects/$projectId/audits/$auditId/pages"
          params={{ projectId, auditId: audit.id }}
          className="btn btn-secondary"
        >
          Crawled pages
        </Link>
      </div>
    </section>
  );
}
