import { escapeHtml } from '../../fixes/markup-text.js';
import { targetFix } from '../../fixes/structured-international-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import {
  listCell,
  NOINDEX_SOURCES,
  recordsAt,
  stringAt,
  stringsAt,
  targetTable,
  textCell,
  urlCell,
} from '../evidence-presenters.js';
import { SAMPLE, targetCheck } from '../structured-international-checks.js';

export const PAGINATION_CHECKS = [
  defineCheck({
    code: 'LINKS_PAGINATION_BROKEN',
    externalVerdicts: true,
    title: 'Pagination link to a bad URL',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'site',
    description: 'A rel=next or rel=prev target the audit knows answers 4xx/5xx, cannot be fetched, or redirects.',
    scoreReason: {
      ahrefs: 'error',
      ours: "The series' items are reached other ways: WARNING.",
    },
    why:
      'Links between the pages of a series (rel=next and rel=prev) lead crawlers from one page to the next; ' +
      'a target that is missing, failing or redirecting breaks the chain, and the items listed on later ' +
      'pages may not be found.',
    howToFix:
      'Point rel=next and rel=prev at the real URLs of the neighbouring pages, which should answer 200; ' +
      'remove rel=next from the last page and rel=prev from the first, and update them when the series ' +
      'changes.',
    evidence: {
      kind: 'LINKS',
      keys: ['targets'],
      present: (e, view) => targetTable(view, 'Pagination links that do not answer 200', 'rel', e),
    },
    evaluate: (ctx) =>
      targetCheck(
        ctx,
        'LINKS_PAGINATION_BROKEN',
        (store, row) => (store.pagination(row) ?? []).map((link) => ({ label: link.rel, url: link.url })),
        (verdict) => verdict.broken,
      ),
    fix: (ctx) => targetFix(ctx, 'pagination link', 'Point rel=next/prev at the working URL'),
  }),
  defineCheck({
    code: 'LINKS_PAGINATION_NOINDEX',
    title: 'Paginated page is noindex',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'A page in a rel=next/prev series is noindex, so the items it lists may not be found.',
    scoreReason: {
      ahrefs: 'warning',
    },
    why:
      'A page of a paginated series that is noindex keeps its own content out of the index, and over time ' +
      'search engines also crawl its links less, so products or articles listed only there may be missed.',
    howToFix:
      'Let the pages of the series be indexed: remove the noindex (meta robots or X-Robots-Tag) from them ' +
      'and give each page its own self-referencing canonical rather than pointing them all at page 1.',
    evidence: {
      kind: 'VALUES',
      keys: ['sources', 'links'],
      present: (e, view) => {
        view.fact(
          'noindex set by',
          listCell(stringsAt(e, 'sources').map((source) => NOINDEX_SOURCES[source] ?? source)),
        );
        view.table(
          'Pagination links of the page',
          ['rel', 'URL'],
          recordsAt(e, 'links').map((link) => [
            textCell(stringAt(link, 'rel') ?? ''),
            urlCell(stringAt(link, 'url') ?? '', view.pageUrl),
          ]),
        );
      },
    },
    evaluate: ({ html }) => {
      const series = html?.pagination;
      if (!html || !series || series.length === 0) return null;
      return html.robots.noindex
        ? fail({
            sources: html.robots.noindexSources,
            links: series.slice(0, SAMPLE).map((link) => ({ rel: link.rel, url: link.url ?? link.href })),
          })
        : pass();
    },
    fix: (ctx) => {
      const sources = ctx.evidence.strings('sources', 3);
      return {
        summary: 'Remove noindex from this page of the paginated series',
        steps: [
          `The page is noindex (${sources.join(', ') || 'meta robots'}) while it belongs to a rel=next/prev series.`,
          sources.includes('header')
            ? 'Remove the X-Robots-Tag: noindex header for this URL in the server or CDN configuration.'
            : 'Remove the noindex from the meta robots tag of the series template.',
          'Give the page a self-referencing canonical rather than pointing it at page 1.',
        ],
        code: `<link rel="canonical" href="${escapeHtml(ctx.url)}">`,
      };
    },
  }),
] as const;
