import { normalizeUrl } from '../page/index.js';
import type { LinkTargetInfo } from './check.types.js';
import type { CheckOutcome } from './check-outcome.js';
import { fail, pass } from './check-outcome.js';
import { evaluateResourceTargets, type ResourceRef, type ResourceTargetVerdicts } from './resource-target-checks.js';

/**
 * The verdicts that depend on what the crawler learned about link, canonical and resource targets, by name: a
 * definition names the one that decides it (`sitePass`, define-check.ts), and reads it in the page pass
 * (PageCheckContext.linkTargets).
 */
export interface LinkTargetVerdicts extends ResourceTargetVerdicts {
  internalBroken: CheckOutcome;
  externalBroken: CheckOutcome;
  toRedirect: CheckOutcome;
  blockedByRobots: CheckOutcome;
  canonicalToBroken: CheckOutcome;
  toNonCanonical: CheckOutcome;
  toNoindex: CheckOutcome;
}

export type LinkTargetVerdict = keyof LinkTargetVerdicts;

/** Every verdict, in the order the site pass reports them. */
export const LINK_TARGET_VERDICTS: readonly LinkTargetVerdict[] = [
  'internalBroken',
  'externalBroken',
  'toRedirect',
  'blockedByRobots',
  'canonicalToBroken',
  'toNonCanonical',
  'toNoindex',
  'imageBroken',
  'resourceBroken',
  'resourcePrivateAddress',
];

export interface LinkTargetSource {
  /** The page's own URL (final, after redirects). */
  selfUrl: string;
  selfNoindex: boolean;
  internalLinks: readonly string[];
  externalLinks: readonly string[];
  canonical: string | null;
  /** The page's subresources (images, scripts, stylesheets...): broken-resource checks. */
  resources?: readonly ResourceRef[];
}

/** Targets an occurrence's evidence names by default (all are counted: `count`). */
export const LINK_EVIDENCE_SAMPLE = 5;

/**
 * Evaluates the link-target checks for one page. A check is not applicable until at least one of the
 * targets it looks at is known. A 429 is not "broken" (the target only throttled us). An external target
 * that refused the connection or failed TLS (`failure`) is broken, with that cause; one whose host did not
 * resolve or that did not answer in time (`couldNotCheck`), or on a refused address, decides nothing here.
 */
