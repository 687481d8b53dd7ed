import { fieldOf, numberOf } from '../../fixes/fix-evidence.js';
import { formatBytes, inlineList, plural } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { escapeShellFormat } from '../../fixes/performance-fix-rules.js';
import { pathOnly, shellQuote } from '../../fixes/server-config-snippets.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  bytesCell,
  dimensionsCell,
  numberAt,
  recordsAt,
  stringAt,
  stringsAt,
  urlCell,
} from '../evidence-presenters.js';
import { SAMPLE, declaredSize, imageRef } from '../page-check-helpers.js';

export const IMAGE_WEIGHT_CHECKS = [
  defineCheck({
    code: 'PERF_IMAGE_TOO_LARGE',
    title: 'Large image',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'An image is over 200 KiB.',
    scoreReason: {
      lighthouse: 'uses-optimized-images (perf)',
      ahrefs: 'warning',
    },
    why:
      'Large image files slow page loading, often including the Largest Contentful Paint, and use up mobile ' +
      'data; most images can be made much smaller without visible loss.',
    howToFix:
      'Resize each image to the largest size it is displayed at, serve smaller sizes with srcset, and convert to ' +
      'WebP or AVIF at a moderate quality (around 75 to 85), aiming for under 200 KiB per image.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      present: (e, view) =>
        view.table(
          'Large images',
          ['Image', 'Size', 'Dimensions'],
          recordsAt(e, 'images').map((image) => [
            urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
            bytesCell(numberAt(image, 'bytes')) ?? { text: 'Unknown' },
            dimensionsCell(image),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ page, html }) => {
      const sized = (page.resources ?? []).filter(
        (resource) => resource.kind === 'image' && resource.bytes !== undefined,
      );
      if (sized.length === 0) return null;
      const large = sized.filter((resource) => resource.bytes! > T.maxImageBytes);
      const declared = (url: string) => {
        const image = html?.images.find((i) => i.url === url);
        return image ? declaredSize(image) : {};
      };
      return large.length > 0
        ? fail({
            count: large.length,
            images: large.slice(0, SAMPLE).map((r) => ({ url: r.url, bytes: r.bytes, ...declared(r.url) })),
          })
        : pass();
    },
    fix: (ctx) => {
      const images = ctx.evidence
        .records('images', 5)
        .map((entry) => ({ url: fieldOf(entry, 'url') ?? '', bytes: numberOf(entry, 'bytes') }))
        .filter((image) => image.url);
      const count = ctx.evidence.number('count') ?? images.length;
      const first = images[0]?.url;
      const file = first ? pathOnly(first).split('/').pop() || 'image' : 'image';
      const base = file.replace(/\.[a-z0-9]+$/i, '') || 'image';
      return {
        summary: `Compress ${plural(count || images.length, 'image')} over ${formatBytes(T.maxImageBytes)}`,
        steps: [
          ...images.map(
            (image) =>
              `${shorten(image.url, 140)} is ${image.bytes !== null ? formatBytes(image.bytes) : 'over 200 KiB'}.`,
          ),
          'Resize each image to the largest size it is displayed at (2x for high-density screens) and ' +
            're-encode it as AVIF or WebP (quality 60–80); the commands below do it with libwebp and libavif.',
          'Serve responsive sizes with srcset/sizes, or let an image CDN do the conversion automatically.',
        ],
        code: first
          ? `curl -sS -o ${shellQuote(file)} ${shellQuote(first)}\ncwebp -q 75 -resize 1600 ` +
            `0 ${shellQuote(file)} -o ${shellQuote(`${base}.webp`)}\navifenc --min 20 --max ` +
            `40 ${shellQuote(file)} ${shellQuote(`${base}.avif`)}`
          : undefined,
      };
    },
  }),
  defineCheck({
    code: 'PERF_IMAGE_NO_DIMENSIONS',
    title: 'Image without dimensions',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'An <img> lacks width and height attributes, which causes layout shifts.',
    scoreReason: {
      lighthouse: 'unsized-images (perf)',
    },
    why:
      'Without width and height, the browser cannot reserve space for an image before it loads, so the content ' +
      'below it jumps, which raises Cumulative Layout Shift.',
    howToFix:
      'Add width and height attributes with the natural pixel size of the image (for example width="1200" ' +
      'height="800") to every img, and let CSS keep it responsive with max-width: 100% and height: auto.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images', 'declared'],
      present: (e, view) => {
        // `declared` (what each image does declare) came later: older evidence lists the images only.
        const declared = recordsAt(e, 'declared');
        view.table(
          'Images without width and height',
          declared.length ? ['Image', 'Dimensions'] : ['Image'],
          declared.length
            ? declared.map((image) => [urlCell(stringAt(image, 'url') ?? '', view.pageUrl), dimensionsCell(image)])
            : stringsAt(e, 'images').map((src) => [urlCell(src, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        );
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.images.length === 0) return null;
      const unsized = html.images.filter((image) => !image.hasWidth || !image.hasHeight);
      return unsized.length > 0
        ? fail({
            count: unsized.length,
            images: unsized.slice(0, SAMPLE).map(imageRef),
            // What each of them declares (one of the two, or neither), in the same order.
            declared: unsized.slice(0, SAMPLE).map((image) => ({ url: imageRef(image), ...declaredSize(image) })),
          })
        : pass();
    },
    fix: (ctx) => {
      const images = ctx.evidence.strings('images', 5);
      const refs =
        images.length > 0 ? images : (ctx.page?.images ?? []).slice(0, 5).map((image) => image.url ?? image.src);
      const count = ctx.evidence.number('count') ?? refs.length;
      return {
        summary: `Add width and height to ${plural(count || refs.length, 'image')}`,
        steps: [
          `${
            refs.length > 0
              ? `These images lack width/height: ${inlineList(refs, count)}.`
              : 'Some images lack width and height attributes.'
          } Without them the browser cannot reserve space and the layout jumps when they load (CLS).`,
          "Set width and height to the image's intrinsic pixel size (the command below prints it); CSS can " +
            'still scale it with max-width: 100%; height: auto.',
        ],
        code:
          refs
            .map(
              (ref) =>
                `curl -sS ${shellQuote(ref)} | identify -format '${escapeShellFormat(ref)} width=%w height=%h\\n' -`,
            )
            .join('\n') || undefined,
      };
    },
  }),
] as const;
