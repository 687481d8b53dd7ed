import { CHECK_THRESHOLDS as T } from '../checks/check-thresholds.js';
import type { FixPageContext } from './fix.types.js';
import {
  brandFromHost,
  codePointLength,
  collapseWhitespace,
  cutAtWord,
  escapeHtml,
  phraseFromPath,
} from './markup-text.js';

export interface DescriptionProposal {
  /** Plain text (not escaped). */
  text: string;
  /**
   * `page-text`: the page's own sentences; `existing`: the current description cut or extended; `outline`: built from
   * headings.
   */
  source: 'page-text' | 'existing' | 'outline';
  /** Within the 70–160 character band; false when the page had too little text to reach 70. */
  complete: boolean;
}

/** `new`: ignore the current description; `extend`: keep it and add page text; `shorten`: cut it to fit. */
export type DescriptionMode = 'new' | 'extend' | 'shorten';

const MIN = T.descriptionMinChars;
const MAX = T.descriptionMaxChars;
/** Paragraphs shorter than this are bylines, labels or buttons more often than prose. */
const SUBSTANTIAL_PARAGRAPH = 40;

/**
 * A meta description of 70–160 characters drawn from the page's own text: the current description
 * (cut or extended) or the opening paragraphs, ending on a sentence or a word boundary. Pages with
 * too little prose get one built from their headings and site name, flagged incomplete when still short.
 */
export function proposeDescription(
  page: FixPageContext | null,
  url: string,
  mode: DescriptionMode = 'new',
): DescriptionProposal {
  const current = page?.description ? collapseWhitespace(page.description) : '';
  const prose = openingProse(page, current);

  if (mode === 'shorten' && codePointLength(current) > MAX) {
    return { text: fitDescription(current), source: 'existing', complete: true };
  }
  if (mode === 'extend' && current !== '') {
    const extended = fitDescription(joinSentences([current, prose]));
    if (codePointLength(extended) >= MIN) return { text: extended, source: 'existing', complete: true };
  }
  if (codePointLength(prose) >= MIN) return { text: fitDescription(prose), source: 'page-text', complete: true };

  const outline = fitDescription(joinSentences([mode === 'new' ? '' : current, outlineText(page, url), prose]));
  if (codePointLength(outline) >= MIN) return { text: outline, source: 'outline', complete: true };
  // Too little text to say more without inventing it: a short, honest draft the steps ask to extend.
  const draft = outline !== '' ? outline : page?.siteName?.trim() || brandFromHost(hostOf(url));
  return { text: draft, source: 'outline', complete: false };
}

export function metaDescriptionTag(text: string): string {
  return `<meta name="description" content="${escapeHtml(text)}">`;
}

/** Cuts to at most 160 characters, at a sentence end when one falls in 70–160, else at a word with "…". */
export function fitDescription(text: string): string {
  const clean = collapseWhitespace(text);
  if (codePointLength(clean) <= MAX) return clean;
  const window = clean.slice(0, MAX + 1);
  let sentenceEnd = -1;
  for (const match of window.matchAll(/[.!?](?=\s|$)/g)) {
    const end = match.index + 1;
    if (end >= MIN && end <= MAX) sentenceEnd = end;
  }
  if (sentenceEnd > 0) return clean.slice(0, sentenceEnd);
  const cut = cutAtWord(clean, MAX, true);
  // One enormous "word" (a URL, a code) leaves too little before the last space: cut inside it instead.
  return codePointLength(cut) >= MIN
    ? cut
    : `${Array.from(clean)
        .slice(0, MAX - 1)
        .join('')}…`;
}

/** The page's first substantial paragraphs, joined, up to a little over the maximum length. */
function openingProse(page: FixPageContext | null, current: string): string {
  if (!page) return '';
  const paragraphs = page.paragraphs.map(collapseWhitespace).filter((p) => p !== '' && p !== current);
  const substantial = paragraphs.filter((p) => codePointLength(p) >= SUBSTANTIAL_PARAGRAPH);
  const chosen: string[] = [];
  let length = 0;
  for (const paragraph of substantial.length > 0 ? substantial : paragraphs) {
    chosen.push(paragraph);
    length += paragraph.length + 1;
    if (length > MAX + 40) break;
  }
  return joinSentences(chosen);
}

function outlineText(page: FixPageContext | null, url: string): string {
  const topic = page?.h1[0] ?? page?.title ?? page?.headings[0]?.text ?? phraseFromPath(pathOf(url));
  const subtopics = (page?.headings ?? [])
    .filter((heading) => heading.level === 2 && heading.text !== topic)
    .slice(0, 3)
    .map((heading) => heading.text);
  const parts = [topic ?? ''];
  if (subtopics.length > 0)
    parts.push(
      `${subtopics.length === 1 ? subtopics[0] : `${subtopics.slice(0, -1).join(', ')} and ${subtopics.at(-1)}`}`,
    );
  return parts.filter(Boolean).join(': ');
}

/** Joins fragments into sentences: each ends with punctuation so the description reads as prose. */
function joinSentences(parts: string[]): string {
  return parts
    .map(collapseWhitespace)
    .filter(Boolean)
    .map((part) => (/[.!?…:;]$/.test(part) ? part : `${part}.`))
    .join(' ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
