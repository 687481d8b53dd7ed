import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import Negotiator from 'negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainApi } from '../../schema/domain-runtime.js';
import { GraphQLReadLane } from '../../src/platform/fast-path/graphql-read-lane.js';
import { queryLimitsRule } from '../graphql/graphql-limits.js';
import { STORED_DATA_READS } from '../graphql/graphql-route.js';
import { toWebHeaders } from './http-guard.js';

/**
 * Signed-in pages rendered by the server: the web app's own pages and queries (its server build,
 * dist/web-ssr/entry-server.js, from facades/web/src/entry-server.tsx), for the request's session, so that the browser
 * paints the page from the HTML instead of after its scripts, session and queries (`npm run bench -- web` measures it).
 *
 * - Who: the session cookie, authenticated as on /graphql; the page counts once against the user's web-app budget
 *   (APP_RATE_PER_MINUTE), as the queries it saves the browser would have.
 * - What: the queries of the page's route loaders, run in-process on the domain schema with the request's context
 *   and /graphql's validation rules; only reads of stored data (the read lane's list) ever run here.
 * - Never worse than before: no session, a page whose route does not load its data, a redirect, a query with
 *   errors, a dependency out of reach or any fault gives `null`, and the caller sends the plain index.html, whose
 *   scripts then do what they always did (and show the error, if there is one).
 * - A long list streams after the page (the issues, the keywords: lib/streamed-query.ts): the page goes out when its
 *   own queries are answered, the list when its query is; React's script that puts it in place is allowed by a nonce
 *   made for the response. A list that fails or takes longer than STREAM_DEADLINE_MS is left to the browser.
 */

/** What rendering needs of the domain. */
export type ServerRenderRuntime = Pick<
  DomainApi,
  'config' | 'schema' | 'authenticate' | 'appRateFor' | 'rateLimit' | 'handleAuth' | 'createContext'
>;

interface RendererModule {
  rendersPage(url: string): boolean;
  renderSignedInPage(input: {
    url: string;
    session: string;
    execute(request: {
      query: string;
      variables?: Record<string, unknown>;
      operationName?: string;
    }): Promise<{ data?: unknown; errors?: readonly unknown[] }>;
    nonce: string;
    signal: AbortSignal;
  }): Promise<
    | { rendered: true; markup: string; rest: AsyncIterable<string>; results(): unknown }
    | { rendered: false; reason: string }
  >;
}

/** What a signed-in page's request gets from the renderer: its cookies (known before any byte is sent), its render. */
export interface PreparedPage {
  /** better-auth's session refresh, if get-session made one: sent with the page's headers. */
  setCookies: string[];
  /** The response's CSP nonce: React's scripts that put a streamed list in place carry it. */
  nonce: string;
  /**
   * The markup of #root and the JSON state beside it (lib/ssr-state.ts), or null: the browser renders the page. The
   * state is written when asked for, after the markup has gone out.
   */
  render(): Promise<RenderedPage | null>;
}

/** A rendered page: its markup, the rest of it as it streams, and its state (JSON text) written on demand. */
export interface RenderedPage {
  markup: string;
  rest: AsyncIterable<string>;
  /** Once `rest` has ended. */
  state(): string;
}

export interface ServerRenderer {
  /** The request's session and budget checked: the page to render, or null for the plain index.html. */
  prepare(request: FastifyRequest): Promise<PreparedPage | null>;
}

/**
 * How long a page may take to render here: past it the page's head is already on its way, so #root goes out empty and
 * the browser renders the page as it would without this (a database that hangs does not hang the page).
 */
export const RENDER_DEADLINE_MS = 2_000;

/** How long a streamed list may take after the page has gone out: past it, the browser renders the list. */
export const STREAM_DEADLINE_MS = 10_000;

