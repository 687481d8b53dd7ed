import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPageHeaders } from './html-page-headers.js';
import { sendRefusal } from './error-translators.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Where `vite build` (facades/web) puts the web application: dist/web, from the sources or from dist/facades. */
export const WEB_DIST = resolve(here, basename(resolve(here, '..')) === 'dist' ? '../..' : '..', 'dist', 'web');

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
  /** Sends index.html (or a 503 page naming the build command when the app is not built). */
  sendIndex(request: FastifyRequest, reply: FastifyReply, headers?: Record<string, string>): Promise<FastifyReply>;
}

/**
 * Serves the built web application: hashed assets cached for a year, index.html revalidated each time and
 * sent for `/`, the explorer and, from the not-found handler, every other path of the app's router.
 */
export async function registerWebApp(app: FastifyInstance, root = WEB_DIST): Promise<WebApp> {
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
  // index.html names the current build's hashed files: re-read when a new build replaced it (one stat per page).
  let index: { mtimeMs: number; html: Buffer } | null = null;
  const currentIndex = async (): Promise<Buffer | null> => {
    const mtimeMs = (await stat(join(root, 'index.html')).catch(() => null))?.mtimeMs;
    if (mtimeMs === undefined) return null;
    if (index?.mtimeMs !== mtimeMs) {
      const html = await load('index.html');
      index = html ? { mtimeMs, html } : null;
    }
    return index?.html ?? null;
  };

  const sendIndex = async (
    _request: FastifyRequest,
    reply: FastifyReply,
    headers = APP_HEADERS,
  ): Promise<FastifyReply> => {
    const html = await currentIndex();
    if (!html) {
      return reply
        .code(503)
        .headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
        .type('text/plain; charset=utf-8')
        .send('The web application is not built. Run `npm run build:web` (or `npm start`, which builds it).\n');
    }
    return reply.headers(headers).type('text/html; charset=utf-8').send(html);
  };

  app.get('/', sendIndex);
  for (const path of WEB_ROUTES_UNDER_SERVER_PATHS) {
    app.get(path, async (request, reply) => sendIndex(request, reply, EXPLORER_HEADERS));
  }
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
