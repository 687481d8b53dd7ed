import { htmlPageHeaders } from '../http/html-page-headers.js';
import { escapeHtml } from '../../src/platform/html-escape.js';

/**
 * The interactive REST reference: Swagger UI over both OpenAPI documents at /docs. The page loads only
 * same-origin assets and carries no inline script or style, so the Content-Security-Policy allows 'self'
 * alone. The GraphQL explorer (/graphql/explorer) is a route of the web application.
 */

export interface DocumentLink {
  name: string;
  url: string;
  description: string;
}

export const DOCS_ASSET_BASE = '/docs/assets';
/** A route of the web application (GraphiQL), linked from the docs and from GET /graphql in a browser. */
export const EXPLORER_PATH = '/graphql/explorer';

/** CSP of the HTML pages: same-origin scripts, styles and requests; data: only for CSS-embedded images and fonts. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS = htmlPageHeaders(PAGE_CSP, 'no-referrer');

const asset = (name: string) => `${DOCS_ASSET_BASE}/${name}`;

export function docsPage(documents: DocumentLink[]): string {
  const links = documents
    .map(
      (d) =>
        `<li><a href="${escapeHtml(d.url)}">${escapeHtml(d.name)}</a> <span>${escapeHtml(d.description)}</span></li>`,
    )
    .join('');
  return (
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference — SEO Audit Platform</title>
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('docs.css')}">
</head>
<body>
<header class="docs-header">
<h1>SEO Audit Platform API reference</h1>
<nav aria-label="API documents"><ul id="api-documents">${links}<li><a href="${EXPLORER_PATH}">GraphQL ` +
    `explorer</a> <span>the domain API at /graphql</span></li><li><a href="/checks">Check catalog</a> <span>every ` +
    `audit check: its rule, why, fix and scoring (GET /api/checks, query checks)</span></li></ul></nav>
</header>
<noscript>The interactive reference needs JavaScript; the OpenAPI documents above are plain JSON.</noscript>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('swagger-ui-standalone-preset.js')}"></script>
<script src="${asset('docs-init.js')}"></script>
</body>
</html>
`
  );
}

/**
 * Swagger UI over the listed documents; no online validator (it would load an image from the internet),
 * and no Swagger logo in the top bar (its SVG carries an inline <style> the CSP refuses).
 */
export function docsInitScript(documents: DocumentLink[]): string {
  const urls = JSON.stringify(documents.map((d) => ({ url: d.url, name: d.name })));
  return `'use strict';
var noLogo = function () { return { components: { Logo: function () { return null; } } }; };
window.ui = SwaggerUIBundle({
  urls: ${urls},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl, noLogo],
  layout: 'StandaloneLayout',
});
`;
}

export const DOCS_CSS =
  `.docs-header { font-family: sans-serif; padding: 12px 20px 4px; border-bottom: 1px solid #e3e3e3; }
.docs-header h1 { font-size: 20px; margin: 0 0 6px; }
.docs-header ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 24px; ` +
  `font-size: 14px; }
.docs-header span { color: #666; }
.swagger-ui .topbar .download-url-wrapper { max-width: none; }
html, body { margin: 0; }
`;
