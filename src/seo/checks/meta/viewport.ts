import { shorten } from '../../fixes/markup-text.js';
import { RESPONSIVE_VIEWPORT } from '../../fixes/structured-international-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { numberAt, numberCell, stringAt, textCell } from '../evidence-presenters.js';
import { viewportProblem } from '../structured-international-checks.js';

export const VIEWPORT_CHECKS = [
  defineCheck({
    code: 'META_VIEWPORT_NOT_RESPONSIVE',
    title: 'Viewport not responsive',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The viewport sets a fixed pixel width, or neither width=device-width nor an initial-scale.',
    requires: 'META_VIEWPORT_MISSING',
    scoreReason: {
      lighthouse: 'viewport: fail',
      semrush: 'error',
      ours: 'As META_VIEWPORT_MISSING.',
    },
    why:
      'A viewport with a fixed pixel width, or with neither width=device-width nor an initial-scale, makes ' +
      'phones lay the page out at desktop width and shrink it, so text is tiny; Google indexes the mobile ' +
      'rendering of pages.',
    howToFix:
      'Set the viewport meta tag\'s content to "width=device-width, initial-scale=1" and make the layout adapt ' +
      'with CSS (relative widths, media queries) instead of fixing the width.',
    evidence: {
      kind: 'VALUES',
      keys: ['viewport', 'reason'],
      present: (e, view) => {
        view.fact('Viewport', textCell(stringAt(e, 'viewport')));
        view.fact('Problem', textCell(stringAt(e, 'reason')));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.viewport === null || html.viewport.trim() === '') return null;
      const reason = viewportProblem(html.viewport);
      return reason === null ? pass() : fail({ viewport: html.viewport, reason });
    },
    fix: (ctx) => {
      const viewport = ctx.evidence.string('viewport') ?? '';
      return {
        summary: 'Use a responsive viewport: width=device-width, initial-scale=1',
        steps: [
          `The viewport "${shorten(viewport, 100)}" (${ctx.evidence.string('reason') ?? 'not responsive'}) makes ` +
            'phones lay the page out at a fixed desktop width.',
          'Replace it with the tag below, then make fixed-width elements fluid (max-width: 100%, media queries) so ' +
            'nothing overflows at 360 px.',
        ],
        code: RESPONSIVE_VIEWPORT,
      };
    },
  }),
  defineCheck({
    code: 'META_VIEWPORT_MULTIPLE',
    title: 'Multiple viewports',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The page has more than one <meta name="viewport">.',
    requires: 'META_VIEWPORT_MISSING',
    scoreReason: {},
    why:
      'With several viewport tags browsers apply one of them, usually the last, which is often not the one ' +
      'intended and can undo a responsive setting.',
    howToFix:
      'Keep a single viewport meta tag in the head, usually width=device-width, initial-scale=1; ' +
      'duplicates often come from a theme and a plugin both printing one.',
    evidence: {
      kind: 'VALUES',
      keys: ['count'],
      present: (e, view) => view.fact('Viewport tags', numberCell(numberAt(e, 'count'))),
    },
    evaluate: ({ html }) => {
      if (!html || html.viewportCount === undefined || html.viewportCount === 0) return null;
      return html.viewportCount > 1 ? fail({ count: html.viewportCount }) : pass();
    },
    fix: (ctx) => ({
      summary: `Keep one viewport tag instead of ${ctx.evidence.number('count') ?? 'several'}`,
      steps: [
        'Browsers apply only one viewport tag (usually the last), which may not be the intended one.',
        'Remove the extra tags, often printed by both the theme and a plugin, and keep the one below in <head>.',
      ],
      code: RESPONSIVE_VIEWPORT,
    }),
  }),
] as const;
