/**
 * A signed-in page rendered on the server, per request (facades/http/server-render.ts loads this module's build,
 * dist/web-ssr/entry-server.js): the HTML the browser paints before any script runs, and the state the browser's
 * first render starts from (lib/ssr-state.ts), so that it draws the same page at once instead of a blank one that
 * then fetches its session and data.
 *
 * The tree is the app's own: its router (a memory history at the requested URL, the request's session), its layout,
 * header and pages. The page's data comes from the route loaders' queries, run through a urql client whose transport
 * is the server's in-process GraphQL execution (the same schema, context and rules as POST /graphql); the render
 * waits for them, then reads them from urql's document cache, while its ssrExchange serializes them for the browser.
 *
 * Only pages whose route loader fetches their data are rendered here; anything else (a redirect, a not-found, an
 * error, a query with errors) is left to the browser as before: the caller sends the plain index.html.
 *
 * A page with a long list streams it (lib/streamed-query.ts): its loader starts the list's query with STREAMED, the
 * render waits only for the other queries, and React's streaming renderer gives the page's shell at once (the list's
 * Suspense fallback in its place) and the list when its query is answered, with React's script that puts it in place
 * (the response's CSP nonce allows it). The browser paints the shell while the list is read and rendered here.
 */
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import {
  Client,
  cacheExchange,
  ssrExchange,
  subscriptionExchange,
  type ExecutionResult,
  type SSRData,
} from '@urql/core';
import { parseSession, type Session } from './lib/session';
import { GraphQLProvider } from './lib/graphql-client';
import { createAppRouter, type AppRouter, type RouterContext } from './app/router';
import { AppHeader } from './features/shell';
import { StreamedQueries } from './lib/streamed-query';
import { cspSafeMarkup } from './ssr/csp-safe-markup';

/** A GraphQL request as POST /graphql receives it. */
export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A GraphQL response: its data, and its errors if any. */
export interface GraphQLResponse {
  data?: unknown;
  errors?: readonly unknown[];
}

export interface ServerRenderInput {
  /** The requested path with its query string. */
  url: string;
  /** The body of /api/auth/get-session for the request (JSON text). */
  session: string;
  /** Runs one of the page's queries in-process, as the request's principal. */
  execute(request: GraphQLRequest): Promise<GraphQLResponse>;
  /** The response's CSP nonce, for React's scripts that put a streamed list in place. */
  nonce?: string;
  /** Aborts a streamed list still pending: the browser renders it instead. */
  signal?: AbortSignal;
}

/** A rendered page: its shell, then the rest of its markup as it streams, then its query results. */
export interface RenderedMarkup {
  rendered: true;
  /** The page's markup as far as it is ready (a streamed list's fallback in its place). */
  markup: string;
  /** The rest of the markup, a piece per flush of React's renderer (nothing for a page without a streamed list). */
  rest: AsyncIterable<string>;
  /** The queries' results for the browser (ssrExchange's data), once `rest` has ended. */
  results(): SSRData;
}

export type ServerRenderResult = RenderedMarkup | { rendered: false; reason: string };

/**
 * urql's transport, answered in-process: every operation goes to `execute` (urql's subscriptionExchange with
 * enableAllOperations, its documented way to hand queries to another transport), and its result comes back as the
 * object it is, not as JSON written and parsed again. Every request is counted until it settles; once the render has
 * started, later requests (a query no loader prefetched) are refused at once: the browser makes them, as it would
 * without this. A streamed query (STREAMED in its context) is not waited for before the render: the component that
 * shows it waits for it (`wait`), and when it fails, its result is not sent to the browser, which asks again. It runs
 * once the page's other queries are answered: run beside them, its rows' resolvers took the CPU the page's own
 * needed, and the 2,000-issue page's heading waited for most of its list (45 of 54 ms, measured alone).
 */
