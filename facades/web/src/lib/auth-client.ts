import { createAuthClient } from 'better-auth/react';
import { organizationClient } from 'better-auth/client/plugins';

/**
 * better-auth's client for /api/auth/*: sign-up, sign-in, sign-out and the organization switcher. The
 * session stays in its httpOnly cookie; nothing about it is written to storage.
 */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  basePath: '/api/auth',
  plugins: [organizationClient()],
});

export type Session = typeof authClient.$Infer.Session;

let cached: Promise<Session | null> | null = null;

/** The current session, read once and shared by the route guards until sign-in, sign-out or a switch. */
export function currentSession(): Promise<Session | null> {
  cached ??= authClient
    .getSession()
    .then((res) => res.data ?? null)
    .catch(() => null);
  return cached;
}

export function forgetSession(): void {
  cached = null;
}
