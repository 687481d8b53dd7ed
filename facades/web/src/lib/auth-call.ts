/** What better-auth's client reports for a failed call: its error body's message and code, and the status. */
export interface AuthCallFailure {
  status: number;
  message?: string;
  code?: string;
  error?: string;
}

/** A failed better-auth call's message, for the callout of the form that made it. */
export function authFailureMessage(failure: AuthCallFailure | null | undefined): string | null {
  if (!failure) return null;
  if (failure.status === 429) return 'Too many attempts. Wait a minute and try again.';
  return failure.message || failure.error || `The request failed (${failure.status}). Try again.`;
}

/**
 * Runs a better-auth client call (/api/auth/*): its data, or its failure with the server's own message; a network
 * failure becomes one too.
 */
export async function callAuth<T>(
  call: () => Promise<{ data: T | null; error: AuthCallFailure | null }>,
): Promise<{ data: T | null; error: AuthCallFailure | null }> {
  try {
    const res = await call();
    return { data: res.data ?? null, error: res.error ?? null };
  } catch (err) {
    return { data: null, error: { status: 0, message: `The server could not be reached (${String(err)}).` } };
  }
}
