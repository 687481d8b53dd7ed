import { CHECK_THRESHOLDS as T } from '../checks/check-thresholds.js';
import type { FixPageContext, SiteTitlePattern } from './fix.types.js';
import {
  brandFromHost,
  codePointLength,
  collapseWhitespace,
  cutAtWord,
  escapeHtml,
  phraseFromPath,
} from './markup-text.js';

export interface TitleProposal {
  /** Plain text (not escaped). */
  text: string;
  /** Within the 30–60 character band. */
  complete: boolean;
}

/** `new`: from the h1; `extend`: keep the current title's words and add context; `shorten`: cut the current one. */
export type TitleMode = 'new' | 'extend' | 'shorten';

const MIN = T.titleMinChars;
const MAX = T.titleMaxChars;
/** " | ", " - ", " – ", " — ", " · ", " :: ", " » ": how titles separate topic and brand. */
const SEPARATOR_RE = /\s+(?:[|–—·»]|-{1,2}|::)\s+/u;
/** A separator before a trailing brand, or after a leading one ("Acme: …" too). */
const TRAILING_SEPARATOR_RE = /\s+(?:[|–—·»:]|-{1,2}|::)\s*$/u;
const LEADING_SEPARATOR_RE = /^\s*(?:[|–—·»:]|-{1,2}|::)\s+/u;

/**
 * A `<title>` of 30–60 characters: the page's topic (h1, or the current title) followed by
 * " | <site name>" when it fits, topped up with the first h2 when still short, cut at a word when long.
 * When the site's other titles share an affix (`page.sitePattern`), the topic takes exactly that affix instead,
 * and only the topic is cut.
 */
export function proposeTitle(page: FixPageContext | null, url: string, mode: TitleMode = 'new'): TitleProposal {
  const pattern = page?.sitePattern ?? null;
  const brand = brandOf(page, url);
  const current = page?.title ? withoutAffix(collapseWhitespace(page.title), pattern) : '';
  const h1 = page?.h1.map(collapseWhitespace).find(Boolean) ?? '';

  let topic: string;
  if (mode === 'shorten' && current !== '') {
    topic = current.split(SEPARATOR_RE)[0];
  } else if (mode === 'extend' && current !== '') {
    // A short title plus an h1 saying more: the h1 is the better topic ("Home" vs "Handmade oak tables").
    topic =
      h1 !== '' && !h1.toLowerCase().includes(current.toLowerCase()) && codePointLength(h1) > codePointLength(current)
        ? h1
        : current;
  } else {
    topic = h1 || current.split(SEPARATOR_RE)[0] || page?.headings[0]?.text || phraseFromPath(pathOf(url)) || brand;
  }
  const secondary = secondaryOf(page, topic);
  const text = pattern
    ? composePatternTitle(collapseWhitespace(topic), pattern, secondary)
    : composeTitle(collapseWhitespace(topic), brand, secondary);
  const length = codePointLength(text);
  return { text, complete: length >= MIN && length <= MAX };
}

/**
 * A title for `topic` as proposeTitle composes one (the site's affix or " | brand", cut at a word to 60 characters),
 * without a secondary heading: what other pages' proposals can be compared with.
 */
export function composeTopicTitle(topic: string, page: FixPageContext | null, url: string): TitleProposal {
  const pattern = page?.sitePattern ?? null;
  const clean = collapseWhitespace(topic);
  const text = pattern ? composePatternTitle(clean, pattern, null) : composeTitle(clean, brandOf(page, url), null);
  const length = codePointLength(text);
  return { text, complete: length >= MIN && length <= MAX };
}

export function titleTag(text: string): string {
  return `<title>${escapeHtml(text)}</title>`;
}

/** The site's name: og:site_name, else the brand of the site's title pattern, else a guess from the host name. */
export function brandOf(page: FixPageContext | null, url: string): string {
  const named = page?.siteName ? collapseWhitespace(page.siteName) : '';
  if (named !== '' && codePointLength(named) <= 40) return named;
  if (page?.sitePattern) return page.sitePattern.brand;
  try {
    return brandFromHost(new URL(url).hostname);
  } catch {
    return '';
  }
}

