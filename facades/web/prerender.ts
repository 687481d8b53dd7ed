import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { cspSafeMarkup } from './src/ssr/csp-safe-markup.ts';
import { escapeHtml, publicHeadTags } from './src/ssr/public-page-head.ts';

/**
 * The public pages (landing and free tools) as HTML files, written after `vite build` beside index.html:
 * dist/web/prerendered/<path>.html and prerendered/pages.json, which facades/http/web-app.ts reads to serve each
 * page at its path (and robots.txt and sitemap.xml). Each file is the built index.html (same scripts and
 * stylesheets) with the page's markup in #root and its own title, description, canonical URL and Open Graph tags.
 *
 * The canonical and og:url are absolute URLs on the server's PUBLIC_URL, known only when it runs: the files hold
 * PUBLIC_URL_PLACEHOLDER, which the server replaces.
 */
export const PUBLIC_URL_PLACEHOLDER = '%PUBLIC_URL%';

interface PublicPage {
  path: string;
  title: string;
  description: string;
}

interface PrerenderModule {
  PUBLIC_PAGES: readonly PublicPage[];
  renderPublicPage(path: string): Promise<string>;
}

/** The file of a page under prerendered/: "/" is index.html, "/tools/robots" is tools/robots.html. */
export const prerenderedFile = (path: string): string => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);

/** index.html with the page's head tags and markup. */
export function pageHtml(template: string, page: PublicPage, markup: string): string {
  const url = `${PUBLIC_URL_PLACEHOLDER}${page.path === '/' ? '/' : page.path}`;
  const head = publicHeadTags({ ...page, canonical: url, ogType: 'website' });
  const replace = (html: string, pattern: RegExp, by: string) => {
    if (!pattern.test(html)) throw new Error(`prerender: index.html has no ${pattern.source}`);
    return html.replace(pattern, () => by);
  };
  let html = replace(template, /<meta name="description"[^>]*>/, head);
  html = replace(html, /<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`);
  html = replace(html, /<div id="root"><\/div>/, `<div id="root">${cspSafeMarkup(markup)}</div>`);
  return replace(
    html,
    /<noscript>[\s\S]*?<\/noscript>/,
    '<noscript>Running a tool and signing in need JavaScript. The REST API is documented at /docs.</noscript>',
  );
}

/** Vite plugin: after the client build is written, renders the public pages with the app's own modules. */
export function prerenderPublicPages(root: string): Plugin {
  let outDir = '';
  return {
    name: 'prerender-public-pages',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle() {
      const server = await createServer({
        root,
        configFile: false,
        plugins: [react()],
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const mod = (await server.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
        const template = readFileSync(join(outDir, 'index.html'), 'utf8');
        const pages = [];
        for (const page of mod.PUBLIC_PAGES) {
          const file = prerenderedFile(page.path);
          const target = join(outDir, 'prerendered', file);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, pageHtml(template, page, await mod.renderPublicPage(page.path)));
          pages.push({ path: page.path, file });
        }
        writeFileSync(join(outDir, 'prerendered', 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
      } finally {
        await server.close();
      }
    },
  };
}
