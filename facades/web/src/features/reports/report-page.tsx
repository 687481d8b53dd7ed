import { useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useClient, useQuery } from 'urql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, ErrorMessage, Loading, PageLoadError } from '../../components/status';
import { ClientReportDocument, ClientReportPdfDocument, type ClientReportQuery } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatDateTime, formatNumber, plural } from '../../lib/format';
import { ProjectTabs } from '../projects';
import { saveFile } from './save-file';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { checkedText, countsText } from '../audits/audit-counts';

const route = getRouteApi('/app/projects/$projectId/report');

type Report = ClientReportQuery['clientReport'];
type Vitals = Report['vitals'][number];
type Move = Report['keywordGains'][number];

/** The report's categories and severities are plain strings: their names, or the code for one this build lacks. */
const categoryName = (c: string) => (CATEGORY_LABEL as Record<string, string | undefined>)[c] ?? c;
const severityName = (s: string) => (SEVERITY_LABEL as Record<string, string | undefined>)[s] ?? s;

/** Good / poor thresholds of each metric (Google's bands). */
const VITALS: { key: keyof Vitals & string; label: string; bands: [number, number]; unit: 'ms' | '' }[] = [
  { key: 'lcpMs', label: 'LCP', bands: [2500, 4000], unit: 'ms' },
  { key: 'cls', label: 'CLS', bands: [0.1, 0.25], unit: '' },
  { key: 'inpMs', label: 'INP', bands: [200, 500], unit: 'ms' },
  { key: 'tbtMs', label: 'TBT', bands: [200, 600], unit: 'ms' },
  { key: 'fcpMs', label: 'FCP', bands: [1800, 3000], unit: 'ms' },
  { key: 'ttfbMs', label: 'TTFB', bands: [800, 1800], unit: 'ms' },
];

/** A site-level issue reads "site"; a page-level one its pages. */
const extent = (i: { scope: string; affectedPages: number }) =>
  i.scope !== 'site'
    ? plural(i.affectedPages, 'page')
    : i.affectedPages > 1
      ? `site, ${plural(i.affectedPages, 'page')}`
      : 'site';

const counts = (c: { critical: number; warning: number; notice: number }) =>
  `${c.critical} critical, ${c.warning} warning and ${c.notice} notice issue types`;

function VitalCell({ value, bands, unit }: { value: number | null; bands: [number, number]; unit: 'ms' | '' }) {
  if (value === null) return <td className="numeric muted">—</td>;
  const band = value <= bands[0] ? 'good' : value <= bands[1] ? 'needs improvement' : 'poor';
  return (
    <td className={`numeric vital-${band.replace(' ', '-')}`}>
      {unit ? `${formatNumber(Math.round(value))} ms` : value.toFixed(3)} <span className="small">({band})</span>
    </td>
  );
}

