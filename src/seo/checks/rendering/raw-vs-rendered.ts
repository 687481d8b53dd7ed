import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { escapeHtml } from '../../fixes/markup-text.js';
import { SSR_HINT, quoted, sideVerdicts } from '../../fixes/rendering-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  linkTable,
  listCell,
  numberAt,
  numberCell,
  rawAndRendered,
  robotsChange,
  stringAt,
  stringsAt,
  textCell,
  urlCell,
  wordsCell,
} from '../evidence-presenters.js';
import { effectiveCanonical } from '../page-indexability.js';
import {
  DIGEST_H1,
  SAMPLE,
  comparableUrl,
  compared,
  firstNonEmpty,
  h1Of,
  internalLinkTargets,
  robotsValues,
  sameList,
} from '../rendering-checks.js';

export const RAW_VS_RENDERED_CHECKS = [
  defineCheck({
    code: 'RENDER_TITLE_CHANGED',
    title: 'Title changed by JavaScript',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The raw HTML and the rendered page both have a title, and they differ.',
    scoreReason: {},
    why:
      'Crawlers that do not run JavaScript, link previews and the first indexing pass read the raw title, while ' +
      'rendering search engines read the new one: the page sends two different headlines.',
    howToFix:
      'Put the final title in the server-rendered HTML and stop the script (router, head manager or SEO plugin) ' +
      'from replacing it, or make both produce the same title.',
    evidence: {
      kind: 'VALUES',
      keys: ['raw', 'rendered'],
      present: (e, view) =>
        rawAndRendered(view, 'Title', textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered'))),
    },
    evaluate: compared(({ raw, rendered }) => {
      const before = firstNonEmpty(raw.titles);
      const after = firstNonEmpty(rendered.titles);
      if (before === null || after === null) return null;
      return before === after ? pass() : fail({ raw: before, rendered: after });
    }),
    fix: (ctx) => {
      const raw = ctx.evidence.string('raw');
      const rendered = ctx.evidence.string('rendered');
      const final = rendered ?? ctx.page?.title ?? null;
      return {
        summary: `Serve the final title of ${pageName(ctx)} in the HTML instead of changing it with JavaScript`,
        steps: [
          `The HTML as served has the title ${quoted(raw, 'one title')}, and scripts change it to ` +
            `${quoted(rendered, 'another')}: crawlers that do not render and link previews see the first one.`,
          'Decide which title is right and write it into the server-rendered head; then remove or align the ' +
            'client-side code (router, head manager, SEO plugin) that replaces it.',
          SSR_HINT,
        ],
        code: final ? `<title>${escapeHtml(final)}</title>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_TITLE_ONLY_RENDERED',
    title: 'Title only after rendering',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The raw HTML has no title; the page gets one only when JavaScript runs.',
    scoreReason: {
      ours: 'Crawlers that do not render see no title.',
    },
    why:
      'Until JavaScript runs the page has no title: social previews, non-rendering crawlers and the first ' +
      'indexing pass see none, and search engines may show a made-up headline.',
    howToFix:
      'Render the title on the server (server-side rendering, prerendering or a static head template) so that ' +
      'the HTML as served already has the same title element the app sets.',
    evidence: {
      kind: 'VALUES',
      keys: ['rendered'],
      present: (e, view) => rawAndRendered(view, 'Title', null, textCell(stringAt(e, 'rendered'))),
    },
    evaluate: compared(({ raw, rendered }) => {
      const after = firstNonEmpty(rendered.titles);
      return firstNonEmpty(raw.titles) === null && after !== null ? fail({ rendered: after }) : pass();
    }),
    fix: (ctx) => {
      const rendered = ctx.evidence.string('rendered') ?? ctx.page?.title ?? null;
      return {
        summary: `Put the title of ${pageName(ctx)} into the HTML as served`,
        steps: [
          `The page has no title until JavaScript sets ${quoted(rendered, 'one')}; social previews and crawlers ` +
            'that do not run scripts see a page without a title.',
          'Render the title on the server (server-side rendering, static generation or prerendering) so that the ' +
            'served HTML carries the same title element the app sets.',
          SSR_HINT,
        ],
        code: rendered ? `<title>${escapeHtml(rendered)}</title>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_DESCRIPTION_CHANGED',
    title: 'Meta description changed by JavaScript',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The meta description of the rendered page differs from the raw HTML one (changed, added or removed).',
    scoreReason: {},
    why:
      'A description set or replaced by JavaScript is missed by link previews and crawlers that do not render, ' +
      'so different tools may show different snippets for the page.',
    howToFix:
      'Write the final meta description into the server-rendered head and have the client keep it, rather than ' +
      'adding or rewriting it in the browser.',
    evidence: {
      kind: 'VALUES',
      keys: ['raw', 'rendered'],
      present: (e, view) =>
        rawAndRendered(view, 'Meta description', textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered'))),
    },
    evaluate: compared(({ raw, rendered }) => {
      const before = firstNonEmpty(raw.descriptions);
      const after = firstNonEmpty(rendered.descriptions);
      if (before === null && after === null) return null;
      return before === after ? pass() : fail({ raw: before, rendered: after });
    }),
    fix: (ctx) => {
      const raw = ctx.evidence.string('raw');
      const after = ctx.evidence.string('rendered');
      const rendered = after ?? ctx.page?.description ?? null;
      return {
        summary: `Serve the meta description of ${pageName(ctx)} in the HTML, not from JavaScript`,
        steps: [
          raw === null
            ? `The meta description ${quoted(rendered, 'set by a script')} exists only after rendering; link ` +
              'previews and crawlers that do not render see none.'
            : after === null
              ? `Scripts remove the served description ${quoted(raw, '')}: rendering search engines see none, ` +
                'while link previews still show it.'
              : `The served description ${quoted(raw, '')} is replaced by ${quoted(rendered, 'another')} when ` +
                'scripts run, so different tools show different snippets.',
          'Write the final description into the server-rendered head and keep client-side code from rewriting it.',
        ],
        code: rendered ? `<meta name="description" content="${escapeHtml(rendered)}">` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_CANONICAL_CHANGED',
    title: 'Canonical changed by JavaScript',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The canonical URL of the rendered page differs from the raw HTML one (changed, added or removed).',
    scoreReason: {},
    why:
      'Two different canonical URLs, one in the HTML and one after rendering, are conflicting signals: search ' +
      'engines may follow either, or ignore both.',
    howToFix:
      'Serve the correct canonical link in the HTML and do not add, remove or change it with JavaScript; if the ' +
      'app must set it, make it match the server-rendered one exactly.',
    evidence: {
      kind: 'VALUES',
      keys: ['raw', 'rendered'],
      present: (e, view) => {
        const cell = (key: string) => {
          const url = stringAt(e, key);
          return url === null ? null : urlCell(url, view.pageUrl);
        };
        rawAndRendered(view, 'Canonical URL', cell('raw'), cell('rendered'));
      },
    },
    evaluate: compared(({ raw, rendered }) => {
      const before = effectiveCanonical(raw);
      const after = effectiveCanonical(rendered);
      if (before === null && after === null) return null;
      return comparableUrl(before) === comparableUrl(after) ? pass() : fail({ raw: before, rendered: after });
    }),
    fix: (ctx) => {
      const raw = ctx.evidence.string('raw');
      const rendered = ctx.evidence.string('rendered');
      const intended = raw ?? rendered ?? ctx.page?.canonical ?? ctx.url;
      return {
        summary: `Give ${pageName(ctx)} one canonical URL, the same before and after rendering`,
        steps: [
          `The served HTML says the canonical is ${
            raw ?? 'not ' + 'set'
          }; after rendering it is ${rendered ?? 'removed'}. ` +
            'Search engines may follow either signal, or ignore both.',
          'Serve the correct canonical link in the HTML and remove the script that adds, removes or rewrites it; ' +
            'if the app must manage it, make it output exactly the server-rendered URL.',
        ],
        code: `<link rel="canonical" href="${escapeHtml(intended)}">`,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_NOINDEX_CHANGED',
    title: 'Noindex changed by JavaScript',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description:
      'JavaScript adds or removes noindex: the raw HTML and the rendered page disagree on whether to index it.',
    scoreReason: {
      ours:
        'CRITICAL by the rule: whether the page is in search depends on whether JavaScript runs (Google skips ' +
        'rendering a page its raw HTML says noindex), so the noindex is not what the site intends either way.',
    },
    why:
      'Google skips rendering a page whose HTML says noindex, so removing it with JavaScript does not work; ' +
      'adding it with JavaScript drops a page the HTML allows, often by mistake.',
    howToFix:
      'Decide whether the page should be indexed and put that robots directive in the HTML (or X-Robots-Tag ' +
      'header) as served; remove the script that adds or removes noindex.',
    evidence: {
      kind: 'HEADERS',
      keys: ['raw', 'rendered', 'rawMeta', 'renderedMeta'],
      present: (e, view) => robotsChange(view, 'Indexing', e),
    },
    evaluate: compared(({ raw, rendered }) =>
      raw.robots.noindex === rendered.robots.noindex
        ? pass()
        : fail({
            raw: raw.robots.noindex ? 'noindex' : 'index',
            rendered: rendered.robots.noindex ? 'noindex' : 'index',
            ...robotsValues(raw, rendered),
          }),
    ),
    fix: (ctx) => {
      const [raw, rendered] = sideVerdicts(ctx, 'one directive', 'the other');
      const removed = raw === 'noindex';
      return {
        summary: removed
          ? `Remove noindex from the served HTML of ${pageName(ctx)} (JavaScript cannot lift it)`
          : `Stop JavaScript from adding noindex to ${pageName(ctx)}`,
        steps: [
          `The HTML as served says ${raw}; after rendering the page says ${rendered}.`,
          removed
            ? 'Google does not render a page whose HTML says noindex, so the script that removes it never runs for ' +
              'Google: the page stays out of the index. If it should be indexed, drop noindex from the HTML.'
            : 'A script adds noindex after loading, which drops a page the HTML allows from the index, often by ' +
              'mistake (a consent, paywall or error state). Remove it, or serve noindex in the HTML if intended.',
          'Check the robots meta tag and X-Robots-Tag header your server sends, and search the client code for ' +
            'code that writes a robots meta tag.',
        ],
        code: removed ? '<meta name="robots" content="index, follow">' : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_NOFOLLOW_CHANGED',
    title: 'Nofollow changed by JavaScript',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'JavaScript adds or removes a page-level nofollow (robots meta or X-Robots-Tag).',
    scoreReason: {},
    why:
      'A page-level nofollow that differs before and after rendering makes it unclear whether crawlers may ' +
      'follow the page links: some crawlers see one directive, others the other.',
    howToFix:
      'Set the intended robots directive (follow or nofollow) in the served HTML and keep scripts from changing ' +
      'the robots meta tag.',
    evidence: {
      kind: 'HEADERS',
      keys: ['raw', 'rendered', 'rawMeta', 'renderedMeta'],
      present: (e, view) => robotsChange(view, 'Following', e),
    },
    evaluate: compared(({ raw, rendered }) =>
      raw.robots.nofollow === rendered.robots.nofollow
        ? pass()
        : fail({
            raw: raw.robots.nofollow ? 'nofollow' : 'follow',
            rendered: rendered.robots.nofollow ? 'nofollow' : 'follow',
            ...robotsValues(raw, rendered),
          }),
    ),
    fix: (ctx) => {
      const [raw, rendered] = sideVerdicts(ctx, 'one directive', 'the other');
      return {
        summary: `Make the robots follow directive of ${pageName(ctx)} the same before and after rendering`,
        steps: [
          `The HTML as served says ${raw}; after rendering the page says ${rendered}, so crawlers that render and ` +
            'those that do not treat its links differently.',
          'Set the intended directive in the served robots meta tag (or X-Robots-Tag header) and remove the ' +
            'client-side code that changes it.',
        ],
      };
    },
  }),
  defineCheck({
    code: 'RENDER_H1_CHANGED',
    title: 'H1 changed by JavaScript',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The h1 headings of the rendered page differ from those of the raw HTML (changed, added or removed).',
    scoreReason: {},
    why:
      'The main heading is a strong clue to what the page is about; when JavaScript changes or adds it, crawlers ' +
      'that read the raw HTML see a different topic than those that render.',
    howToFix:
      'Render the final h1 on the server, and make client-side code keep the same heading instead of replacing ' +
      'it after loading.',
    evidence: {
      kind: 'VALUES',
      keys: ['raw', 'rendered'],
      present: (e, view) =>
        rawAndRendered(view, 'H1', listCell(stringsAt(e, 'raw'), ' | '), listCell(stringsAt(e, 'rendered'), ' | ')),
    },
    evaluate: compared(({ raw, rendered }) => {
      const before = h1Of(raw);
      const after = h1Of(rendered);
      if (before.length === 0 && after.length === 0) return null;
      return sameList(before, after)
        ? pass()
        : fail({ raw: before.slice(0, DIGEST_H1), rendered: after.slice(0, DIGEST_H1) });
    }),
    fix: (ctx) => {
      const raw = ctx.evidence.strings('raw', 3);
      const rendered = ctx.evidence.strings('rendered', 3);
      const heading = rendered[0] ?? ctx.page?.h1[0] ?? null;
      return {
        summary: `Render the main heading of ${pageName(ctx)} on the server`,
        steps: [
          `The served HTML has ${raw.length > 0 ? `the h1 ${inlineList(raw)}` : 'no h1'}; after rendering it has ` +
            `${rendered.length > 0 ? inlineList(rendered) : 'none'}.`,
          'Write the final h1 into the server-rendered markup and keep client-side code from replacing it after ' +
            'loading, so every crawler reads the same topic.',
        ],
        code: heading ? `<h1>${escapeHtml(heading)}</h1>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_LINKS_ONLY_RENDERED',
    title: 'Internal links only after rendering',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The rendered page links to internal URLs that the raw HTML does not link to.',
    scoreReason: {},
    why:
      'Links inserted by JavaScript are found only after rendering, which search engines do later and with a ' +
      'limited budget, so the pages they lead to may be discovered late or not at all.',
    howToFix:
      'Output important internal links (navigation, related pages, pagination) as plain anchor elements with ' +
      'an href in the server-rendered HTML, not only from scripts.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links', 'rawLinks', 'renderedLinks'],
      present: (e, view) => {
        rawAndRendered(
          view,
          'Internal links',
          numberCell(numberAt(e, 'rawLinks')),
          numberCell(numberAt(e, 'renderedLinks')),
        );
        linkTable(view, 'Internal links only in the rendered page', e);
      },
    },
    evaluate: compared(({ raw, rendered }, ctx) => {
      const after = internalLinkTargets(rendered);
      if (after.size === 0) return null;
      const before = internalLinkTargets(raw);
      const self = comparableUrl(ctx.page.finalUrl);
      const only = [...after].filter((url) => !before.has(url) && comparableUrl(url) !== self);
      return only.length > 0
        ? fail({ count: only.length, links: only.slice(0, SAMPLE), rawLinks: before.size, renderedLinks: after.size })
        : pass();
    }),
    fix: (ctx) => {
      const links = ctx.evidence.strings('links', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      const first = links[0] ?? null;
      return {
        summary: `Serve the internal links of ${pageName(ctx)} in the HTML, not only from JavaScript`,
        steps: [
          count > 0
            ? `${plural(count, 'internal link')} appear only after rendering, for example ${inlineList(links, count)}.`
            : 'Some internal links appear only after rendering.',
          'Search engines find such links only when they render the page, later and with a limited budget, so ' +
            'the pages they lead to may be discovered late.',
          'Output navigation, related-page and pagination links as anchor elements with an href in the ' +
            'server-rendered HTML; buttons or click handlers that route in JavaScript are not links.',
        ],
        code: first ? `<a href="${escapeHtml(first)}">…</a>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'RENDER_CONTENT_NEEDS_JS',
    title: 'Content needs JavaScript',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'The raw HTML holds less than half of the visible words of the rendered page (of at least 50 words).',
    scoreReason: {},
    why:
      'Most of the text appears only when JavaScript runs; crawlers that do not render see a nearly empty page, ' +
      'and rendering search engines index it later and less reliably.',
    howToFix:
      'Use server-side rendering, static generation or prerendering for the main content, so that the HTML as ' +
      'served carries the text and JavaScript only adds interactivity.',
    evidence: {
      kind: 'VALUES',
      keys: ['rawWords', 'renderedWords'],
      present: (e, view) =>
        rawAndRendered(
          view,
          'Visible text',
          wordsCell(numberAt(e, 'rawWords')),
          wordsCell(numberAt(e, 'renderedWords')),
        ),
    },
    evaluate: compared(({ raw, rendered }) => {
      if (rendered.wordCount < T.renderedContentMinWords) return null;
      return raw.wordCount < rendered.wordCount * T.rawContentMinShare
        ? fail({ rawWords: raw.wordCount, renderedWords: rendered.wordCount })
        : pass();
    }),
    fix: (ctx) => {
      const raw = ctx.evidence.number('rawWords');
      const rendered = ctx.evidence.number('renderedWords');
      return {
        summary: `Server-render the main content of ${pageName(ctx)}`,
        steps: [
          raw !== null && rendered !== null
            ? `The HTML as served holds ${plural(raw, 'word')} of visible text; the rendered page ` +
              `${plural(rendered, 'word')}.`
            : 'Most of the visible text appears only after JavaScript runs.',
          'Use server-side rendering, static generation or prerendering for the content, so that the served ' +
            'HTML carries the text and scripts only add interactivity.',
          SSR_HINT,
        ],
      };
    },
  }),
] as const;
