import type { FixInput } from '../seo/fixes/index.js';
import { FIX_ANSWER_JSON_SCHEMA, parseFixCompletion } from './fix-answer.js';
import { buildFixMessages } from './fix-prompt.js';
import {
  LlmError,
  type ChatMessage,
  type FetchLike,
  type LlmClient,
  type LlmClientOptions,
  type LlmConfig,
  type LlmFixResult,
} from './llm.types.js';

const DEFAULTS = {
  timeoutMs: 20_000,
  maxTokens: 800,
  maxRetries: 2,
  retryDelayMs: 300,
  maxResponseBytes: 256 * 1024,
} as const;
/** A server asking for a longer pause than this is not worth waiting for inside one user request. */
const MAX_RETRY_AFTER_MS = 5_000;

/**
 * A client for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure-style gateways, vLLM,
 * llama.cpp server, Ollama, LiteLLM...), or null when no base URL or model is configured. Throws
 * LlmError (reason `config`) for a base URL that is not http(s).
 */
export function createLlmClient(
  config: LlmConfig,
  fetchImpl: FetchLike = globalThis.fetch,
  options: LlmClientOptions = {},
): LlmClient | null {
  const baseUrl = config.LLM_BASE_URL?.trim();
  const model = config.LLM_MODEL?.trim();
  if (!baseUrl || !model) return null;
  return new OpenAiCompatibleClient(completionsUrl(baseUrl), model, config, fetchImpl, options);
}

/** `{base}/chat/completions`; a base that already ends with it is used as is. */
function completionsUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new LlmError('LLM_BASE_URL is not a valid URL', 'config');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LlmError('LLM_BASE_URL must be an http(s) URL', 'config');
  url.search = '';
  url.hash = '';
  if (!/\/chat\/completions\/?$/.test(url.pathname))
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

class OpenAiCompatibleClient implements LlmClient {
  private readonly apiKey: string | null;
  private readonly timeoutMs: number;
  private readonly maxTokens: number;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;
  private readonly maxResponseBytes: number;

  constructor(
    private readonly url: URL,
    readonly model: string,
    config: LlmConfig,
    private readonly fetchImpl: FetchLike,
    options: LlmClientOptions,
  ) {
    this.apiKey = config.LLM_API_KEY?.trim() || null;
    this.timeoutMs = positive(config.LLM_TIMEOUT_MS) ?? DEFAULTS.timeoutMs;
    this.maxTokens = positive(config.LLM_MAX_TOKENS) ?? DEFAULTS.maxTokens;
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULTS.maxRetries);
    this.retryDelayMs = Math.max(0, options.retryDelayMs ?? DEFAULTS.retryDelayMs);
    this.maxResponseBytes = positive(options.maxResponseBytes) ?? DEFAULTS.maxResponseBytes;
  }

  async suggestFix(input: FixInput, options: { signal?: AbortSignal } = {}): Promise<LlmFixResult> {
    let messages: ChatMessage[];
    try {
      messages = this.withoutApiKey(buildFixMessages(input));
    } catch (error) {
      throw new LlmError(`cannot build the prompt: ${(error as Error).message}`, 'invalid-input', undefined, {
        cause: error,
      });
    }
    const body = JSON.stringify({
      model: this.model,
      messages,
      temperature: 0.2,
      max_tokens: this.maxTokens,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'seo_fix', strict: true, schema: FIX_ANSWER_JSON_SCHEMA },
      },
    });
    const text = await this.post(body, options.signal);
    const parsed = parseFixCompletion(text);
    if (!parsed.ok) throw new LlmError(parsed.message, parsed.reason);
    return { proposal: parsed.proposal, model: parsed.model ?? this.model };
  }

  /** POSTs with one deadline over all attempts; retries 429, 5xx and network errors with exponential backoff. */
  private async post(body: string, callerSignal: AbortSignal | undefined): Promise<string> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(this.url, { method: 'POST', headers, body, signal, redirect: 'error' });
      } catch (error) {
        this.throwIfAborted(deadline, callerSignal, error);
        if (attempt < this.maxRetries) {
          await this.pause(this.backoff(attempt, null), signal, deadline, callerSignal);
          continue;
        }
        throw new LlmError(
          `cannot reach the model endpoint: ${this.scrub((error as Error).message)}`,
          'network',
          undefined,
          { cause: error },
        );
      }

      const status = response.status;
      if (status === 429 || status >= 500) {
        await response.body?.cancel().catch(() => undefined);
        if (attempt < this.maxRetries) {
          await this.pause(this.backoff(attempt, response.headers.get('retry-after')), signal, deadline, callerSignal);
          continue;
        }
        throw new LlmError(`the model endpoint answered ${status} after ${attempt + 1} attempts`, 'http', status);
      }
      if (status < 200 || status >= 300) {
        const excerpt = await this.readBody(response, 2_048, deadline, callerSignal).catch(() => '');
        throw new LlmError(
          `the model endpoint answered ${status}${excerpt ? `: ${this.scrub(excerpt).slice(0, 300)}` : ''}`,
          'http',
          status,
        );
      }
      return this.readBody(response, this.maxResponseBytes, deadline, callerSignal);
    }
  }

  /** Reads at most `max` bytes of the body; a longer body is an invalid response, not a memory problem. */
  private async readBody(
    response: Response,
    max: number,
    deadline: AbortSignal,
    callerSignal: AbortSignal | undefined,
  ): Promise<string> {
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > max) {
          await reader.cancel().catch(() => undefined);
          throw new LlmError(`the response is larger than ${max} bytes`, 'invalid-response');
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof LlmError) throw error;
      this.throwIfAborted(deadline, callerSignal, error);
      throw new LlmError(`the response broke off: ${this.scrub((error as Error).message)}`, 'network', undefined, {
        cause: error,
      });
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  }

  private throwIfAborted(deadline: AbortSignal, callerSignal: AbortSignal | undefined, cause: unknown): void {
    if (deadline.aborted) throw new LlmError(`no answer within ${this.timeoutMs} ms`, 'timeout', undefined, { cause });
    if (callerSignal?.aborted) throw new LlmError('the request was cancelled', 'aborted', undefined, { cause });
  }

  private backoff(attempt: number, retryAfter: string | null): number {
    const exponential = this.retryDelayMs * 2 ** attempt;
    const seconds = retryAfter !== null && /^\d+(\.\d+)?$/.test(retryAfter.trim()) ? Number(retryAfter) : NaN;
    return Number.isFinite(seconds) ? Math.max(exponential, Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)) : exponential;
  }

  private async pause(
    ms: number,
    signal: AbortSignal,
    deadline: AbortSignal,
    callerSignal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
    } catch (error) {
      this.throwIfAborted(deadline, callerSignal, error);
      throw error;
    }
  }

  /** The key never travels in the prompt, even if a page happens to contain it. */
  private withoutApiKey(messages: ChatMessage[]): ChatMessage[] {
    if (!this.apiKey || this.apiKey.length < 4) return messages;
    return messages.map((message) => ({ ...message, content: message.content.split(this.apiKey!).join('REDACTED') }));
  }

  /** Error text from the network stack or the server, minus the key (a proxy may echo the header). */
  private scrub(text: string): string {
    return this.apiKey && this.apiKey.length >= 4 ? text.split(this.apiKey).join('REDACTED') : text;
  }
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