function Movers({ title, moves }: { title: string; moves: Move[] }) {
  if (!moves.length) return null;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Keyword</th>
            <th scope="col" className="numeric">
              Position
            </th>
            <th scope="col" className="numeric">
              Before
            </th>
            <th scope="col" className="numeric">
              Change
            </th>
            <th scope="col">Ranking page</th>
          </tr>
        </thead>
        <tbody>
          {moves.map((m) => (
            <tr key={`${m.term}-${m.country}-${m.device}`}>
              <th scope="row">
                {m.term}{' '}
                <span className="muted small">
                  ({m.country}, {m.device})
                </span>
              </th>
              <td className="numeric">{m.position}</td>
              <td className="numeric">{m.previousPosition}</td>
              <td className={`numeric ${m.change > 0 ? 'vital-good' : 'vital-poor'}`}>
                <span aria-hidden="true">{m.change > 0 ? '▲' : '▼'}</span>{' '}
                {m.change > 0 ? `up ${m.change}` : `down ${-m.change}`}
              </td>
              <td className="url-text">{m.url ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PdfButton({ projectId, available }: { projectId: string; available: boolean }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  if (!available) {
    return (
      <p className="callout callout-info pdf-unavailable">
        PDF download needs headless Chromium on the server: set <code>CHROMIUM_PATH</code> (for example{' '}
        <code>/usr/bin/chromium</code>) and restart. Print (to PDF) from the browser works meanwhile.
      </p>
    );
  }
  const download = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await client
        .query(ClientReportPdfDocument, { projectId }, { requestPolicy: 'network-only' })
        .toPromise();
      if (!result.data) return setProblem(problemOf(result.error));
      const file = result.data.clientReportPdf;
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      saveFile([bytes], file.contentType, file.filename);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="primary" onPress={() => void download()} isPending={busy}>
        Download PDF
      </Button>
      <ErrorMessage problem={problem} title="The PDF could not be made" />
    </>
  );
}

/** The printable client report of a project's latest completed audit (the server assembles it; this renders it). */
export function ReportPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({ query: ClientReportDocument, variables: { projectId } });
  useDocumentTitle(data ? `Report · ${data.clientReport.projectName}` : 'Report');
  if (fetching && !data) return <Loading label="Preparing the report…" />;
  if (!data)
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to the projects</Link>
      </PageLoadError>
    );
  const r = data.clientReport;
  const audit = r.audit;

  return (
    <section className="page report-page" aria-labelledby="report-title">
      <nav aria-label="Breadcrumb" className="breadcrumb no-print">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <Link to="/projects/$projectId" params={{ projectId }}>
          {r.projectName}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">Report</span>
      </nav>
      <div className="page-header">
        <div>
          <h1 id="report-title">SEO report: {r.projectName}</h1>
          <p className="muted url-text">
            {r.url} · generated {formatDateTime(r.generatedAt)}
          </p>
        </div>
        <div className="page-actions no-print">
          <Button onPress={() => window.print()}>Print</Button>
          <PdfButton projectId={projectId} available={r.pdfAvailable} />
        </div>
      </div>
      <div className="no-print">
        <ProjectTabs projectId={projectId} />
      </div>

      {!audit ? (
        <EmptyState title="No completed audit yet">
          <p>Run an audit from the project's overview; its report appears here when it completes.</p>
        </EmptyState>
      ) : (
        <>
          <p>
            Audit of {formatDateTime(audit.completedAt ?? audit.createdAt)}: overall score{' '}
            {audit.scores.overall === null ? 'not available' : `${audit.scores.overall}/100`};{' '}
            {countsText(audit.counts ?? null, audit.pagesCrawled)}; {counts(audit.issueCounts)}.
          </p>
          {audit.counts && <p className="muted small">{checkedText(audit.counts)}.</p>}

          <h2>Scores</h2>
          <ul className="report-scores" aria-label="Scores">
            <li className="card">
              <span>Overall</span>
              <strong>{audit.scores.overall ?? '—'}</strong>
            </li>
            {r.categories.map((c) => (
              <li key={c.category} className="card">
                <span>{categoryName(c.category)}</span>
                <strong>{c.score ?? '—'}</strong>
              </li>
            ))}
          </ul>

          <h2>Category breakdown</h2>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Score and issue types per category</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" className="numeric">
                    Score
                  </th>
                  <th scope="col" className="numeric">
                    Critical
                  </th>
                  <th scope="col" className="numeric">
                    Warning
                  </th>
                  <th scope="col" className="numeric">
                    Notice
                  </th>
                </tr>
              </thead>
              <tbody>
                {r.categories.map((c) => (
                  <tr key={c.category}>
                    <th scope="row">{categoryName(c.category)}</th>
                    <td className="numeric">{c.score ?? '—'}</td>
                    <td className="numeric">{c.critical}</td>
                    <td className="numeric">{c.warning}</td>
                    <td className="numeric">{c.notice}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Top issues and how to fix them</h2>
          {!r.topIssues.length && <p>No issues: every check passed on every crawled page.</p>}
          {r.topIssues.map((i) => (
            <article key={i.code} className="card report-issue" aria-labelledby={`report-issue-${i.code}`}>
              <h3 id={`report-issue-${i.code}`}>
                <span className={`badge badge-${i.severity.toLowerCase()}`}>{severityName(i.severity)}</span> {i.title}
              </h3>
              <p className="muted small">
                {categoryName(i.category)} · {extent(i)} · check <code>{i.code}</code>
              </p>
              <p>{i.description}</p>
              {i.urls.length > 0 && (
                <>
                  <h4>Affected pages</h4>
                  <ul className="report-urls">
                    {i.urls.map((u) => (
                      <li key={u} className="url-text">
                        {u}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {i.fix && (
                <>
                  <h4>Fix</h4>
                  <p>{i.fix.summary}</p>
                  {i.fix.steps.length > 0 && (
                    <ol>
                      {i.fix.steps.map((s) => (
                        <li key={s}>{s}</li>
                      ))}
                    </ol>
                  )}
                </>
              )}
            </article>
          ))}
        </>
      )}

      <h2>Core Web Vitals</h2>
      {!r.vitals.length ? (
        <p className="muted">No Core Web Vitals measured yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Latest Core Web Vitals per page and device</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Device · source</th>
                {VITALS.map((v) => (
                  <th key={v.key} scope="col" className="numeric">
                    {v.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {r.vitals.map((v) => (
                <tr key={`${v.url}-${v.device}`}>
                  <th scope="row" className="url-text">
                    {v.url}
                  </th>
                  <td>
                    {v.device} · {v.source === 'LAB' ? 'lab (Chromium)' : v.source === 'HTTP' ? 'HTTP only' : v.source}
                  </td>
                  {VITALS.map((m) => (
                    <VitalCell key={m.key} value={v[m.key] as number | null} bands={m.bands} unit={m.unit} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Keyword movers</h2>
      {!r.keywordGains.length && !r.keywordLosses.length ? (
        <p className="muted">No keyword changed position between its last two checks.</p>
      ) : (
        <>
          <Movers title="Biggest gains since the previous check" moves={r.keywordGains} />
          <Movers title="Biggest losses since the previous check" moves={r.keywordLosses} />
        </>
      )}
    </section>
  );
}
