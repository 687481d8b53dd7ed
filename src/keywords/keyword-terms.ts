import { badInput } from '../platform/errors.js';

export const MAX_TERM_LENGTH = 200;
export const MAX_TERMS_PER_REQUEST = 100;
const COUNTRY = /^[a-z]{2}$/;
const LANGUAGE = /^[a-z]{2,3}(-[a-z]{2,4})?$/;

/** Unicode-normalized, trimmed, single-spaced; the key is its lower-case form (dedupe is case-insensitive). */
export function normalizeTerm(raw: string): { term: string; key: string } | null {
  const term = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (!term) return null;
  return { term, key: term.toLocaleLowerCase('en') };
}

export interface KeywordTarget {
  country: string;
  language: string;
  device: 'desktop' | 'mobile';
}

export function parseTarget(
  input: { country?: string | null; language?: string | null; device?: string | null },
  defaults: Partial<KeywordTarget> = {},
): KeywordTarget {
  const country = (input.country ?? defaults.country ?? 'us').toLowerCase();
  const language = (input.language ?? defaults.language ?? 'en').toLowerCase();
  const device = input.device ?? defaults.device ?? 'desktop';
  if (!COUNTRY.test(country))
    throw badInput('country must be an ISO 3166-1 alpha-2 code such as "us"', [
      { path: 'country', message: 'invalid' },
    ]);
  if (!LANGUAGE.test(language))
    throw badInput('language must be a language code such as "en"', [{ path: 'language', message: 'invalid' }]);
  if (device !== 'desktop' && device !== 'mobile')
    throw badInput('device must be desktop or mobile', [{ path: 'device', message: 'invalid' }]);
  return { country, language, device };
}

/** Validates and dedupes a request's terms (order kept). */
export function parseTerms(raw: unknown[]): { term: string; key: string }[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_TERMS_PER_REQUEST) {
    throw badInput(`keywords must be a list of 1-${MAX_TERMS_PER_REQUEST} terms`, [
      { path: 'keywords', message: `1-${MAX_TERMS_PER_REQUEST} terms` },
    ]);
  }
  const seen = new Set<string>();
  const out: { term: string; key: string }[] = [];
  raw.forEach((value, i) => {
    const parsed = typeof value === 'string' ? normalizeTerm(value) : null;
    if (!parsed)
      throw badInput(`keywords.${i} must be a non-empty string`, [{ path: `keywords.${i}`, message: 'empty' }]);
    if (parsed.term.length > MAX_TERM_LENGTH)
      throw badInput(`keywords.${i} is longer than ${MAX_TERM_LENGTH} characters`, [
        { path: `keywords.${i}`, message: 'too long' },
      ]);
    if (!seen.has(parsed.key)) {
      seen.add(parsed.key);
      out.push(parsed);
    }
  });
  return out;
}
