import {
  Client,
  cacheExchange,
  fetchExchange,
  makeOperation,
  mapExchange,
  ssrExchange,
  type Exchange,
  type SSRData,
} from '@urql/core';

/**
 * fetch for urql: a refusal becomes GraphQL errors every page shows the same way as a domain error. /graphql answers
 * its refusals (401, 415, 429) in GraphQL shape, and its 429 carries Retry-After as a header only: the wait is copied
 * into each error's `extensions.retryAfterSeconds`. A refusal in the REST shape `{ error, code }` (from a proxy or an
 * older server) is turned into one GraphQL error with that code.
 */
async function apiFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || !(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; code?: unknown; errors?: unknown } | null;
  if (!body) return response;
  const retry = Number(response.headers.get('retry-after'));
  const wait = retry > 0 ? { retryAfterSeconds: retry } : {};
  let errors: unknown[];
  if (Array.isArray(body.errors)) {
    errors = (body.errors as { extensions?: Record<string, unknown> }[]).map((e) => ({
      ...e,
      extensions: { ...e.extensions, ...wait },
    }));
  } else if (typeof body.error === 'string') {
    errors = [
      {
        message: body.error,
        extensions: { code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`, ...wait },
      },
    ];
  } else {
    return response;
  }
  return new Response(JSON.stringify({ data: null, errors }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * The results a server-rendered page came with count as fresh once: the route loaders' first prefetch (network-only,
 * FRESH) of an operation the page carries is answered from it instead of asking the API again for what it just sent.
 */
function servedAsFresh(served: SSRData): Exchange {
  const keys = new Set(Object.keys(served));
  return mapExchange({
    onOperation: (operation) =>
      operation.kind === 'query' &&
      operation.context.requestPolicy === 'network-only' &&
      keys.delete(String(operation.key))
        ? makeOperation(operation.kind, operation, { ...operation.context, requestPolicy: 'cache-first' })
        : operation,
  });
}

/**
 * One client per organization: switching organizations starts from an empty cache. `served`: the results of a page
 * the server rendered (lib/ssr-state.ts), for the first client only.
 */
export function createGraphQLClient(served?: SSRData | null): Client {
  const exchanges = served
    ? [servedAsFresh(served), cacheExchange, ssrExchange({ isClient: true, initialState: served }), fetchExchange]
    : [cacheExchange, fetchExchange];
  return new Client({
    url: '/graphql',
    exchanges,
    fetch: apiFetch,
    fetchOptions: {
      credentials: 'same-origin',
      headers: { accept: 'application/graphql-response+json, application/json' },
    },
    requestPolicy: 'cache-and-network',
    // POST with a JSON body: /graphql refuses cookie-carrying requests without a non-simple content type (CSRF).
    preferGetMethod: false,
  });
}

/**
 * Route loaders fetch a page's data from the network on each navigation (while the page's code loads); the
 * page then reads it with PREFETCHED (cache-first), sharing the request in flight or its result instead of
 * asking again. Mutations still refetch what they change (urql's document cache, by typename).
 */
export const FRESH = { requestPolicy: 'network-only' } as const;
export const PREFETCHED = { requestPolicy: 'cache-first' } as const;
