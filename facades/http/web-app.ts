import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPageHeaders } from './html-page-headers.js';
import { sendRefusal } from './error-translators.js';
import type { PublicDataPages } from './check-pages.js';
import {
  inlineStylesheets,
  linkedStylesheets,
  sendRenderedPage,
  splitTemplate,
  type RenderedTemplate,
  type ServerRenderer,
} from './server-render.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where `vite build` (facades/web) puts the web application: dist/web, from the sources or from dist/facades. */
const facadesDir = resolve(here, '..');
export const WEB_DIST = resolve(
  facadesDir,
  basename(resolve(facadesDir, '..')) === 'dist' ? '../..' : '..',
  'dist',
  'web',
);
/** The server's build of the web app (vite build --ssr): the module that renders signed-in pages. */
export const WEB_SSR_DIST = resolve(WEB_DIST, '..', 'web-ssr');

/**
 * CSP of the web application's HTML: everything from this origin, no inline script or style element, no
 * framing. Styles set through the DOM (React's `style` prop, react-aria, uPlot) are allowed by CSP.
 */
const cspWith = (styleSrc: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

export const WEB_CSP = cspWith("'self'");
/**
 * The GraphQL explorer's editor (monaco, inside GraphiQL) writes its styles into <style> elements, which
 * `style-src 'self'` refuses: on that page alone styles may be inline. Scripts stay same-origin only; the
 * app links to the explorer with a full page load so that the page is served with this policy.
 */
export const EXPLORER_CSP = cspWith("'self' 'unsafe-inline'");

const APP_HEADERS = htmlPageHeaders(WEB_CSP, 'strict-origin-when-cross-origin');
const EXPLORER_HEADERS = htmlPageHeaders(EXPLORER_CSP, 'strict-origin-when-cross-origin');

/** Paths that belong to the API: never answered with the web application, an unknown one stays a JSON 404. */
const SERVER_PATHS = /^\/(api|graphql|docs|health|healthz|ready|readyz|metrics)(\/|$)/;
/** Client routes of the web application that live under a server prefix: the GraphQL explorer. */
export const WEB_ROUTES_UNDER_SERVER_PATHS = ['/graphql/explorer'];
const HAS_EXTENSION = /\/[^/]*\.[A-Za-z0-9]+$/;

/** Whether an unmatched request is a page of the web application (its router shows the page, or its 404). */
export function isWebAppPath(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return !SERVER_PATHS.test(path) && !path.startsWith('/assets/') && !HAS_EXTENSION.test(path);
}

export interface WebApp {
  /**
   * Sends the page of a path: the pre-rendered HTML of a public page (landing, free tools), else index.html (or a
   * 503 page naming the build command when the app is not built).
   */
  sendIndex(request: FastifyRequest, reply: FastifyReply, headers?: Record<string, string>): Promise<FastifyReply>;
}

export interface WebAppOptions {
  /** Where the build is (dist/web). */
  root?: string;
  /** The server's public URL (config.baseUrl): canonical URLs, Open Graph URLs, robots.txt and sitemap.xml. */
  publicUrl: string;
  /** Renders signed-in pages for their session (server-render.ts); without it every page is index.html. */
  renderer?: ServerRenderer;
  /** The public check catalog's pages, rendered with their data for anyone (check-pages.ts). */
  publicPages?: PublicDataPages;
}

/** What facades/web/prerender.ts writes in the placeholder's place of canonical and og:url. */
const PUBLIC_URL_PLACEHOLDER = '%PUBLIC_URL%';

interface Build {
  mtimeMs: number;
  index: Buffer;
  /** The pre-rendered public pages by path, PUBLIC_URL filled in. */
  pages: Map<string, Buffer>;
  /** Vite's manifest (dist/web/.vite/manifest.json): the chunks each route module loads. */
  manifest: Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;
  /** The HTML of each ROUTE_CHUNKS entry, with its modulepreload links (made on first use). */
  withPreloads: Map<number, Buffer>;
  /**
   * index.html cut for a rendered page (server-render.ts splitTemplate), its stylesheet inline (inlineStylesheets),
   * with the page headers whose CSP allows that style element; once per build.
   */
  rendered: RenderedTemplate | null;
}

const APP_HEADER = 'src/features/shell/app-header.tsx';
/**
 * The route modules of the pages people open first (by bookmark or link): their chunks are named in the HTML
 * (modulepreload), so that the browser fetches and compiles them while the entry script loads, instead of after it
 * ran. A module the build does not have is skipped: the page then loads it as before, only later.
 */
const ROUTE_CHUNKS: { path: RegExp; modules: string[] }[] = [
  { path: /^\/$/, modules: ['src/features/landing/landing-page.tsx'] },
  { path: /^\/sign-(in|up)$/, modules: ['src/features/auth/sign-in-page.tsx'] },
  { path: /^\/tools$/, modules: ['src/features/tools/tools-index-page.tsx'] },
  { path: /^\/tools\/meta-tags$/, modules: ['src/features/tools/meta-tags-page.tsx'] },
  { path: /^\/tools\/robots$/, modules: ['src/features/tools/robots-page.tsx'] },
  { path: /^\/tools\/headers$/, modules: ['src/features/tools/headers-page.tsx'] },
  { path: /^\/tools\/sitemap$/, modules: ['src/features/tools/sitemap-page.tsx'] },
  { path: /^\/projects$/, modules: [APP_HEADER, 'src/features/projects/dashboard-page.tsx'] },
  { path: /^\/projects\/[^/]+$/, modules: [APP_HEADER, 'src/features/projects/project-overview-page.tsx'] },
  { path: /^\/projects\/[^/]+\/audits\/[^/]+$/, modules: [APP_HEADER, 'src/features/audits/audit-issues-page.tsx'] },
  {
    path: /^\/projects\/[^/]+\/keywords$/,
    modules: [APP_HEADER, 'src/features/keywords/keywords-page.tsx'],
  },
  {
    path: /^\/projects\/[^/]+\/audits\/[^/]+\/pages$/,
    modules: [APP_HEADER, 'src/features/audits/pages-explorer-page.tsx'],
  },
];

/** `html` with modulepreload links for the modules' chunks and the chunks they import (the entry's excepted). */
export function withModulePreloads(html: Buffer, manifest: Build['manifest'], modules: readonly string[]): Buffer {
  const closure = (keys: readonly string[]) => {
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length) {
      const key = stack.pop()!;
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      stack.push(...(manifest[key].imports ?? []));
    }
    return seen;
  };
  const entry = closure(Object.keys(manifest).filter((k) => manifest[k].isEntry));
  const links = [...closure(modules)]
    .filter((key) => !entry.has(key))
    .map((key) => `<link rel="modulepreload" crossorigin href="/assets/${basename(manifest[key].file)}">`);
  if (!links.length) return html;
  const text = html.toString('utf8');
  const at = text.indexOf('</head>');
  return at < 0 ? html : Buffer.from(`${text.slice(0, at)}  ${links.join('\n    ')}\n  ${text.slice(at)}`);
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** robots.txt: crawlers may fetch the public pages (and the files they load), nothing of the app or the APIs. */
export function robotsTxt(origin: string, paths: readonly string[]): string {
  return [
    '# SEO Audit Platform: the landing page and the free tools are public; the application, its APIs and their',
    '# reference are not pages for search engines.',
    'User-agent: *',
    ...paths.map((path) => `Allow: ${path}$`),
    'Allow: /assets/',
    'Allow: /favicon.svg',
    'Disallow: /',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/** sitemap.xml: the public pages' canonical URLs. */
export function sitemapXml(origin: string, paths: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

const NOT_BUILT = 'The web application is not built. Run `npm run build:web` (or `npm start`, which builds it).\n';

/**
 * Serves the built web application: hashed assets cached for a year, the HTML revalidated each time and sent for
 * `/`, the explorer and, from the not-found handler, every other path of the app's router; the public pages
 * pre-rendered, with robots.txt and sitemap.xml naming them.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<WebApp> {
  const root = options.root ?? WEB_DIST;
  // PUBLIC_URL without a trailing slash (escaped where it goes into HTML).
  const origin = options.publicUrl.replace(/\/+$/, '');
  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    cacheControl: true,
    maxAge: '365d',
    immutable: true,
    // The build writes .br and .gz beside each asset; the browser gets the smallest it accepts.
    preCompressed: true,
    setHeaders: (reply) => void reply.header('x-content-type-options', 'nosniff'),
  });

  let favicon: Buffer | null = null;
  const load = async (name: string) => readFile(join(root, name)).catch(() => null);
  // index.html names the current build's hashed files: re-read (with the pre-rendered pages, which the same build
  // writes) when a new build replaced it (one stat per page).
  let build: Build | null = null;
  const currentBuild = async (): Promise<Build | null> => {
    const mtimeMs = (await stat(join(root, 'index.html')).catch(() => null))?.mtimeMs;
    if (mtimeMs === undefined) return null;
    if (build?.mtimeMs !== mtimeMs) {
      const index = await load('index.html');
      const listed = await load(join('prerendered', 'pages.json'));
      const pages = new Map<string, Buffer>();
      for (const page of listed ? (JSON.parse(listed.toString('utf8')) as { path: string; file: string }[]) : []) {
        const html = await load(join('prerendered', page.file));
        const filled = html?.toString('utf8').replaceAll(PUBLIC_URL_PLACEHOLDER, escapeXml(origin));
        if (filled) pages.set(page.path, Buffer.from(filled));
      }
      const manifest = await load(join('.vite', 'manifest.json'));
      build = index
        ? {
            mtimeMs,
            index,
            pages,
            manifest: manifest ? JSON.parse(manifest.toString('utf8')) : {},
            withPreloads: new Map(),
            rendered: await renderedTemplate(index.toString('utf8')),
          }
        : null;
    }
    return build;
  };

  /** index.html for a rendered page: cut where the page goes, its stylesheets inline and allowed by hash. */
  async function renderedTemplate(template: string): Promise<Build['rendered']> {
    const parts = splitTemplate(template);
    if (!parts) return null;
    const stylesheets = new Map<string, string>();
    for (const file of linkedStylesheets(parts.head)) {
      const css = await load(join('assets', file));
      if (css) stylesheets.set(file, css.toString('utf8'));
    }
    const { head, styleHashes } = inlineStylesheets(parts.head, stylesheets);
    const styleSrc = ["'self'", ...styleHashes.map((hash) => `'${hash}'`)].join(' ');
    return { head, tail: parts.tail, headers: htmlPageHeaders(cspWith(styleSrc), 'strict-origin-when-cross-origin') };
  }

  const notBuilt = (reply: FastifyReply) =>
    reply
      .code(503)
      .headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
      .type('text/plain; charset=utf-8')
      .send(NOT_BUILT);

  const sendIndex = async (
    request: FastifyRequest,
    reply: FastifyReply,
    headers = APP_HEADERS,
  ): Promise<FastifyReply> => {
    const current = await currentBuild();
    if (!current) return notBuilt(reply);
    const path = request.url.split('?')[0];
    const publicPage = current.pages.get(path);
    // The check catalog's pages: rendered with their data for anyone, session or not (check-pages.ts).
    const dataPage =
      !publicPage && headers === APP_HEADERS ? await options.publicPages?.render(request, current.index) : null;
    if (dataPage)
      return reply.code(dataPage.status).headers(headers).type('text/html; charset=utf-8').send(dataPage.html);
    // A signed-in page of the app (never a public page or the explorer) is rendered for the request's session, from
    // index.html cut once per build (its chunk preloads are left out: see splitTemplate).
    const page =
      !publicPage && headers === APP_HEADERS && request.headers.cookie && current.rendered
        ? await options.renderer?.prepare(request)
        : null;
    if (page && current.rendered) return sendRenderedPage(request, reply, current.rendered, page);
    const route = ROUTE_CHUNKS.findIndex((r) => r.path.test(path));
    let html = publicPage ?? current.index;
    if (route >= 0) {
      const key = publicPage ? -1 - route : route;
      let preloaded = current.withPreloads.get(key);
      if (!preloaded) {
        preloaded = withModulePreloads(html, current.manifest, ROUTE_CHUNKS[route].modules);
        current.withPreloads.set(key, preloaded);
      }
      html = preloaded;
    }
    return reply.headers(headers).type('text/html; charset=utf-8').send(html);
  };

  app.get('/', sendIndex);
  for (const path of WEB_ROUTES_UNDER_SERVER_PATHS) {
    app.get(path, async (request, reply) => sendIndex(request, reply, EXPLORER_HEADERS));
  }
  app.get('/robots.txt', async (_request, reply) => {
    const current = await currentBuild();
    if (!current) return notBuilt(reply);
    return reply
      .headers({ 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .type('text/plain; charset=utf-8')
      .send(robotsTxt(origin, [...current.pages.keys(), ...((await options.publicPages?.paths()) ?? [])]));
  });
  app.get('/sitemap.xml', async (_request, reply) => {
    const current = await currentBuild();
    if (!current) return notBuilt(reply);
    return reply
      .headers({ 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .type('application/xml; charset=utf-8')
      .send(sitemapXml(origin, [...current.pages.keys(), ...((await options.publicPages?.paths()) ?? [])]));
  });
  app.get('/favicon.svg', async (_request, reply) => {
    favicon ??= await load('favicon.svg');
    if (!favicon) return sendRefusal(reply, { code: 'NOT_FOUND', message: 'Route GET /favicon.svg not found' });
    return reply
      .headers({ 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' })
      .type('image/svg+xml')
      .send(favicon);
  });
  return { sendIndex };
}
