import { getRouteApi, Link } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/document-title';
import { Loading } from '../../components/status';
import { AuditPageViewDocument, type AuditPageKind, type LinkPosition } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatBytes, formatNumber, plural } from '../../lib/format';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { siteHostOf, type PageScope } from '../../components/page-link';
import { PageRenderingCard } from './page-rendering';
import { rankingKeywordText } from './ranking-keywords';
import { Content, Fact, Indexability, Issues, UrlText, Vitals } from './page-view-sections';
import { Links } from './page-view-links';
import { pageLinksText } from './audit-counts';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/page');

const KIND_LABEL: Record<AuditPageKind, string> = {
  HTML: 'HTML page',
  REDIRECT: 'Redirect',
  ERROR: 'Error response',
  FILE: 'File (not HTML)',
  FAILED: 'No response',
};

/** The page view: everything the audit learned of one crawled URL, and the link graph around it. */
export function PageViewPage() {
  const { projectId, auditId } = route.useParams();
  const { url, inpos, outpos } = route.useSearch();
  const navigate = route.useNavigate();
  /** The links' position filters live in the URL (replaced, not pushed: Back leaves the page). */
  const setPositions = (patch: { inpos?: LinkPosition; outpos?: LinkPosition }) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
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
          {page.linkCount !== null && (
            <Fact label="Links on the page">{pageLinksText(page.linkCount, page.linksNotRead)}</Fact>
          )}
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
      <Links
        scope={scope}
        url={page.url}
        direction="in"
        position={inpos ?? null}
        onPosition={(p) => setPositions({ inpos: p ?? undefined })}
      />
      {page.kind === 'HTML' && (
        <Links
          scope={scope}
          url={page.url}
          direction="out"
          position={outpos ?? null}
          onPosition={(p) => setPositions({ outpos: p ?? undefined })}
        />
      )}
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
