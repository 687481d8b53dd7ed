/** What better-auth's client reports for a failed call (its error body, plus our own 429 `{ error, code }`). */
export interface AuthFailure {
  status: number;
  message?: string;
  code?: string;
  error?: string;
}

export interface AuthProblem {
  form: string | null;
  fields: Partial<Record<'name' | 'email' | 'password', string>>;
}

/** Puts better-auth's error next to the field it is about; a rate limit says how long to wait. */
export function authProblem(failure: AuthFailure, retryAfterSeconds: number | null): AuthProblem {
  const code = failure.code ?? '';
  const message = failure.message || failure.error || 'Something went wrong. Try again.';
  if (failure.status === 429 || code === 'RATE_LIMITED') {
    const wait = retryAfterSeconds ? ` Try again in ${retryAfterSeconds} seconds.` : ' Try again in a minute.';
    return { form: `Too many attempts.${wait}`, fields: {} };
  }
  if (code === 'INVALID_EMAIL_OR_PASSWORD') return { form: null, fields: { password: 'Wrong e-mail or password.' } };
  if (/USER_ALREADY_EXISTS/.test(code))
    return { form: null, fields: { email: 'An account with this e-mail already exists. Sign in instead.' } };
  if (/PASSWORD/.test(code)) return { form: null, fields: { password: message } };
  if (/EMAIL/.test(code)) return { form: null, fields: { email: message } };
  if (/NAME/.test(code)) return { form: null, fields: { name: message } };
  return { form: message, fields: {} };
}

export const retryAfterOf = (response: Response | undefined): number | null => {
  const value = Number(response?.headers.get('retry-after'));
  return value > 0 ? value : null;
};
