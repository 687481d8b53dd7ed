import type { SiteTitlePattern } from './fix.types.js';
import { codePointLength, collapseWhitespace } from './markup-text.js';

/** " | ", " - ", " – ", " — ", " · ", " :: ", " » " between topic and brand. */
const SPACED_SEPARATOR_RE = /\s(?:[|–—·»]|-{1,2}|::)\s/gu;
/** A prefix also ends in "Brand: " (a colon right after the brand). */
const PREFIX_SEPARATOR_RE = /\s(?:[|–—·»]|-{1,2}|::)\s|(?<=\S):\s/gu;
/** Fewer titles than this cannot tell a pattern from a coincidence. */
const MIN_TITLES = 3;
/** An affix longer than this would leave too little of a 60-character title for the topic. */
const MAX_AFFIX_CHARS = 40;
/** Bounds the work on whatever list a caller hands in. */
const MAX_TITLES = 500;

/**
 * The brand affix most of a site's titles share: " | PostgreSQL Documentation" (suffix) or "Acme: " (prefix),
 * separator included. Null unless at least half of at least 3 distinct titles carry the same one, and when two
 * unrelated affixes tie. A suffix that always comes with the segment before it (" | Docs | Acme" on every page)
 * is kept whole; one that varies by section (" | Blog | Acme", " | Shop | Acme") keeps the common " | Acme".
 */
export function siteTitlePattern(titles: readonly string[]): SiteTitlePattern | null {
  const distinct = [...new Set(titles.slice(0, MAX_TITLES).map(collapseWhitespace))].filter(Boolean);
  if (distinct.length < MIN_TITLES) return null;

  const support = new Map<string, { pattern: Omit<SiteTitlePattern, 'support' | 'total'>; count: number }>();
  for (const title of distinct) {
    for (const pattern of affixesOf(title)) {
      const key = `${pattern.position}:${pattern.affix}`;
      const entry = support.get(key);
      if (entry) entry.count++;
      else support.set(key, { pattern, count: 1 });
    }
  }
  let best = 0;
  for (const entry of support.values()) best = Math.max(best, entry.count);
  if (best * 2 < distinct.length) return null;

  // Equal support means the same titles: acceptable only when each affix extends the shorter ones.
  const winners = [...support.values()]
    .filter((entry) => entry.count === best)
    .map((entry) => entry.pattern)
    .sort((a, b) => a.affix.length - b.affix.length);
  const longest = winners[winners.length - 1];
  const nested = winners.every(
    (pattern) =>
      pattern.position === longest.position &&
      (pattern.position === 'suffix' ? longest.affix.endsWith(pattern.affix) : longest.affix.startsWith(pattern.affix)),
  );
  return nested ? { ...longest, support: best, total: distinct.length } : null;
}

/** Every suffix and prefix of `title` that starts (or ends) at a separator and leaves a topic beside it. */
function affixesOf(title: string): Omit<SiteTitlePattern, 'support' | 'total'>[] {
  const found: Omit<SiteTitlePattern, 'support' | 'total'>[] = [];
  for (const match of title.matchAll(SPACED_SEPARATOR_RE)) {
    const brand = title.slice(match.index + match[0].length);
    const affix = title.slice(match.index);
    if (match.index > 0 && isBrand(brand, affix)) found.push({ position: 'suffix', affix, brand, separator: match[0] });
  }
  for (const match of title.matchAll(PREFIX_SEPARATOR_RE)) {
    const end = match.index + match[0].length;
    const brand = title.slice(0, match.index);
    const affix = title.slice(0, end);
    if (end < title.length && isBrand(brand, affix))
      found.push({ position: 'prefix', affix, brand, separator: match[0] });
  }
  return found;
}

function isBrand(brand: string, affix: string): boolean {
  return /\p{L}/u.test(brand) && codePointLength(affix) <= MAX_AFFIX_CHARS;
}
