import { topicOf } from '../../fixes/content-fix-rules.js';
import { inlineList } from '../../fixes/fix-rule-context.js';
import { collapseWhitespace, cutAtWord, escapeHtml, shorten } from '../../fixes/markup-text.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listTable, NOTHING, numberAt, stringAt, stringsAt, textCell } from '../evidence-presenters.js';
import { ON_PAGE_BASICS } from '../page-check-helpers.js';

export const HEADING_CHECKS = [
  defineCheck({
    code: 'CONTENT_H1_MISSING',
    title: 'Missing H1',
    severity: 'WARNING',
    category: 'CONTENT',
    scope: 'page',
    description: 'The page has no <h1> heading.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'notice',
    },
    why:
      'The main heading tells visitors and search engines what the page is about; without an h1 the page lacks a ' +
      'clear heading and is harder to scan, especially with a screen reader.',
    howToFix:
      'Add one h1 near the top of the main content that states the page topic in words people search for, ' +
      'usually close to the title; if a styled div or the logo acts as the main heading, make it an h1 instead.',
    evidence: NOTHING,
    evaluate: ({ html }) => (html ? (ON_PAGE_BASICS.h1(html) ? fail() : pass()) : null),
    fix: (ctx) => {
      const topic = cutAtWord(collapseWhitespace(topicOf(ctx)), 70);
      const firstHeading = ctx.page?.headings[0];
      return {
        summary: `Add an <h1> heading: "${shorten(topic, 70)}"`,
        steps: [
          'The page has no <h1>, so it has no visible main heading telling readers and search engines what it is ' +
            'about.',
          `Add one <h1> at the top of the main content; "${shorten(topic, 70)}" is proposed ` +
            `from ${ctx.page?.title ? 'the page title' : 'the URL'}.`,
          firstHeading && firstHeading.level > 1
            ? `The first heading today is an h${firstHeading.level} ("${shorten(firstHeading.text, 60)}"); if ` +
              `it is the page's main heading, change it to <h1> instead.`
            : 'Style it with CSS if the design needs a smaller heading: the level is about structure, not size.',
        ],
        code: `<h1>${escapeHtml(topic)}</h1>`,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_H1_MULTIPLE',
    title: 'Multiple H1',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'The page has more than one <h1> heading.',
    requires: 'CONTENT_H1_MISSING',
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
    },
    why:
      'Several h1 headings are valid HTML and Google copes with them, but one clear main heading makes the ' +
      'structure easier to follow for visitors, screen readers and crawlers.',
    howToFix:
      'Keep one h1 for the main topic and turn the others into h2 or h3 according to their place in the outline; ' +
      'check headers, footers and widgets, which often use h1 for logos or section titles.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'headings'],
      present: (e, view) => listTable(view, 'H1 headings', 'Heading', stringsAt(e, 'headings'), numberAt(e, 'count')),
    },
    evaluate: ({ html }) =>
      html
        ? html.h1Count > 1
          ? fail({
              count: html.h1Count,
              headings: html.headings
                .filter((h) => h.level === 1)
                .slice(0, 3)
                .map((h) => h.text),
            })
          : pass()
        : null,
    fix: (ctx) => {
      const headings = ctx.evidence.strings('headings', 3);
      const list = headings.length > 0 ? headings : (ctx.page?.h1 ?? []).slice(0, 3);
      const count = ctx.evidence.number('count') ?? list.length;
      const [keep, ...demote] = list;
      return {
        summary: keep ? `Keep "${shorten(keep, 60)}" as the only <h1>` : `Reduce the ${count} <h1> headings to one`,
        steps: [
          `The page has ${count} <h1> headings${list.length > 0 ? `: ${inlineList(list, count)}` : ''}.`,
          keep
            ? `Keep "${shorten(keep, 80)}" as the page's single h1 (the main topic).`
            : "Keep the heading that names the page's main topic as h1.",
          demote.length > 0
            ? `Change the others (${inlineList(demote, count - 1)}) to <h2>, keeping their styling with a CSS class.`
            : 'Change the other h1 elements to h2; logos and site names in the header should not be headings at all.',
        ],
        code:
          [keep ? `<h1>${escapeHtml(keep)}</h1>` : '', ...demote.map((text) => `<h2>${escapeHtml(text)}</h2>`)]
            .filter(Boolean)
            .join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'CONTENT_HEADING_SKIP',
    title: 'Skipped heading level',
    severity: 'NOTICE',
    category: 'CONTENT',
    scope: 'page',
    description: 'A heading level is skipped (for example h2 followed by h4).',
    scoreReason: {
      lighthouse: 'heading-order (a11y)',
    },
    why:
      'Skipping a heading level breaks the outline that screen reader users navigate by and makes the structure ' +
      'of the content less clear; it has no direct effect on ranking.',
    howToFix:
      'Nest headings one level at a time (h1, then h2, then h3) and choose levels by structure, not appearance; ' +
      'if a heading should look smaller, style it with CSS instead of jumping to a lower level.',
    evidence: {
      kind: 'VALUES',
      keys: ['from', 'to', 'text'],
      present: (e, view) => {
        const from = stringAt(e, 'from');
        const to = stringAt(e, 'to');
        if (from && to) view.fact('Skipped level', textCell(`${from} followed by ${to}`));
        view.fact('Heading', textCell(stringAt(e, 'text')));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.headings.length === 0) return null;
      for (let i = 1; i < html.headings.length; i++) {
        const previous = html.headings[i - 1];
        const current = html.headings[i];
        if (current.level > previous.level + 1)
          return fail({ from: `h${previous.level}`, to: `h${current.level}`, text: current.text });
      }
      return pass();
    },
    fix: (ctx) => {
      const from = ctx.evidence.string('from') ?? 'h2';
      const to = ctx.evidence.string('to') ?? 'h4';
      const text = ctx.evidence.string('text') ?? '';
      const fromLevel = Number(from.replace(/\D/g, '')) || 2;
      const fixed = `h${Math.min(fromLevel + 1, 6)}`;
      return {
        summary: `Change the ${to}${text ? ` "${shorten(text, 50)}"` : ''} to ${fixed} (it follows an ${from})`,
        steps: [
          `The heading outline jumps from ${from} to ${to}${text ? ` at "${shorten(text, 80)}"` : ''}, so ` +
            `assistive technology reports a missing level.`,
          `Make it an <${fixed}> and keep its look with a CSS class if the design needs the smaller size.`,
          'Check the headings after it: sub-headings below it should move up one level too.',
        ],
        code: text ? `<${fixed}>${escapeHtml(text)}</${fixed}>` : undefined,
      };
    },
  }),
] as const;
