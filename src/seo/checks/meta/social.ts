import { proposeDescription } from '../../fixes/description-proposal.js';
import { collapseWhitespace, escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pageOf } from '../../fixes/meta-fix-rules.js';
import { brandOf, proposeTitle } from '../../fixes/title-proposal.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { NOTHING } from '../evidence-presenters.js';

export const SOCIAL_CHECKS = [
  defineCheck({
    code: 'META_OPEN_GRAPH_MISSING',
    title: 'Missing Open Graph tags',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'None of og:title, og:description or og:image is set.',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'Social networks and messaging apps read Open Graph tags to build link previews; without them they guess a ' +
      'title and image or show a bare link. It has no effect on search rankings.',
    howToFix:
      'Add og:title, og:description, og:image (an absolute URL to an image of about 1200 by 630 pixels) and ' +
      'og:url meta property tags to the head, usually generated from the page title, description and main image.',
    evidence: NOTHING,
    evaluate: ({ html }) => {
      if (!html) return null;
      const og = html.openGraph;
      return og['og:title'] || og['og:description'] || og['og:image'] ? pass() : fail();
    },
    fix: (ctx) => {
      const page = pageOf(ctx);
      const title = page.title ? collapseWhitespace(page.title) : proposeTitle(page, ctx.url).text;
      const description = page.description ?? proposeDescription(page, ctx.url).text;
      const image = page.ogImage ?? page.images.find((img) => img.url !== null)?.url ?? null;
      const lines = [
        `<meta property="og:title" content="${escapeHtml(title)}">`,
        `<meta property="og:description" content="${escapeHtml(description)}">`,
        `<meta property="og:type" content="website">`,
        `<meta property="og:url" content="${escapeHtml(page.canonical ?? ctx.url)}">`,
      ];
      if (image) lines.push(`<meta property="og:image" content="${escapeHtml(image)}">`);
      lines.push(`<meta property="og:site_name" content="${escapeHtml(brandOf(page, ctx.url))}">`);
      return {
        summary: 'Add Open Graph tags so shares show a title, description and image',
        steps: [
          'The page sets none of og:title, og:description or og:image, so social networks and chat apps build ' +
            'the link preview from whatever they find.',
          `Add the tags to <head>; they reuse the page's title and ` +
            `description${image ? ` and the image ${shorten(image, 100)}` : ''}.`,
          image
            ? 'Prefer an image of at least 1200×630 px (1.91:1); use an absolute https URL.'
            : 'Add og:image with an absolute URL to an image of at least 1200×630 px: without it, previews are ' +
              'text-only.',
          'Check the preview with the Facebook Sharing Debugger or LinkedIn Post Inspector after deploying.',
        ],
        code: lines.join('\n'),
      };
    },
  }),
  defineCheck({
    code: 'META_TWITTER_CARD_MISSING',
    title: 'Missing Twitter card',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'No twitter:card meta tag is set.',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'X (formerly Twitter) uses the twitter:card tag to decide how a shared link is displayed; without it a ' +
      'link may show as a small summary or as plain text. It has no effect on search rankings.',
    howToFix:
      'Add meta name="twitter:card" content="summary_large_image" (or "summary" for a small image) to the head; ' +
      'X falls back to the Open Graph title, description and image when the twitter: equivalents are absent.',
    evidence: NOTHING,
    evaluate: ({ html }) => (html ? (html.twitter['twitter:card'] ? pass() : fail()) : null),
    fix: (ctx) => {
      const image = ctx.page?.ogImage ?? ctx.page?.images.find((img) => img.url !== null)?.url ?? null;
      const card = image ? 'summary_large_image' : 'summary';
      return {
        summary: `Add <meta name="twitter:card" content="${card}">`,
        steps: [
          'Without twitter:card, X (Twitter) shows links to this page as a bare URL or a minimal card.',
          image
            ? `Use "summary_large_image": the page has an image (${shorten(image, 100)}) to show; X falls ` +
              `back to og:title, og:description and og:image for the rest.`
            : 'Use "summary" (the page has no image to feature); add og:title and og:description too, which X reuses.',
        ],
        code: `<meta name="twitter:card" content="${card}">`,
      };
    },
  }),
] as const;