export function evaluateLinkTargets(
  source: LinkTargetSource,
  lookup: (url: string) => LinkTargetInfo | undefined,
  /** Targets each evidence names (`links`); every one is counted (`count`). Infinity: all of them. */
  sample = LINK_EVIDENCE_SAMPLE,
  /**
   * `normalizeUrl`, or a memo of it: the site phase evaluates every page's links against the same few thousand
   * targets, and comparing each target with its canonical parsed both URLs once per link (300,000 parses for a
   * 5,000-page site of 30 links a page).
   */
  normalize: (url: string) => string | null = normalizeUrl,
): LinkTargetVerdicts {
  const SAMPLE = sample;
  let internalKnown = 0;
  let externalKnown = 0;
  const broken: { url: string; status: number | null }[] = [];
  const redirecting: string[] = [];
  const blocked: string[] = [];
  const externalBroken: { url: string; status: number | null; error?: string }[] = [];
  // Every failing target, each one fix (CheckOutcome.causes); the evidence names the first SAMPLE of them.
  const brokenAll: string[] = [];
  const redirectingAll: string[] = [];
  const blockedAll: string[] = [];
  const externalBrokenAll: string[] = [];
  const noindexAll: string[] = [];
  const nonCanonicalAll: string[] = [];
  let brokenCount = 0;
  let redirectCount = 0;
  let blockedCount = 0;
  let externalBrokenCount = 0;
  // LINKS_TO_NOINDEX and LINKS_TO_NON_CANONICAL judge crawled 2xx pages only (what their summaries say).
  let pagesKnown = 0;
  const noindex: string[] = [];
  const nonCanonical: { url: string; canonical: string }[] = [];
  let noindexCount = 0;
  let nonCanonicalCount = 0;

  for (const url of source.internalLinks) {
    const info = lookup(url);
    if (!info) continue;
    internalKnown++;
    if (info.blockedByRobots) {
      blockedCount++;
      blockedAll.push(url);
      if (blocked.length < SAMPLE) blocked.push(url);
      continue;
    }
    if (isBroken(info)) {
      brokenCount++;
      brokenAll.push(url);
      if (broken.length < SAMPLE) broken.push({ url, status: info.status });
    } else if (info.redirected) {
      redirectCount++;
      redirectingAll.push(url);
      if (redirecting.length < SAMPLE) redirecting.push(url);
    } else if (info.canonical !== undefined && info.status !== null && info.status < 300) {
      pagesKnown++;
      const canonical = info.canonical === null ? null : normalize(info.canonical);
      if (info.noindex) {
        noindexCount++;
        noindexAll.push(url);
        if (noindex.length < SAMPLE) noindex.push(url);
      } else if (canonical !== null && canonical !== normalize(url)) {
        nonCanonicalCount++;
        nonCanonicalAll.push(url);
        if (nonCanonical.length < SAMPLE) nonCanonical.push({ url, canonical });
      }
    }
  }
  for (const url of source.externalLinks) {
    const info = lookup(url);
    if (!info || info.blockedByRobots || info.blockedAddress || info.couldNotCheck !== undefined) continue;
    if (info.status === null && info.failure === undefined) continue;
    externalKnown++;
    if (info.status === null) {
      externalBrokenCount++;
      externalBrokenAll.push(url);
      if (externalBroken.length < SAMPLE) externalBroken.push({ url, status: null, error: info.failure });
    } else if (info.status >= 400 && info.status !== 429) {
      externalBrokenCount++;
      externalBrokenAll.push(url);
      if (externalBroken.length < SAMPLE) externalBroken.push({ url, status: info.status });
    }
  }

  return {
    internalBroken:
      internalKnown === 0
        ? null
        : brokenCount > 0
          ? fail({ count: brokenCount, links: broken }, undefined, brokenAll)
          : pass(),
    externalBroken:
      externalKnown === 0
        ? null
        : externalBrokenCount > 0
          ? fail({ count: externalBrokenCount, links: externalBroken }, undefined, externalBrokenAll)
          : pass(),
    toRedirect:
      internalKnown === 0
        ? null
        : redirectCount > 0
          ? fail({ count: redirectCount, links: redirecting }, undefined, redirectingAll)
          : pass(),
    blockedByRobots:
      internalKnown === 0
        ? null
        : blockedCount > 0
          ? fail({ count: blockedCount, links: blocked }, undefined, blockedAll)
          : pass(),
    canonicalToBroken: canonicalOutcome(source, lookup),
    toNonCanonical:
      pagesKnown === 0
        ? null
        : nonCanonicalCount > 0
          ? fail({ count: nonCanonicalCount, links: nonCanonical }, undefined, nonCanonicalAll)
          : pass(),
    toNoindex:
      pagesKnown === 0
        ? null
        : noindexCount > 0
          ? fail({ count: noindexCount, links: noindex }, undefined, noindexAll)
          : pass(),
    ...evaluateResourceTargets(source.resources ?? [], lookup, sample),
  };
}

function canonicalOutcome(source: LinkTargetSource, lookup: (url: string) => LinkTargetInfo | undefined): CheckOutcome {
  if (source.canonical === null) return null;
  const canonical = normalizeUrl(source.canonical);
  if (canonical === null) return null;
  if (canonical === normalizeUrl(source.selfUrl)) {
    return source.selfNoindex ? fail({ canonical, reason: 'noindex' }) : pass();
  }
  const info = lookup(canonical);
  if (!info || info.blockedByRobots || info.blockedAddress) return null;
  if (isBroken(info))
    return fail({ canonical, reason: info.status === null ? 'unreachable' : `status ${info.status}` }, undefined, [
      canonical,
    ]);
  if (info.redirected) return fail({ canonical, reason: 'redirects' }, undefined, [canonical]);
  if (info.noindex) return fail({ canonical, reason: 'noindex' }, undefined, [canonical]);
  return pass();
}

function isBroken(info: LinkTargetInfo): boolean {
  return info.status === null || (info.status >= 400 && info.status !== 429);
}
