import { Link } from '@tanstack/react-router';
import { useDocumentTitle } from '../../components/document-title';

export function ToolsIndexPage() {
  useDocumentTitle('Free SEO tools');
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
    </section>
  );
}