function inProcessTransport(execute: ServerRenderInput['execute']) {
  const pending = new Set<Promise<unknown>>();
  const streamed = new Map<number, Promise<void>>();
  const streamedFailures = new Set<number>();
  let closed = false;
  let failed: string | null = null;
  let openGate = () => undefined as void;
  const pageAnswered = new Promise<void>((resolve) => (openGate = resolve));
  const run = async (request: GraphQLRequest, streamedKey: number | null): Promise<ExecutionResult> => {
    if (closed) throw new Error('rendering: no more queries');
    const running = streamedKey === null ? execute(request) : pageAnswered.then(() => execute(request));
    const fail = (reason: string) => {
      if (streamedKey === null) failed ??= reason;
      else streamedFailures.add(streamedKey);
    };
    if (streamedKey === null) pending.add(running);
    else
      streamed.set(
        streamedKey,
        // Settled, then a turn later: urql delivers a result to its cache on a later tick.
        running.then(
          () => new Promise((resolve) => setTimeout(resolve, 0)),
          () => undefined,
        ),
      );
    try {
      const response = await running;
      if (response.errors?.length) fail(`the query ${request.operationName ?? ''} answered errors`);
      return response as ExecutionResult;
    } catch (err) {
      fail(`a query failed: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    } finally {
      pending.delete(running);
    }
  };
  const exchange = subscriptionExchange({
    enableAllOperations: true,
    forwardSubscription: (request, operation) => ({
      subscribe(sink) {
        let active = true;
        // The variables as POST /graphql would receive them (JSON: no undefined values), a few bytes.
        const variables =
          request.variables && (JSON.parse(JSON.stringify(request.variables)) as Record<string, unknown>);
        const streamedKey = operation.context.streamed === true ? operation.key : null;
        run({ query: request.query ?? '', variables, operationName: request.operationName }, streamedKey).then(
          (result) => {
            if (!active) return;
            sink.next(result);
            sink.complete();
          },
          (err: unknown) => active && sink.error(err),
        );
        return { unsubscribe: () => void (active = false) };
      },
    }),
  });
  return {
    exchange,
    /** Waits until no query is in flight but streamed ones (a result may start another: loaders that chain). */
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
      openGate();
      // urql delivers a result on a later tick: let it reach the ssrExchange before reading it.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    /** A streamed query's answer, for the component that shows it (lib/streamed-query.ts). */
    wait: (key: number): Promise<void> | null => streamed.get(key) ?? null,
    close() {
      closed = true;
    },
    failure: () => failed,
    /** The streamed queries whose answer was an error: left for the browser to ask again. */
    streamedFailures: (): ReadonlySet<number> => streamedFailures,
  };
}

/** React's writes, gathered into one piece per flush (a flush ends on a tag: a piece can be read on its own). */
interface StreamedMarkup {
  /** The markup of the first flush: the page, a pending list's fallback in its place. */
  shell: string;
  /** The later flushes' pieces, until React ends. */
  rest: AsyncIterable<string>;
}

/**
 * The page rendered by React's streaming renderer: the shell once everything outside a pending Suspense boundary has
 * rendered (or, `whole`, once everything has: one piece, which no script completes), the rest as each boundary
 * completes. Completed boundaries are never held back for the shell's size (progressiveChunkSize): a page whose data
 * is all there comes in its shell.
 */
function renderStream(
  node: ReactNode,
  { nonce, signal, whole }: { nonce?: string; signal?: AbortSignal; whole: boolean },
) {
  return new Promise<StreamedMarkup>((resolve, reject) => {
    const pieces: string[] = [];
    let bytes: Buffer[] = [];
    let ended = false;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    // What React's pipe() needs of a destination: write, flush (after each of its flushes), end, and `on` for the
    // events it listens to (never emitted: this destination neither fills nor closes early).
    const destination = {
      write(chunk: Uint8Array | string) {
        bytes.push(Buffer.from(chunk));
        return true;
      },
      flush() {
        if (bytes.length) pieces.push(Buffer.concat(bytes).toString('utf8'));
        bytes = [];
        notify();
      },
      end() {
        destination.flush();
        ended = true;
        signal?.removeEventListener('abort', abort);
        notify();
      },
      on: () => destination,
    };
    async function* rest(): AsyncGenerator<string> {
      for (;;) {
        while (pieces.length) yield pieces.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    const ready = () => {
      stream.pipe(destination as unknown as NodeJS.WritableStream);
      resolve({ shell: pieces.splice(0).join(''), rest: rest() });
    };
    const stream = renderToPipeableStream(node, {
      nonce,
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady: whole ? undefined : ready,
      onAllReady: whole ? ready : undefined,
      onShellError: reject,
      // A streamed list that failed to render (or was aborted) is rendered by the browser: React says so in the page.
      onError: () => undefined,
    });
    const abort = () => stream.abort(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Where the router sent a server load instead of rendering it (its internal result; the version is pinned): the
 * canonical form of a URL whose search parameters the route rewrites (`compare=a,b` to its array form) among them.
 */
function serverRedirect(router: AppRouter): string | null {
  const result = (router as unknown as { _serverResult?: { type: string; redirect?: { options: { href?: string } } } })
    ._serverResult;
  return result?.type === 'redirect' ? (result.redirect?.options.href ?? null) : null;
}

const pathOf = (url: string) => new URL(url, 'http://app.invalid').pathname;

/**
 * A router of the server's: a memory history at the URL, and no scroll restoration (on the server it writes an inline
 * script, which the CSP refuses; the browser's router restores the scroll position itself once it renders).
 */
const serverRouter = (context: RouterContext, url: string) =>
  createAppRouter(context, {
    history: createMemoryHistory({ initialEntries: [url] }),
    isServer: true,
    scrollRestoration: false,
  });

/** A router to match paths with: no session, no data, never loaded. */
let matcher: AppRouter | undefined;

/**
 * Whether the server renders the page at this URL: its route's loader fetches the page's data. Asked before anything
 * else (the session, the budget), so that a page the browser renders anyway costs nothing here.
 */
export function rendersPage(url: string): boolean {
  matcher ??= serverRouter({ loadSession: () => Promise.resolve(null), graphql: () => undefined as never }, '/');
  const [, , found] = matcher.getMatchedRoutes(pathOf(url));
  return !!found?.options.loader;
}

export async function renderSignedInPage(input: ServerRenderInput): Promise<ServerRenderResult> {
  const session = parseSession(input.session);
  if (!session) return { rendered: false, reason: 'no session' };
  return renderAt(session, input);
}

/** Public pages whose data the server renders for anyone, without a session: the check catalog. */
const PUBLIC_DATA_PAGES = /^\/checks(\/[^/]+)?$/;

export function rendersPublicPage(url: string): boolean {
  return PUBLIC_DATA_PAGES.test(pathOf(url));
}

/** The head tags the server writes around a catalog page's markup (one writer with the pre-rendered pages). */
export { publicHeadTags } from './ssr/public-page-head';

/** A public page's head, as its route loader gives it (`{ head: { title, description } }`). */
export interface PublicPageHead {
  title: string;
  description: string;
}

/**
 * A public page with data (the check catalog), rendered for a visitor without a session: its markup and its head.
 * Not rendered (a code the catalog lacks: its query answers NOT_FOUND) means the caller answers a 404.
 */
export async function renderPublicPage(
  input: Omit<ServerRenderInput, 'session'>,
): Promise<{ rendered: true; markup: string; head: PublicPageHead } | { rendered: false; reason: string }> {
  if (!rendersPublicPage(input.url)) return { rendered: false, reason: 'not a public page' };
  let head: PublicPageHead | null = null;
  const result = await renderAt(null, input, (router) => {
    const data = router.state.matches.at(-1)?.loaderData as { head?: PublicPageHead | null } | undefined;
    head = data?.head ?? null;
  });
  if (!result.rendered) return result;
  if (!head) return { rendered: false, reason: 'no head' };
  let markup = result.markup;
  for await (const piece of result.rest) markup += piece;
  return { rendered: true, markup, head };
}

async function renderAt(
  session: Session | null,
  input: Omit<ServerRenderInput, 'session'>,
  loaded?: (router: AppRouter) => void,
): Promise<ServerRenderResult> {
  const transport = inProcessTransport(input.execute);
  const ssr = ssrExchange({ isClient: false });
  const client = new Client({
    url: '/graphql',
    // urql's documented order, the browser's too (lib/urql.ts): the render reads the loaders' results from the
    // document cache as objects; behind it only, ssrExchange keeps them serialized for the browser (before it, it
    // answered the render too, parsing each result's JSON again: 2.2 ms on the 1,000-keyword page, 4.3 ms on the
    // 2,000-issue one).
    exchanges: [cacheExchange, ssr, transport.exchange],
    requestPolicy: 'cache-first',
    preferGetMethod: false,
  });
  const routerAt = (url: string) =>
    serverRouter({ loadSession: () => Promise.resolve(session), graphql: () => client }, url);
  let router = routerAt(input.url);
  // Once the page streams, its router lives until the stream ends (a streamed list renders with it).
  let streaming = false;
  try {
    await Promise.all([router.load(), AppHeader.preload?.()]);
    // A URL the router only rewrites (the same page, its search in canonical form) is rendered at that form, which
    // the browser's router then shows too; any other redirect is the browser's to follow.
    const canonical = serverRedirect(router);
    if (canonical && pathOf(canonical) === pathOf(input.url)) {
      router.history.destroy();
      router = routerAt(canonical);
      await router.load();
    }
    const matches = router.state.matches;
    const leaf = matches.at(-1);
    const unfinished = matches.filter((m) => m.status !== 'success');
    if (!leaf || unfinished.length || serverRedirect(router))
      return { rendered: false, reason: serverRedirect(router) ? 'redirected' : 'not a page' };
    if (router.state.location.pathname !== pathOf(input.url)) return { rendered: false, reason: 'redirected' };
    if (!(router.routesById as Record<string, { options: { loader?: unknown } }>)[leaf.routeId]?.options.loader)
      return { rendered: false, reason: 'the page loads its own data' };
    await transport.settled();
    const failure = transport.failure();
    if (failure) return { rendered: false, reason: failure };
    transport.close();
    loaded?.(router);
    // A public page (no session) is rendered whole: it is read without scripts (crawlers), so nothing may wait for one.
    const { shell, rest } = await renderStream(
      <StreamedQueries.Provider value={transport.wait}>
        <GraphQLProvider client={client}>
          <RouterProvider router={router} />
        </GraphQLProvider>
      </StreamedQueries.Provider>,
      { nonce: input.nonce, signal: input.signal, whole: !session },
    );
    const safe = (markup: string) => cspSafeMarkup(markup, 'drop', input.nonce);
    async function* safeRest(): AsyncGenerator<string> {
      try {
        for await (const piece of rest) yield safe(piece);
      } finally {
        router.history.destroy();
      }
    }
    streaming = true;
    return {
      rendered: true,
      markup: safe(shell),
      rest: safeRest(),
      results() {
        const data = ssr.extractData();
        for (const key of transport.streamedFailures()) delete data[key];
        return data;
      },
    };
  } finally {
    transport.close();
    if (!streaming) router.history.destroy();
  }
}
