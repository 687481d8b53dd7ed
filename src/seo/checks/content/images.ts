import { findImage, topicOf } from '../../fixes/content-fix-rules.js';
import { fieldOf, numberOf } from '../../fixes/fix-evidence.js';
import { pageName, plural } from '../../fixes/fix-rule-context.js';
import { altFromFileName } from '../../fixes/image-alt-proposal.js';
import { cutAtWord, escapeHtml, shorten } from '../../fixes/markup-text.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  charactersText,
  findingStatus,
  numberAt,
  recordsAt,
  stringAt,
  stringsAt,
  urlCell,
} from '../evidence-presenters.js';
import { codePointLength, imageRef, SAMPLE } from '../page-check-helpers.js';

export const IMAGE_CHECKS = [
  defineCheck({
    code: 'CONTENT_IMAGE_ALT_MISSING',
    title: 'Image without alt text',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'An <img> has no alt attribute (alt="" is valid for decorative images).',
    scoreReason: {
      lighthouse: 'image-alt: fail (SEO)',
      semrush: 'warning',
      ahrefs: 'warning',
    },
    why:
      'Alt text is how screen readers describe images and one of the main clues Google uses to understand them ' +
      'for image search; an image without an alt attribute gives neither anything to work with.',
    howToFix:
      'Add an alt attribute to every img: a short description of what the image shows (for a linked image, where ' +
      'the link leads), or alt="" for purely decorative images so screen readers skip them.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      present: (e, view) =>
        view.table(
          'Images without alt text',
          ['Image'],
          stringsAt(e, 'images').map((src) => [urlCell(src, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.images.length === 0) return null;
      const missing = html.images.filter((image) => image.alt === null);
      return missing.length > 0
        ? fail({ count: missing.length, images: missing.slice(0, SAMPLE).map(imageRef) })
        : pass();
    },
    fix: (ctx) => {
      const refs = ctx.evidence.strings('images', 10);
      const fromPage =
        refs.length > 0
          ? []
          : (ctx.page?.images ?? [])
              .filter((image) => image.alt === null)
              .slice(0, 10)
              .map((image) => image.url ?? image.src);
      const images = refs.length > 0 ? refs : fromPage;
      const count = ctx.evidence.number('count') ?? images.length;
      const topic = shorten(topicOf(ctx), 60);
      const rows = images.map((ref) => {
        const image = findImage(ctx, ref);
        const alt = altFromFileName(ref);
        return { ref, src: image?.src ?? ref, alt, suggested: alt ?? `${topic} (describe the picture)` };
      });
      return {
        summary: `Add alt text to ${plural(count || rows.length, 'image')}`,
        steps: [
          ...rows
            .slice(0, 6)
            .map((row) =>
              row.alt
                ? `${shorten(row.ref, 140)}: alt="${row.alt}" (from the file name; check it matches the picture).`
                : `${shorten(row.ref, 140)}: the file name says nothing; describe what the picture shows in ` +
                  `the context of "${topic}".`,
            ),
          'Describe what the image shows in one short phrase (under 100 characters); use alt="" for purely ' +
            'decorative images so screen readers skip them.',
        ],
        code:
          rows.map((row) => `<img src="${escapeHtml(row.src)}" alt="${escapeHtml(row.suggested)}">`).join('\n') ||
          undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_IMAGE_ALT_TOO_LONG',
    title: 'Image alt text too long',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'An image alt text is over 100 characters.',
    scoreReason: {},
    why:
      'Long alt text is tiring for screen reader users, who cannot skim it, and alt attributes stuffed with ' +
      'keywords may cause the site to be seen as spam.',
    howToFix:
      'Shorten the alt text to 100 characters or fewer, describing only what matters about the image in its ' +
      'context; move longer explanations into a caption or the surrounding text.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      present: (e, view) =>
        view.table(
          'Images with long alt text',
          ['Image', 'Alt text length'],
          recordsAt(e, 'images').map((image) => [
            urlCell(stringAt(image, 'src') ?? '', view.pageUrl),
            { text: charactersText(numberAt(image, 'length')) },
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      const withAlt = html?.images.filter((image) => image.alt !== null && image.alt !== '');
      if (!withAlt || withAlt.length === 0) return null;
      const long = withAlt.filter((image) => codePointLength(image.alt!) > T.maxAltChars);
      return long.length > 0
        ? fail({
            count: long.length,
            images: long
              .slice(0, SAMPLE)
              .map((image) => ({ src: imageRef(image), length: codePointLength(image.alt!) })),
          })
        : pass();
    },
    fix: (ctx) => {
      const entries = ctx.evidence.records('images', 5);
      const rows = entries.map((entry) => {
        const src = fieldOf(entry, 'src') ?? '';
        const image = findImage(ctx, src);
        const alt = image?.alt ?? null;
        const firstSentence = alt ? /^(.{10,100}?[.!?])(\s|$)/.exec(alt)?.[1] : undefined;
        return {
          src,
          written: image?.src ?? src,
          length: numberOf(entry, 'length'),
          alt,
          shorter: alt ? (firstSentence ?? cutAtWord(alt, T.maxAltChars)) : null,
        };
      });
      return {
        summary:
          `Shorten the alt text of ${plural(ctx.evidence.number('count') ?? rows.length, 'image')} ` +
          `to ${T.maxAltChars} characters or fewer`,
        steps: [
          ...rows.map((row) =>
            row.shorter
              ? `${shorten(row.src, 120)} (${row.length ?? row.alt?.length} characters): use alt="${row.shorter}".`
              : `${shorten(row.src, 120)} has ${row.length ?? 'over 100'} characters of alt text: keep only ` +
                `what the picture shows.`,
          ),
          'Screen readers read alt text in one go; move long explanations into a visible <figcaption> or the ' +
            'surrounding text.',
        ],
        code:
          rows
            .filter((row) => row.shorter)
            .map((row) => `<img src="${escapeHtml(row.written)}" alt="${escapeHtml(row.shorter!)}">`)
            .join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_IMAGE_BROKEN',
    title: 'Broken image',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    fixUnit: 'target',
    description:
      'An image the page shows (<img> src or srcset, <picture> source, video poster) answers 4xx/5xx or cannot be ' +
      'fetched.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'The page works without the image: broken resource, WARNING by the rule.',
    },
    why:
      'A broken image leaves a gap or an error icon on the page, which looks neglected to visitors, and the ' +
      'image cannot be indexed or appear in image search.',
    howToFix:
      'Restore the missing file or correct the src, srcset, source or poster URL (check case, path and domain); ' +
      'if the image was removed on purpose, remove every reference to it from the page.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      // Each image's `kind` is always "image" here: dropped.
      present: (e, view) =>
        view.table(
          'Broken images',
          ['Image', 'Status'],
          recordsAt(e, 'images').map((image) => [
            urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
            findingStatus(image),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    sitePass: 'imageBroken',
    evaluate: (ctx) => ctx.linkTargets()?.imageBroken ?? null,
    fix: (ctx) => {
      const images = ctx.evidence
        .records('images', 5)
        .map((entry) => ({
          url: fieldOf(entry, 'url') ?? '',
          status: numberOf(entry, 'status'),
          error: fieldOf(entry, 'error'),
        }))
        .filter((image) => image.url);
      const count = ctx.evidence.number('count') ?? images.length;
      return {
        summary: `Replace ${plural(count || images.length, 'broken image')} on ${pageName(ctx)}`,
        steps: [
          ...images.map(
            (image) =>
              `${shorten(image.url, 120)} ${
                image.status !== null
                  ? `answers ${image.status}`
                  : `cannot be fetched (${image.error ?? 'no response'})`
              }: upload the file again or point the <img> (and its srcset) at the image's current address.`,
          ),
          'Visitors see an empty box or the alt text instead of the picture, and image search cannot index it.',
          'If the image is gone for good, remove the element rather than leaving a dead reference.',
        ],
      };
    },
  }),
] as const;
