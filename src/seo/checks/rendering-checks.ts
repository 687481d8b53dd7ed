import { normalizeUrl, type PageFacts } from '../page/index.js';
import type { PageCheckCode } from './check-catalog.js';
import { fail, pass, type CheckOutcome } from './check-outcome.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { PageFetch, PageRendering } from './check.types.js';
import { effectiveCanonical } from './page-indexability.js';
import type { PageCheckContext, PageEvaluator } from './page-checks.js';

/**
 * Browser rendering mode (issue 28): the raw HTML as served beside the page as headless Chromium rendered it. The
 * page's own facts (`ctx.html`) are the rendered DOM's; `page.rendering.raw` keeps the raw HTML's. Every RENDER_*
 * code compares the two digests below (the same digests the page view shows), and is not applicable in html mode
 * (no `page.rendering`) or when rendering failed (`page.renderError`: the checks judged the raw HTML alone).
 */

const SAMPLE = 5;
/** H1 headings kept per side in a digest. */
const DIGEST_H1 = 5;

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

type RenderCode = Extract<PageCheckCode, `RENDER_${string}`>;

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
function compared(decide: (sides: Sides, ctx: PageCheckContext) => CheckOutcome): PageEvaluator {
  return (ctx) => {
    const sides = sidesOf(ctx);
    return sides ? decide(sides, ctx) : null;
  };
}

/** One evaluator per RENDER_* code (spread into PAGE_EVALUATORS). */
export const RENDERING_EVALUATORS: Readonly<Record<RenderCode, PageEvaluator>> = {
  RENDER_TITLE_CHANGED: compared(({ raw, rendered }) => {
    const before = firstNonEmpty(raw.titles);
    const after = firstNonEmpty(rendered.titles);
    if (before === null || after === null) return null;
    return before === after ? pass() : fail({ raw: before, rendered: after });
  }),
  RENDER_TITLE_ONLY_RENDERED: compared(({ raw, rendered }) => {
    const after = firstNonEmpty(rendered.titles);
    return firstNonEmpty(raw.titles) === null && after !== null ? fail({ rendered: after }) : pass();
  }),
  RENDER_DESCRIPTION_CHANGED: compared(({ raw, rendered }) => {
    const before = firstNonEmpty(raw.descriptions);
    const after = firstNonEmpty(rendered.descriptions);
    if (before === null && after === null) return null;
    return before === after ? pass() : fail({ raw: before, rendered: after });
  }),
  RENDER_CANONICAL_CHANGED: compared(({ raw, rendered }) => {
    const before = effectiveCanonical(raw);
    const after = effectiveCanonical(rendered);
    if (before === null && after === null) return null;
    return comparableUrl(before) === comparableUrl(after) ? pass() : fail({ raw: before, rendered: after });
  }),
  RENDER_NOINDEX_CHANGED: compared(({ raw, rendered }) =>
    raw.robots.noindex === rendered.robots.noindex
      ? pass()
      : fail({
          raw: raw.robots.noindex ? 'noindex' : 'index',
          rendered: rendered.robots.noindex ? 'noindex' : 'index',
          ...robotsValues(raw, rendered),
        }),
  ),
  RENDER_NOFOLLOW_CHANGED: compared(({ raw, rendered }) =>
    raw.robots.nofollow === rendered.robots.nofollow
      ? pass()
      : fail({
          raw: raw.robots.nofollow ? 'nofollow' : 'follow',
          rendered: rendered.robots.nofollow ? 'nofollow' : 'follow',
          ...robotsValues(raw, rendered),
        }),
  ),
  RENDER_H1_CHANGED: compared(({ raw, rendered }) => {
    const before = h1Of(raw);
    const after = h1Of(rendered);
    if (before.length === 0 && after.length === 0) return null;
    return sameList(before, after)
      ? pass()
      : fail({ raw: before.slice(0, DIGEST_H1), rendered: after.slice(0, DIGEST_H1) });
  }),
  RENDER_LINKS_ONLY_RENDERED: compared(({ raw, rendered }, ctx) => {
    const after = internalLinkTargets(rendered);
    if (after.size === 0) return null;
    const before = internalLinkTargets(raw);
    const self = comparableUrl(ctx.page.finalUrl);
    const only = [...after].filter((url) => !before.has(url) && comparableUrl(url) !== self);
    return only.length > 0
      ? fail({ count: only.length, links: only.slice(0, SAMPLE), rawLinks: before.size, renderedLinks: after.size })
      : pass();
  }),
  RENDER_CONTENT_NEEDS_JS: compared(({ raw, rendered }) => {
    if (rendered.wordCount < T.renderedContentMinWords) return null;
    return raw.wordCount < rendered.wordCount * T.rawContentMinShare
      ? fail({ rawWords: raw.wordCount, renderedWords: rendered.wordCount })
      : pass();
  }),
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: compared(({ rendering }) =>
    rendering.blockedByRobots.length > 0
      ? fail({ count: rendering.blockedByRobots.length, resources: rendering.blockedByRobots.slice(0, SAMPLE) })
      : pass(),
  ),
  RENDER_CONSOLE_ERRORS: compared(({ rendering }) =>
    rendering.consoleErrorCount > 0
      ? fail({ count: rendering.consoleErrorCount, errors: rendering.consoleErrors.slice(0, SAMPLE) })
      : pass(),
  ),
  RENDER_FAILED_REQUESTS: compared(({ rendering }) =>
    rendering.failedRequestCount > 0
      ? fail({
          count: rendering.failedRequestCount,
          requests: rendering.failedRequests.slice(0, SAMPLE).map(({ url, reason }) => ({ url, reason })),
        })
      : pass(),
  ),
};

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
function firstNonEmpty(values: readonly string[]): string | null {
  const first = values.length > 0 ? values[0].trim() : '';
  return first === '' ? null : first;
}

function h1Of(facts: PageFacts): string[] {
  return facts.headings.filter((heading) => heading.level === 1).map((heading) => heading.text);
}

function internalLinkTargets(facts: PageFacts): Set<string> {
  const targets = new Set<string>();
  for (const link of facts.links) {
    if (link.kind === 'http' && link.internal && link.url !== null) targets.add(link.url);
  }
  return targets;
}

function comparableUrl(url: string | null): string | null {
  return url === null ? null : (normalizeUrl(url) ?? url);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function robotsValues(raw: PageFacts, rendered: PageFacts): Record<string, string[]> {
  return {
    rawMeta: [...raw.robots.meta, ...raw.robots.googlebotMeta],
    renderedMeta: [...rendered.robots.meta, ...rendered.robots.googlebotMeta],
  };
}
