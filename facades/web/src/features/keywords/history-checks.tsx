import type { RankCheckStatus } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';

/** One check as the history lists it. */
export interface CheckPoint {
  checkedAt: string;
  position: number | null;
  /** The site's URL that ranked; null when not found or failed. */
  url: string | null;
  status: RankCheckStatus;
  error: string | null;
}

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);

/**
 * Every check of one keyword, newest first: its position and the URL of the site that ranked, marked where it is
 * another URL than at the check before that found the keyword (a switch of ranking page). Visible, and the text
 * equivalent of the chart.
 */
export function HistoryChecks({ series }: { series: { term: string; history: readonly CheckPoint[] } }) {
  const rows = series.history.map((p, i) => {
    const before = series.history
      .slice(0, i)
      .reverse()
      .find((q) => q.url !== null);
    return { ...p, switched: p.url !== null && before?.url != null && before.url !== p.url };
  });
  rows.reverse();
  const switches = rows.filter((r) => r.switched).length;
  return (
    <div className="history-checks">
      <table className="table table-compact">
        <caption className="small">
          Checks of “{series.term}”, newest first
          {switches > 0 ? ` · the ranking URL changed ${switches === 1 ? 'once' : `${switches} times`}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Checked</th>
            <th scope="col" className="numeric">
              Position
            </th>
            <th scope="col">Ranking URL</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p, i) => (
            <tr key={`${p.checkedAt}-${i}`}>
              <th scope="row" className="nowrap">
                <time dateTime={p.checkedAt}>{formatDateTime(p.checkedAt)}</time>
              </th>
              <td className="numeric">
                {p.status === 'FAILED' ? (
                  <span className="field-error">failed</span>
                ) : (
                  (p.position ?? <span className="muted">not found</span>)
                )}
              </td>
              <td className="cell-history-url">
                {p.status === 'FAILED' ? (
                  <span className="muted">{p.error ?? 'no reason given'}</span>
                ) : p.url ? (
                  <>
                    {isHttpUrl(p.url) ? (
                      <a href={p.url} className="url-text" target="_blank" rel="noopener noreferrer nofollow">
                        {p.url}
                      </a>
                    ) : (
                      <span className="url-text">{p.url}</span>
                    )}
                    {p.switched && <span className="badge badge-warning small">URL changed</span>}
                  </>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
