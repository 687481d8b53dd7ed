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
 */
import { renderToString } from 'react-dom/server';
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
}

export type ServerRenderResult =
  { rendered: true; markup: string; results: SSRData } | { rendered: false; reason: string };

/**
 * urql's transport, answered in-process: every operation goes to `execute` (urql's subscriptionExchange with
 * enableAllOperations, its documented way to hand queries to another transport), and its result comes back as the
 * object it is, not as JSON written and parsed again. Every request is counted until it settles; once the render has
 * started, later requests (a query no loader prefetched) are refused at once: the browser makes them, as it would
 * without this.
 */
function inProcessTransport(execute: ServerRenderInput['execute']) {
  const pending = new Set<Promise<unknown>>();
  let closed = false;
  let failed: string | null = null;
  const run = async (request: GraphQLRequest): Promise<ExecutionResult> => {
    if (closed) throw new Error('rendering: no more queries');
    const running = execute(request);
    pending.add(running);
    try {
      const response = await running;
      if (response.errors?.length) failed ??= `the query ${request.operationName ?? ''} answered errors`;
      return response as ExecutionResult;
    } catch (err) {
      failed ??= `a query failed: ${err instanceof Error ? err.message : String(err)}`;
      throw err;
    } finally {
      pending.delete(running);
    }
  };
  const exchange = subscriptionExchange({
    enableAllOperations: true,
    forwardSubscription: (request) => ({
      subscribe(sink) {
        let active = true;
        // The variables as POST /graphql would receive them (JSON: no undefined values), a few bytes.
        const variables =
          request.variables && (JSON.parse(JSON.stringify(request.variables)) as Record<string, unknown>);
        run({ query: request.query ?? '', variables, operationName: request.operationName }).then(
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
    /** Waits until no query is in flight (a result may start another: loaders that chain). */
    async settled(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
      // urql delivers a result on a later tick: let it reach the ssrExchange before reading it.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    close() {
      closed = true;
    },
    failure: () => failed,
  };
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
  return { rendered: true, markup: result.markup, head };
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
    const markup = renderToString(
      <GraphQLProvider client={client}>
        <RouterProvider router={router} />
      </GraphQLProvider>,
    );
    return { rendered: true, markup: cspSafeMarkup(markup, 'drop'), results: ssr.extractData() };
  } finally {
    transport.close();
    router.history.destroy();
  }
}
