import { isValidLangTag } from '../checks/language-tag.js';
import type { FixPageContext } from './fix.types.js';

export interface LanguageGuess {
  tag: string;
  /** Why this tag: shown to the user so they can judge the guess. */
  basis: string;
}

/** Very frequent function words per language: a dozen hits in a few paragraphs identify the language well. */
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'in', 'for', 'with', 'you', 'your', 'that', 'this', 'are', 'our', 'on'],
  de: ['der', 'die', 'das', 'und', 'ist', 'mit', 'für', 'nicht', 'ein', 'eine', 'sie', 'auf', 'den', 'wir', 'ihre'],
  fr: ['le', 'la', 'les', 'et', 'est', 'des', 'une', 'pour', 'dans', 'vous', 'avec', 'sur', 'nous', 'votre', 'du'],
  es: ['el', 'los', 'las', 'y', 'es', 'para', 'con', 'una', 'por', 'del', 'su', 'que', 'sus', 'nuestro', 'como'],
  it: ['il', 'gli', 'e', 'è', 'per', 'con', 'una', 'della', 'che', 'sono', 'nel', 'alla', 'degli', 'il', 'questo'],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'voor', 'met', 'niet', 'op', 'zijn', 'wij', 'uw', 'ook', 'naar'],
  pt: ['o', 'os', 'as', 'e', 'é', 'para', 'com', 'uma', 'não', 'do', 'da', 'dos', 'seu', 'sua', 'você'],
  pl: ['i', 'w', 'na', 'jest', 'się', 'z', 'do', 'nie', 'że', 'dla', 'oraz', 'jak', 'to', 'od', 'przez'],
};

const STOPWORD_LANGS = new Map<string, string[]>();
for (const [lang, words] of Object.entries(STOPWORDS)) {
  for (const word of new Set(words)) STOPWORD_LANGS.set(word, [...(STOPWORD_LANGS.get(word) ?? []), lang]);
}

/** Country-code domains whose language is unambiguous enough to be a fallback guess. */
const TLD_LANGS: Record<string, string> = {
  de: 'de',
  at: 'de-AT',
  fr: 'fr',
  es: 'es',
  it: 'it',
  nl: 'nl',
  pt: 'pt',
  br: 'pt-BR',
  pl: 'pl',
  se: 'sv',
  dk: 'da',
  no: 'nb',
  fi: 'fi',
  cz: 'cs',
  sk: 'sk',
  hu: 'hu',
  ro: 'ro',
  gr: 'el',
  tr: 'tr',
  ru: 'ru',
  ua: 'uk',
  jp: 'ja',
  kr: 'ko',
  cn: 'zh-CN',
  tw: 'zh-TW',
  uk: 'en-GB',
  ie: 'en-IE',
  au: 'en-AU',
  nz: 'en-NZ',
  us: 'en-US',
  mx: 'es-MX',
  ar: 'es-AR',
  cl: 'es-CL',
  co: 'es-CO',
};

/** Language names people write instead of codes ("english", "Deutsch"). */
const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  german: 'de',
  deutsch: 'de',
  french: 'fr',
  français: 'fr',
  francais: 'fr',
  spanish: 'es',
  español: 'es',
  espanol: 'es',
  italian: 'it',
  italiano: 'it',
  dutch: 'nl',
  nederlands: 'nl',
  portuguese: 'pt',
  português: 'pt',
  polish: 'pl',
  polski: 'pl',
  swedish: 'sv',
  svenska: 'sv',
  danish: 'da',
  dansk: 'da',
  norwegian: 'nb',
  japanese: 'ja',
  chinese: 'zh',
  russian: 'ru',
  turkish: 'tr',
  greek: 'el',
  czech: 'cs',
  finnish: 'fi',
};

/** Country codes often used by mistake as language codes (uk is Ukrainian, not the United Kingdom). */
const COUNTRY_AS_LANGUAGE: Record<string, string> = {
  jp: 'ja',
  cn: 'zh',
  gr: 'el',
  dk: 'da',
  se: 'sv',
  cz: 'cs',
  kr: 'ko',
  ua: 'uk',
  br: 'pt-BR',
  at: 'de-AT',
  ee: 'et',
  si: 'sl',
  rs: 'sr',
  by: 'be',
  gb: 'en-GB',
  us: 'en-US',
};

/**
 * A best guess for `<html lang>`: og:locale, then the page's own hreflang self-reference, then the
 * language of its text, then the country-code domain, then English.
 */
export function guessLanguage(page: FixPageContext | null, url: string): LanguageGuess {
  const locale = page?.locale ? correctLanguageTag(page.locale) : null;
  if (locale) return { tag: locale, basis: `the page's og:locale "${page!.locale}"` };

  const self = page?.hreflang?.find((entry) => entry.href === url && entry.lang.toLowerCase() !== 'x-default');
  const selfTag = self ? correctLanguageTag(self.lang) : null;
  if (selfTag) return { tag: selfTag, basis: "the page's hreflang entry for itself" };

  const fromText = page ? languageOfText([page.title ?? '', ...page.h1, ...page.paragraphs].join(' ')) : null;
  if (fromText) return { tag: fromText, basis: 'the words of the page text' };

  const host = hostOf(url);
  const tld = host?.split('.').pop() ?? '';
  if (TLD_LANGS[tld]) return { tag: TLD_LANGS[tld], basis: `the .${tld} domain` };
  return { tag: 'en', basis: 'no language signal on the page (English assumed)' };
}

/** The language whose function words dominate `text`; null when the sample is too small or mixed. */
export function languageOfText(text: string): string | null {
  const counts = new Map<string, number>();
  let tokens = 0;
  for (const match of text.toLowerCase().matchAll(/[\p{L}]+/gu)) {
    if (++tokens > 2_000) break;
    for (const lang of STOPWORD_LANGS.get(match[0]) ?? []) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || ranked[0][1] < 4) return null;
  if (ranked.length > 1 && ranked[1][1] * 1.5 > ranked[0][1]) return null;
  return ranked[0][0];
}

/**
 * A valid language tag for a mistaken one: "en_US" -> "en-US", "English" -> "en", "jp" -> "ja";
 * null when no correction is known.
 */
export function correctLanguageTag(value: string): string | null {
  const raw = value.trim();
  if (raw === '') return null;
  const lower = raw.toLowerCase();
  if (LANGUAGE_NAMES[lower]) return LANGUAGE_NAMES[lower];
  if (lower === 'x_default' || lower === 'default' || lower === 'x-default') return 'x-default';
  const parts = raw.split(/[-_\s]+/).filter(Boolean);
  const language = parts[0].toLowerCase();
  const mapped = COUNTRY_AS_LANGUAGE[language] && !isValidLangTag(language) ? COUNTRY_AS_LANGUAGE[language] : language;
  let region = parts[1]?.toUpperCase();
  if (region === 'UK') region = 'GB';
  const tag = region && /^[A-Z]{2}$/.test(region) && !mapped.includes('-') ? `${mapped}-${region}` : mapped;
  return isValidLangTag(tag) ? tag : isValidLangTag(mapped) ? mapped : null;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
