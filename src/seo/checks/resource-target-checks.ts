import type { ResourceKind } from '../page/index.js';
import type { LinkTargetInfo } from './check.types.js';
import type { CheckOutcome } from './check-outcome.js';
import { fail, pass } from './check-outcome.js';

/**
 * The verdicts that depend on what the crawler learned about a page's subresources, by name: a definition names the
 * one that decides it (`sitePass`, define-check.ts).
 */
export interface ResourceTargetVerdicts {
  /** Broken images. */
  imageBroken: CheckOutcome;
  /** Broken subresources other than images (scripts, stylesheets...). */
  resourceBroken: CheckOutcome;
  /** Subresources on refused (private) addresses. */
  resourcePrivateAddress: CheckOutcome;
}

export interface ResourceRef {
  url: string;
  kind: ResourceKind;
}

interface Finding {
  url: string;
  kind: ResourceKind;
  status: number | null;
  error?: string;
}

/**
 * Broken images, broken other subresources and subresources on refused addresses of one page, from the statuses
 * the crawler found (`lookup`, keyed by absolute URL). A check applies once one of the resources it looks at is
 * known; resources not checked (over the budget, disallowed by robots.txt) decide nothing. A 429 is not broken.
 */
export function evaluateResourceTargets(
  resources: readonly ResourceRef[],
  lookup: (url: string) => LinkTargetInfo | undefined,
  /** Resources each evidence names; every one is counted. Infinity: all of them. */
  SAMPLE = 5,
): ResourceTargetVerdicts {
  let imagesKnown = 0;
  let othersKnown = 0;
  let anyKnown = 0;
  const brokenImages: Finding[] = [];
  const brokenOthers: Finding[] = [];
  const privateAddress: Finding[] = [];
  // Every failing resource, each one fix (CheckOutcome.causes); the evidence names the first SAMPLE of them.
  const causes = { images: [] as string[], others: [] as string[], privateAddress: [] as string[] };
  let brokenImageCount = 0;
  let brokenOtherCount = 0;
  let privateCount = 0;

  for (const { url, kind } of resources) {
    const info = lookup(url);
    if (!info || info.blockedByRobots) continue;
    if (info.blockedAddress) {
      anyKnown++;
      privateCount++;
      causes.privateAddress.push(url);
      if (privateAddress.length < SAMPLE)
        privateAddress.push({ url, kind, status: null, error: info.failure ?? 'refused address' });
      continue;
    }
    if (info.status === null && info.failure === undefined) continue;
    anyKnown++;
    // A linked icon that fails is a missing favicon (META_FAVICON_MISSING), not a broken resource of every page: a
    // favicon that answers 404 costs no more than no favicon at all.
    if (kind === 'icon') continue;
    const image = kind === 'image';
    if (image) imagesKnown++;
    else othersKnown++;
    if (!isBroken(info)) continue;
    const finding: Finding = { url, kind, status: info.status };
    if (info.failure !== undefined) finding.error = info.failure;
    if (image) {
      brokenImageCount++;
      causes.images.push(url);
      if (brokenImages.length < SAMPLE) brokenImages.push(finding);
    } else {
      brokenOtherCount++;
      causes.others.push(url);
      if (brokenOthers.length < SAMPLE) brokenOthers.push(finding);
    }
  }

  return {
    imageBroken:
      imagesKnown === 0
        ? null
        : brokenImageCount > 0
          ? fail({ count: brokenImageCount, images: brokenImages }, undefined, causes.images)
          : pass(),
    resourceBroken:
      othersKnown === 0
        ? null
        : brokenOtherCount > 0
          ? fail({ count: brokenOtherCount, resources: brokenOthers }, undefined, causes.others)
          : pass(),
    resourcePrivateAddress:
      anyKnown === 0
        ? null
        : privateCount > 0
          ? fail({ count: privateCount, resources: privateAddress }, undefined, causes.privateAddress)
          : pass(),
  };
}

function isBroken(info: LinkTargetInfo): boolean {
  if (info.status === null) return info.failure !== undefined;
  return info.status >= 400 && info.status !== 429;
}
