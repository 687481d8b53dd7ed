import { useState, type ReactNode } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { ErrorMessage, Loading } from '../../components/status';
import {
  AuditPageLinksDocument,
  AuditPageViewDocument,
  type AuditLinkRowFragment,
  type AuditPageKind,
  type AuditPageViewQuery,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatBytes, formatDateTime, formatNumber, plural } from '../../lib/format';
import { SEVERITY_LABEL } from '../../lib/labels';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { Evidence } from './evidence';
import { FixSuggestion } from './fix-suggestion';
import { opensPageView, PageLink, siteHostOf, type PageScope } from './page-link';
import { PageRenderingCard } from './page-rendering';
import { rankingKeywordText } from './ranking-keywords';
import { TableWrap } from '../../components/table-wrap';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/page');

type PageView = AuditPageViewQuery['audit']['page'];

const KIND_LABEL: Record<AuditPageKind, string> = {
  HTML: 'HTML page',
  REDIRECT: 'Redirect',
  ERROR: 'Error response',
  FILE: 'File (not HTML)',
  FAILED: 'No response',
};

const NON_INDEXABLE: Record<string, string> = {
  noindex: 'noindex (robots meta tag or X-Robots-Tag header)',
  canonicalized: 'its canonical points to another URL',
  'canonical-other-host': 'its canonical points to another host',
  redirect: 'it redirects',
  'error-status': 'it answers with an error status',
  'not-html': 'it is not an HTML document',
  'no-response': 'it got no response',
};

const ROBOTS_TXT: Record<string, string> = {
  allowed: 'Allowed',
  disallowed: 'Disallowed',
  'no-rules': 'No rules (no robots.txt)',
};

