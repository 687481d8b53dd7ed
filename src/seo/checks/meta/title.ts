import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { codePointLength, shorten } from '../../fixes/markup-text.js';
import { pageOf, titleFix, twinTitleFix } from '../../fixes/meta-fix-rules.js';
import { proposeTitle, titleTag } from '../../fixes/title-proposal.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  duplicateTable,
  listTable,
  numberAt,
  presentButEmpty,
  stringAt,
  stringsAt,
  textAndLength,
  textCell,
} from '../evidence-presenters.js';
import { firstText, lengthAbove, lengthBelow, ON_PAGE_BASICS } from '../page-check-helpers.js';
import { duplicateFieldCheck } from '../site-check-helpers.js';

export const TITLE_CHECKS = [
  defineCheck({
    code: 'META_TITLE_MISSING',
    title: 'Missing title',
    severity: 'CRITICAL',
    category: 'META',
    scope: 'page',
    description: 'The page has no <title>, or it is empty after trimming.',
    scoreReason: {
      lighthouse: 'document-title: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule: a page without a title is shown with one a search engine makes up.',
    },
    why:
      'The title is a main clue to what a page is about and is usually shown as the headline of its search ' +
      'result; without one, search engines make up a headline from other text on the page.',
    howToFix:
      'Add one title element inside the head with a unique, descriptive title of about 30 to 60 characters that ' +
      'leads with the main topic, for example "Oak dining tables | Oak & Iron".',
    evidence: {
      kind: 'VALUES',
      keys: ['titleCount'],
      // 0 restates "missing"; one or more means the element is there but empty.
      present: (e, view) => view.fact('Title element', presentButEmpty(numberAt(e, 'titleCount'))),
    },
    evaluate: ({ html }) =>
      html ? (ON_PAGE_BASICS.title(html) ? fail({ titleCount: html.titleCount }) : pass()) : null,
    fix: (ctx) =>
      titleFix(ctx, 'new', `Add a <title> to ${pageName(ctx)}`, [
        'The page has no title (or an empty one), so search engines invent one from the page text and the ' +
          'browser tab shows the URL.',
      ]),
  }),
  defineCheck({
    code: 'META_TITLE_TOO_SHORT',
    title: 'Title too short',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The title is under 30 characters.',
    requires: 'META_TITLE_MISSING',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'notice',
      ours: 'Short titles are often right (a manual\'s "SELECT"); hygiene.',
    },
    why:
      'A title under 30 characters often leaves out words people search for and gives searchers little reason to ' +
      'choose the result; search engines may also replace it with other text from the page.',
    howToFix:
      'Expand the title to at least 30 characters by adding what is specific to the page, such as the product ' +
      'type, a qualifier or location, and the brand, while staying within 60 characters.',
    evidence: { kind: 'VALUES', keys: ['title', 'length'], present: textAndLength('Title', 'title') },
    evaluate: ({ html }) => lengthBelow(html && firstText(html.titles), T.titleMinChars, 'title'),
    fix: (ctx) => {
      const current = ctx.evidence.string('title') ?? ctx.page?.title ?? '';
      return titleFix(
        ctx,
        'extend',
        `Lengthen the title "${shorten(current, 60)}" to ${T.titleMinChars}–${T.titleMaxChars} characters`,
        [
          `The current title "${shorten(current, 80)}" has ${codePointLength(current)} characters, too few ` +
            `to describe the page and its keywords.`,
        ],
      );
    },
  }),
  defineCheck({
    code: 'META_TITLE_TOO_LONG',
    title: 'Title too long',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The title is over 60 characters and will likely be truncated in results.',
    requires: 'META_TITLE_MISSING',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'notice',
      ours: 'Truncated in results: shown worse.',
    },
    why:
      'Search results show only about 60 characters of a title (the real limit is its width in pixels), so a ' +
      'longer title is likely to be cut off and its last words may not be seen.',
    howToFix:
      'Shorten the title to 60 characters or fewer: put the most important words first, drop filler and repeated ' +
      'keywords, and shorten the brand name or move it to the end.',
    evidence: { kind: 'VALUES', keys: ['title', 'length'], present: textAndLength('Title', 'title') },
    evaluate: ({ html }) => lengthAbove(html && firstText(html.titles), T.titleMaxChars, 'title'),
    fix: (ctx) => {
      const current = ctx.evidence.string('title') ?? ctx.page?.title ?? '';
      return titleFix(
        ctx,
        'shorten',
        `Shorten the ${codePointLength(current)}-character title to at most ${T.titleMaxChars} characters`,
        [
          `The current title "${shorten(current, 100)}" is ${codePointLength(current)} characters; results ` +
            `truncate it after about ${T.titleMaxChars}.`,
        ],
      );
    },
  }),
  defineCheck({
    code: 'META_TITLE_MULTIPLE',
    title: 'Multiple titles',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The page has more than one <title> element.',
    requires: 'META_TITLE_MISSING',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
    },
    why:
      'Browsers use only the first title element and search engines may pick any of them, so the title you ' +
      'intended may not be the one shown in the tab or in search results.',
    howToFix:
      'Keep exactly one title element in the head and remove the others; duplicates often come from a theme and ' +
      'an SEO plugin both printing one, so switch off the title output in one of them.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'titles'],
      present: (e, view) =>
        listTable(view, 'Titles on the page', 'Title', stringsAt(e, 'titles'), numberAt(e, 'count')),
    },
    evaluate: ({ html }) =>
      html ? (html.titleCount > 1 ? fail({ count: html.titleCount, titles: html.titles.slice(0, 3) }) : pass()) : null,
    fix: (ctx) => {
      const titles = ctx.evidence.strings('titles', 3);
      const count = ctx.evidence.number('count') ?? titles.length;
      const keep = titles.find((title) => {
        const length = codePointLength(title.trim());
        return length >= T.titleMinChars && length <= T.titleMaxChars;
      });
      const text = keep?.trim() ?? proposeTitle(pageOf(ctx), ctx.url, 'new').text;
      return {
        summary: `Keep one <title> element instead of ${count}`,
        steps: [
          titles.length > 0
            ? `The page has ${count} <title> elements: ${inlineList(titles, count)}.`
            : `The page has ${count} <title> elements.`,
          `Keep a single <title> in <head>${keep ? ' (the one that already fits the length band)' : ''}: "${text}".`,
          'Delete the others: they usually come from a theme and an SEO plugin both printing a title, or from ' +
            'an included partial that carries its own <head> markup.',
        ],
        code: titleTag(text),
      };
    },
  }),
  defineCheck({
    code: 'META_TITLE_DUPLICATE',
    title: 'Duplicate title',
    severity: 'WARNING',
    category: 'META',
    scope: 'site',
    bySpread: true,
    description: 'The same title is used on more than one indexable page.',
    requires: 'META_TITLE_MISSING',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'warning',
      ours: 'Semrush says error; duplicate titles rank and show worse but keep the pages in search.',
    },
    why:
      'Identical titles make indexable pages look interchangeable: search engines may struggle to choose which ' +
      'one to show for a query, and searchers cannot tell the results apart.',
    howToFix:
      'Give every indexable page its own title naming what is specific to it, such as the product, category or ' +
      'article topic; if the pages really are the same, merge them or point the copies to one canonical URL.',
    evidence: {
      kind: 'DUPLICATES',
      keys: ['title', 'duplicates', 'sameAs'],
      present: (e, view) => {
        view.fact('Title', textCell(stringAt(e, 'title')));
        duplicateTable(view, 'Other pages with this title', e);
      },
    },
    evaluate: ({ pages }) => duplicateFieldCheck('META_TITLE_DUPLICATE', pages, 'title', 'title'),
    fixReads: 'titleTwins',
    fix: (ctx) => {
      const sameAs = ctx.evidence.strings('sameAs', 3);
      const others = ctx.evidence.number('duplicates') ?? sameAs.length;
      const why = [
        `${plural(others, 'other page')} ${others === 1 ? 'uses' : 'use'} the same ` +
          `title${sameAs.length > 0 ? `, for example ${inlineList(sameAs, others)}` : ''}; search engines ` +
          `then struggle to tell which page answers a query.`,
        "Write each title from the page's own subject (its h1) rather than from a shared template.",
      ];
      const twins = ctx.page?.titleTwins ?? [];
      if (twins.length < 2 || !twins.some((twin) => twin.url === ctx.url))
        return titleFix(ctx, 'new', `Give ${pageName(ctx)} a title of its own`, why);
      return twinTitleFix(ctx, twins, why);
    },
  }),
] as const;
