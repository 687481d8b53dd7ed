const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or a quoted attribute value in the HTML the public pages are served as (the server has its own escaper). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

const SITE_NAME = 'SEO Audit Platform';

/**
 * The head tags of a public page: description, canonical URL (or noindex without one), Open Graph and Twitter card,
 * in place of index.html's `<meta name="description">`. One writer for the landing page and the tools (pre-rendered
 * at build time, facades/web/prerender.ts) and the check catalog's pages (rendered by the server through this
 * build's entry-server, facades/http/check-pages.ts).
 */
export function publicHeadTags(page: {
  title: string;
  description: string;
  canonical: string | null;
  ogType: 'website' | 'article';
}): string {
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  const canonical = page.canonical === null ? null : escapeHtml(page.canonical);
  return [
    `<meta name="description" content="${description}" />`,
    ...(canonical ? [`<link rel="canonical" href="${canonical}" />`] : [`<meta name="robots" content="noindex" />`]),
    `<meta property="og:type" content="${page.ogType}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    ...(canonical ? [`<meta property="og:url" content="${canonical}" />`] : []),
    `<meta name="twitter:card" content="summary" />`,
  ].join('\n    ');
}
