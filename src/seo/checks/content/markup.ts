import { linkTextFor } from '../../fixes/content-fix-rules.js';
import { fieldOf } from '../../fixes/fix-evidence.js';
import { formatBytes, inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { withoutFragment } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  anchorCell,
  bytesCell,
  formatNumber,
  listCell,
  numberAt,
  recordsAt,
  stringAt,
  stringsAt,
  urlCell,
} from '../evidence-presenters.js';
import { genericLinkTexts, isGenericLinkText } from '../generic-link-text.js';
import { SAMPLE } from '../page-check-helpers.js';

export const MARKUP_CHECKS = [
  defineCheck({
    code: 'CONTENT_LINK_TEXT_GENERIC',
    title: 'Generic link text',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'A link says "click here", "read more" or similar instead of describing its target.',
    scoreReason: {
      lighthouse: 'link-text: fail (SEO)',
      ours: 'Lighthouse fails the page; anchor text helps the target rank a little: hygiene.',
    },
    why:
      'Search engines use link text to understand the linked page, and screen reader users often browse a list ' +
      'of links; "click here" or "read more" tells neither what is behind the link.',
    howToFix:
      'Rewrite the visible link text to describe the target, for example "oak table care guide" instead of "read ' +
      'more"; in repeated cards, include the item name in the link text.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) =>
        view.table(
          'Links with generic text',
          ['Source page', 'Target', 'Anchor text'],
          recordsAt(e, 'links').map((link) => [
            view.page(),
            urlCell(stringAt(link, 'href') ?? '', view.pageUrl),
            anchorCell(stringAt(link, 'text')),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html, finalUrl }) => {
      const links = html?.links.filter((link) => link.kind === 'http');
      if (!links || links.length === 0) return null;
      const texts = genericLinkTexts(html!.lang);
      const self = finalUrl ? withoutFragment(finalUrl) : null;
      const generic = links.filter((link) => isGenericLinkText(link, texts, self));
      return generic.length > 0
        ? fail({
            count: generic.length,
            links: generic.slice(0, SAMPLE).map((link) => ({ href: link.href, text: link.label ?? link.text })),
          })
        : pass();
    },
    fix: (ctx) => {
      const links = ctx.evidence
        .records('links', 5)
        .map((entry) => ({ href: fieldOf(entry, 'href') ?? '', text: fieldOf(entry, 'text') ?? '' }));
      const rows = links.map((link) => ({ ...link, better: linkTextFor(link.href, ctx) }));
      return {
        summary: `Replace generic link text ${inlineList(
          rows.map((row) => row.text).filter(Boolean),
          ctx.evidence.number('count') ?? rows.length,
        )} with descriptive words`,
        steps: [
          ...rows.map(
            (row) =>
              `The link "${shorten(row.text, 40)}" to ${shorten(row.href, 120)}: say where it goes, e.g. ` +
              `"${row.better}".`,
          ),
          'Anchor text tells search engines and screen-reader users what the target is about; when the design ' +
            'needs the short text, keep it and add an aria-label with the full description.',
        ],
        code:
          rows.map((row) => `<a href="${escapeHtml(row.href)}">${escapeHtml(row.better)}</a>`).join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_DUPLICATE_ID',
    title: 'Duplicate element id',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'Several elements share the same id attribute.',
    scoreReason: {
      lighthouse: 'duplicate-id (a11y, older)',
    },
    why:
      'Duplicate ids are invalid HTML: in-page anchors, form labels, ARIA references and scripts may target the ' +
      'wrong element, which can break navigation and accessibility.',
    howToFix:
      'Give each element a unique id, for example by adding the item number in repeated components, or use a ' +
      'class when the value only serves styling; then update the links, labels and scripts that use the old ids.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'sample'],
      present: (e, view) => {
        const ids = stringsAt(e, 'sample');
        view.fact('Ids used more than once', listCell(ids));
        // `count` counts every element that reused an id: news only beyond one per id listed.
        const count = numberAt(e, 'count');
        if (count !== null && count > ids.length) view.fact('Elements reusing an id', { text: formatNumber(count) });
      },
    },
    evaluate: ({ html }) => (html ? (html.duplicateIds.count > 0 ? fail({ ...html.duplicateIds }) : pass()) : null),
    fix: (ctx) => {
      const sample = ctx.evidence.strings('sample', 5);
      const count = ctx.evidence.number('count') ?? sample.length;
      return {
        summary:
          `Make ${plural(count, 'duplicated id')} ` +
          `unique${sample.length > 0 ? ` (${inlineList(sample, count)})` : ''}`,
        steps: [
          `${sample.length > 0 ? `The ids ${inlineList(sample, count)} are` : 'Some ids are'} used by more ` +
            `than one element; labels, anchors (#id links) and aria references then point at the ` +
            `first one only.`,
          'Give each repeated element its own id (for example a suffix per occurrence), or use a class when ' +
            'the id only serves styling.',
          'Update everything that references the renamed ids: <label for>, aria-labelledby/aria-describedby, ' +
            'href="#…" links, CSS and scripts.',
        ],
        code:
          sample.length > 0
            ? sample
                .map((id) => `<!-- second element that has id="${escapeHtml(id)}" -->\nid="${escapeHtml(id)}-2"`)
                .join('\n')
            : undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_LOW_TEXT_RATIO',
    title: 'Low text-to-HTML ratio',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'Visible text is under 10% of the HTML bytes.',
    scoreReason: {
      semrush: 'warning',
      ours: 'A weak proxy of quality: hygiene.',
    },
    why:
      'When visible text is under 10% of the HTML, the page is usually heavy with markup, inline scripts or ' +
      'styles, which slows download and parsing; the ratio is a hint, not a ranking factor.',
    howToFix:
      'Move inline scripts, styles and SVGs into cacheable external files, remove unused markup and large ' +
      'embedded data such as JSON state, and make sure the main content is in the HTML rather than loaded later.',
    evidence: {
      kind: 'VALUES',
      keys: ['ratio', 'textBytes', 'htmlBytes'],
      present: (e, view) => {
        const ratio = numberAt(e, 'ratio');
        if (ratio !== null) view.fact('Text-to-HTML ratio', { text: `${formatNumber(ratio * 100)}%` });
        const text = numberAt(e, 'textBytes');
        view.fact('Visible text', text === 0 ? { text: 'None' } : bytesCell(text));
        view.fact('HTML size', bytesCell(numberAt(e, 'htmlBytes')));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.htmlBytes === 0) return null;
      const ratio = html.textBytes / html.htmlBytes;
      return ratio < T.minTextRatio
        ? fail({ ratio: Math.round(ratio * 1000) / 1000, textBytes: html.textBytes, htmlBytes: html.htmlBytes })
        : pass();
    },
    fix: (ctx) => {
      const ratio = ctx.evidence.number('ratio');
      const textBytes = ctx.evidence.number('textBytes');
      const htmlBytes = ctx.evidence.number('htmlBytes');
      const target = textBytes !== null ? textBytes / T.minTextRatio : null;
      return {
        summary:
          `Raise the visible-text share of ${pageName(ctx)} ` +
          `above ${T.minTextRatio * 100}%${ratio !== null ? ` (now ${(ratio * 100).toFixed(1)}%)` : ''}`,
        steps: [
          textBytes !== null && htmlBytes !== null
            ? `Only ${formatBytes(textBytes)} of the ${formatBytes(htmlBytes)} HTML is visible text.`
            : 'Most of the HTML is markup, scripts and styles rather than readable text.',
          target !== null && htmlBytes !== null && target < htmlBytes
            ? `Shrink the markup to about ${formatBytes(target)}: move inline <script> and <style> blocks ` +
              `into cached external files, drop inline SVG sprites and base64 images, and trim serialized ` +
              `state (large JSON in the page).`
            : 'Move inline <script> and <style> blocks into external files, drop inline SVG sprites and base64 ' +
              'images, and trim serialized JSON state.',
          'Where the page is genuinely thin, add useful text as well; the ratio itself is a hint, the missing ' +
            'text is what hurts.',
        ],
      };
    },
  }),
] as const;
