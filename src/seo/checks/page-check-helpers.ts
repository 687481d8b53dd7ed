/**
 * What the page-scope evaluators (each definition's `evaluate`) read and share: the page check context, built once
 * per fetched page by runPageChecks (page-checks.ts), and small helpers. Imports no definition.
 */
import {
  firstHeader,
  isHtmlContentType,
  isLoopbackHost,
  normalizeUrl,
  type LinkFact,
  type PageFacts,
} from '../page/index.js';
import { banded, fail, pass, type CheckOutcome } from './check-outcome.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { PageFetch } from './check.types.js';
import type { LinkTargetVerdicts } from './link-target-checks.js';
import { viewportDirectives } from './viewport-directives.js';
export const SAMPLE = 5;

export interface PageCheckContext {
  facts: PageFacts | null;
  /** Facts of a page that answered 2xx; HTML checks apply only to those. */
  html: PageFacts | null;
  page: PageFetch;
  ok: boolean;
  responded: boolean;
  finalUrl: URL | null;
  https: boolean;
  indexable: boolean;
  /** The link-target verdicts of the page, once the crawl knows its targets (a definition's `sitePass` names one). */
  linkTargets(): LinkTargetVerdicts | null;
}

/** Decides one page-scope code for one fetched page. */
export type PageEvaluator = (ctx: PageCheckContext) => CheckOutcome;

export function firstText(values: readonly string[]): string {
  return values.length > 0 ? values[0].trim() : '';
}

/**
 * The on-page basics (docs/scores.md "Health"): what every page needs to be shown well in search. Each is one
 * predicate, read by its own check (META_TITLE_MISSING, META_DESCRIPTION_MISSING, META_VIEWPORT_MISSING,
 * CONTENT_H1_MISSING) and by META_BASICS_MISSING, which counts them.
 */
export const ON_PAGE_BASICS = {
  title: (html: PageFacts) => firstText(html.titles) === '',
  description: (html: PageFacts) => firstText(html.descriptions) === '',
  viewport: (html: PageFacts) => html.viewport === null || html.viewport.trim() === '',
  h1: (html: PageFacts) => html.h1Count === 0,
} as const;

export type OnPageBasic = keyof typeof ON_PAGE_BASICS;

/** The on-page basics the page lacks, in ON_PAGE_BASICS order. */
export function missingBasics(html: PageFacts): OnPageBasic[] {
  return (Object.keys(ON_PAGE_BASICS) as OnPageBasic[]).filter((basic) => ON_PAGE_BASICS[basic](html));
}

export function lengthBelow(text: string | null | '', min: number, field: string): CheckOutcome {
  if (!text) return null;
  const length = codePointLength(text);
  return length < min ? fail({ [field]: text, length }) : pass();
}

export function lengthAbove(text: string | null | '', max: number, field: string): CheckOutcome {
  if (!text) return null;
  const length = codePointLength(text);
  return length > max ? fail({ [field]: text, length }) : pass();
}

/** Characters as people count them (astral symbols are one, not two UTF-16 units). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) length--;
  }
  return length;
}

export function metric(value: number | undefined, band: { good: number; poor: number }, field: string): CheckOutcome {
  if (value === undefined || !Number.isFinite(value)) return null;
  return banded(value, band, { [field]: value });
}

export function viewportZoomBlocker(content: string): string | null {
  for (const [key, value] of viewportDirectives(content)) {
    if (key === 'user-scalable' && (value === 'no' || value === '0')) return `user-scalable=${value}`;
    if (key === 'maximum-scale') {
      const scale = Number.parseFloat(value);
      if (Number.isFinite(scale) && scale < T.minMaximumScale) return `maximum-scale=${value}`;
    }
  }
  return null;
}

/** The response says it is something other than an HTML document (a redirect or a typeless answer is not). */
export function isOtherThanHtml(page: PageFetch): boolean {
  if (page.status >= 300 && page.status < 400) return false;
  const type = firstHeader(page.headers, 'content-type');
  return !!type?.trim() && !isHtmlContentType(type);
}

export function isLoopbackLink(link: LinkFact): boolean {
  const url = link.url!;
  if (!/localhost|127\.|\[::1\]|0\.0\.0\.0/i.test(url)) return false;
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function imageRef(image: { url: string | null; src: string }): string {
  return image.url ?? image.src;
}

/** The width and height attributes an image declares, when it does (evidence keys, absent when not written). */
export function declaredSize(image: { width?: string; height?: string }): { width?: string; height?: string } {
  const size: { width?: string; height?: string } = {};
  if (image.width !== undefined) size.width = image.width;
  if (image.height !== undefined) size.height = image.height;
  return size;
}

export function unique<V>(values: readonly V[]): V[] {
  return [...new Set(values)];
}

export function redirectChain(page: PageFetch): string[] {
  return [...page.redirects.map((hop) => `${hop.status} ${hop.url}`), page.finalUrl].slice(0, 12);
}

export function hasRedirectLoop(page: PageFetch): boolean {
  const seen = new Set<string | null>();
  for (const hop of page.redirects) {
    const key = normalizeUrl(hop.url) ?? hop.url;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  // The chain ended on a URL it already passed through, still redirecting.
  return (
    page.redirects.length > 0 &&
    page.status >= 300 &&
    page.status < 400 &&
    seen.has(normalizeUrl(page.finalUrl) ?? page.finalUrl)
  );
}

export function isSuccess(status: number | undefined): boolean {
  return status === undefined || (status >= 200 && status < 300);
}
