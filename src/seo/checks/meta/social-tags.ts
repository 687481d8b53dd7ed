import { fieldOf } from '../../fixes/fix-evidence.js';
import { absoluteUrl, inlineList } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pageTitle } from '../../fixes/structured-international-fix-rules.js';
import { normalizeUrl, resolveUrl } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listCell, recordsAt, stringAt, stringsAt, textCell, urlCell, writtenCell } from '../evidence-presenters.js';
import { effectiveCanonical } from '../page-indexability.js';
import { OG_IMAGE_PROPERTIES, OPEN_GRAPH_REQUIRED, TWITTER_CARD_TYPES } from '../structured-international-checks.js';

export const SOCIAL_TAG_CHECKS = [
  defineCheck({
    code: 'META_OG_INCOMPLETE',
    title: 'Incomplete Open Graph tags',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description:
      'The page sets Open Graph tags but not all four the protocol requires: og:title, og:type, og:image, og:url.',
    requires: 'META_OPEN_GRAPH_MISSING',
    scoreReason: {
      ahrefs: 'warning',
      ours: 'Social previews only: hygiene.',
    },
    why:
      'The Open Graph protocol requires og:title, og:type, og:image and og:url; when some are missing, ' +
      'social networks and chat apps guess them, and shares of the page may show no image or the wrong ' +
      'address.',
    howToFix:
      'Add the missing tags to the head: og:title (the page title), og:type (website or article), og:image ' +
      '(an absolute URL of an image about 1200 x 630 px) and og:url (the canonical URL of the page).',
    evidence: {
      kind: 'VALUES',
      keys: ['missing'],
      present: (e, view) => view.fact('Missing', listCell(stringsAt(e, 'missing'))),
    },
    evaluate: ({ html }) => {
      if (!html || !Object.keys(html.openGraph).some((key) => key.startsWith('og:'))) return null;
      const has = (key: string) => (html.openGraph[key] ?? '').trim() !== '';
      const missing = OPEN_GRAPH_REQUIRED.filter((key) =>
        key === 'og:image' ? !OG_IMAGE_PROPERTIES.some(has) : !has(key),
      );
      return missing.length > 0 ? fail({ missing }) : pass();
    },
    fix: (ctx) => {
      const missing = ctx.evidence.strings('missing', 4);
      const values: Record<string, string> = {
        'og:title': ctx.page?.title ?? pageTitle(ctx),
        'og:type': /\/(blog|news|articles?)\//.test(ctx.path) ? 'article' : 'website',
        'og:image': ctx.page?.ogImage ?? ctx.page?.images.find((image) => image.url !== null)?.url ?? `${ctx.origin}/…`,
        'og:url': ctx.page?.canonical ?? ctx.url,
      };
      return {
        summary: `Add ${inlineList(missing.length > 0 ? missing : ['the required Open Graph tags'])}`,
        steps: [
          'Open Graph requires og:title, og:type, og:image and og:url; without them link previews are guessed.',
          'Add the tags below to <head> (og:url is the canonical URL; og:image an absolute URL of an image about ' +
            '1200 x 630 px).',
        ],
        code: (missing.length > 0 ? missing : Object.keys(values))
          .map((key) => `<meta property="${escapeHtml(key)}" content="${escapeHtml(values[key] ?? '…')}">`)
          .join('\n'),
      };
    },
  }),
  defineCheck({
    code: 'META_OG_IMAGE_RELATIVE',
    title: 'Relative og:image URL',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'og:image (or og:image:url / og:image:secure_url) is not an absolute http(s) URL.',
    requires: 'META_OPEN_GRAPH_MISSING',
    scoreReason: {
      ours: 'The preview image is missing where it is shared: shown worse.',
    },
    why:
      'Facebook, LinkedIn and other apps fetch og:image as written: a relative path such as /img/cover.jpg ' +
      'cannot be fetched, so shares of the page show no image.',
    howToFix:
      'Write og:image as an absolute URL with the scheme and host, such as ' +
      'https://example.com/img/cover.jpg; fix it in the template or SEO plugin that prints the tag.',
    evidence: {
      kind: 'VALUES',
      keys: ['images'],
      present: (e, view) =>
        view.table(
          'Relative Open Graph image URLs',
          ['Property', 'As written', 'Resolves to'],
          recordsAt(e, 'images').map((image) => {
            const value = stringAt(image, 'value') ?? '';
            return [
              textCell(stringAt(image, 'property') ?? 'og:image'),
              writtenCell(value),
              urlCell(value, view.pageUrl),
            ];
          }),
        ),
    },
    evaluate: ({ html }) => {
      const images = OG_IMAGE_PROPERTIES.flatMap((property) => {
        const value = html?.openGraph[property]?.trim();
        return value ? [{ property, value }] : [];
      });
      if (images.length === 0) return null;
      const relative = images.filter((image) => !/^https?:\/\/[^/\s]/i.test(image.value));
      return relative.length > 0 ? fail({ images: relative }) : pass();
    },
    fix: (ctx) => {
      const images = ctx.evidence.records('images', 3);
      const fixed = images.map((image) => ({
        property: fieldOf(image, 'property') ?? 'og:image',
        value: fieldOf(image, 'value') ?? '',
        absolute: absoluteUrl(fieldOf(image, 'value') ?? '', ctx.url),
      }));
      return {
        summary: 'Write og:image as an absolute URL',
        steps: [
          ...fixed.map(
            (image) => `Change ${image.property} "${shorten(image.value, 100)}" to "${image.absolute ?? '…'}".`,
          ),
          'Social networks fetch og:image as written: give it the scheme and host (https://…), from the template or ' +
            'SEO plugin that prints the tag.',
        ],
        code:
          fixed
            .filter((image) => image.absolute !== null)
            .map((image) => `<meta property="${escapeHtml(image.property)}" content="${escapeHtml(image.absolute!)}">`)
            .join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'META_OG_URL_MISMATCH',
    title: 'og:url differs from canonical',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'og:url names another URL than the page canonical.',
    requires: 'META_OPEN_GRAPH_MISSING',
    scoreReason: {
      ahrefs: 'warning',
      ours: 'Social previews only: hygiene.',
    },
    why:
      "Social networks treat og:url as the page's canonical address and gather likes and shares under it; " +
      "when it differs from the canonical URL, the page's shares are split between two addresses or " +
      'credited to another page.',
    howToFix:
      "Set og:url to exactly the URL in the page's rel=canonical link (same scheme, host, path and trailing " +
      'slash); generating both from the same value keeps them equal.',
    evidence: {
      kind: 'VALUES',
      keys: ['ogUrl', 'canonical'],
      present: (e, view) => {
        const ogUrl = stringAt(e, 'ogUrl');
        const canonical = stringAt(e, 'canonical');
        if (ogUrl) view.fact('og:url', urlCell(ogUrl, view.pageUrl));
        if (canonical) view.fact('Canonical', urlCell(canonical, view.pageUrl));
      },
    },
    evaluate: ({ html }) => {
      const written = html?.openGraph['og:url']?.trim();
      const canonical = html ? effectiveCanonical(html) : null;
      if (!html || !written || canonical === null) return null;
      const ogUrl = resolveUrl(written, html.baseUrl);
      const resolved = ogUrl ? normalizeUrl(ogUrl.href) : null;
      if (resolved === null) return fail({ ogUrl: written, canonical });
      return resolved === normalizeUrl(canonical) ? pass() : fail({ ogUrl: written, canonical });
    },
    fix: (ctx) => {
      const canonical = ctx.evidence.string('canonical') ?? ctx.page?.canonical ?? ctx.url;
      return {
        summary: 'Set og:url to the canonical URL',
        steps: [
          `og:url is "${shorten(ctx.evidence.string('ogUrl') ?? '', 120)}" but the canonical URL is ` +
            `"${shorten(canonical, 120)}".`,
          'Use the canonical URL in og:url, generated from the same value as the canonical link.',
        ],
        code: `<meta property="og:url" content="${escapeHtml(canonical)}">`,
      };
    },
  }),
  defineCheck({
    code: 'META_TWITTER_CARD_INVALID',
    title: 'Invalid Twitter card type',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'twitter:card is not one of summary, summary_large_image, app or player.',
    requires: 'META_TWITTER_CARD_MISSING',
    scoreReason: {
      ours: 'The card is not shown: shown worse.',
    },
    why:
      'X (Twitter) only knows the card types summary, summary_large_image, app and player; any other value, ' +
      'including the retired photo, gallery and product cards, makes it show a plain link.',
    howToFix:
      'Set twitter:card to summary_large_image for pages with a large image, or summary otherwise; use app ' +
      'or player only for app installs and embedded media.',
    evidence: {
      kind: 'VALUES',
      keys: ['card'],
      present: (e, view) => view.fact('twitter:card', textCell(stringAt(e, 'card'))),
    },
    evaluate: ({ html }) => {
      const card = html?.twitter['twitter:card']?.trim();
      if (!card) return null;
      return (TWITTER_CARD_TYPES as readonly string[]).includes(card.toLowerCase()) ? pass() : fail({ card });
    },
    fix: (ctx) => {
      const card = ctx.evidence.string('card') ?? '';
      const large = /large|photo|gallery|image/i.test(card) || !!ctx.page?.ogImage;
      const fixed = large ? 'summary_large_image' : 'summary';
      return {
        summary: `Replace twitter:card "${shorten(card, 40)}" with "${fixed}"`,
        steps: [
          `"${shorten(card, 60)}" is not a card type X knows (summary, summary_large_image, app, player).`,
          `Use "${fixed}"${large ? ' (the page has a large image to feature)' : ''}.`,
        ],
        code: `<meta name="twitter:card" content="${fixed}">`,
      };
    },
  }),
] as const;
