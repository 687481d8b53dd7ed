import { useDocumentHead } from '../../lib/document-head';

/** The pages anyone may see and search engines may index: the build pre-renders each (src/prerender.tsx). */
export type PublicPath = '/' | '/tools' | '/tools/meta-tags' | '/tools/robots' | '/tools/headers' | '/tools/sitemap';

export interface PublicPage {
  path: PublicPath;
  /** The whole <title> (30-60 characters: not cut in results, unique). */
  title: string;
  /** The meta description (70-160 characters, unique). */
  description: string;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    path: '/',
    title: 'SEO Audit Platform: open-source site audits and rankings',
    description:
      'Open-source SEO platform for teams and agencies: site audits with scores and fixes, keyword rankings, ' +
      'competitors and Core Web Vitals.',
  },
  {
    path: '/tools',
    title: 'Free SEO tools · SEO Audit Platform',
    description:
      'Free SEO tools, no account needed: analyze meta tags with a SERP preview, test robots.txt, check HTTP ' +
      'headers and validate XML sitemaps.',
  },
  {
    path: '/tools/meta-tags',
    title: 'Meta tags analyzer · SEO Audit Platform',
    description:
      'Check the title, meta description, canonical, Open Graph, hreflang and JSON-LD of any page, and preview ' +
      'its snippet as Google shows it.',
  },
  {
    path: '/tools/robots',
    title: 'robots.txt tester · SEO Audit Platform',
    description:
      'Validate a robots.txt file against RFC 9309 and test which URLs a crawler may fetch, with the rule that ' +
      'decides for each one.',
  },
  {
    path: '/tools/headers',
    title: 'HTTP headers checker · SEO Audit Platform',
    description:
      'Follow the redirects of a URL and check its status, caching, compression, HSTS and security headers, ' +
      'with what to fix.',
  },
  {
    path: '/tools/sitemap',
    title: 'XML sitemap validator · SEO Audit Platform',
    description:
      'Validate an XML sitemap or sitemap index against the sitemaps.org protocol: structure, URLs, dates and ' +
      'size limits.',
  },
];

export const publicPage = (path: PublicPath): PublicPage => PUBLIC_PAGES.find((p) => p.path === path)!;

/** Keeps the head of a public page right after client-side navigation (see useDocumentHead). */
export function usePublicPageHead(path: PublicPath): void {
  useDocumentHead(publicPage(path), path);
}
