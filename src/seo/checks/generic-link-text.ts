import type { LinkFact } from '../page/index.js';

/**
 * Link texts that say nothing about their target, per language (Lighthouse's `link-text` lists and their common
 * variants). A text matches only as a whole: "Read more" does, "Read more about roses" and "<this>" do not.
 */
const GENERIC_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  en: [
    'click here',
    'click this',
    'go',
    'here',
    'information',
    'learn more',
    'more',
    'more info',
    'more information',
    'right here',
    'read more',
    'see more',
    'start',
    'this',
  ],
  de: ['hier klicken', 'klicken sie hier', 'hier', 'mehr', 'mehr informationen', 'mehr erfahren', 'weiterlesen', 'los'],
  fr: [
    'cliquez ici',
    'clique ici',
    'ici',
    'plus',
    "plus d'informations",
    'en savoir plus',
    'lire la suite',
    'voir plus',
  ],
  es: ['haga clic aquí', 'haz clic aquí', 'clic aquí', 'aquí', 'más', 'más información', 'leer más', 'ver más'],
  it: [
    'clicca qui',
    'qui',
    'di più',
    'leggi di più',
    'scopri di più',
    'maggiori informazioni',
    'ulteriori informazioni',
  ],
  pt: ['clique aqui', 'aqui', 'mais', 'mais informações', 'saiba mais', 'leia mais', 'ver mais'],
  nl: ['klik hier', 'hier', 'meer', 'meer informatie', 'lees meer', 'lees verder'],
  ja: ['ここをクリック', 'こちらをクリック', 'リンク', '続きを読む', '詳細', 'もっと見る'],
};

const BY_LANGUAGE = new Map(Object.entries(GENERIC_BY_LANGUAGE).map(([lang, texts]) => [lang, new Set(texts)]));
/** A page with no declared language, or one without a list, is matched against every list. */
const ANY_LANGUAGE = new Set(Object.values(GENERIC_BY_LANGUAGE).flat());
const LONGEST = Math.max(...[...ANY_LANGUAGE].map((text) => text.length));

/** Decoration around a link text that does not change what it says ("Read more »", "More…"); `<` and `>` stay. */
const DECORATION = /^[\s«‹←]+|[\s.…!?:»›→]+$/gu;

/** The generic-text list for a page's `lang` ("en-GB" reads the English one). */
export function genericLinkTexts(lang: string | null): ReadonlySet<string> {
  const primary = lang?.trim().toLowerCase().split(/[-_]/, 1)[0];
  return (primary && BY_LANGUAGE.get(primary)) || ANY_LANGUAGE;
}

/**
 * Whether a link's text (its aria-label when it has one) is generic. Links to the page itself (`#section`, or the
 * page's own URL with a fragment) are not looked at: "more" that unfolds a section says where it goes.
 */
export function isGenericLinkText(link: LinkFact, texts: ReadonlySet<string>, pageUrl: string | null): boolean {
  if (link.kind !== 'http' || link.url === pageUrl) return false;
  const raw = link.label ?? link.text;
  // Most link texts are longer than any generic one: they stop here, before any string is built.
  if (raw.length > LONGEST + 8) return false;
  const text = raw.replace(DECORATION, '').toLowerCase();
  return text !== '' && texts.has(text);
}
