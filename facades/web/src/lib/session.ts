import type { authClient } from './auth-client';
import { ssrState } from './ssr-state';

export type Session = typeof authClient.$Infer.Session;

/**
 * The session's URL. index.html preloads it (`<link rel="preload" as="fetch" crossorigin="use-credentials">`), so the
 * request starts while the scripts download; the fetch below (same URL, CORS mode, credentials "include") is
 * answered from that preload.
 */
const SESSION_URL = '/api/auth/get-session';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let cached: Promise<Session | null> | null = null;
/** Whether the session the server rendered the page for was used: only the first read takes it. */
let servedTaken = false;

/** get-session's JSON text as a session: dates revived as better-auth's client does. */
export function parseSession(text: string): Session | null {
  return text
    ? (JSON.parse(text, (_key, value: unknown) =>
        typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value,
      ) as Session | null)
    : null;
}

/**
 * The current session, read once and shared by the route guards until sign-in, sign-out or a switch. A plain fetch
 * rather than better-auth's client, which only the pages that sign in, out or switch load: the first page's script
 * stays small. Dates are revived as better-auth's client does.
 */
export function currentSession(): Promise<Session | null> {
  // A page the server rendered carries the session it was rendered for (read once; after a sign-in, sign-out or
  // switch the session is fetched again).
  if (!servedTaken) {
    servedTaken = true;
    const served = ssrState()?.session;
    if (typeof served === 'string') cached = Promise.resolve(parseSession(served));
  }
  cached ??= fetch(SESSION_URL, { credentials: 'include' })
    .then(async (res) => (res.ok ? parseSession(await res.text()) : null))
    .catch(() => null);
  return cached;
}

export function forgetSession(): void {
  servedTaken = true;
  cached = null;
}
