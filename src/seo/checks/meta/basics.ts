import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listTable, stringsAt } from '../evidence-presenters.js';
import { missingBasics, type OnPageBasic } from '../page-check-helpers.js';

/** How many of the four on-page basics a page may lack before it is shown worse in search as a whole. */
const BASICS_MISSING_AT = 2;

const BASIC_NAMES: Readonly<Record<OnPageBasic, string>> = {
  title: 'a <title>',
  description: 'a meta description',
  viewport: 'a viewport meta tag',
  h1: 'an <h1> heading',
};

export const BASICS_CHECKS = [
  defineCheck({
    code: 'META_BASICS_MISSING',
    title: 'On-page basics missing',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    // The page stays in search but is shown worse there: it counts as 2/3 of a healthy page (docs/scores.md "Health").
    shownWorse: true,
    description:
      'The page lacks two or more of the on-page basics: a title, a meta description, a viewport meta tag, an h1 ' +
      'heading.',
    scoreReason: {
      ours:
        'Ours (calibration row 24): each basic is its own issue; together they show the page worse in every result. ' +
        'Shown worse, not out of search: 2/3 of a healthy page in health.',
    },
    why:
      'Each basic is a small loss on its own; together they make the page look worse in every result: a snippet ' +
      'picked from navigation, no clear heading, a layout not fitted to phones (Google indexes the mobile page).',
    howToFix:
      'Add the missing basics to the page template: a unique title and meta description per page, a viewport meta ' +
      'tag with width=device-width and initial-scale=1 in the head, and one h1 that states the topic.',
    evidence: {
      kind: 'VALUES',
      keys: ['missing'],
      present: (e, view) => listTable(view, 'Missing on-page basics', 'Basic', stringsAt(e, 'missing'), null),
    },
    evaluate: ({ html }) => {
      if (!html) return null;
      const missing = missingBasics(html);
      return missing.length >= BASICS_MISSING_AT ? fail({ missing }) : pass();
    },
    fix: (ctx) => {
      const missing = ctx.evidence.strings('missing', 4).filter((m): m is OnPageBasic => m in BASIC_NAMES);
      const names = missing.map((m) => BASIC_NAMES[m]);
      const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
      return {
        summary: `Add ${list} to the page template`,
        steps: [
          `The page lacks ${list}: each is listed as its own issue, and together they ` +
            `make the page look worse in search results.`,
          'These come from the shared layout on most sites: fix the template once, then write the per-page title, ' +
            'description and h1 where they are missing.',
        ],
        code: missing.includes('viewport')
          ? '<meta name="viewport" content="width=device-width, initial-scale=1">'
          : undefined,
      };
    },
  }),
] as const;
