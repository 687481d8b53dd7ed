import type { ReactNode } from 'react';

export type ToolPath = '/tools/meta-tags' | '/tools/robots' | '/tools/headers' | '/tools/sitemap';

interface About {
  checks: string[];
  reading: ReactNode;
  when: ReactNode;
}

/**
 * What each tool looks at and how to read its answer: the text a visitor (or a search engine, on the pre-rendered
 * page) reads before running it.
 */
const ABOUT: Record<ToolPath, About> = {
  '/tools/meta-tags': {
    checks: [
      'The title: present, one only, and short enough to show in full in search results.',
      'The meta description: present, one only, and between about 70 and 160 characters.',
      'The canonical URL, the robots meta tag, the viewport, the language and the character set.',
      'Open Graph and Twitter card properties, which decide how links to the page look when shared.',
      'hreflang alternates for other languages and JSON-LD structured data blocks.',
    ],
    reading: (
      <>
        Each finding has a severity: critical issues keep the page out of search results or break it, warnings cost
        clicks or rankings, notices are good practice. The snippet preview cuts the title and description where Google
        would, by their width in pixels rather than by a count of characters, so that you see what a searcher sees
        before changing them.
      </>
    ),
    when: (
      <>
        Before you publish a page or change its template, after a migration to a new content system, and whenever a page
        shows the wrong title or image in search results or when shared. Paste the HTML of a page that is not online
        yet, or give the URL of a live page; the same checks run either way, so the answer before and after publishing
        can be compared.
      </>
    ),
  },
  '/tools/robots': {
    checks: [
      'Every line against RFC 9309: groups, user agents, Allow and Disallow rules and their paths.',
      'Sitemap lines, which must be absolute URLs, and directives that crawlers ignore.',
      'For each URL you give, whether the chosen user agent may fetch it.',
      'Which rule decides: the longest matching path wins, and Allow wins a tie.',
      'The answer for any user agent you name, such as Googlebot, Bingbot or an AI search crawler.',
    ],
    reading: (
      <>
        A blocked page cannot be crawled, so its content cannot rank, although its URL may still be listed when other
        sites link to it. Use a noindex tag, not robots.txt, to keep a page out of the index. Test the URLs that matter
        most (the home page, a product page, a stylesheet) with the user agent of the crawler you care about.
      </>
    ),
    when: (
      <>
        Before you deploy a new robots.txt, when a page disappears from search results, or when a crawler reports that
        it was blocked. Paste the draft file to test it before it goes live, or give the URL of a site to read the file
        it serves now, then list the addresses you want to be sure about.
      </>
    ),
  },
  '/tools/headers': {
    checks: [
      'The redirect chain from the URL you give to the final page, with the status of every hop.',
      'The HTTP version, the content type and whether the response is compressed.',
      'Caching headers: Cache-Control, ETag and Last-Modified.',
      'Security headers: Strict-Transport-Security, Content-Security-Policy, X-Content-Type-Options and others.',
      'Headers that speak to search engines: X-Robots-Tag and Link with a canonical URL.',
    ],
    reading: (
      <>
        Every extra redirect delays the page and wastes crawl budget, so links should point at the final URL. A noindex
        in X-Robots-Tag keeps the page out of search results even when its HTML says otherwise. Missing security headers
        do not change rankings directly, but they protect your visitors and are part of a healthy site.
      </>
    ),
    when: (
      <>
        After you move a site to https, change a CDN or a server, or add a redirect, and whenever a page is slow to
        start or a browser warns about security. Give the address people and links use, not the final one, so that every
        redirect on the way is shown with its status and its own headers.
      </>
    ),
  },
  '/tools/sitemap': {
    checks: [
      'The XML structure: a urlset or a sitemapindex in the sitemaps.org namespace.',
      'Every loc: an absolute URL on the same host as the sitemap, escaped as XML requires.',
      'lastmod dates in the W3C format, and changefreq and priority values in range.',
      'The limits of 50,000 URLs and 50 MB uncompressed per file.',
      'Duplicate URLs and the child sitemaps listed by an index.',
    ],
    reading: (
      <>
        A sitemap tells search engines which pages you want crawled and when they changed; it does not force them to
        index anything. List only the canonical, indexable URLs that answer 200, keep lastmod honest, and name the
        sitemap in robots.txt so that every crawler finds it.
      </>
    ),
    when: (
      <>
        After you generate a new sitemap, when a search console reports errors in it, or when new pages take a long time
        to be found. Give the URL of the sitemap or of the index that lists the others, or paste the XML of a file you
        have not published yet, to see every error with its line.
      </>
    ),
  },
};

/** "What it checks" and "How to read the results" under a tool's form. */
export function ToolAbout({ path }: { path: ToolPath }) {
  const about = ABOUT[path];
  return (
    <div className="tool-about">
      <section aria-labelledby="tool-checks">
        <h2 id="tool-checks">What it checks</h2>
        <ul>
          {about.checks.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tool-reading">
        <h2 id="tool-reading">How to read the results</h2>
        <p>{about.reading}</p>
      </section>
      <section aria-labelledby="tool-when">
        <h2 id="tool-when">When to use it</h2>
        <p>{about.when}</p>
      </section>
    </div>
  );
}
