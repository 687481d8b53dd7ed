import { SerpProviderError } from './serp-provider.error.js';
import { DEFAULT_SERP_DEPTH, MAX_SERP_DEPTH } from './serp.types.js';
import type { SerpQuery } from './serp.types.js';

/** Google's own limit on query length; longer keywords are rejected by every provider anyway. */
const MAX_KEYWORD_CHARS = 700;
const COUNTRY = /^[a-z]{2}$/;
/** 'en', 'pt-br', 'zh-TW', 'es-419'. */
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{2,4})?$/i;

/** Validates a query and applies defaults, so every adapter sends the same normalised values. */
export function normalizeSerpQuery(provider: string, query: SerpQuery): SerpQuery {
  const invalid = (message: string) =>
    new SerpProviderError(provider, `${provider}: invalid query: ${message}`, {
      code: 'INVALID_QUERY',
      retryable: false,
    });
  const keyword = typeof query.keyword === 'string' ? query.keyword.trim().replace(/\s+/g, ' ') : '';
  if (keyword === '') throw invalid('keyword is empty');
  if (keyword.length > MAX_KEYWORD_CHARS) throw invalid(`keyword is longer than ${MAX_KEYWORD_CHARS} characters`);
  const country = String(query.country ?? '')
    .trim()
    .toLowerCase();
  if (!COUNTRY.test(country)) throw invalid(`country "${country}" is not an ISO 3166-1 alpha-2 code`);
  const language = String(query.language ?? '').trim();
  if (!LANGUAGE.test(language)) throw invalid(`language "${language}" is not a language code such as "en"`);
  const device = query.device ?? 'desktop';
  if (device !== 'desktop' && device !== 'mobile') throw invalid(`device must be "desktop" or "mobile"`);
  const depth = query.depth ?? DEFAULT_SERP_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_SERP_DEPTH) {
    throw invalid(`depth must be an integer from 1 to ${MAX_SERP_DEPTH}`);
  }
  return { keyword, country, language, device, depth };
}
