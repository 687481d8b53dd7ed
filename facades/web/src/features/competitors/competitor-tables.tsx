import { useMemo } from 'react';
import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { type ProjectCompetitorsQuery } from '../../gql/graphql';
import { formatDateTime, formatNumber } from '../../lib/format';
import { TableWrap } from '../../components/table-wrap';

export type Overview = ProjectCompetitorsQuery['competitorOverview'];
export type Competitor = Overview['competitors'][number];

/** A position, or a dash that says why there is none. */
export function PositionCell({ position, checked }: { position: number | null | undefined; checked: boolean }) {
  if (position != null) return <td className="numeric">{position}</td>;
  return (
    <td className="numeric muted">
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{checked ? 'not ranking' : 'not checked'}</span>
    </td>
  );
}

export function SummaryTable({
  projectId,
  overview,
  checked,
  onRemove,
}: {
  projectId: string;
  overview: Overview;
  checked: boolean;
  onRemove(c: Competitor): void;
}) {
  const figure = (v: number | null | undefined, suffix = '') =>
    checked && v != null ? `${formatNumber(v)}${suffix}` : '—';
  return (
    // Focusable, so that keyboard users can scroll it on a narrow screen.
    <TableWrap label="Visibility by domain">
      <table className="table">
        <caption className="visually-hidden">Visibility, keywords in the top 10 and average position</caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col" className="numeric">
              Visibility
            </th>
            <th scope="col" className="numeric">
              Keywords in top 10
            </th>
            <th scope="col" className="numeric">
              Average position
            </th>
            <th scope="col" className="numeric">
              Homepage score
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="row-own">
            <th scope="row">
              {overview.project.domain} <span className="badge">your project</span>
            </th>
            <td className="numeric">{figure(overview.project.visibility, '%')}</td>
            <td className="numeric">{checked ? overview.project.keywordsInTop10 : '—'}</td>
            <td className="numeric">{figure(overview.project.averagePosition)}</td>
            <td className="numeric">
              <Link to="/projects/$projectId" params={{ projectId }} className="small">
                see Overview
              </Link>
            </td>
            <td />
          </tr>
          {overview.competitors.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.domain}</th>
              <td className="numeric">{figure(c.visibility, '%')}</td>
              <td className="numeric">{checked ? c.keywordsInTop10 : '—'}</td>
              <td className="numeric">{figure(c.averagePosition)}</td>
              <td className="numeric">{c.overallScore ?? '—'}</td>
              <td>
                <Button variant="secondary" onPress={() => onRemove(c)} aria-label={`Remove ${c.domain}`}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function PositionMatrix({
  keywords,
  overview,
}: {
  keywords: ProjectCompetitorsQuery['keywords'];
  overview: Overview;
}) {
  const columns = useMemo(
    () => [
      { key: 'project', domain: overview.project.domain, positions: overview.project.positions },
      ...overview.competitors.map((c) => ({ key: c.id, domain: c.domain, positions: c.positions })),
    ],
    [overview],
  );
  const lookup = useMemo(
    () => columns.map((c) => new Map(c.positions.map((p) => [p.keywordId, p.position] as const))),
    [columns],
  );
  const checkedIds = useMemo(() => new Set(overview.project.positions.map((p) => p.keywordId)), [overview]);
  return (
    <TableWrap className="matrix-wrap" label="Position matrix">
      <table className="table table-compact matrix">
        <caption className="visually-hidden">
          Position of each domain for each keyword, from the latest rank check; a dash means not ranking within the
          checked results, or not checked yet
        </caption>
        <thead>
          <tr>
            <th scope="col">Keyword</th>
            {columns.map((c) => (
              <th scope="col" key={c.key} className="numeric">
                {c.domain}
                {c.key === 'project' && <span className="visually-hidden"> (your project)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keywords.map((k) => (
            <tr key={k.id}>
              <th scope="row">
                {k.term}{' '}
                <span className="muted small">
                  {k.country.toUpperCase()} · {k.device}
                </span>
              </th>
              {columns.map((c, i) => (
                <PositionCell key={c.key} position={lookup[i].get(k.id)} checked={checkedIds.has(k.id)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function HomepageProfiles({ competitors }: { competitors: Competitor[] }) {
  return (
    <ul className="card-grid profile-grid">
      {competitors.map((c) => {
        const h = c.homepage;
        return (
          <li key={c.id} className="card profile-card">
            <h3 className="profile-title">
              {c.domain}
              <span className="badge">{c.overallScore == null ? 'No score' : `Score ${c.overallScore}`}</span>
            </h3>
            {!h ? (
              <p>The homepage analysis is queued; it appears here when done.</p>
            ) : h.error ? (
              <p>
                Its homepage could not be analysed: <span className="profile-error">{h.error}</span>
              </p>
            ) : (
              <dl className="profile-facts">
                <dt>Title</dt>
                <dd>{h.title ?? <span className="muted">none</span>}</dd>
                <dt>Description</dt>
                <dd>{h.description ?? <span className="muted">none</span>}</dd>
                <dt>Homepage</dt>
                <dd className="url-text">
                  {h.url} · HTTP {h.status ?? '—'} · {h.https ? 'HTTPS' : 'no HTTPS'}
                </dd>
                <dt>Scores</dt>
                <dd>
                  Meta {h.metaScore ?? '—'} · Content {h.contentScore ?? '—'} · Technical {h.technicalScore ?? '—'}
                </dd>
              </dl>
            )}
            {c.lastChecked && <p className="muted small">Checked {formatDateTime(c.lastChecked)}</p>}
          </li>
        );
      })}
    </ul>
  );
}