const SCRIPT_UNSAFE = /[<\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * JSON inside a script element: no `<` (so no `</script>` or `<!--`), and no line separators JSON allows. One pass
 * over the text (the 2,000-issue page's state is ~760 KB: three passes took ~6 ms of the page's CPU).
 */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c]);

/**
 * get-session's answer without the session's token: the browser's page has no use for it (the cookie carries it), and
 * a page's HTML is more easily kept or shown than a fetch's answer. Null when there is no session.
 */
function withoutToken(text: string): string | null {
  const body = text ? (JSON.parse(text) as { session?: Record<string, unknown> } | null) : null;
  if (!body?.session) return null;
  delete body.session.token;
  return JSON.stringify(body);
}

export function createServerRenderer(
  runtime: ServerRenderRuntime,
  options: { root: string; enabled: boolean },
): ServerRenderer {
  const entry = join(resolve(options.root), 'entry-server.js');
  // The build's module, loaded once per build (a rebuild while the server runs replaces the file; the old module stays
  // in memory, as an ES module does: a development case).
  let loaded: { mtimeMs: number; module: Promise<RendererModule> } | null = null;
  const renderer = async (): Promise<RendererModule | null> => {
    const mtimeMs = (await stat(entry).catch(() => null))?.mtimeMs;
    if (mtimeMs === undefined) return null;
    if (loaded?.mtimeMs !== mtimeMs) {
      const url = `${pathToFileURL(entry).href}?v=${mtimeMs}`;
      loaded = { mtimeMs, module: import(url) as Promise<RendererModule> };
    }
    return loaded.module;
  };
  const { config } = runtime;
  const lane = new GraphQLReadLane({
    schema: runtime.schema,
    validationRules: [queryLimitsRule({ maxDepth: config.GRAPHQL_MAX_DEPTH, maxCost: config.GRAPHQL_MAX_COST })],
    readFields: STORED_DATA_READS,
    capacity: 100,
    compileOnFirstUse: true,
  });

  async function prepare(request: FastifyRequest): Promise<PreparedPage | null> {
    const cookie = request.headers.cookie;
    if (!options.enabled || !cookie || request.method !== 'GET') return null;
    const module = await renderer();
    if (!module?.rendersPage(request.url)) return null;
    const principal = await runtime.authenticate(
      { session: { cookie, headers: () => toWebHeaders(request) } },
      'GRAPHQL',
    );
    if (!principal?.userId) return null;
    const { bucket, limit, burst } = runtime.appRateFor(principal.userId);
    if (!(await runtime.rateLimit(bucket, limit, burst)).allowed) return null;
    const sessionResponse = await runtime.handleAuth(
      new Request(new URL('/api/auth/get-session', config.baseUrl), { headers: toWebHeaders(request) }),
    );
    const session = sessionResponse.ok ? withoutToken(await sessionResponse.text()) : null;
    if (!session) return null;
    const context = runtime.createContext({ principal, requestId: String(request.id), ip: request.ip });
    const nonce = randomBytes(18).toString('base64');
    const render = async () => {
      const started = performance.now();
      const result = await module.renderSignedInPage({
        url: request.url,
        session,
        nonce,
        signal: AbortSignal.timeout(STREAM_DEADLINE_MS),
        async execute({ query, variables, operationName }) {
          const compiled = lane.operation(query, operationName);
          if (!compiled) return { errors: [{ message: 'not a read of stored data' }] };
          return compiled.query(undefined, context, variables ?? {});
        },
      });
      const ms = Math.round(performance.now() - started);
      if (!result.rendered) {
        request.log.debug({ reason: result.reason, ms }, 'page left to the browser');
        return null;
      }
      request.log.debug({ ms }, 'page rendered');
      return {
        markup: result.markup,
        rest: result.rest,
        state: () => scriptSafeJson({ session, results: result.results() }),
      };
    };
    return {
      setCookies: sessionResponse.headers.getSetCookie(),
      nonce,
      async render() {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<null>((resolve) => {
          timer = setTimeout(() => {
            request.log.warn({ ms: RENDER_DEADLINE_MS }, 'server rendering too slow: the page is left to the browser');
            resolve(null);
          }, RENDER_DEADLINE_MS);
        });
        try {
          return await Promise.race([render(), deadline]);
        } catch (err) {
          request.log.warn({ err }, 'server rendering failed: the page is left to the browser');
          return null;
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }

  return {
    async prepare(request) {
      try {
        return await prepare(request);
      } catch (err) {
        request.log.warn({ err }, 'server rendering failed: the page is left to the browser');
        return null;
      }
    },
  };
}

const ROOT = '<div id="root"></div>';
const SESSION_PRELOAD = /\s*<link rel="preload" as="fetch" href="\/api\/auth\/get-session"[^>]*>/;

/**
 * index.html cut where the page goes: what is sent at once (the head, without the session's preload: the session comes
 * in the page; inlineStylesheets then puts its stylesheet in it), and what follows #root, with
 * the entry script moved after it and the route chunks' modulepreload links left out. A rendered page is painted
 * from its HTML: its scripts only take it over, and fetched and compiled early they ran before the first paint or
 * competed with it for this machine's CPU. Measured side by side (two servers, 9 cold loads each, first paint):
 * scripts after #root 320 and 304 ms against 392 and 356 ms in the head (dashboard, 2,000-issue audit); without the
 * preloads 280 and 216 ms against 300 and 280 ms with them (dashboard, keywords), the scripts' run (DOMContentLoaded)
 * no later. Null when the template has no empty #root.
 */
export function splitTemplate(template: string): { head: string; tail: string } | null {
  const at = template.indexOf(ROOT);
  if (at < 0) return null;
  const scripts: string[] = [];
  const head = template
    .slice(0, at)
    .replace(SESSION_PRELOAD, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/\s*<script type="module"[^>]*><\/script>/g, (tag) => {
      scripts.push(tag.trim());
      return '';
    });
  return { head, tail: `\n    ${scripts.join('\n    ')}${template.slice(at + ROOT.length)}` };
}

const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="\/assets\/([\w.-]+\.css)">/g;

/** The app's stylesheets a head links (the files under /assets/), in order. */
export const linkedStylesheets = (head: string): string[] => [...head.matchAll(STYLESHEET_LINK)].map((m) => m[1]);

/**
 * A rendered page's head with the app's stylesheets in it instead of linked, and the CSP hashes that allow exactly
 * those style elements (`style-src 'self' 'sha256-…'`: no other inline style runs).
 *
 * Linked, the stylesheet is one more request, made once the head has arrived, and answered by this process, which is
 * by then rendering the page: in a trace of the 1,000-keyword page the stylesheet's answer came after the page's
 * markup, which waited for it to paint. Inline, the head that is sent before the render carries it (side by side, 16
 * cold loads each: LCP 240 -> 228 ms keywords, 208 -> 192 ms dashboard). It costs a rendered page ~6 KB compressed,
 * not cached; the plain index.html, the public pages and client-side navigation keep the cached file. A stylesheet
 * that is missing or that could close its element early stays linked.
 */
export function inlineStylesheets(
  head: string,
  stylesheets: ReadonlyMap<string, string>,
): { head: string; styleHashes: string[] } {
  const styleHashes: string[] = [];
  const inlined = head.replace(STYLESHEET_LINK, (link, file: string) => {
    const css = stylesheets.get(file);
    if (css === undefined || /<\/style/i.test(css)) return link;
    styleHashes.push(`sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}`);
    return `<style>${css}</style>`;
  });
  return { head: inlined, styleHashes };
}

const ROOT_OPEN = '<div id="root">';
const ROOT_CLOSE = '</div>';

/** #root with the rendered markup (the empty #root when the page was not rendered). */
export const rootHtml = (page: Pick<RenderedPage, 'markup'> | null): string =>
  page ? `${ROOT_OPEN}${page.markup}${ROOT_CLOSE}` : ROOT;

/** The page's CSP with its nonce among the script sources (React's scripts that put a streamed list in place). */
export const withScriptNonce = (csp: string, nonce: string): string =>
  csp.replace(
    /(^|;\s*)script-src ([^;]*)/,
    (_m, start: string, sources: string) => `${start}script-src ${sources} 'nonce-${nonce}'`,
  );

/** The state's element, sent after #root (sendRenderedPage). */
export const stateHtml = (state: string): string =>
  `\n    <script type="application/json" id="ssr-state">${state}</script>`;

const ENCODINGS = ['br', 'gzip', 'identity'];

/** index.html for a rendered page, once per build: its head and tail, and the page headers its inline style needs. */
export interface RenderedTemplate {
  head: string;
  tail: string;
  headers: Record<string, string>;
}

/**
 * Sends a signed-in page as a stream: the head (with its stylesheet) at once, so that the browser has it while the
 * page renders here, then #root and the rest (the entry script after #root). It holds the user's data, so no cache
 * may keep it. It is compressed here for a client that accepts it (@fastify/compress hooks only registered routes,
 * and the app's pages are answered by the not-found handler), flushed after the head: a page with 2,000 issues is
 * ~820 KB of HTML, ~70 KB compressed. Brotli at quality 4, not 5: the 1,000-keyword page (600 KB) compresses in 3.1
 * instead of 5.5-6.2 ms here, for 58 KB instead of 52 KB (the process's CPU is what a rendered page waits on).
 */
export function sendRenderedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  template: RenderedTemplate,
  page: PreparedPage,
): FastifyReply {
  if (page.setCookies.length) reply.header('set-cookie', page.setCookies);
  reply
    .headers({
      ...template.headers,
      'content-security-policy': withScriptNonce(template.headers['content-security-policy'] ?? '', page.nonce),
      'cache-control': 'private, no-store',
      vary: 'Cookie, Accept-Encoding',
    })
    .type('text/html; charset=utf-8');
  const accept = request.headers['accept-encoding'];
  const encoding = accept ? new Negotiator({ headers: { 'accept-encoding': accept } }).encoding(ENCODINGS) : null;
  let out: Writable & { flush?(callback?: () => void): void };
  let body: Readable;
  if (encoding === 'br' || encoding === 'gzip') {
    const compress =
      encoding === 'br'
        ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } })
        : createGzip({ level: 6 });
    reply.header('content-encoding', encoding);
    out = compress;
    body = compress;
  } else {
    const plain = new PassThrough();
    out = plain;
    body = plain;
  }
  /** What was written, handed on to the socket (a compressor's flush), and a turn of the event loop after it. */
  const flushed = () =>
    new Promise<void>((resolve) => {
      const next = () => setImmediate(resolve);
      if (out.flush) out.flush(next);
      else next();
    });
  const send = async () => {
    out.write(template.head);
    out.flush?.();
    const rendered = await page.render();
    if (!rendered) return void out.end(rootHtml(null) + template.tail);
    out.write(ROOT_OPEN + rendered.markup);
    await flushed();
    // A streamed list, piece by piece as React renders it: each goes out at once.
    for await (const piece of rendered.rest) {
      if (body.destroyed) return;
      out.write(piece);
      await flushed();
    }
    // The markup goes out before the state is even written: the browser paints it while the state, which only the
    // scripts read (~510 KB on the 1,000-keyword page, ~760 KB on the 2,000-issue one), is serialized, compressed and
    // sent. Serializing it blocks this process for several milliseconds, so it waits until the flushed markup has been
    // handed to the socket (the flush's callback, then a turn of the event loop).
    out.write(ROOT_CLOSE);
    await flushed();
    out.write(stateHtml(rendered.state()));
    out.end(template.tail);
  };
  send().catch((err: unknown) => body.destroy(err instanceof Error ? err : new Error(String(err))));
  return reply.send(body);
}
