import { fieldOf, numberOf } from '../../fixes/fix-evidence.js';
import { formatBytes, pageName, plural } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { firstHeader } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import { bytesCell, numberAt, numberCell, recordsAt, stringAt, textCell, urlCell } from '../evidence-presenters.js';
import { LEGACY_IMAGE_TYPES, likelyLcpImage, SAMPLE } from '../hygiene-checks.js';

export const LOADING_CHECKS = [
  defineCheck({
    code: 'PERF_IMAGE_LEGACY_FORMAT',
    title: 'Image in a legacy format',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'An image over 100 KiB is served as JPEG, PNG, GIF or BMP, where WebP or AVIF would be smaller.',
    scoreReason: {
      lighthouse: 'modern-image-formats (perf)',
    },
    why:
      'WebP and AVIF images are typically 25 to 50% smaller than JPEG or PNG at the same quality, so large images ' +
      'in older formats make pages load and paint more slowly.',
    howToFix:
      'Serve WebP or AVIF versions of large images, with a picture element and a JPEG/PNG fallback if you must ' +
      'support old browsers; most CDNs and image plugins can convert automatically.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      present: (e, view) =>
        view.table(
          'Large images in JPEG, PNG, GIF or BMP',
          ['Image', 'Size', 'Type'],
          recordsAt(e, 'images').map((image) => [
            urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
            bytesCell(numberAt(image, 'bytes')) ?? { text: 'Unknown' },
            textCell(stringAt(image, 'type') ?? ''),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ page }) => {
      const typed = (page.resources ?? []).flatMap((resource) => {
        if (resource.kind !== 'image' || resource.bytes === undefined || !resource.headers) return [];
        if (resource.status !== undefined && (resource.status < 200 || resource.status >= 300)) return [];
        const type = firstHeader(resource.headers, 'content-type')?.split(';')[0].trim().toLowerCase();
        return type ? [{ url: resource.url, bytes: resource.bytes, type }] : [];
      });
      if (typed.length === 0) return null;
      const legacy = typed.filter((image) => image.bytes > T.legacyImageMinBytes && LEGACY_IMAGE_TYPES.has(image.type));
      return legacy.length > 0 ? fail({ count: legacy.length, images: legacy.slice(0, SAMPLE) }) : pass();
    },
    fix: (ctx) => {
      const images = ctx.evidence.records('images', 5);
      const count = ctx.evidence.number('count') ?? images.length;
      const first = fieldOf(images[0] ?? {}, 'url');
      const webp = first ? first.replace(/\.(jpe?g|png|gif|bmp)(\?.*)?$/i, '.webp') : '/images/picture.webp';
      return {
        summary: `Serve ${plural(count, 'large image')} on ${pageName(ctx)} as WebP or AVIF`,
        steps: [
          ...images.map((image) => {
            const bytes = numberOf(image, 'bytes');
            return (
              `${shorten(fieldOf(image, 'url') ?? '', 120)} is ${fieldOf(image, 'type') ?? 'a legacy format'}` +
              (bytes !== null ? ` (${formatBytes(bytes)})` : '') +
              '.'
            );
          }),
          "Convert them to WebP or AVIF (cwebp, avifenc, or the CDN's automatic conversion) and serve them with a " +
            '<picture> fallback if old browsers matter.',
        ],
        code:
          `<picture>\n  <source srcset="${escapeHtml(webp)}" type="image/webp">\n` +
          `  <img src="${escapeHtml(first ?? '/images/picture.jpg')}" alt="…" width="…" height="…">\n</picture>`,
      };
    },
  }),
  defineCheck({
    code: 'PERF_LCP_IMAGE_LAZY',
    title: 'Likely LCP image lazy-loaded',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'The first large image near the top of the page (the likely LCP element) has loading="lazy".',
    scoreReason: {
      lighthouse: 'lcp-lazy-loaded (perf)',
    },
    why:
      'The first large image at the top of a page is usually its Largest Contentful Paint; loading="lazy" makes ' +
      'the browser wait for layout before fetching it, which delays LCP.',
    howToFix:
      'Remove loading="lazy" from the hero image (or set loading="eager"), and consider fetchpriority="high" on ' +
      'it; keep lazy loading for images further down the page.',
    evidence: {
      kind: 'IMAGES',
      // `loading` is always "lazy": the check's own definition.
      keys: ['src', 'width', 'loading'],
      present: (e, view) => {
        const src = stringAt(e, 'src');
        if (src !== null) view.fact('Likely LCP image', urlCell(src, view.pageUrl));
        const width = stringAt(e, 'width');
        if (width !== null) view.fact('Declared width', { text: width });
      },
    },
    evaluate: ({ html }) => {
      const candidate = html ? likelyLcpImage(html) : undefined;
      if (!candidate) return null;
      return candidate.loading === 'lazy'
        ? fail({ src: candidate.url ?? candidate.src, width: candidate.width, loading: candidate.loading })
        : pass();
    },
    fix: (ctx) => {
      const src = ctx.evidence.string('src') ?? '/images/hero.jpg';
      return {
        summary: `Load the main image of ${pageName(ctx)} eagerly`,
        steps: [
          `${shorten(src, 140)} is the first large image near the top of the page and has loading="lazy".`,
          'Remove loading="lazy" from it (lazy loading delays the Largest Contentful Paint) and give it ' +
            'fetchpriority="high"; keep lazy loading for images further down.',
        ],
        code: `<img src="${escapeHtml(src)}" fetchpriority="high" alt="…" width="…" height="…">`,
      };
    },
  }),
  defineCheck({
    code: 'PERF_IMAGES_NOT_LAZY',
    title: 'Images not lazy-loaded',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'The page has over 10 images and none after the first 3 is lazy-loaded.',
    scoreReason: {
      lighthouse: 'offscreen-images (perf)',
    },
    why:
      'On a page with many images, loading every one at once competes with what is visible first and wastes data ' +
      'on images the visitor may never scroll to.',
    howToFix:
      'Add loading="lazy" to images below the first screen (keep the first few eager), with width and height set ' +
      'so the layout does not shift as they load.',
    evidence: {
      kind: 'IMAGES',
      keys: ['images', 'eager'],
      present: (e, view) => {
        view.fact('Images on the page', numberCell(numberAt(e, 'images')));
        view.fact('Loaded eagerly after the first three', numberCell(numberAt(e, 'eager')));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.imageCount <= T.lazyImagesMinCount) return null;
      const later = html.images.slice(T.eagerImages);
      if (later.length === 0) return null;
      return later.some((image) => image.loading === 'lazy' || image.scriptLazy)
        ? pass()
        : fail({ images: html.imageCount, eager: later.length });
    },
    fix: (ctx) => {
      const images = ctx.evidence.number('images');
      return {
        summary: `Lazy-load the images below the first screen of ${pageName(ctx)}`,
        steps: [
          `The page has ${images ?? 'many'} images and loads all of them at once.`,
          `Keep the first ${T.eagerImages} images eager and add loading="lazy" to the others, with width and height ` +
            'set on each.',
        ],
        code: '<img src="/images/gallery-4.webp" loading="lazy" alt="…" width="400" height="300">',
      };
    },
  }),
] as const;
