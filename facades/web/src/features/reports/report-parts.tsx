import { useState } from 'react';
import { useClient } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/status';
import { ClientReportPdfDocument, type ClientReportQuery } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { saveFile } from '../../components/save-file';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';

export type Report = ClientReportQuery['clientReport'];
export type Vitals = Report['vitals'][number];
export type Move = Report['keywordGains'][number];

/** The report's categories and severities are plain strings: their names, or the code for one this build lacks. */
export const categoryName = (c: string) => (CATEGORY_LABEL as Record<string, string | undefined>)[c] ?? c;
export const severityName = (s: string) => (SEVERITY_LABEL as Record<string, string | undefined>)[s] ?? s;

/** Good / poor thresholds of each metric (Google's bands). */
export const VITALS: { key: keyof Vitals & string; label: string; bands: [number, number]; unit: 'ms' | '' }[] = [
  { key: 'lcpMs', label: 'LCP', bands: [2500, 4000], unit: 'ms' },
  { key: 'cls', label: 'CLS', bands: [0.1, 0.25], unit: '' },
  { key: 'inpMs', label: 'INP', bands: [200, 500], unit: 'ms' },
  { key: 'tbtMs', label: 'TBT', bands: [200, 600], unit: 'ms' },
  { key: 'fcpMs', label: 'FCP', bands: [1800, 3000], unit: 'ms' },
  { key: 'ttfbMs', label: 'TTFB', bands: [800, 1800], unit: 'ms' },
];

/** A site-level issue reads "site"; a page-level one its pages. */
export const extent = (i: { scope: string; affectedPages: number }) =>
  i.scope !== 'site'
    ? plural(i.affectedPages, 'page')
    : i.affectedPages > 1
      ? `site, ${plural(i.affectedPages, 'page')}`
      : 'site';

export const counts = (c: { critical: number; warning: number; notice: number }) =>
  `${c.critical} critical, ${c.warning} warning and ${c.notice} notice issue types`;

export function VitalCell({ value, bands, unit }: { value: number | null; bands: [number, number]; unit: 'ms' | '' }) {
  if (value === null) return <td className="numeric muted">—</td>;
  const band = value <= bands[0] ? 'good' : value <= bands[1] ? 'needs improvement' : 'poor';
  return (
    <td className={`numeric vital-${band.replace(' ', '-')}`}>
      {unit ? `${formatNumber(Math.round(value))} ms` : value.toFixed(3)} <span className="small">({band})</span>
    </td>
  );
}

export function Movers({ title, moves }: { title: string; moves: Move[] }) {
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

export function PdfButton({ projectId, available }: { projectId: string; available: boolean }) {
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
