import { normalizeUrl, type PageFacts } from '../page/index.js';
import { fail, pass, type CheckOutcome } from './check-outcome.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { PageFetch, PageRendering } from './check.types.js';
import type { PageCheckContext, PageEvaluator } from './page-check-helpers.js';
import { effectiveCanonical } from './page-indexability.js';

/**
 * Browser rendering mode (issue 28): the raw HTML as served beside the page as headless Chromium rendered it. The
 * page's own facts (`ctx.html`) are the rendered DOM's; `page.rendering.raw` keeps the raw HTML's. Every RENDER_*
 * code compares the two digests below (the same digests the page view shows), and is not applicable in html mode
 * (no `page.rendering`) or when rendering failed (`page.renderError`: the checks judged the raw HTML alone).
 */

export const SAMPLE = 5;
/** H1 headings kept per side in a digest. */
export const DIGEST_H1 = 5;

/** What the RENDER_* checks compare of one side (raw or rendered) of a page. */
export interface RenderSideDigest {
  title: string | null;
  description: string | null;
  /** The effective canonical (HTML first, then the Link header), resolved. */
  canonical: string | null;
  robots: { noindex: boolean; nofollow: boolean };
  h1: string[];
  wordCount: number;
  /** Distinct internal http(s) link targets. */
  internalLinks: number;
}

/** The compact raw-versus-rendered record of one page (stored in `audit_page.rendering`, shown on the page view). */
export interface PageRenderingRecord {
  /** null when the page was not analysed (rendering failed before the raw HTML was read). */
  raw: RenderSideDigest | null;
  /** null when rendering failed (`renderError`). */
  rendered: RenderSideDigest | null;
  renderMs: number | null;
  consoleErrorCount: number;
  consoleErrors: string[];
  failedRequestCount: number;
  failedRequests: { url: string; reason: string }[];
  blockedByRobots: string[];
  renderError: string | null;
}

/** Entries of each list kept in the stored record. */
const RECORD_SAMPLE = 5;

export function renderSideDigest(facts: PageFacts): RenderSideDigest {
  return {
    title: firstNonEmpty(facts.titles),
    description: firstNonEmpty(facts.descriptions),
    canonical: effectiveCanonical(facts),
    robots: { noindex: facts.robots.noindex, nofollow: facts.robots.nofollow },
    h1: h1Of(facts).slice(0, DIGEST_H1),
    wordCount: facts.wordCount,
    internalLinks: internalLinkTargets(facts).size,
  };
}

/**
 * The stored record of a page fetched in browser mode: `facts` are the page's own (rendered) facts, or the raw
 * HTML's when rendering failed. null in html mode (neither `rendering` nor `renderError`).
 */
export function pageRenderingRecord(fetch: PageFetch, facts: PageFacts | null): PageRenderingRecord | null {
  const rendering = fetch.rendering;
  if (rendering) {
    return {
      raw: renderSideDigest(rendering.raw),
      rendered: facts ? renderSideDigest(facts) : null,
      renderMs: Math.round(rendering.renderMs),
      consoleErrorCount: rendering.consoleErrorCount,
      consoleErrors: rendering.consoleErrors.slice(0, RECORD_SAMPLE),
      failedRequestCount: rendering.failedRequestCount,
      failedRequests: rendering.failedRequests.slice(0, RECORD_SAMPLE).map(({ url, reason }) => ({ url, reason })),
      blockedByRobots: rendering.blockedByRobots.slice(0, RECORD_SAMPLE),
      renderError: fetch.renderError ?? null,
    };
  }
  if (fetch.renderError === undefined) return null;
  return {
    raw: facts ? renderSideDigest(facts) : null,
    rendered: null,
    renderMs: null,
    consoleErrorCount: 0,
    consoleErrors: [],
    failedRequestCount: 0,
    failedRequests: [],
    blockedByRobots: [],
    renderError: fetch.renderError,
  };
}

/** Both sides of a rendered 2xx HTML page; null (not applicable) otherwise. */
interface Sides {
  raw: PageFacts;
  rendered: PageFacts;
  rendering: PageRendering;
}

function sidesOf(ctx: PageCheckContext): Sides | null {
  const rendering = ctx.page.rendering;
  if (!ctx.html || !rendering || ctx.page.renderError !== undefined) return null;
  return { raw: rendering.raw, rendered: ctx.html, rendering };
}

/** A RENDER_* evaluator: applies only to pages with both sides. */
export function compared(decide: (sides: Sides, ctx: PageCheckContext) => CheckOutcome): PageEvaluator {
  return (ctx) => {
    const sides = sidesOf(ctx);
    return sides ? decide(sides, ctx) : null;
  };
}

/**
 * TECH_CLIENT_RENDERED_SUSPECTED, html mode only: the raw HTML looks like an app shell (an empty app root or framework
 * markers, and little visible text). Not applicable in browser mode, where the rendered page is judged instead.
 */
export const clientRenderedSuspected: PageEvaluator = ({ html, page }) => {
  if (!html || page.rendering || page.renderError !== undefined) return null;
  const { emptyRoot, markers } = html.clientRendering;
  const limit = emptyRoot !== null ? T.clientShellMaxWords : markers.length > 0 ? T.frameworkShellMaxWords : 0;
  return html.wordCount < limit ? fail({ root: emptyRoot, markers, words: html.wordCount }) : pass();
};

/** The first element's text, as browsers and META_TITLE_MISSING read it; null when absent or empty. */
export function firstNonEmpty(values: readonly string[]): string | null {
  const first = values.length > 0 ? values[0].trim() : '';
  return first === '' ? null : first;
}

export function h1Of(facts: PageFacts): string[] {
  return facts.headings.filter((heading) => heading.level === 1).map((heading) => heading.text);
}

export function internalLinkTargets(facts: PageFacts): Set<string> {
  const targets = new Set<string>();
  for (const link of facts.links) {
    if (link.kind === 'http' && link.internal && link.url !== null) targets.add(link.url);
  }
  return targets;
}

export function comparableUrl(url: string | null): string | null {
  return url === null ? null : (normalizeUrl(url) ?? url);
}

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export function robotsValues(raw: PageFacts, rendered: PageFacts): Record<string, string[]> {
  return {
    rawMeta: [...raw.robots.meta, ...raw.robots.googlebotMeta],
    renderedMeta: [...rendered.robots.meta, ...rendered.robots.googlebotMeta],
  };
}
