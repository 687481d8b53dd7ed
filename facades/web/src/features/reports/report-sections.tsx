import { DataTable, type Column } from '../../components/data-table';
import { VITALS, VitalCell, categoryName, extent, severityName, type Report } from './report-parts';
import { plural } from '../../lib/format';

type Category = Report['categories'][number];
const CATEGORY_COLUMNS: Column<Category>[] = [
  { id: 'category', header: 'Category', cell: (c) => categoryName(c.category), rowHeader: true },
  { id: 'score', header: 'Score', cell: (c) => c.score ?? '—', numeric: true },
  { id: 'critical', header: 'Critical', cell: (c) => c.critical, numeric: true },
  { id: 'warning', header: 'Warning', cell: (c) => c.warning, numeric: true },
  { id: 'notice', header: 'Notice', cell: (c) => c.notice, numeric: true },
];

/** Score and issue types per category. */
export function CategoryTable({ categories }: { categories: Report['categories'] }) {
  return (
    <DataTable
      columns={CATEGORY_COLUMNS}
      rows={categories}
      rowKey={(c) => c.category}
      label="Category breakdown"
      caption="Score and issue types per category"
    />
  );
}

/** One of the top issues: its severity, extent, description, affected pages and how to fix it. */
export function TopIssue({ issue }: { issue: Report['topIssues'][number] }) {
  return (
    <article className="card report-issue" aria-labelledby={`report-issue-${issue.code}`}>
      <h3 id={`report-issue-${issue.code}`}>
        <span className={`badge badge-${issue.severity.toLowerCase()}`}>{severityName(issue.severity)}</span>{' '}
        {issue.title}
      </h3>
      <p className="muted small">
        {categoryName(issue.category)} · {extent(issue)}
        {issue.fixesSummary && <> · {issue.fixesSummary}</>} · check <code>{issue.code}</code>
      </p>
      <p>{issue.description}</p>
      {issue.widestFixes.length > 0 && (
        <>
          <h4>Widest fixes</h4>
          <ul className="report-urls">
            {issue.widestFixes.map((f) => (
              <li key={f.cause}>
                <span className="url-text">{f.cause}</span> <span className="muted">{plural(f.pages, 'page')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {issue.widestFixes.length === 0 && issue.urls.length > 0 && (
        <>
          <h4>Affected pages</h4>
          <ul className="report-urls">
            {issue.urls.map((u) => (
              <li key={u} className="url-text">
                {u}
              </li>
            ))}
          </ul>
        </>
      )}
      {issue.fix && (
        <>
          <h4>Fix</h4>
          <p>{issue.fix.summary}</p>
          {issue.fix.steps.length > 0 && (
            <ol>
              {issue.fix.steps.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ol>
          )}
        </>
      )}
    </article>
  );
}

/** The latest Core Web Vitals per page and device, each value banded good, needs improvement or poor. */
export function VitalsTable({ vitals }: { vitals: Report['vitals'] }) {
  return (
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
          {vitals.map((v) => (
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
  );
}
