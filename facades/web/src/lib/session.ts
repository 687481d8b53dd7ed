import type { authClient } from './auth-client';

export type Session = typeof authClient.$Infer.Session;

/**
 * The session's URL. index.html preloads it (`<link rel="preload" as="fetch" crossorigin="use-credentials">`), so the
 * request starts while the scripts download; the fetch below (same URL, CORS mode, credentials "include") is
 * answered from that preload.
 */
const SESSION_URL = '/api/auth/get-session';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let cached: Promise<Session | null> | null = null;

/**
 * The current session, read once and shared by the route guards until sign-in, sign-out or a switch. A plain fetch
 * rather than better-auth's client, which only the pages that sign in, out or switch load: the first page's script
 * stays small. Dates are revived as better-auth's client does.
 */
export function currentSession(): Promise<Session | null> {
  cached ??= fetch(SESSION_URL, { credentials: 'include' })
    .then(async (res) => {
      if (!res.ok) return null;
      const text = await res.text();
      return text
        ? (JSON.parse(text, (_key, value: unknown) =>
            typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value,
          ) as Session | null)
        : null;
    })
    .catch(() => null);
  return cached;
}

export function forgetSession(): void {
  cached = null;
}
