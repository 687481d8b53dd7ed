import { useMemo, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, Loading, PageLoadError } from '../../components/status';
import { ProjectSectionHeader } from '../../components/section-header';
import { SelectField } from '../../components/select-field';
import { ProjectTechnicalDocument, type ProjectTechnicalQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';
import { BAND_LABEL, SOURCE_LABEL, VitalChart, bandOf, formatVital, type VitalPoint } from './vital-chart';

const route = getRouteApi('/app/projects/$projectId/technical');

type Measurement = ProjectTechnicalQuery['technical']['coreWebVitals'][number];
type Check = NonNullable<ProjectTechnicalQuery['technical']['site']>['checks'][number];

/** The measurement field of each metric the API names in its bands. */
const FIELD: Record<string, keyof Measurement> = {
  LCP: 'lcpMs',
  CLS: 'cls',
  INP: 'inpMs',
  TBT: 'tbtMs',
  FCP: 'fcpMs',
  TTFB: 'ttfbMs',
};

/** A failed fact's verdict is the severity of the issue the audit charges for it, as the issues list shows it. */
const SEVERITY_VERDICT: Record<string, string> = { CRITICAL: 'Critical', WARNING: 'Warning', NOTICE: 'Notice' };

function FactCard({ check }: { check: Check }) {
  const verdict =
    check.passed === null
      ? 'Unknown'
      : check.passed
        ? 'Pass'
        : check.severity
          ? (SEVERITY_VERDICT[check.severity] ?? check.severity)
          : 'Info';
  // Red only for what the audit charges as CRITICAL; a notice is not a failure.
  const tone =
    check.passed === null
      ? 'unknown'
      : check.passed
        ? 'pass'
        : check.severity === 'CRITICAL'
          ? 'fail'
          : check.severity
            ? check.severity.toLowerCase()
            : 'info';
  return (
    <li className={`card fact-card fact-${tone}`}>
      <h3 className="fact-title">
        <span className="fact-icon" aria-hidden="true">
          {check.passed === null ? '?' : check.passed ? '✓' : check.severity === 'CRITICAL' ? '✗' : '!'}
        </span>
        {check.label}
        <span className={`badge fact-badge fact-badge-${tone}`}>{verdict}</span>
      </h3>
      {check.value && <p className="fact-value">{check.value}</p>}
      <p>{check.reason}</p>
    </li>
  );
}

function SiteFacts({ site }: { site: ProjectTechnicalQuery['technical']['site'] }) {
  return (
    <section className="card" aria-labelledby="facts-title">
      <div className="card-head">
        <h2 id="facts-title">Site facts</h2>
        {site?.measuredAt && <span className="muted small">From the audit of {formatDateTime(site.measuredAt)}</span>}
      </div>
      {site ? (
        <ul className="card-grid fact-grid">
          {site.checks.map((c) => (
            <FactCard key={c.fact} check={c} />
          ))}
        </ul>
      ) : (
        <p className="muted">
          No completed audit yet: run an audit to check HTTPS, HSTS, HTTP version, compression, robots.txt and the
          sitemap.
        </p>
      )}
    </section>
  );
}

function Vitals({
  measurements,
  bands,
}: {
  measurements: Measurement[];
  bands: ProjectTechnicalQuery['technical']['vitalBands'];
}) {
  const urls = useMemo(() => [...new Set(measurements.map((m) => m.url))], [measurements]);
  const [picked, setPicked] = useState<string | null>(null);
  const url = picked && urls.includes(picked) ? picked : urls[0];
  const ofPage = useMemo(() => measurements.filter((m) => m.url === url), [measurements, url]);
  const latest = ofPage.at(-1);
  const sources = [...new Set(ofPage.map((m) => m.source))];

  return (
    <section className="card" aria-labelledby="vitals-title">
      <div className="card-head">
        <h2 id="vitals-title">Core Web Vitals</h2>
        <span className="muted small">{urls.length === 1 ? '1 measured page' : `${urls.length} measured pages`}</span>
      </div>
      <div className="filters">
        <SelectField
          className="vitals-page-picker"
          label="Page"
          options={urls.map((u) => ({ id: u, label: u }))}
          value={url}
          onChange={setPicked}
        />
      </div>
      {latest && (
        <p className="vitals-source">
          Source: <strong>{sources.map((s) => SOURCE_LABEL[s] ?? s).join(' and ')}</strong>
          {sources.includes('HTTP') && (
            <span className="muted">
              {' '}
              — no browser ran, so only TTFB was measured. Set <code>CHROMIUM_PATH</code> for lab metrics.
            </span>
          )}
          <span className="muted">
            {' '}
            · {latest.device} · last measured {formatDateTime(latest.measuredAt)}
          </span>
        </p>
      )}
      <ul className="vitals-grid">
        {bands.map((band) => {
          const field = FIELD[band.metric];
          const points: VitalPoint[] = ofPage.map((m) => ({
            measuredAt: m.measuredAt,
            value: field ? (m[field] as number | null) : null,
            source: m.source,
          }));
          const measured = points.filter((p) => p.value !== null);
          const last = measured.at(-1);
          const name = last?.value != null ? bandOf(last.value, band) : null;
          return (
            <li key={band.metric} className="vital">
              <h3 className="vital-title">
                {band.metric} <span className="muted small">{band.label}</span>
              </h3>
              {last?.value != null && name ? (
                <>
                  <p className="vital-latest">
                    Latest: <strong>{formatVital(last.value, band.unit)}</strong>{' '}
                    <span className={`badge band-${name}`}>{BAND_LABEL[name]}</span>{' '}
                    <span className="muted small">({SOURCE_LABEL[last.source] ?? last.source})</span>
                  </p>
                  <VitalChart band={band} points={points} />
                </>
              ) : (
                <p className="muted">
                  Not measured for this page
                  {band.metric !== 'TTFB' && sources.every((s) => s === 'HTTP')
                    ? ': lab metrics need Chromium (CHROMIUM_PATH).'
                    : '.'}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function TechnicalPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({
    query: ProjectTechnicalDocument,
    variables: { projectId, days: 365 },
  });
  useDocumentTitle(data ? `Technical · ${data.project.name}` : 'Technical');

  if (fetching && !data) return <Loading label="Loading technical facts…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const { project, technical } = data;

  return (
    <section className="page" aria-labelledby="technical-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Technical"
        titleId="technical-title"
        description={
          <p className="muted">Site facts from the latest audit and Core Web Vitals of the measured pages.</p>
        }
      />

      <SiteFacts site={technical.site} />

      {technical.coreWebVitals.length > 0 ? (
        <Vitals measurements={technical.coreWebVitals} bands={technical.vitalBands} />
      ) : (
        <EmptyState title="No Core Web Vitals measured yet">
          <p>
            An audit measures them on the pages it crawls.{' '}
            <Link to="/projects/$projectId" params={{ projectId }}>
              Run an audit
            </Link>{' '}
            from the project overview.
          </p>
          <p className="muted">
            Lab metrics (LCP, CLS, INP, TBT, FCP) need Chromium: set <code>CHROMIUM_PATH</code> on the server. Without
            it only the time to first byte is measured, over HTTP.
          </p>
        </EmptyState>
      )}
    </section>
  );
}
