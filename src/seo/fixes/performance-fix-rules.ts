import { CHECK_THRESHOLDS as T, type BandedMetric } from '../checks/check-thresholds.js';
import { formatBytes, formatCount, formatMs, pageName, type FixRuleContext } from './fix-rule-context.js';
import { shorten } from './markup-text.js';
import { pathOnly } from './server-config-snippets.js';

const METRIC_FIELDS: Record<BandedMetric, { field: string; label: string; format: (value: number) => string }> = {
  lcp: { field: 'lcpMs', label: 'Largest Contentful Paint', format: formatMs },
  cls: { field: 'cls', label: 'Cumulative Layout Shift', format: (value) => value.toFixed(2) },
  inp: { field: 'inpMs', label: 'Interaction to Next Paint', format: formatMs },
  tbt: { field: 'tbtMs', label: 'Total Blocking Time', format: formatMs },
  fcp: { field: 'fcpMs', label: 'First Contentful Paint', format: formatMs },
  ttfb: { field: 'ttfbMs', label: 'Time to First Byte', format: formatMs },
  domSize: { field: 'elements', label: 'DOM size', format: (value) => `${formatCount(value)} elements` },
  pageWeight: { field: 'bytes', label: 'Page weight', format: formatBytes },
};

/** "LCP is 3.4 s (good: at most 2.5 s; poor: over 4.0 s)" from the evidence, or the thresholds alone. */
export function metricSentence(
  ctx: FixRuleContext,
  metric: BandedMetric,
): { sentence: string; value: number | null; short: string } {
  const { field, label, format } = METRIC_FIELDS[metric];
  const band = T.metrics[metric];
  const value = ctx.evidence.number(field);
  const bands = `good: at most ${format(band.good)}; poor: over ${format(band.poor)}`;
  const sentence =
    value !== null
      ? `${label} on ${pageName(ctx)} is ${format(value)} (${bands}).`
      : `${label} on ${pageName(ctx)} is above ${format(band.good)} (${bands}).`;
  return { sentence, value, short: value !== null ? format(value) : `over ${format(band.good)}` };
}

/** The most likely LCP image: og:image when the page shows it, else the first content image. */
export function heroImage(ctx: FixRuleContext): string | null {
  const images = ctx.page?.images ?? [];
  const first = images.find(
    (image) => image.url !== null && !/\.svg(\?|$)/i.test(image.url) && !/logo|icon|sprite/i.test(image.src),
  );
  return first?.src ?? null;
}

/** Origins other than the page's that the page loads images from: candidates for preconnect. */
export function thirdPartyOrigins(ctx: FixRuleContext): string[] {
  const origins = new Set<string>();
  for (const image of ctx.page?.images ?? []) {
    if (!image.url) continue;
    try {
      const origin = new URL(image.url).origin;
      if (origin !== ctx.origin) origins.add(origin);
    } catch {
      // unresolvable image URL: nothing to preconnect to
    }
  }
  return [...origins].slice(0, 3);
}

export function extensionOf(url: string): string | null {
  const match = /\.([a-z0-9]{2,5})$/i.exec(pathOnly(url));
  return match ? match[1].toLowerCase() : null;
}

/** identify's -format treats % as a directive: a URL inside the label must escape it. */
export function escapeShellFormat(ref: string): string {
  return shorten(pathOnly(ref).split('/').pop() || ref, 60)
    .replace(/%/g, '%%')
    .replace(/'/g, '');
}
