import { Link } from '@tanstack/react-router';
import { usePublicPageHead } from '../landing';

export function ToolsIndexPage() {
  usePublicPageHead('/tools');
  return (
    <section className="page" aria-labelledby="tools-title">
      <h1 id="tools-title">Free SEO tools</h1>
      <p className="lead">
        Quick checks of a single page or file. No account needed; signed-in users get their plan’s higher request limit.
      </p>
      <ul className="card-grid">
        <li className="card">
          <h2>
            <Link to="/tools/meta-tags">Meta tags analyzer</Link>
          </h2>
          <p>Title, description, canonical, Open Graph, Twitter cards, hreflang and JSON-LD of a URL or pasted HTML.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/tools/robots">robots.txt tester</Link>
          </h2>
          <p>Validate a robots.txt and see which URLs it allows or blocks, and by which rule.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/tools/headers">HTTP headers checker</Link>
          </h2>
          <p>Redirect chain, status, HTTP version, caching, compression and security headers.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/tools/sitemap">XML sitemap validator</Link>
          </h2>
          <p>Structure, URLs, dates and limits of a sitemap or sitemap index.</p>
        </li>
      </ul>
      <section aria-labelledby="tools-audit" className="landing-section">
        <h2 id="tools-audit">From one page to the whole site</h2>
        <p>
          Each tool looks at one URL or one file, at the moment you ask. A site audit runs the same checks on every page
          a crawler can reach from your home page, scores the site by category, lists each issue with the pages it
          affects and a fix written for that page, and keeps the history so that you see what improved after a release.
          With an account you can also track keyword rankings and competitors, and call everything from scripts through
          the REST and GraphQL APIs.
        </p>
      </section>
    </section>
  );
}
