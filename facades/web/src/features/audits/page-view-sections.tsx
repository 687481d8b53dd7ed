import { type ReactNode } from 'react';
import { type AuditPageViewQuery } from '../../gql/graphql';
import { formatDateTime, formatNumber } from '../../lib/format';
import { SEVERITY_LABEL } from '../../lib/labels';
import { Evidence } from './evidence';
import { FixSuggestion } from './fix-suggestion';
import { opensPageView, PageLink, type PageScope } from '../../components/page-link';
import { TableWrap } from '../../components/table-wrap';

export type PageView = AuditPageViewQuery['audit']['page'];

export const NON_INDEXABLE: Record<string, string> = {
  noindex: 'noindex (robots meta tag or X-Robots-Tag header)',
  canonicalized: 'its canonical points to another URL',
  'canonical-other-host': 'its canonical points to another host',
  redirect: 'it redirects',
  'error-status': 'it answers with an error status',
  'not-html': 'it is not an HTML document',
  'no-response': 'it got no response',
};

export const ROBOTS_TXT: Record<string, string> = {
  allowed: 'Allowed',
  disallowed: 'Disallowed',
  'no-rules': 'No rules (no robots.txt)',
};

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A URL as text, linked to its page view when it is on the audited site. */
export function UrlText({ scope, url }: { scope: PageScope; url: string }) {
  return opensPageView(scope, url) ? (
    <PageLink scope={scope} url={url} className="url-text">
      {url}
    </PageLink>
  ) : (
    <span className="url-text">{url}</span>
  );
}

export const withLength = (text: string | null, length: number | null, none: string) =>
  text === null ? <span className="muted">{none}</span> : `${text} (${formatNumber(length ?? 0)} characters)`;

export function Indexability({ page, scope }: { page: PageView; scope: PageScope }) {
  const reason = page.nonIndexableReason;
  return (
    <div className="card">
      <h2>Indexability</h2>
      <dl className="facts facts-wide">
        <Fact label="Indexable">
          {page.indexable ? 'Yes' : `No${reason ? `: ${NON_INDEXABLE[reason] ?? reason}` : ''}`}
        </Fact>
        <Fact label="robots.txt">
          {page.robotsTxt ? (ROBOTS_TXT[page.robotsTxt] ?? page.robotsTxt) : 'Not recorded'}
        </Fact>
        <Fact label="Robots meta">{page.robotsMeta.length ? page.robotsMeta.join(' · ') : 'None'}</Fact>
        <Fact label="X-Robots-Tag">{page.xRobotsTag.length ? page.xRobotsTag.join(' · ') : 'None'}</Fact>
        <Fact label="Canonical">{page.canonical ? <UrlText scope={scope} url={page.canonical} /> : 'None'}</Fact>
      </dl>
    </div>
  );
}

export function Content({ page, scope }: { page: PageView; scope: PageScope }) {
  return (
    <div className="card">
      <h2>Content</h2>
      <dl className="facts facts-wide">
        <Fact label="Title">{withLength(page.title, page.titleLength, 'No title')}</Fact>
        <Fact label="Meta description">
          {withLength(page.metaDescription, page.metaDescriptionLength, 'No meta description')}
        </Fact>
        <Fact label="H1">{page.h1.length ? page.h1.join(' · ') : <span className="muted">No h1</span>}</Fact>
        <Fact label="Words">{formatNumber(page.wordCount)}</Fact>
        <Fact label="Language">{page.lang ?? <span className="muted">Not declared</span>}</Fact>
        <Fact label="Structured data">
          {page.structuredDataTypes.length ? page.structuredDataTypes.join(', ') : 'None'}
        </Fact>
        {page.hreflang.length > 0 && (
          <Fact label="Hreflang">
            <ul className="plain-list">
              {page.hreflang.map((h) => (
                <li key={`${h.lang} ${h.url}`}>
                  {h.lang}: <UrlText scope={scope} url={h.url} />
                </li>
              ))}
            </ul>
          </Fact>
        )}
      </dl>
    </div>
  );
}

export const ms = (v: number | null) => (v === null ? '—' : `${formatNumber(Math.round(v))} ms`);

export function Vitals({ page }: { page: PageView }) {
  return (
    <div className="card">
      <h2>Vitals measured in this audit</h2>
      <TableWrap label="Core Web Vitals of this page">
        <table className="table">
          <caption className="visually-hidden">Core Web Vitals of this page</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col" className="numeric">
                LCP
              </th>
              <th scope="col" className="numeric">
                CLS
              </th>
              <th scope="col" className="numeric">
                TBT
              </th>
              <th scope="col" className="numeric">
                FCP
              </th>
              <th scope="col" className="numeric">
                TTFB
              </th>
              <th scope="col" className="numeric">
                Score
              </th>
            </tr>
          </thead>
          <tbody>
            {page.vitals.map((v, i) => (
              <tr key={i}>
                <th scope="row">
                  {v.source === 'LAB' ? 'Lab (Chromium)' : 'HTTP only'} · {v.device} ·{' '}
                  <span className="muted small">{formatDateTime(v.measuredAt)}</span>
                </th>
                <td className="numeric">{ms(v.lcpMs)}</td>
                <td className="numeric">{v.cls === null ? '—' : v.cls.toFixed(3)}</td>
                <td className="numeric">{ms(v.tbtMs)}</td>
                <td className="numeric">{ms(v.fcpMs)}</td>
                <td className="numeric">{ms(v.ttfbMs)}</td>
                <td className="numeric">{v.performanceScore ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

export function SeverityBadge({ severity }: { severity: PageView['issues'][number]['severity'] }) {
  return <span className={`badge badge-${severity.toLowerCase()}`}>{SEVERITY_LABEL[severity]}</span>;
}

export function Issues({ page, scope }: { page: PageView; scope: PageScope }) {
  return (
    <div className="card">
      <h2>Issues on this URL ({formatNumber(page.issues.length)})</h2>
      {page.issues.length === 0 ? (
        <p className="muted">No issue was found on this URL.</p>
      ) : (
        <ul className="page-issues">
          {page.issues.map((issue) => (
            <li key={issue.id} className="page-issue">
              <h3 className="page-issue-title">
                <SeverityBadge severity={issue.severity} /> {issue.title}
              </h3>
              <Evidence view={issue.details ?? null} scope={scope} />
              {issue.howToFix && <p className="small">{issue.howToFix}</p>}
              {issue.issueId && <FixSuggestion projectId={scope.projectId} issueId={issue.issueId} url={page.url} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
