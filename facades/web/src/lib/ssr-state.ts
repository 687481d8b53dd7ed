import type { SSRData } from '@urql/core';

/**
 * What the server wrote into a signed-in page it rendered (facades/http/server-render.ts, src/entry-server.tsx): the
 * session as /api/auth/get-session answered it, and the page's query results as urql's ssrExchange serializes them.
 * A `<script type="application/json">` element: data, never run, so the CSP's `script-src 'self'` is kept.
 */
export interface SsrState {
  /** The body of /api/auth/get-session for this request (JSON text, dates as ISO strings). */
  session: string;
  /** urql's ssrExchange data: each prefetched operation's result, by operation key. */
  results: SSRData;
}

export const SSR_STATE_ID = 'ssr-state';

let state: SsrState | null | undefined;

/** The page's server state, read once (null on a page the server did not render). */
export function ssrState(): SsrState | null {
  if (state === undefined) {
    const element = typeof document === 'undefined' ? null : document.getElementById(SSR_STATE_ID);
    try {
      state = element?.textContent ? (JSON.parse(element.textContent) as SsrState) : null;
    } catch {
      state = null;
    }
  }
  return state;
}
