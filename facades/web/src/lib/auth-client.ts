import { createAuthClient } from 'better-auth/react';
import { organizationClient } from 'better-auth/client/plugins';

/**
 * better-auth's client for /api/auth/*: sign-up, sign-in, sign-out and the organization switcher. The
 * session stays in its httpOnly cookie; nothing about it is written to storage.
 */
export const authClient = createAuthClient({
  // On the server (a signed-in page rendered by facades/http/server-render.ts) the client is created but never calls.
  baseURL: typeof window === 'undefined' ? 'http://127.0.0.1' : window.location.origin,
  basePath: '/api/auth',
  plugins: [organizationClient()],
});
