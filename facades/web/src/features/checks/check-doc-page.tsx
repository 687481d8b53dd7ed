import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { CheckDocDocument } from '../../gql/graphql';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { PREFETCHED } from '../../lib/urql';
import { checkDocHead, usePageHead } from './page-head';

const REQUIREMENT: Record<string, string> = {
  NONE: 'Runs on every audit, from the HTML, the HTTP responses and the site files.',
  LAB_BROWSER:
    'Needs a browser: a lab measurement in Chromium of the start URL and the most linked pages (not applicable ' +
    'when the server has no browser configured).',
  RENDERING_MODE:
    'Needs the project’s browser rendering mode: it compares the raw HTML with the page as a browser renders it.',
};

/** /checks/:code: one check's documentation (public, rendered by the server). */
export function CheckDocPage() {
  const { code } = useParams({ strict: false }) as { code: string };
  const [{ data, error }] = useQuery({ query: CheckDocDocument, variables: { code }, ...PREFETCHED });
  const check = data?.check ?? null;
  usePageHead(check ? checkDocHead(check) : null, `/checks/${code}`);
  if (!check) {
    return (
      <section className="page" aria-labelledby="check-title">
        <h1 id="check-title">Check not found</h1>
        <p role={error ? 'alert' : undefined}>
          There is no check <code>{code}</code> in the catalog. <Link to="/checks">See every check</Link>.
        </p>
      </section>
    );
  }
  return (
    <article className="page check-doc" aria-labelledby="check-title">
      <p className="breadcrumb">
        <Link to="/checks">Check catalog</Link> › {CATEGORY_LABEL[check.category]}
      </p>
      <h1 id="check-title">{check.title}</h1>
      <dl className="check-facts">
        <div>
          <dt>Code</dt>
          <dd>
            <code>{check.code}</code>
          </dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{CATEGORY_LABEL[check.category]}</dd>
        </div>
        <div>
          <dt>Severity</dt>
          <dd>
            <span className={`badge badge-${check.severity.toLowerCase()}`}>{SEVERITY_LABEL[check.severity]}</span>
            {check.banded ? ' — banded: Critical above the second threshold' : ''}
          </dd>
        </div>
        <div>
          <dt>Scope</dt>
          <dd>{check.scope === 'site' ? 'Site-wide (once per audit)' : 'Each crawled page'}</dd>
        </div>
      </dl>
      <h2>Rule</h2>
      <p>{check.description}</p>
      <h2>Why it matters</h2>
      <p>{check.why}</p>
      <h2>How to fix it</h2>
      <p>{check.fix}</p>
      <h2>How it counts in the score</h2>
      <p>{check.scoring}</p>
      <p>
        With a project setting, a disabled check is not reported and counts nowhere in the score (no cost, no page
        &ldquo;with a critical issue&rdquo;, no cap); a changed severity is used for the issue and priced as that
        severity (page-level: 100 × 1 for Critical, 0.3 for Warning, 0.03 for Notice × affected ÷ crawled HTML pages;
        site-level: 15, 5 or 0.5 points).
      </p>
      <h2>What it needs</h2>
      <p>{REQUIREMENT[check.requires]}</p>
      <p>
        As JSON: <a href={`/api/checks/${encodeURIComponent(check.code)}`}>GET /api/checks/{check.code}</a>.
      </p>
    </article>
  );
}