/** The topic part of a title ("Blue widgets | Example" -> "Blue widgets"), for h1 proposals. */
export function titleTopic(title: string): string {
  return collapseWhitespace(title).split(SEPARATOR_RE)[0];
}

function composeTitle(topic: string, brand: string, secondary: string | null): string {
  const base = cutAtWord(topic, MAX);
  const hasBrand = brand === '' || base.toLowerCase().includes(brand.toLowerCase());
  const branded = hasBrand ? base : `${base} | ${brand}`;
  let title = codePointLength(branded) <= MAX ? branded : base;
  if (codePointLength(title) < MIN && secondary) {
    const withSecondary = hasBrand ? `${base}: ${secondary}` : `${base}: ${secondary} | ${brand}`;
    title = codePointLength(withSecondary) <= MAX ? withSecondary : cutAtWord(`${base}: ${secondary}`, MAX);
  }
  return title;
}

/** The topic with the site's affix, the affix never cut: an over-long topic is cut at a word to leave it room. */
function composePatternTitle(topic: string, pattern: SiteTitlePattern, secondary: string | null): string {
  const core = withoutAffix(topic, pattern);
  // "Welcome to Acme" already ends with the brand " | Acme" would add: no "Welcome to Acme | Acme".
  if (core === '' || carriesBrand(core, pattern)) return composeTitle(core || pattern.brand, '', secondary);
  const affixLength = codePointLength(pattern.affix);
  const room = MAX - affixLength;
  let base = cutAtWord(core, room);
  if (codePointLength(base) + affixLength < MIN && secondary) base = cutAtWord(`${base}: ${secondary}`, room);
  return pattern.position === 'suffix' ? `${base}${pattern.affix}` : `${pattern.affix}${base}`;
}

/**
 * `title` without the site's affix, also when written with another separator ("Tables - Acme" for " | Acme"),
 * so that a current title is not branded twice.
 */
function withoutAffix(title: string, pattern: SiteTitlePattern | null): string {
  if (!pattern || title.length <= pattern.brand.length) return title;
  const brand = pattern.brand.toLowerCase();
  const cut = pattern.position === 'suffix' ? title.length - pattern.brand.length : pattern.brand.length;
  if (pattern.position === 'suffix' && title.slice(cut).toLowerCase() === brand) {
    const separator = TRAILING_SEPARATOR_RE.exec(title.slice(0, cut));
    if (separator) return title.slice(0, separator.index).trim();
  } else if (pattern.position === 'prefix' && title.slice(0, cut).toLowerCase() === brand) {
    const separator = LEADING_SEPARATOR_RE.exec(title.slice(cut));
    if (separator) return title.slice(cut + separator[0].length).trim();
  }
  return title;
}

/** The brand already stands, as a word, where the pattern puts it (or the affix appears inside the topic). */
function carriesBrand(topic: string, pattern: SiteTitlePattern): boolean {
  if (topic.toLowerCase().includes(pattern.affix.toLowerCase().trim())) return true;
  const size = pattern.brand.length;
  if (topic.length < size) return false;
  const suffix = pattern.position === 'suffix';
  const edge = suffix ? topic.slice(topic.length - size) : topic.slice(0, size);
  const beside = suffix ? topic.charAt(topic.length - size - 1) : topic.charAt(size);
  return edge.toLowerCase() === pattern.brand.toLowerCase() && !/[\p{L}\p{N}]/u.test(beside);
}

/** A heading that adds to the topic (first h2, else the first other heading). */
function secondaryOf(page: FixPageContext | null, topic: string): string | null {
  const lower = topic.toLowerCase();
  const candidates = (page?.headings ?? []).filter(
    (heading) => heading.level >= 2 && !lower.includes(heading.text.toLowerCase()),
  );
  const text = candidates.find((heading) => heading.level === 2)?.text ?? candidates[0]?.text;
  return text ? collapseWhitespace(text) : null;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
