import { duplicateFix, primaryOf, topicOf } from '../../fixes/content-fix-rules.js';
import { inlineList, pageName } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import { duplicateTable, formatNumber, numberAt, stringAt, urlCell, wordsCell } from '../evidence-presenters.js';
import { duplicateContentCheck, nearDuplicateCheck } from '../site-check-helpers.js';

export const TEXT_CHECKS = [
  defineCheck({
    code: 'CONTENT_THIN',
    title: 'Thin content',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'An indexable page has under 200 words of visible body text.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'notice',
      ours: "The rule's own example of WARNING (ranks worse).",
    },
    why:
      'An indexable page with under 200 words may not give enough information to satisfy a query, and search ' +
      'engines may treat it as low value; word count itself is not a ranking factor.',
    howToFix:
      'Add useful, original content that answers what visitors came for (details, specifications, explanations, ' +
      'questions and answers), merge thin pages into a stronger one, or mark pages with no search value noindex.',
    evidence: {
      kind: 'VALUES',
      keys: ['words'],
      present: (e, view) => view.fact('Visible text', wordsCell(numberAt(e, 'words'))),
    },
    evaluate: ({ html, indexable }) =>
      html && indexable ? (html.wordCount < T.thinContentWords ? fail({ words: html.wordCount }) : pass()) : null,
    fix: (ctx) => {
      const words = ctx.evidence.number('words') ?? 0;
      const missing = Math.max(T.thinContentWords - words, 0);
      const sections = (ctx.page?.headings ?? [])
        .filter((heading) => heading.level >= 2)
        .slice(0, 4)
        .map((heading) => heading.text);
      return {
        summary: `Expand ${pageName(ctx)} by at least ${missing} words, or keep it out of the index`,
        steps: [
          `The page has ${words} words of visible text; pages under ${T.thinContentWords} words rarely rank ` +
            `and may be treated as low quality.`,
          sections.length > 0
            ? `Develop the existing sections ${inlineList(sections)} with specifics: what, for whom, how it ` +
              `works, prices or numbers, and answers to common questions.`
            : `Add sections that answer what a visitor looking for "${shorten(topicOf(ctx), 60)}" wants to ` +
              `know: details, use cases, comparisons and FAQs.`,
          'If the page is not meant to rank (tag archive, filter result, thank-you page), add the noindex tag ' +
            'below instead, or merge it into a fuller page and redirect.',
        ],
        code: '<meta name="robots" content="noindex, follow">',
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_DUPLICATE',
    title: 'Duplicate content',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'site',
    bySpread: true,
    description: 'Another indexable page has identical normalized body text.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours:
        'Semrush/Ahrefs say error; Google folds duplicates into one result (the other ranks), it does not drop the ' +
        'site: WARNING.',
    },
    why:
      'When indexable pages have identical content, search engines pick one to show and filter out the others, ' +
      'which splits links and signals and may not select the URL you prefer.',
    howToFix:
      'Keep one URL per piece of content: 301-redirect the copies to it, or add a rel="canonical" link pointing ' +
      'to it; if the copies come from parameters, sorting or print versions, stop linking to those variants.',
    evidence: {
      kind: 'DUPLICATES',
      keys: ['words', 'duplicates', 'sameAs'],
      present: (e, view) => {
        view.fact('Visible text', wordsCell(numberAt(e, 'words')));
        duplicateTable(view, 'Other pages with the same text', e);
      },
    },
    evaluate: ({ pages }) => duplicateContentCheck('CONTENT_DUPLICATE', pages),
    fix: (ctx) => {
      const sameAs = ctx.evidence.strings('sameAs', 3);
      return duplicateFix(
        ctx,
        sameAs,
        (primary) =>
          primary === ctx.url
            ? 'Keep this page and canonicalize its duplicates to it'
            : `Canonicalize this duplicate to ${shorten(primary, 100)}`,
        `This page's text is identical to ${
          sameAs.length > 0
            ? inlineList(sameAs, ctx.evidence.number('duplicates') ?? sameAs.length)
            : 'another indexable page'
        }; search engines pick one and filter the rest.`,
      );
    },
  }),
  defineCheck({
    code: 'CONTENT_NEAR_DUPLICATE',
    title: 'Near-duplicate content',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'site',
    bySpread: true,
    description: 'Another indexable page is 90% or more similar (SimHash).',
    scoreReason: {},
    why:
      'Pages that are 90% or more alike compete for the same queries; search engines may treat them as ' +
      'duplicates and show only one, which may not be the one you prefer.',
    howToFix:
      'Make each page substantially different with content specific to it, or merge near-identical pages (such ' +
      'as variants that differ only in colour or town name) into one URL with redirects or a canonical link.',
    evidence: {
      kind: 'DUPLICATES',
      // hammingDistance: dropped, the similarity is computed from it (share of equal SimHash bits).
      keys: ['similarTo', 'similarity', 'hammingDistance'],
      present: (e, view) => {
        const partner = stringAt(e, 'similarTo');
        const similarity = numberAt(e, 'similarity');
        if (partner === null) return;
        view.table(
          'Similar page',
          ['Page', 'Similarity'],
          [
            [
              urlCell(partner, view.pageUrl),
              { text: similarity === null ? 'Unknown' : `${formatNumber(similarity)}%` },
            ],
          ],
        );
      },
    },
    evaluate: ({ pages }) => nearDuplicateCheck('CONTENT_NEAR_DUPLICATE', pages),
    fix: (ctx) => {
      const similar = ctx.evidence.string('similarTo');
      const similarity = ctx.evidence.number('similarity');
      const primary = similar ? primaryOf([ctx.url, similar]) : ctx.url;
      const other = similar ? shorten(similar, 120) : 'the similar page';
      return {
        summary:
          `Differentiate this page from ${similar ? shorten(similar, 100) : 'its near duplicate'}, or ` +
          `consolidate the two`,
        steps: [
          `This page is ${similarity !== null ? `${similarity}% ` : ''}similar to ${other}: mostly the same ` +
            `template and text with few differences, so search engines may show only one of them.`,
          `If the two pages are about different things, make this one specific: rewrite its intro ` +
            `for ${pageName(ctx)}, add details only it has (specifications, examples, photos, FAQs) and ` +
            `shrink the shared boilerplate blocks.`,
          primary === ctx.url
            ? `If they are the same thing (variants, parameters, print versions), keep this URL and add a ` +
              `canonical link to it on ${other}, or 301-redirect that page here.`
            : `If they are the same thing (variants, parameters, print versions), canonicalize this page ` +
              `to ${shorten(primary, 120)} (tag below) or 301-redirect it there.`,
        ],
        code: `<link rel="canonical" href="${escapeHtml(primary)}">`,
      };
    },
  }),
] as const;
