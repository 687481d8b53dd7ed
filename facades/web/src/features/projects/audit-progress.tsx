import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ProgressBar, Label } from 'react-aria-components';
import { Button } from '../../components/button';
import type { AuditPhase, OverviewAuditFragment } from '../../gql/graphql';
import { formatElapsed, formatNumber, plural } from '../../lib/format';

const PHASE: Record<AuditPhase, string> = {
  CRAWLING: 'Crawling pages',
  ANALYZING: 'Running site-wide checks',
  MEASURING: 'Measuring Core Web Vitals in a browser',
  SAVING: 'Saving the results',
};

/**
 * After its last page, a crawl waits for its links to other sites to answer (minutes when one slow host is linked a
 * thousand times): while checks remain, that wait is what the card shows, as N of M links.
 */
export function checkingExternalLinks(
  audit: Pick<
    OverviewAuditFragment,
    'status' | 'phase' | 'pagesQueued' | 'externalLinksChecked' | 'externalLinksFound'
  >,
): boolean {
  return (
    audit.status === 'RUNNING' &&
    audit.phase === 'CRAWLING' &&
    audit.pagesQueued === 0 &&
    audit.externalLinksFound > 0 &&
    audit.externalLinksChecked < audit.externalLinksFound
  );
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A queued or running audit: what it does now, how far it got, for how long; updated by the page's polling. */
export function AuditProgress({
  projectId,
  audit,
  onCancel,
  cancelling,
}: {
  projectId: string;
  audit: OverviewAuditFragment;
  onCancel(): void;
  cancelling: boolean;
}) {
  const now = useNow(1000);
  const running = audit.status === 'RUNNING';
  const found = Math.min(audit.maxPages, audit.pagesCrawled + audit.pagesQueued);
  const since = audit.startedAt ?? audit.createdAt;
  const external = checkingExternalLinks(audit);
  const phase = external
    ? 'Checking links to other sites'
    : running
      ? audit.phase
        ? PHASE[audit.phase]
        : 'Starting'
      : 'Waiting for a worker';
  const bar = external
    ? {
        value: audit.externalLinksChecked,
        max: audit.externalLinksFound,
        label: `${formatNumber(audit.externalLinksChecked)} of ${plural(audit.externalLinksFound, 'link')}`,
      }
    : {
        value: audit.pagesCrawled,
        max: Math.max(found, 1),
        label: `${formatNumber(audit.pagesCrawled)} of ${plural(found, 'page')}`,
      };
  return (
    <section className="card progress-card" aria-labelledby="progress-title">
      <div className="progress-head">
        <h2 id="progress-title">{running ? 'Audit running' : 'Audit queued'}</h2>
        <Button variant="danger" onPress={onCancel} isPending={cancelling}>
          Cancel audit
        </Button>
      </div>
      <ProgressBar
        className="progress"
        value={bar.value}
        maxValue={bar.max}
        isIndeterminate={!running || (!external && found === 0)}
        valueLabel={bar.label}
      >
        {({ percentage, valueText, isIndeterminate }) => (
          <>
            <div className="progress-labels">
              <Label>{phase}</Label>
              <span>{valueText}</span>
            </div>
            <div className="progress-track">
              <progress
                className={isIndeterminate ? 'progress-bar indeterminate' : 'progress-bar'}
                max={100}
                value={isIndeterminate ? undefined : percentage}
                aria-hidden="true"
              />
            </div>
          </>
        )}
      </ProgressBar>
      <dl className="facts" aria-live="off">
        <div>
          <dt>Pages crawled</dt>
          <dd>{formatNumber(audit.pagesCrawled)}</dd>
        </div>
        <div>
          <dt>Pages found</dt>
          <dd>{formatNumber(found)}</dd>
        </div>
        <div>
          <dt>Page limit</dt>
          <dd>{formatNumber(audit.maxPages)}</dd>
        </div>
        <div>
          <dt>Elapsed</dt>
          <dd>{formatElapsed(now - new Date(since).getTime())}</dd>
        </div>
      </dl>
      {audit.pagesCrawled > 0 && (
        <p className="small">
          <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId: audit.id }}>
            Browse the pages crawled so far
          </Link>
        </p>
      )}
    </section>
  );
}
