import { fieldOf } from '../../fixes/fix-evidence.js';
import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { altFromFileName } from '../../fixes/image-alt-proposal.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { duplicateTable, numberAt, recordsAt, stringAt, textCell, urlCell } from '../evidence-presenters.js';
import { SAMPLE, isFileNameAlt } from '../hygiene-checks.js';
import { duplicateFieldCheck } from '../site-check-helpers.js';

export const CONTENT_HYGIENE_CHECKS = [
  defineCheck({
    code: 'CONTENT_IMAGE_ALT_FILENAME',
    title: 'Image alt text is a file name',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'An image alt text is a file name (such as IMG_1234.jpg) or a camera default, not a description.',
    scoreReason: {
      ours: 'As CONTENT_IMAGE_ALT_MISSING.',
    },
    why:
      'An alt text such as "IMG_1234.jpg" says nothing about the picture: image search cannot tell what it shows ' +
      'and screen readers read the file name aloud.',
    howToFix:
      "Replace the file name with a short description of what the image shows in this page's context, for " +
      'example "Oak dining table with six chairs"; use alt="" for purely decorative images.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      present: (e, view) =>
        view.table(
          'Images whose alt text is a file name',
          ['Image', 'Alt text'],
          recordsAt(e, 'images').map((image) => [
            urlCell(stringAt(image, 'src') ?? '', view.pageUrl),
            textCell(stringAt(image, 'alt') ?? ''),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      const withAlt = html?.images.filter((image) => image.alt !== null && image.alt !== '');
      if (!withAlt || withAlt.length === 0) return null;
      const named = withAlt.filter((image) => isFileNameAlt(image.alt!));
      return named.length > 0
        ? fail({
            count: named.length,
            images: named.slice(0, SAMPLE).map((image) => ({ src: image.url ?? image.src, alt: image.alt })),
          })
        : pass();
    },
    fix: (ctx) => {
      const images = ctx.evidence.records('images', 5);
      const count = ctx.evidence.number('count') ?? images.length;
      const tags = images.map((image) => {
        const src = fieldOf(image, 'src') ?? '';
        const alt = altFromFileName(fieldOf(image, 'alt') ?? src) || 'Describe what the picture shows';
        return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
      });
      return {
        summary: `Describe ${plural(count, 'image')} on ${pageName(ctx)} instead of naming the file`,
        steps: [
          ...images.map(
            (image) => `The alt of ${shorten(fieldOf(image, 'src') ?? 'an image', 120)} is "${fieldOf(image, 'alt')}".`,
          ),
          "Write what each picture shows in this page's context (drafts below start from the file name: check them " +
            'against the picture); use alt="" only for decorative images.',
          'If a CMS fills alt text from the file name on upload, turn that off or edit the media library entries.',
        ],
        code: tags.join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_IMAGE_EMPTY_SRC',
    title: 'Image without a source',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'An <img> has no src, srcset, data-src or data-srcset, or only empty ones.',
    scoreReason: {
      ours: 'A broken image: WARNING.',
    },
    why:
      'An img element without a source shows nothing (or a broken-image icon), and an empty src can make some ' +
      'browsers request the page itself again.',
    howToFix:
      'Give the image a src (and srcset where useful) pointing at the real file, or remove the element; a ' +
      'lazy-loading script should keep the URL in data-src or data-srcset until it fills in src.',
    evidence: {
      kind: 'IMAGES',
      keys: ['count', 'images'],
      // The images have no URL to show: their alt text is what tells them apart.
      present: (e, view) =>
        view.table(
          'Images without a source',
          ['Alt text'],
          recordsAt(e, 'images').map((image) => [textCell(stringAt(image, 'alt') ?? '(no alt attribute)')]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.images.length === 0) return null;
      const empty = html.images.filter((image) => image.noSource);
      return empty.length > 0
        ? fail({ count: empty.length, images: empty.slice(0, SAMPLE).map((image) => ({ alt: image.alt })) })
        : pass();
    },
    fix: (ctx) => {
      const count = ctx.evidence.number('count') ?? 1;
      const alts = ctx.evidence
        .records('images', 5)
        .map((image) => fieldOf(image, 'alt'))
        .filter((alt): alt is string => !!alt);
      return {
        summary:
          `Give ${plural(count, 'image')} on ${pageName(ctx)} a source, ` + `or remove ${count === 1 ? 'it' : 'them'}`,
        steps: [
          alts.length > 0
            ? `The images without a source have the alt text ${inlineList(alts, count)}.`
            : `${plural(count, 'img element')} on the page ${count === 1 ? 'has' : 'have'} no src or srcset.`,
          'Point src at the real file; a lazy-loading script must keep the URL in data-src (or data-srcset) until it ' +
            'sets src.',
          'If the template prints an img for an optional picture, print nothing when the picture is missing.',
        ],
        code: '<img src="/images/real-picture.webp" alt="What the picture shows" width="800" height="600">',
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_H1_DUPLICATE',
    title: 'Duplicate H1',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'site',
    description: 'The same h1 text is the first heading of more than one indexable page.',
    requires: 'CONTENT_H1_MISSING',
    scoreReason: {},
    why:
      'The h1 tells readers and search engines what a page is about; the same h1 on several indexable pages makes ' +
      'them look interchangeable and can hint at duplicate or templated content.',
    howToFix:
      'Give each page an h1 that names what is specific to it (the product, the article topic, the city); if the ' +
      'pages really cover the same thing, merge them or point the copies to one canonical URL.',
    evidence: {
      kind: 'DUPLICATES',
      keys: ['h1', 'duplicates', 'sameAs'],
      present: (e, view) => {
        view.fact('H1', textCell(stringAt(e, 'h1')));
        duplicateTable(view, 'Other pages with this h1', e);
      },
    },
    evaluate: ({ pages }) => duplicateFieldCheck('CONTENT_H1_DUPLICATE', pages, 'h1', 'h1'),
    fix: (ctx) => {
      const h1 = ctx.evidence.string('h1') ?? '';
      const others = ctx.evidence.strings('sameAs', 3);
      return {
        summary: `Give ${ctx.path === '/' ? 'the home page' : shorten(ctx.path, 80)} an h1 of its own`,
        steps: [
          `The h1 "${shorten(h1, 100)}" is also the h1 of ` +
            `${others.map((url) => shorten(url, 100)).join(', ') || 'other pages'}.`,
          'Name what is specific to this page in its h1 (the product, the topic, the place), matching its title.',
          'If the pages really have the same content, merge them or point the copies to one canonical URL.',
        ],
        code: ctx.page?.title ? `<h1>${escapeHtml(shorten(ctx.page.title, 80))}</h1>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_PLACEHOLDER_TEXT',
    title: 'Placeholder text',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'The visible text contains "lorem ipsum" placeholder copy.',
    scoreReason: {
      ours: 'Unfinished copy converts worse.',
    },
    why:
      '"Lorem ipsum" is filler copy left over from a template or design mock-up: it tells visitors and search ' +
      'engines nothing and makes the page look unfinished.',
    howToFix:
      'Replace the placeholder passage with the real text the page was meant to have, or remove the block; ' +
      'search the templates and CMS for other lorem ipsum leftovers.',
    evidence: {
      kind: 'VALUES',
      keys: ['text'],
      present: (e, view) => view.fact('Placeholder text', textCell(stringAt(e, 'text'))),
    },
    evaluate: ({ html }) =>
      html ? (html.placeholderText !== null ? fail({ text: html.placeholderText }) : pass()) : null,
    fix: (ctx) => ({
      summary: `Replace the Latin filler text on ${pageName(ctx)} with real copy`,
      steps: [
        'The page shows Latin filler copy left from a template or mock-up (the evidence quotes it).',
        'Write the real text for this block, or remove the block if it is not needed.',
        'Search the theme, templates and CMS content for the filler (command below) to find other leftovers.',
      ],
      code: "grep -rliE 'lorem[[:space:]]+ipsum' templates/ content/",
    }),
  }),
] as const;
