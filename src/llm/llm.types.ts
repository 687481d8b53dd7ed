import type { FixInput, FixProposal } from '../seo/fixes/index.js';

/** The language-model settings (environment variable names, as the platform config validates them). */
export interface LlmConfig {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  LLM_BASE_URL?: string;
  /** Sent as `Authorization: Bearer <key>` when set (local servers often need none). */
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  /** Deadline for one suggestion, retries included (default 20 s). */
  LLM_TIMEOUT_MS?: number;
  /** `max_tokens` of the completion (default 800). */
  LLM_MAX_TOKENS?: number;
}

/** Tuning that is not configuration: tests shorten the backoff. */
export interface LlmClientOptions {
  /** Retries after a 429, a 5xx or a network error (default 2); other 4xx are never retried. */
  maxRetries?: number;
  /** First backoff; doubles per retry (default 300 ms). A Retry-After header of up to 5 s is honoured. */
  retryDelayMs?: number;
  /** Largest response body read (default 256 KiB). */
  maxResponseBytes?: number;
}

export type FetchLike = typeof globalThis.fetch;

export interface LlmFixResult {
  proposal: FixProposal;
  /** The model that answered (as the server reports it, else the configured one). */
  model: string;
}

export interface LlmClient {
  /** The configured model name. */
  readonly model: string;
  /** Asks the model for a fix; any failure throws LlmError (callers fall back to the rules engine). */
  suggestFix(input: FixInput, options?: { signal?: AbortSignal }): Promise<LlmFixResult>;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/**
 * `timeout`: the deadline passed; `network`: no HTTP answer; `http`: an error status; `invalid-response`:
 * the answer was not a valid fix; `refused`: the model declined; `aborted`: the caller cancelled;
 * `config`: the base URL is unusable; `invalid-input`: the fix input could not be turned into a prompt.
 */
export type LlmErrorReason =
  'timeout' | 'network' | 'http' | 'invalid-response' | 'refused' | 'aborted' | 'config' | 'invalid-input';

export class LlmError extends Error {
  override readonly name = 'LlmError';

  constructor(
    message: string,
    readonly reason: LlmErrorReason,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
