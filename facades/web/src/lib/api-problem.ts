import type { CombinedError } from '@urql/core';

/** What went wrong with a call, ready to show: the message, the API's code, and messages per input field. */
export interface ApiProblem {
  message: string;
  code: string | null;
  fields: Record<string, string>;
  retryAfterSeconds: number | null;
}

interface ErrorDetail {
  path: string;
  message: string;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The message for one field: the API's own sentence, with a leading field name ("url must …") replaced by the
 * label the form shows ("URL must …").
 */
function fieldMessage(message: string, detail: ErrorDetail, label: string | undefined, single: boolean): string {
  const base = single ? message : `${detail.path} ${detail.message}`;
  const prefix = `${detail.path} `;
  if (base.toLowerCase().startsWith(prefix.toLowerCase()))
    return `${label ?? capitalize(detail.path)} ${base.slice(prefix.length)}`;
  return capitalize(base);
}

/**
 * A GraphQL or network error as an ApiProblem. `labels` maps API field paths (e.g. `url`) to the form's
 * labels; details for paths the form does not show stay in the message.
 */
export function problemOf(
  error: CombinedError | null | undefined,
  labels: Record<string, string> = {},
): ApiProblem | null {
  if (!error) return null;
  const first = error.graphQLErrors[0];
  if (!first) {
    const rateLimited = (error.networkError as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    return {
      message: error.networkError?.message || 'The server could not be reached. Check your connection and try again.',
      code: rateLimited ? 'RATE_LIMITED' : 'NETWORK',
      fields: {},
      retryAfterSeconds: rateLimited ?? null,
    };
  }
  const code = typeof first.extensions?.code === 'string' ? first.extensions.code : null;
  const details = (Array.isArray(first.extensions?.details) ? first.extensions.details : []) as ErrorDetail[];
  const fields: Record<string, string> = {};
  for (const d of details) {
    if (d.path in labels && !(d.path in fields))
      fields[d.path] = fieldMessage(first.message, d, labels[d.path], details.length === 1);
  }
  const retry = first.extensions?.retryAfterSeconds;
  return { message: first.message, code, fields, retryAfterSeconds: typeof retry === 'number' ? retry : null };
}

/** The problem when no field of the form shows it (a field's problem appears at that field). */
export const formLevelProblem = (problem: ApiProblem | null): ApiProblem | null =>
  problem && Object.keys(problem.fields).length === 0 ? problem : null;
