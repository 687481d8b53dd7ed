import { Link } from '@tanstack/react-router';
import { usePublicPageHead } from './public-pages';

const FEATURES: { title: string; text: string }[] = [
  {
    title: 'Site audits',
    text:
      'Crawls your site like a search engine, rendering JavaScript when asked, runs more than 150 checks on every ' +
      'page and scores meta, content, links, technical health and performance.',
  },
  {
    title: 'Issues you can fix',
    text: 'Each issue lists the pages it affects with the evidence, and a concrete fix written for that page.',
  },
  {
    title: 'Rankings and competitors',
    text: 'Tracks your keywords every day and shows where your competitors rank for the same terms.',
  },
  {
    title: 'Core Web Vitals',
    text: 'Lab measurements of LCP, CLS and total blocking time in a real browser, kept over time.',
  },
  { title: 'Reports and APIs', text: 'Exports as JSON and CSV, a REST API for scripts and GraphQL for dashboards.' },
];

const TOOLS: {
  to: '/tools/meta-tags' | '/tools/robots' | '/tools/headers' | '/tools/sitemap';
  title: string;
  text: string;
}[] = [
  {
    to: '/tools/meta-tags',
    title: 'Meta tags',
    text: 'Title, description, canonical, Open Graph, hreflang and structured data of a page.',
  },
  {
    to: '/tools/robots',
    title: 'robots.txt',
    text: 'Validate a robots.txt file and test which URLs it allows or blocks.',
  },
  {
    to: '/tools/headers',
    title: 'HTTP headers',
    text: 'Redirects, caching, compression and security headers of a URL.',
  },
  { to: '/tools/sitemap', title: 'XML sitemap', text: 'Validate a sitemap or sitemap index against the protocol.' },
];

export function LandingPage() {
  usePublicPageHead('/');
  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Find what holds your site back in search, and fix it</h1>
        <p className="lead">
          An open-source SEO platform for teams and agencies: site audits with scores and issues, keyword rankings,
          competitors and Core Web Vitals — in the browser, over REST and GraphQL, or on your own server.
        </p>
        <p className="actions">
          <Link to="/sign-up" className="btn btn-primary btn-large">
            Sign up
          </Link>
          <Link to="/sign-in" className="btn btn-secondary btn-large">
            Sign in
          </Link>
        </p>
      </section>

      <section aria-labelledby="features-title" className="landing-section">
        <h2 id="features-title">What it does</h2>
        <ul className="card-grid">
          {FEATURES.map((f) => (
            <li key={f.title} className="card">
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="tools-title" className="landing-section">
        <h2 id="tools-title">Free tools, no account needed</h2>
        <ul className="card-grid">
          {TOOLS.map((t) => (
            <li key={t.to} className="card">
              <h3>
                <Link to={t.to}>{t.title}</Link>
              </h3>
              <p>{t.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="dev-title" className="landing-section">
        <h2 id="dev-title">For developers</h2>
        <ul className="link-list">
          <li>
            <a href="/docs">REST API reference</a> — both surfaces, with “Try it out”.
          </li>
          <li>
            <Link to="/graphql/explorer" reloadDocument>
              GraphQL explorer
            </Link>{' '}
            — the domain API every screen here uses.
          </li>
        </ul>
      </section>
    </div>
  );
}
