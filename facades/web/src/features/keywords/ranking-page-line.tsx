import { Link } from '@tanstack/react-router';
import type { KeywordRowFragment } from '../../gql/graphql';
import { formatNumber, plural } from '../../lib/format';
import { changeText, type Change } from './keyword-rows';

export type RankingPage = NonNullable<KeywordRowFragment['rankingPage']>;

/** "2 critical, 1 warning", or "no issues": the ranking page's issues by severity. */
export function issueCountsText({ critical, warning, notice }: RankingPage['issueCounts']): string {
  const parts = [
    critical ? plural(critical, 'critical', 'critical') : '',
    warning ? plural(warning, 'warning') : '',
    notice ? plural(notice, 'notice') : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no issues';
}

/** The most severe issue titles shown beside the counts (the page view lists them all). */
export const SHOWN_TITLES = 2;

/**
 * Under the ranking URL: its page in the latest completed audit, as issue counts linking to that page's view, the
 * most severe issues by title, and its lab LCP.
 */
export function RankingPageLine({ projectId, term, page }: { projectId: string; term: string; page: RankingPage }) {
  const titles = page.issues.slice(0, SHOWN_TITLES).map((i) => i.title);
  const more = page.issues.length - titles.length;
  return (
    <span className="ranking-page small">
      <span className="muted">Ranking page: </span>
      <Link
        to="/projects/$projectId/audits/$auditId/page"
        params={{ projectId, auditId: page.auditId }}
        search={{ url: page.url }}
      >
        {issueCountsText(page.issueCounts)}
        <span className="visually-hidden"> on the page ranking for “{term}”</span>
      </Link>
      {titles.length > 0 && (
        <span className="muted">
          {' '}
          ({titles.join(', ')}
          {more > 0 ? `, ${formatNumber(more)} more` : ''})
        </span>
      )}
      {page.lcpMs !== null && <span className="muted"> · LCP {(page.lcpMs / 1000).toFixed(1)} s</span>}
    </span>
  );
}

export function ChangeCell({ change }: { change: Change }) {
  const words = changeText(change);
  if (change.kind === 'moved' && change.delta !== 0) {
    const up = change.delta > 0;
    return (
      <span className={up ? 'change change-up' : 'change change-down'}>
        <span aria-hidden="true">
          {up ? '▲' : '▼'} {Math.abs(change.delta)}
        </span>
        <span className="visually-hidden">{words}</span>
      </span>
    );
  }
  const mark = { moved: '=', none: '—', new: 'new', back: 'back', dropped: 'out', absent: '—' }[change.kind];
  return (
    <span className={`change change-${change.kind}`}>
      <span aria-hidden="true">{mark}</span>
      <span className="visually-hidden">{words}</span>
    </span>
  );
}
