import { pageName } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { NOINDEX_SOURCES, formatNumber, listCell, numberAt, stringsAt, textCell } from '../evidence-presenters.js';
import { noindexSitewideCheck } from '../site-check-helpers.js';
import { xRobotsTagVerdict } from '../../headers/response-verdicts.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const TECH_NOINDEX = 'TECH_NOINDEX';
export const TECH_NOINDEX_SITEWIDE = 'TECH_NOINDEX_SITEWIDE';

export const INDEXING_CHECKS = [
  defineCheck({
    code: TECH_NOINDEX,
    title: 'Noindex page',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description:
      'The page is noindex via meta robots or X-Robots-Tag (CRITICAL when the sitemap lists it: the site asks for ' +
      'it to be indexed and forbids it at once, so the noindex is not intended).',
    scoreReason: {
      lighthouse: 'is-crawlable: fail (SEO)',
      semrush: 'notice',
      ahrefs: 'warning',
      ours:
        'CRITICAL on a page the sitemap lists (the site asks for it to be indexed: the noindex is not intended, the ' +
        'rule\'s "noindex not intended by the site\'s own pattern"); elsewhere NOTICE, since deliberate noindex ' +
        '(tag pages, search results, drafts) is common and a crawl cannot tell intent.',
    },
    why:
      'A noindex directive keeps the page out of search results; that is right for pages such as logins, carts ' +
      'or internal search, but a mistake on a page meant to rank removes it.',
    howToFix:
      'If the page should appear in search, remove noindex from the robots meta tag and the X-Robots-Tag header ' +
      '(check CMS settings and plugins); if it is intended, leave it and keep the page out of the sitemap.',
    evidence: {
      kind: 'HEADERS',
      keys: ['sources', 'meta', 'header'],
      present: (e, view) => {
        view.fact(
          'Noindex set by',
          listCell(stringsAt(e, 'sources').map((source) => NOINDEX_SOURCES[source] ?? source)),
        );
        view.table(
          'Robots directives',
          ['Set in', 'Value'],
          [
            ...stringsAt(e, 'meta').map((value) => [{ text: '<meta name="robots">' }, textCell(value)]),
            ...stringsAt(e, 'header').map((value) => [{ text: 'X-Robots-Tag header' }, textCell(value)]),
          ],
        );
      },
    },
    // The audit reads X-Robots-Tag through the page facts (buildRobotsDirectives), which parse each value with the
    // same parseXRobotsTag the tool's xRobotsTagVerdict folds; meta robots count only in the audit (the tool sees
    // headers only).
    headersTool: xRobotsTagVerdict,
    evaluate: ({ html, page }) =>
      html
        ? html.robots.noindex
          ? fail(
              { sources: html.robots.noindexSources, meta: html.robots.meta, header: html.robots.header },
              page.inSitemap ? 'CRITICAL' : undefined,
            )
          : pass()
        : null,
    fix: (ctx) => {
      const sources = ctx.evidence.strings('sources', 3);
      const meta = ctx.evidence.strings('meta', 3);
      const header = ctx.evidence.strings('header', 3);
      const fromHeader = sources.includes('header') || header.length > 0;
      const steps = [
        `The page is excluded from search results by ${
          [
            meta.length > 0
              ? `<meta name="robots" content="${shorten(meta[0], 60)}">`
              : sources.some((s) => s.includes('meta'))
                ? 'a robots meta tag'
                : '',
            fromHeader ? `the X-Robots-Tag header${header.length > 0 ? ` "${shorten(header[0], 60)}"` : ''}` : '',
          ]
            .filter(Boolean)
            .join(' and ') || 'a noindex directive'
        }.`,
        'If the page should appear in search: remove noindex (delete the meta tag or set it to "index, ' +
          'follow", and remove the header from the server or CMS config).',
        'If it should stay out of search, that is fine: keep it out of the sitemap and do not canonicalize ' +
          'indexable pages to it.',
      ];
      return {
        summary: `Remove noindex from ${pageName(ctx)} if it should rank`,
        steps,
        code: fromHeader
          ? '# nginx: delete lines like\nadd_header X-Robots-Tag "noindex";\n# Apache: delete lines like\nHeader ' +
            'set X-Robots-Tag "noindex"'
          : '<meta name="robots" content="index, follow">',
      };
    },
  }),
  defineCheck({
    code: TECH_NOINDEX_SITEWIDE,
    title: 'Site-wide noindex',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'site',
    blocker: true,
    description: '90% or more of the crawled HTML pages are noindex.',
    scoreReason: {
      lighthouse: 'is-crawlable: fail (SEO)',
      ours: 'CRITICAL and a blocker: 90% or more of the site out of search.',
    },
    why:
      'With noindex on 90% or more of the crawled pages, almost nothing on the site can appear in search ' +
      'results; this is often a staging setting left on after launch.',
    howToFix:
      'Remove the site-wide noindex: check the CMS visibility setting (such as "discourage search engines"), the ' +
      'robots meta tag in the base template and any X-Robots-Tag header set by the server, CDN or a plugin.',
    evidence: {
      kind: 'VALUES',
      keys: ['noindexPages', 'htmlPages', 'share'],
      present: (e, view) => {
        const noindex = numberAt(e, 'noindexPages');
        const html = numberAt(e, 'htmlPages');
        const share = numberAt(e, 'share');
        if (noindex === null || html === null) return;
        const percent = share === null ? '' : ` (${formatNumber(share * 100)}%)`;
        view.fact('Noindex pages', { text: `${formatNumber(noindex)} of ${formatNumber(html)} HTML pages${percent}` });
      },
    },
    evaluate: ({ input, pages }) => noindexSitewideCheck(TECH_NOINDEX_SITEWIDE, input, pages),
    fix: (ctx) => {
      const noindex = ctx.evidence.number('noindexPages');
      const html = ctx.evidence.number('htmlPages');
      return {
        summary: 'Remove the site-wide noindex that hides the site from search',
        steps: [
          `${noindex !== null && html !== null ? `${noindex} of ${html}` : 'Nearly all'} crawled HTML pages ` +
            `are noindex: the site is effectively invisible in search.`,
          'This usually comes from one switch: WordPress\'s "Discourage search engines from indexing this ' +
            'site" (Settings → Reading), a staging flag deployed to production, or an X-Robots-Tag header in the ' +
            'server or CDN config.',
          'Turn it off, then request re-indexing of the home page in Google Search Console and Bing Webmaster Tools.',
        ],
        code:
          '# WordPress\nwp option update blog_public 1\n\n# find a server-level header\ngrep -rn "X-Robots-Tag" ' +
          '/etc/nginx /etc/apache2 2>/dev/null',
      };
    },
  }),
] as const;
