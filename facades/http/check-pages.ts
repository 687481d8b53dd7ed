import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execute, parse } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { DomainApi } from '../../schema/domain-runtime.js';
import { escapeHtml } from '../../src/platform/html-escape.js';

/**
 * The public check catalog's pages (/checks and /checks/:code), rendered by the server for anyone: the web app's own
 * pages and queries (its server build's renderPublicPage, facades/web/src/entry-server.tsx), their data read through
 * the domain schema in-process as an anonymous caller, so that the content, title, description and canonical URL are
 * in the HTML a crawler or a browser without JavaScript receives. The catalog is read generically (GraphQL `checks`):
 * a code added to it has its page, and its line in sitemap.xml and robots.txt, by itself.
 *
 * A rendered page is kept per build of the renderer (the catalog does not change while the process runs), for paths
 * without a query string; a filtered list (`?category=…`) is rendered each time.
 */
export type PublicDataPagesRuntime = Pick<DomainApi, 'schema' | 'createContext'>;

interface PublicRendererModule {
  rendersPublicPage?(url: string): boolean;
  renderPublicPage?(input: {
    url: string;
    execute(request: {
      query: string;
      variables?: Record<string, unknown>;
      operationName?: string;
    }): Promise<{ data?: unknown; errors?: readonly unknown[] }>;
  }): Promise<
    | { rendered: true; markup: string; head: { title: string; description: string } }
    | { rendered: false; reason: string }
  >;
  /** A public page's head tags (facades/web/src/ssr/public-page-head.ts), as the build-time pre-rendering writes. */
  publicHeadTags?(page: {
    title: string;
    description: string;
    canonical: string | null;
    ogType: 'website' | 'article';
  }): string;
}

export interface PublicDataPage {
  status: 200 | 404;
  html: Buffer;
}

export interface PublicDataPages {
  /** The catalog pages' paths, for sitemap.xml and robots.txt (empty when the web app's server build is missing). */
  paths(): Promise<string[]>;
  /** The page for this request, from index.html; null when the path is not one of them or it cannot be rendered. */
  render(request: FastifyRequest, template: Buffer): Promise<PublicDataPage | null>;
}

const CACHE_LIMIT = 1_000;

/** index.html with the page's head tags (`head`: description, canonical, Open Graph), its title and its markup. */
export function publicPageHtml(template: string, page: { title: string; head: string }, markup: string): string | null {
  const steps: [RegExp, string][] = [
    [/<meta name="description"[^>]*>/, page.head],
    [/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`],
    [/<div id="root"><\/div>/, `<div id="root">${markup}</div>`],
  ];
  let html = template;
  for (const [pattern, by] of steps) {
    if (!pattern.test(html)) return null;
    html = html.replace(pattern, () => by);
  }
  return html;
}

export function createPublicDataPages(
  runtime: PublicDataPagesRuntime,
  options: { root: string; publicUrl: string },
): PublicDataPages {
  const entry = join(resolve(options.root), 'entry-server.js');
  const origin = options.publicUrl.replace(/\/+$/, '');
  let loaded: { mtimeMs: number; module: Promise<PublicRendererModule>; pages: Map<string, PublicDataPage> } | null =
    null;
  let codes: Promise<string[]> | null = null;

  const current = async () => {
    const mtimeMs = (await stat(entry).catch(() => null))?.mtimeMs;
    if (mtimeMs === undefined) return null;
    if (loaded?.mtimeMs !== mtimeMs) {
      const url = `${pathToFileURL(entry).href}?v=${mtimeMs}`;
      loaded = { mtimeMs, module: import(url) as Promise<PublicRendererModule>, pages: new Map() };
    }
    return loaded;
  };

  /** A GraphQL request answered in-process for an anonymous caller (public fields only resolve without one). */
  const run = (request: FastifyRequest | null) =>
    async function run({
      query,
      variables,
      operationName,
    }: {
      query: string;
      variables?: Record<string, unknown>;
      operationName?: string;
    }) {
      const contextValue = runtime.createContext({
        principal: null,
        requestId: request ? String(request.id) : 'check-pages',
        ip: request?.ip,
      });
      const result = await execute({
        schema: runtime.schema,
        document: parse(query),
        variableValues: variables,
        operationName,
        contextValue,
      });
      return { data: result.data ?? undefined, errors: result.errors };
    };

  return {
    async paths() {
      if (!(await current())) return [];
      codes ??= run(null)({ query: '{ checks { code } }' }).then((r) =>
        ((r.data as { checks?: { code: string }[] } | undefined)?.checks ?? []).map((c) => c.code),
      );
      const list = await codes.catch(() => {
        codes = null;
        return [];
      });
      return ['/checks', ...list.map((code) => `/checks/${encodeURIComponent(code)}`)];
    },

    async render(request, template) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const build = await current();
      if (!build) return null;
      const module = await build.module;
      if (!module.rendersPublicPage?.(request.url) || !module.renderPublicPage || !module.publicHeadTags) return null;
      const [path, query] = request.url.split('?', 2);
      const cached = query === undefined ? build.pages.get(path) : undefined;
      if (cached) return cached;
      const result = await module.renderPublicPage({ url: request.url, execute: run(request) });
      let page: PublicDataPage | null = null;
      if (result.rendered) {
        // The filtered list's canonical is the list itself.
        const head = module.publicHeadTags({ ...result.head, canonical: `${origin}${path}`, ogType: 'article' });
        const html = publicPageHtml(template.toString('utf8'), { title: result.head.title, head }, result.markup);
        if (html) page = { status: 200, html: Buffer.from(html) };
      } else if (path.startsWith('/checks/') && !(await this.paths()).includes(path)) {
        // A code the catalog lacks: the app's own not-found page, with a 404 status (never a soft 404).
        page = { status: 404, html: template };
      }
      if (page && query === undefined && build.pages.size < CACHE_LIMIT) build.pages.set(path, page);
      return page;
    },
  };
}
