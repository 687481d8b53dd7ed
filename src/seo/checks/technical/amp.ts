import { escapeHtml } from '../../fixes/markup-text.js';
import { targetFix } from '../../fixes/structured-international-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { NOTHING, targetTable } from '../evidence-presenters.js';
import { targetCheck } from '../structured-international-checks.js';

export const AMP_CHECKS = [
  defineCheck({
    code: 'TECH_AMP_LINK_BROKEN',
    externalVerdicts: true,
    title: 'AMP version is broken',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The rel=amphtml target the audit knows does not answer 200 (error, failure or redirect).',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'The canonical page stays in search: WARNING.',
    },
    why:
      'rel=amphtml tells search engines where the AMP version of a page is; when that URL fails or ' +
      'redirects, the AMP version cannot be used and the crawler wastes requests on it.',
    howToFix:
      'Point rel=amphtml at the working AMP URL of the same content, which should answer 200 directly, or ' +
      'remove the link if the site no longer publishes AMP pages.',
    evidence: {
      kind: 'LINKS',
      keys: ['targets'],
      present: (e, view) => targetTable(view, 'AMP version that does not answer 200', 'Link', e),
    },
    evaluate: (ctx) =>
      targetCheck(
        ctx,
        'TECH_AMP_LINK_BROKEN',
        (store, row) => {
          const ampHtml = store.ampHtml(row);
          return ampHtml ? [{ label: 'amphtml', url: ampHtml }] : [];
        },
        (verdict) => verdict.broken,
      ),
    fix: (ctx) => targetFix(ctx, 'AMP link', 'Point rel=amphtml at the working AMP URL'),
  }),
  defineCheck({
    code: 'TECH_AMP_NO_CANONICAL',
    title: 'AMP page without canonical',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'An AMP page (<html amp> or <html ⚡>) has no <link rel="canonical">, which AMP requires.',
    scoreReason: {
      semrush: 'error',
      ours: 'As TECH_AMP_LINK_BROKEN.',
    },
    why:
      'The AMP specification requires every AMP page to link its canonical page (or itself when it is the ' +
      'only version); without it the AMP page is invalid and search engines cannot pair it with the regular ' +
      'page.',
    howToFix:
      'Add a link rel="canonical" element to the head of the AMP page, pointing to the regular (non-AMP) ' +
      'version of the page, or to the AMP page itself when there is no other version.',
    evidence: NOTHING,
    evaluate: ({ html }) => {
      if (!html?.amp) return null;
      return html.canonicals.some((canonical) => canonical.href !== '') ? pass() : fail();
    },
    fix: (ctx) => {
      const regular = ctx.url.replace(/\/amp\/?$|[?&]amp(=1)?$|\.amp(?=\.html?$)/i, '');
      return {
        summary: 'Add a canonical link to the AMP page',
        steps: [
          'AMP requires <link rel="canonical"> on every AMP page: to the regular page, or to itself when the AMP ' +
            'page is the only version.',
          regular !== ctx.url
            ? `The regular version is probably ${regular}; link it as canonical, and link this AMP page from it ` +
              `with rel=amphtml.`
            : 'Link the regular version of the page, or this URL if there is none.',
        ],
        code: `<link rel="canonical" href="${escapeHtml(regular)}">`,
      };
    },
  }),
] as const;
