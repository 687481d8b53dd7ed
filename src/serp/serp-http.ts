import { SerpProviderError, isRetryableStatus } from './serp-provider.error.js';
import type { SerpFetch, SerpProviderName } from './serp.types.js';

/** A SERP page is tens to hundreds of KB (DataForSEO depth 100 about 1-2 MB); more is not a SERP. */
export const MAX_SERP_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_PROVIDER_MESSAGE_CHARS = 300;

export interface SerpHttpOptions {
  provider: SerpProviderName;
  fetchImpl: SerpFetch;
  timeoutMs: number;
  /** Credentials to scrub from any text that reaches an error message. */
  secrets: readonly string[];
  /** Pulls the provider's own error text out of a parsed error body. */
  errorMessage?: (body: unknown) => string | undefined;
  /** Extra advice for a status, e.g. SearXNG's 403 when the JSON format is disabled. */
  statusHint?: (status: number) => string | undefined;
  maxBytes?: number;
}

export interface SerpHttpRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  json?: unknown;
  signal?: AbortSignal;
}

/** Provider error bodies in the wild: `{error}` (SerpApi), `{message}` (Serper), `{status_message}` (DataForSEO). */
function defaultErrorMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['error', 'message', 'status_message']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
      return (value as { message: string }).message;
    }
  }
  return undefined;
}

/**
 * One JSON call to an operator-configured provider: per-call timeout, bounded body, and every failure
 * turned into a SerpProviderError whose message has been scrubbed of the credentials.
 */
export class SerpHttpClient {
  readonly provider: SerpProviderName;
  private readonly options: SerpHttpOptions;

  constructor(options: SerpHttpOptions) {
    this.provider = options.provider;
    this.options = options;
  }

  /** Replaces each secret (and its URL-encoded form) so a message can be logged and shown. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.options.secrets) {
      if (!secret) continue;
      for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('[redacted]');
    }
    return out;
  }

  /** The provider's message, scrubbed and shortened for an error message. */
  providerText(text: string): string {
    const clean = this.redact(text).replace(/\s+/g, ' ').trim();
    return clean.length > MAX_PROVIDER_MESSAGE_CHARS ? `${clean.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}…` : clean;
  }

  fail(message: string, init: ConstructorParameters<typeof SerpProviderError>[2]): SerpProviderError {
    return new SerpProviderError(this.provider, this.redact(`${this.provider}: ${message}`), init);
  }

  /** A MALFORMED_RESPONSE failure: the answer parsed as JSON but not into the documented shape. */
  malformed(what: string): SerpProviderError {
    return this.fail(`returned malformed JSON (${what})`, { code: 'MALFORMED_RESPONSE', retryable: false });
  }

  /** The answer as a JSON object, or MALFORMED_RESPONSE. */
  jsonObject(body: unknown): Record<string, unknown> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw this.malformed('not an object');
    return body as Record<string, unknown>;
  }

  /** A result list of an answer object: [] when absent or null (no results), MALFORMED_RESPONSE when not an array. */
  resultList<T>(container: Record<string, unknown>, field: string): T[] {
    const value = container[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw this.malformed(`${field} is not an array`);
    return value as T[];
  }

  async requestJson(request: SerpHttpRequest): Promise<unknown> {
    const { timeoutMs } = this.options;
    const caller = request.signal;
    if (caller?.aborted) throw this.fail('search aborted', { code: 'ABORTED', retryable: false });
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const signal = caller ? AbortSignal.any([deadline.signal, caller]) : deadline.signal;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.json !== undefined) headers['content-type'] = 'application/json';

    let status = 0;
    try {
      const response = await this.options.fetchImpl(request.url, {
        method: request.method,
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        // A redirect is a misconfigured base URL; following it could carry the key header elsewhere.
        redirect: 'manual',
        signal,
      });
      status = response.status;
      const text = await this.readText(response);
      if (!response.ok) throw this.httpError(status, text, response.headers.get('location'));
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw this.fail(`returned malformed JSON (HTTP ${status})`, {
          code: 'MALFORMED_RESPONSE',
          status,
          retryable: false,
        });
      }
    } catch (error) {
      if (error instanceof SerpProviderError) throw error;
      if (caller?.aborted) throw this.fail('search aborted', { code: 'ABORTED', retryable: false });
      if (deadline.signal.aborted) {
        throw this.fail(`no response within ${timeoutMs} ms`, { code: 'TIMEOUT', retryable: true });
      }
      throw this.fail(`request failed: ${describeNetworkError(error)}`, {
        code: 'NETWORK_ERROR',
        status: status || undefined,
        retryable: true,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private httpError(status: number, text: string, location: string | null): SerpProviderError {
    let detail: string | undefined;
    try {
      detail = (this.options.errorMessage ?? defaultErrorMessage)(JSON.parse(text) as unknown);
    } catch {
      detail = undefined;
    }
    const hint =
      status >= 300 && status < 400
        ? `redirected to ${location === null ? '(no location)' : this.providerText(location)}, not ` +
          `followed: set SERP_BASE_URL to the final address`
        : this.options.statusHint?.(status);
    const parts = [`HTTP ${status}`, hint, detail === undefined ? undefined : this.providerText(detail)];
    return this.fail(parts.filter(Boolean).join(': '), {
      code: 'HTTP_ERROR',
      status,
      retryable: isRetryableStatus(status),
    });
  }

  /** Reads the body with a byte cap, so a misbehaving endpoint cannot fill memory. */
  private async readText(response: Response): Promise<string> {
    const maxBytes = this.options.maxBytes ?? MAX_SERP_RESPONSE_BYTES;
    const declared = Number(response.headers.get('content-length'));
    const tooLarge = () =>
      this.fail(`response larger than ${maxBytes} bytes (HTTP ${response.status})`, {
        code: 'MALFORMED_RESPONSE',
        status: response.status,
        retryable: false,
      });
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let received = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  }
}

/** undici reports "fetch failed" with the useful part (ECONNREFUSED, ENOTFOUND...) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

/** `path` under the base URL, keeping any path prefix (e.g. a SearXNG instance served at /searxng). */
export function endpointUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** What every adapter is built from; the factory fills it from configuration. */
export interface SerpAdapterOptions {
  baseUrl: URL;
  fetchImpl: SerpFetch;
  timeoutMs: number;
}