/** The page view: everything the audit learned of one crawled URL, and the link graph around it. */
export function PageViewPage() {
  const { projectId, auditId } = route.useParams();
  const { url } = route.useSearch();
  const [{ data, fetching, error }] = useQuery({
    query: AuditPageViewDocument,
    variables: { projectId, auditId, url },
    pause: url === '',
  });
  useDocumentTitle(data ? `${data.audit.page.title ?? data.audit.page.url} · Page` : 'Crawled page');

  if (url === '') return <NotCrawled projectId={projectId} auditId={auditId} url={url} />;
  if (!data && fetching) return <Loading label="Loading the page…" />;
  if (!data) {
    const problem = problemOf(error);
    if (problem?.code === 'NOT_FOUND' && /page/i.test(problem.message))
      return <NotCrawled projectId={projectId} auditId={auditId} url={url} />;
    return <AuditLoadError projectId={projectId} error={error} />;
  }
  const page = data.audit.page;
  const scope: PageScope = { projectId, auditId, siteHost: siteHostOf(data.project.url) };

  return (
    <section className="page page-view" aria-labelledby="audit-title">
      <AuditHeading projectId={projectId} projectName={data.project.name} audit={data.audit} view="page" />
      <div className="card page-view-summary">
        <h2 className="page-view-url">
          <span className="url-text">{page.url}</span>
        </h2>
        <dl className="facts facts-wide">
          {page.rankingKeywords.length > 0 && (
            <Fact label="Ranks for">
              <ul className="ranking-keyword-list">
                {page.rankingKeywords.map((k) => (
                  <li key={k.keywordId} className="badge badge-ranking">
                    {rankingKeywordText(k)}
                  </li>
                ))}
              </ul>
            </Fact>
          )}
          <Fact label="Type">{page.kind ? KIND_LABEL[page.kind] : 'Not recorded'}</Fact>
          <Fact label="Status">{page.statusCode ?? 'No response'}</Fact>
          {page.error && <Fact label="Why the fetch failed">{page.error}</Fact>}
          {page.finalUrl && page.finalUrl !== page.url && (
            <Fact label="Redirects to">
              <UrlText scope={scope} url={page.finalUrl} />
            </Fact>
          )}
          {page.contentType && <Fact label="Content type">{page.contentType}</Fact>}
          <Fact label="Depth">
            {page.depth < 0 ? 'Sitemap only' : `${plural(page.depth, 'click')} from the start URL`}
          </Fact>
          {page.responseTimeMs !== null && (
            <Fact label="Time to first byte">{formatNumber(page.responseTimeMs)} ms</Fact>
          )}
          {page.bytes > 0 && (
            <Fact label="Size">
              {formatBytes(page.bytes)}
              {page.bodyCapped && ' (over the size cap: analysed on its first bytes)'}
            </Fact>
          )}
          <Fact label="Inlinks (distinct pages)">{formatNumber(page.inlinkCount)}</Fact>
          <Fact label="Outlinks (distinct targets)">{formatNumber(page.outlinkCount)}</Fact>
        </dl>
      </div>

      {page.redirects.length > 0 && (
        <div className="card">
          <h2>Redirect hops</h2>
          <table className="table">
            <caption className="visually-hidden">Each redirect response, in order</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col" className="numeric">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {page.redirects.map((hop, i) => (
                <tr key={i}>
                  <td className="cell-url">
                    <UrlText scope={scope} url={hop.url} />
                  </td>
                  <td className="numeric">{hop.status}</td>
                </tr>
              ))}
              {page.finalUrl && (
                <tr>
                  <td className="cell-url">
                    <UrlText scope={scope} url={page.finalUrl} />
                  </td>
                  <td className="numeric">Final URL</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}

      <Indexability page={page} scope={scope} />
      {page.kind !== 'REDIRECT' && <Content page={page} scope={scope} />}
      {page.rendering && <PageRenderingCard rendering={page.rendering} />}
      {page.vitals.length > 0 && <Vitals page={page} />}
      <Issues page={page} scope={scope} />
      <Links scope={scope} url={page.url} direction="in" />
      {page.kind === 'HTML' && <Links scope={scope} url={page.url} direction="out" />}
      {page.resources.length > 0 && (
        <details className="card">
          <summary>
            <h2 className="inline-heading">Resources ({formatNumber(page.resources.length)})</h2>
          </summary>
          <ul className="plain-list">
            {page.resources.map((r) => (
              <li key={r.url}>
                <span className="muted small">{r.kind}</span> <span className="url-text">{r.url}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function NotCrawled({ projectId, auditId, url }: { projectId: string; auditId: string; url: string }) {
  return (
    <section className="page narrow">
      <h1>Not crawled in this audit</h1>
      <p>
        {url === '' ? (
          'No URL was given.'
        ) : (
          <>
            <span className="url-text">{url}</span> was not crawled in this audit: it may be off the site, beyond the
            page cap, disallowed by robots.txt, or only known as a link target.
          </>
        )}
      </p>
      <Link to="/projects/$projectId/audits/$auditId/pages" params={{ projectId, auditId }}>
        Back to the crawled pages
      </Link>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A URL as text, linked to its page view when it is on the audited site. */
function UrlText({ scope, url }: { scope: PageScope; url: string }) {
  return opensPageView(scope, url) ? (
    <PageLink scope={scope} url={url} className="url-text">
      {url}
    </PageLink>
  ) : (
    <span className="url-text">{url}</span>
  );
}

const withLength = (text: string | null, length: number | null, none: string) =>
  text === null ? <span className="muted">{none}</span> : `${text} (${formatNumber(length ?? 0)} characters)`;

function Indexability({ page, scope }: { page: PageView; scope: PageScope }) {
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

function Content({ page, scope }: { page: PageView; scope: PageScope }) {
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

const ms = (v: number | null) => (v === null ? '—' : `${formatNumber(Math.round(v))} ms`);

function Vitals({ page }: { page: PageView }) {
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

function SeverityBadge({ severity }: { severity: PageView['issues'][number]['severity'] }) {
  return <span className={`badge badge-${severity.toLowerCase()}`}>{SEVERITY_LABEL[severity]}</span>;
}

function Issues({ page, scope }: { page: PageView; scope: PageScope }) {
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

/** A row of the links table across its four columns (loading, errors, none, "load more"). */
function WholeRow({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <tr>
      <td colSpan={4} className={className}>
        {children}
      </td>
    </tr>
  );
}

/** One page of inlinks or outlinks; the last one loaded offers the next. */
function LinkPage({
  scope,
  url,
  direction,
  after,
}: {
  scope: PageScope;
  url: string;
  direction: 'in' | 'out';
  after: string | null;
}) {
  const [{ data, fetching, error }] = useQuery({
    query: AuditPageLinksDocument,
    variables: {
      projectId: scope.projectId,
      auditId: scope.auditId,
      url,
      in: direction === 'in',
      out: direction === 'out',
      inAfter: direction === 'in' ? after : null,
      outAfter: direction === 'out' ? after : null,
    },
  });
  const [next, setNext] = useState<string | null>(null);
  const connection = direction === 'in' ? data?.audit.page.inlinks : data?.audit.page.outlinks;
  if (fetching && !data)
    return (
      <WholeRow>
        <Loading label="Loading links…" />
      </WholeRow>
    );
  if (!connection)
    return (
      <WholeRow>
        <ErrorMessage problem={problemOf(error)} title="The links could not be loaded" />
      </WholeRow>
    );
  if (after === null && connection.nodes.length === 0)
    return (
      <WholeRow className="muted">
        {direction === 'in' ? 'No crawled page links here.' : 'No followable links on this page.'}
      </WholeRow>
    );
  return (
    <>
      {connection.nodes.map((link) => (
        <LinkRow key={link.id} link={link} scope={scope} direction={direction} />
      ))}
      {next ? (
        <LinkPage scope={scope} url={url} direction={direction} after={next} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <WholeRow>
            <Button onPress={() => setNext(connection.pageInfo.endCursor)}>
              Load more {direction === 'in' ? 'inlinks' : 'outlinks'}
            </Button>
          </WholeRow>
        )
      )}
    </>
  );
}

function LinkRow({
  link,
  scope,
  direction,
}: {
  link: AuditLinkRowFragment;
  scope: PageScope;
  direction: 'in' | 'out';
}) {
  const other = direction === 'in' ? link.sourceUrl : link.targetUrl;
  return (
    <tr>
      <td className="cell-url">
        <UrlText scope={scope} url={other} />
        {link.otherTitle && <span className="muted small block">{link.otherTitle}</span>}
      </td>
      <td>{link.anchor || <span className="muted">No anchor text</span>}</td>
      <td className="numeric">{formatNumber(link.linkCount)}</td>
      <td>{link.rel ?? <span className="muted">—</span>}</td>
      <td className="numeric">{link.otherStatus ?? (link.otherCrawled ? 'No response' : 'Not crawled')}</td>
    </tr>
  );
}

function Links({ scope, url, direction }: { scope: PageScope; url: string; direction: 'in' | 'out' }) {
  const heading = direction === 'in' ? 'Inlinks: pages that link here' : 'Outlinks: links on this page';
  return (
    <div className="card">
      <h2>{heading}</h2>
      {
        <TableWrap label={heading}>
          <table className="table table-links">
            <caption className="visually-hidden">{heading}</caption>
            <thead>
              <tr>
                <th scope="col">{direction === 'in' ? 'Linking page' : 'Target'}</th>
                <th scope="col">Anchor text (first link)</th>
                <th scope="col" className="numeric">
                  Links
                </th>
                <th scope="col">Rel</th>
                <th scope="col" className="numeric">
                  {direction === 'in' ? 'Its status' : 'Target status'}
                </th>
              </tr>
            </thead>
            <tbody>
              <LinkPage scope={scope} url={url} direction={direction} after={null} />
            </tbody>
          </table>
        </TableWrap>
      }
    </div>
  );
}
