import type { ReactNode } from 'react';
import type { AuditPageViewQuery } from '../../gql/graphql';
import { formatNumber, plural } from '../../lib/format';
import { TableWrap } from '../../components/table-wrap';

type Rendering = NonNullable<AuditPageViewQuery['audit']['page']['rendering']>;
type Side = NonNullable<Rendering['raw']>;

const none = (text: string) => <span className="muted">{text}</span>;

/** One compared value per row: how each side shows it, and whether they differ. */
const ROWS: { label: string; show(side: Side): ReactNode; key(side: Side): string }[] = [
  { label: 'Title', show: (s) => s.title ?? none('None'), key: (s) => s.title ?? '' },
  { label: 'Meta description', show: (s) => s.description ?? none('None'), key: (s) => s.description ?? '' },
  {
    label: 'Canonical',
    show: (s) => (s.canonical ? <span className="url-text">{s.canonical}</span> : none('None')),
    key: (s) => s.canonical ?? '',
  },
  {
    label: 'Robots',
    show: (s) => `${s.noindex ? 'noindex' : 'index'}, ${s.nofollow ? 'nofollow' : 'follow'}`,
    key: (s) => `${s.noindex} ${s.nofollow}`,
  },
  { label: 'H1', show: (s) => (s.h1.length ? s.h1.join(' · ') : none('No h1')), key: (s) => s.h1.join('\n') },
  { label: 'Words', show: (s) => formatNumber(s.wordCount), key: (s) => String(s.wordCount) },
  { label: 'Internal links', show: (s) => formatNumber(s.internalLinks), key: (s) => String(s.internalLinks) },
];

/**
 * Browser rendering mode: the raw HTML as served beside the rendered page, and what rendering met. Crawled text is
 * rendered as text (React escapes it), never as markup.
 */
export function PageRenderingCard({ rendering }: { rendering: Rendering }) {
  const { raw, rendered } = rendering;
  return (
    <div className="card">
      <h2>Raw HTML vs rendered</h2>
      {rendering.renderError && (
        <p>
          Rendering failed: <span className="break">{rendering.renderError}</span>. The checks judged the raw HTML.
        </p>
      )}
      {raw && rendered && (
        <TableWrap label="Raw HTML versus rendered">
          <table className="table">
            <caption className="visually-hidden">
              Title, description, canonical, robots, h1, words and internal links of the raw HTML and the rendered page
            </caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Raw HTML</th>
                <th scope="col">Rendered</th>
                <th scope="col">Same?</th>
              </tr>
            </thead>
            <tbody>
              {ROWS.map((row) => {
                const same = row.key(raw) === row.key(rendered);
                return (
                  <tr key={row.label}>
                    <th scope="row">{row.label}</th>
                    <td className="break">{row.show(raw)}</td>
                    <td className="break">{row.show(rendered)}</td>
                    <td>{same ? 'Same' : <strong>Differs</strong>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
      <dl className="facts facts-wide">
        {rendering.renderMs !== null && (
          <div>
            <dt>Render time</dt>
            <dd>{formatNumber(rendering.renderMs)} ms</dd>
          </div>
        )}
        <div>
          <dt>Console errors</dt>
          <dd>{rendering.consoleErrorCount === 0 ? 'None' : formatNumber(rendering.consoleErrorCount)}</dd>
        </div>
        <div>
          <dt>Failed requests</dt>
          <dd>{rendering.failedRequestCount === 0 ? 'None' : formatNumber(rendering.failedRequestCount)}</dd>
        </div>
        <div>
          <dt>Blocked by robots.txt</dt>
          <dd>
            {rendering.blockedByRobots.length === 0 ? 'None' : plural(rendering.blockedByRobots.length, 'resource')}
          </dd>
        </div>
      </dl>
      {rendering.consoleErrors.length > 0 && (
        <>
          <h3>First console errors</h3>
          <ul className="plain-list">
            {rendering.consoleErrors.map((message, i) => (
              <li key={i} className="break">
                {message}
              </li>
            ))}
          </ul>
        </>
      )}
      {rendering.failedRequests.length > 0 && (
        <>
          <h3>First failed requests</h3>
          <ul className="plain-list">
            {rendering.failedRequests.map((request, i) => (
              <li key={i}>
                <span className="url-text">{request.url}</span> <span className="muted small">{request.reason}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {rendering.blockedByRobots.length > 0 && (
        <>
          <h3>Resources robots.txt disallows</h3>
          <ul className="plain-list">
            {rendering.blockedByRobots.map((url) => (
              <li key={url}>
                <span className="url-text">{url}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
