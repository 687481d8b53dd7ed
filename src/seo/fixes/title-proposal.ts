import { CHECK_THRESHOLDS as T } from '../checks/index.js';
import type { FixPageContext } from './fix.types.js';
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

/**
 * A `<title>` of 30–60 characters: the page's topic (h1, or the current title) followed by
 * " | <site name>" when it fits, topped up with the first h2 when still short, cut at a word when long.
 */
export function proposeTitle(page: FixPageContext | null, url: string, mode: TitleMode = 'new'): TitleProposal {
  const brand = brandOf(page, url);
  const current = page?.title ? collapseWhitespace(page.title) : '';
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
  const text = composeTitle(collapseWhitespace(topic), brand, secondaryOf(page, topic));
  const length = codePointLength(text);
  return { text, complete: length >= MIN && length <= MAX };
}

export function titleTag(text: string): string {
  return `<title>${escapeHtml(text)}</title>`;
}

/** The site's name: og:site_name, else a guess from the host name. */
export function brandOf(page: FixPageContext | null, url: string): string {
  const named = page?.siteName ? collapseWhitespace(page.siteName) : '';
  if (named !== '' && codePointLength(named) <= 40) return named;
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
