import { metaDescriptionTag, proposeDescription } from '../../fixes/description-proposal.js';
import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { codePointLength, shorten } from '../../fixes/markup-text.js';
import { descriptionFix, pageOf } from '../../fixes/meta-fix-rules.js';
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

export const DESCRIPTION_CHECKS = [
  defineCheck({
    code: 'META_DESCRIPTION_MISSING',
    title: 'Missing meta description',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The page has no meta description, or it is empty.',
    scoreReason: {
      lighthouse: 'meta-description: fail (SEO)',
      semrush: 'warning',
      ahrefs: 'warning',
    },
    why:
      'Search engines often use the meta description as the snippet under the title; without one they pick text ' +
      'from the page, which may describe it poorly. It is not a ranking factor.',
    howToFix:
      'Add one meta tag with name="description" to the head, holding a 70 to 160 character summary of what the ' +
      'page offers, written for people and unique to the page.',
    evidence: {
      kind: 'VALUES',
      keys: ['count'],
      present: (e, view) => view.fact('Meta description', presentButEmpty(numberAt(e, 'count'))),
    },
    evaluate: ({ html }) =>
      html ? (ON_PAGE_BASICS.description(html) ? fail({ count: html.descriptionCount }) : pass()) : null,
    fix: (ctx) =>
      descriptionFix(ctx, 'new', `Add a meta description to ${pageName(ctx)}`, [
        'Without a description, search engines show a snippet picked from the page, which is often navigation ' +
          'or boilerplate.',
      ]),
  }),
  defineCheck({
    code: 'META_DESCRIPTION_TOO_SHORT',
    title: 'Meta description too short',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The meta description is under 70 characters.',
    requires: 'META_DESCRIPTION_MISSING',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'A description under 70 characters gives searchers little to go on, and search engines are more likely to ' +
      'replace it with text taken from the page.',
    howToFix:
      'Extend the meta description to at least 70 characters (ideally 120 to 160): say what the page offers, a ' +
      'detail that sets it apart, and what the visitor can do there.',
    evidence: {
      kind: 'VALUES',
      keys: ['description', 'length'],
      present: textAndLength('Meta description', 'description'),
    },
    evaluate: ({ html }) => lengthBelow(html && firstText(html.descriptions), T.descriptionMinChars, 'description'),
    fix: (ctx) => {
      const current = ctx.evidence.string('description') ?? ctx.page?.description ?? '';
      return descriptionFix(
        ctx,
        'extend',
        `Lengthen the meta description to ${T.descriptionMinChars}–${T.descriptionMaxChars} characters`,
        [
          `The current description "${shorten(current, 100)}" has ${codePointLength(current)} characters, ` +
            `too short to sell the page in results.`,
        ],
      );
    },
  }),
  defineCheck({
    code: 'META_DESCRIPTION_TOO_LONG',
    title: 'Meta description too long',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The meta description is over 160 characters.',
    requires: 'META_DESCRIPTION_MISSING',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'Snippets are cut to the space available, roughly 160 characters on desktop and fewer on mobile, so the ' +
      'end of a longer description is likely to be truncated.',
    howToFix:
      'Trim the meta description to 160 characters or fewer and put the key information in the first 120 ' +
      'characters, so it still reads well if a mobile result cuts it short.',
    evidence: {
      kind: 'VALUES',
      keys: ['description', 'length'],
      present: textAndLength('Meta description', 'description'),
    },
    evaluate: ({ html }) => lengthAbove(html && firstText(html.descriptions), T.descriptionMaxChars, 'description'),
    fix: (ctx) => {
      const current = ctx.evidence.string('description') ?? ctx.page?.description ?? '';
      return descriptionFix(
        ctx,
        'shorten',
        `Shorten the ${codePointLength(current)}-character meta description to at most ${T.descriptionMaxChars}`,
        [
          `The current description has ${codePointLength(current)} characters; results cut it after ` +
            `about ${T.descriptionMaxChars}, so the end of the message is lost.`,
        ],
      );
    },
  }),
  defineCheck({
    code: 'META_DESCRIPTION_MULTIPLE',
    title: 'Multiple meta descriptions',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The page has more than one meta description.',
    requires: 'META_DESCRIPTION_MISSING',
    scoreReason: {
      ahrefs: 'warning',
    },
    why:
      'When a page has several meta descriptions, search engines may use any of them or none, so the snippet you ' +
      'intended is not reliably shown.',
    howToFix:
      'Keep exactly one meta name="description" tag in the head and delete the others; check templates, plugins ' +
      'and tag managers, which may each add their own.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'descriptions'],
      present: (e, view) =>
        listTable(
          view,
          'Meta descriptions on the page',
          'Description',
          stringsAt(e, 'descriptions'),
          numberAt(e, 'count'),
        ),
    },
    evaluate: ({ html }) =>
      html
        ? html.descriptionCount > 1
          ? fail({ count: html.descriptionCount, descriptions: html.descriptions.slice(0, 3) })
          : pass()
        : null,
    fix: (ctx) => {
      const descriptions = ctx.evidence.strings('descriptions', 3);
      const count = ctx.evidence.number('count') ?? descriptions.length;
      const keep = descriptions.find((text) => {
        const length = codePointLength(text.trim());
        return length >= T.descriptionMinChars && length <= T.descriptionMaxChars;
      });
      const text = keep?.trim() ?? proposeDescription(pageOf(ctx), ctx.url, 'new').text;
      return {
        summary: `Keep one meta description instead of ${count}`,
        steps: [
          descriptions.length > 0
            ? `The page has ${count} meta descriptions: ${inlineList(descriptions, count)}.`
            : `The page has ${count} meta descriptions.`,
          `Keep a single <meta name="description"> in ` +
            `<head>${keep ? ' (the one that already fits 70–160 characters)' : ', with the proposed text'}.`,
          'Remove the duplicates at their source: typically the theme and an SEO plugin both output one; ' +
            "disable the theme's.",
        ],
        code: metaDescriptionTag(text),
      };
    },
  }),
  defineCheck({
    code: 'META_DESCRIPTION_DUPLICATE',
    title: 'Duplicate meta description',
    severity: 'WARNING',
    category: 'META',
    scope: 'site',
    bySpread: true,
    description: 'The same meta description is used on more than one indexable page.',
    requires: 'META_DESCRIPTION_MISSING',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'warning',
      ours: 'Semrush says error; a duplicate description changes the snippet, not indexing.',
    },
    why:
      'Search engines may disregard a description repeated across many pages and build snippets from page text ' +
      'instead, and identical snippets make results hard to tell apart.',
    howToFix:
      'Write a distinct description for each indexable page, or generate one from page-specific data such as the ' +
      'product name and key attributes or the article summary, instead of reusing a site-wide default.',
    evidence: {
      kind: 'DUPLICATES',
      keys: ['description', 'duplicates', 'sameAs'],
      present: (e, view) => {
        view.fact('Meta description', textCell(stringAt(e, 'description')));
        duplicateTable(view, 'Other pages with this meta description', e);
      },
    },
    evaluate: ({ pages }) => duplicateFieldCheck('META_DESCRIPTION_DUPLICATE', pages, 'description', 'description'),
    fix: (ctx) => {
      const sameAs = ctx.evidence.strings('sameAs', 3);
      const others = ctx.evidence.number('duplicates') ?? sameAs.length;
      return descriptionFix(ctx, 'new', `Write a unique meta description for ${pageName(ctx)}`, [
        `${plural(others, 'other page')} ${others === 1 ? 'shares' : 'share'} this ` +
          `description${sameAs.length > 0 ? `, for example ${inlineList(sameAs, others)}` : ''}, so results ` +
          `look alike and none stands out.`,
      ]);
    },
  }),
  defineCheck({
    code: 'META_DESCRIPTION_SAME_AS_TITLE',
    title: 'Meta description repeats the title',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The meta description is the title again (ignoring case and surrounding spaces).',
    requires: 'META_DESCRIPTION_MISSING',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'The snippet already shows the title as its headline; a description that repeats it tells searchers nothing ' +
      'more, and search engines often replace it with text taken from the page.',
    howToFix:
      'Write a description of its own: a 70 to 160 character summary of what the page offers that the title does ' +
      'not already say, such as a detail, a benefit or what the visitor can do there.',
    evidence: { kind: 'VALUES', keys: ['description'], present: textAndLength('Meta description', 'description') },
    evaluate: ({ html }) => {
      if (!html) return null;
      const description = firstText(html.descriptions);
      const title = firstText(html.titles);
      if (description === '' || title === '') return null;
      // Lengths first: most pages differ there, and no string is made for them.
      const same = description.length === title.length && description.toLowerCase() === title.toLowerCase();
      return same ? fail({ description }) : pass();
    },
    fix: (ctx) =>
      descriptionFix(ctx, 'new', `Write a meta description for ${pageName(ctx)} that says more than its title`, [
        'The description is the title again, so the snippet repeats its own headline and search engines are ' +
          'likely to replace it with page text.',
      ]),
  }),
] as const;
