/** Text shaping for proposed markup: escaping, measuring and cutting at word boundaries. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' };

/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&"'<>]/g, (char) => HTML_ESCAPES[char]);
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Characters as people count them (an astral symbol is one, not two UTF-16 units). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) length--;
  }
  return length;
}

/** The first `max` code points of `text` (never splitting a surrogate pair). */
function sliceCodePoints(text: string, max: number): string {
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    points++;
  }
  return text.slice(0, units);
}

const TRAILING_JUNK_RE = /[\s,;:\-–—|/(«"'“‘]+$/u;

/**
 * Cuts `text` to at most `max` characters at a word boundary (the character after the cut is a space
 * or the end), dropping dangling punctuation. `ellipsis` appends "…" within the bound when text was cut.
 */
export function cutAtWord(text: string, max: number, ellipsis = false): string {
  if (codePointLength(text) <= max) return text;
  const room = ellipsis ? max - 1 : max;
  const head = sliceCodePoints(text, room + 1);
  const space = head.lastIndexOf(' ');
  let cut = space > 0 ? head.slice(0, space) : sliceCodePoints(text, room);
  cut = cut.replace(TRAILING_JUNK_RE, '');
  return ellipsis ? `${cut}…` : cut;
}

/** A value quoted into a sentence of a step: bounded so one long URL cannot fill a proposal. */
export function shorten(text: string, max = 120): string {
  const clean = collapseWhitespace(text);
  return codePointLength(clean) <= max ? clean : `${sliceCodePoints(clean, max - 1)}…`;
}

/** "www.blue-widgets.co.uk" -> "Blue Widgets": a brand guess when the page names no site. */
export function brandFromHost(host: string): string {
  const labels = host
    .toLowerCase()
    .replace(/^www\d*\./, '')
    .split('.')
    .filter(Boolean);
  if (labels.length === 0) return host;
  // The label before the public suffix; two-letter second-level labels (co.uk, com.au) are suffix parts.
  let index = labels.length >= 2 ? labels.length - 2 : 0;
  if (index > 0 && labels.length >= 3 && /^(co|com|net|org|gov|ac|edu)$/.test(labels[index])) index--;
  const label = labels[index];
  if (/^\d+$/.test(label) || label === 'localhost') return host;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** "/blog/seo-basics_2024.html" -> "Seo basics 2024": a readable phrase from a URL path's last segment. */
export function phraseFromPath(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const last = segments.length > 0 ? segments[segments.length - 1] : '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    decoded = last;
  }
  const words = decoded
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .split(/[-_.+\s]+/)
    .filter((word) => word !== '' && !/^[0-9a-f]{8,}$/i.test(word));
  const phrase = words.join(' ');
  return phrase === '' ? '' : phrase[0].toUpperCase() + phrase.slice(1);
}
