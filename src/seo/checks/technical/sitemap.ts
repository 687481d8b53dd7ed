import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pathOnly } from '../../fixes/server-config-snippets.js';
import { site } from '../../fixes/technical-fix-rules.js';
import { defineCheck } from '../define-check.js';
import {
  capitalize,
  listCell,
  listTable,
  NON_INDEXABLE_REASONS,
  numberAt,
  statusCell,
  stringAt,
  stringsAt,
  urlCell,
} from '../evidence-presenters.js';
import { sitemapListingOutcome, wasRedirected } from '../page-indexability.js';
import {
  notApplicable,
  result,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  sitemapBlockedCheck,
  siteUrl,
} from '../site-check-helpers.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const TECH_SITEMAP_INVALID = 'TECH_SITEMAP_INVALID';
export const TECH_SITEMAP_MISSING = 'TECH_SITEMAP_MISSING';

export const SITEMAP_CHECKS = [
  defineCheck({
    code: TECH_SITEMAP_MISSING,
    title: 'Missing sitemap',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'robots.txt names no sitemap and /sitemap.xml does not answer 200.',
    scoreReason: {
      semrush: 'warning',
    },
    why:
      'A sitemap helps search engines discover and recrawl your URLs, especially new pages, large sites and ' +
      'pages with few links; without one they rely on links alone.',
    howToFix:
      'Generate an XML sitemap of your canonical, indexable URLs (most CMSs and SEO plugins can), serve it at ' +
      '/sitemap.xml or another path, and name it in a Sitemap line in robots.txt; you can also submit it in ' +
      'Search Console.',
    evidence: {
      kind: 'VALUES',
      keys: ['status'],
      present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
    },
    evaluate: ({ input }) => {
      const sitemap = input.sitemap;
      if (!sitemap) return notApplicable('TECH_SITEMAP_MISSING');
      const declared = sitemap.declared ?? input.robots?.sitemaps ?? [];
      const missing = declared.length === 0 && sitemap.defaultStatus !== 200 && !sitemap.analysis;
      return result('TECH_SITEMAP_MISSING', missing, [
        { url: siteUrl(input, '/sitemap.xml'), evidence: { status: sitemap.defaultStatus ?? null } },
      ]);
    },
    fix: (ctx) => {
      const home = `${site(ctx)}/`;
      return {
        summary: `Publish an XML sitemap at ${site(ctx)}/sitemap.xml and name it in robots.txt`,
        steps: [
          'robots.txt names no sitemap and /sitemap.xml does not answer 200, so crawlers must discover pages ' +
            'through links only.',
          'Generate a sitemap listing every indexable, canonical URL (your CMS or framework likely has a ' +
            'plugin or module for it) and serve it at /sitemap.xml.',
          `Add "Sitemap: ${site(ctx)}/sitemap.xml" to robots.txt and submit it in Google Search Console.`,
        ],
        code:
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
          `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    ` +
          `<loc>${escapeHtml(home)}</loc>\n  </url>\n</urlset>\n\n# ` +
          `robots.txt\nSitemap: ${site(ctx)}/sitemap.xml`,
      };
    },
  }),
  defineCheck({
    code: TECH_SITEMAP_INVALID,
    title: 'Invalid sitemap',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The sitemap does not parse, exceeds 50,000 URLs or 50 MiB, or lists URLs of other hosts.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'Semrush/Ahrefs say error; crawlers still find pages through links: WARNING.',
    },
    why:
      'Search engines may reject a sitemap that does not parse or exceeds 50,000 URLs or 50 MiB, and may ignore ' +
      'URLs of other hosts, so the pages it lists may not be discovered through it.',
    howToFix:
      'Fix the XML errors the evidence lists, split large sitemaps into files of at most 50,000 URLs and 50 MiB ' +
      'uncompressed listed in a sitemap index, and list only URLs of the host that serves the sitemap.',
    evidence: {
      kind: 'VALUES',
      keys: ['reasons', 'errors'],
      present: (e, view) => {
        view.fact('Problems', listCell(stringsAt(e, 'reasons').map(capitalize), '; '));
        listTable(view, 'Errors', 'Error', stringsAt(e, 'errors'), null);
      },
    },
    evaluate: ({ input }) => {
      const analysis = input.sitemap?.analysis;
      if (!analysis) return notApplicable('TECH_SITEMAP_INVALID');
      const declared = input.sitemap?.declared ?? input.robots?.sitemaps ?? [];
      const reasons: string[] = [];
      if (!analysis.valid) reasons.push('does not parse or has errors');
      if (analysis.urlCount > SITEMAP_MAX_URLS) reasons.push(`${analysis.urlCount} URLs (limit 50,000)`);
      if (analysis.sizeBytes > SITEMAP_MAX_BYTES) reasons.push(`${analysis.sizeBytes} bytes (limit 50 MiB)`);
      if ((analysis.otherHostUrls ?? 0) > 0) reasons.push(`${analysis.otherHostUrls} URLs of other hosts`);
      return result('TECH_SITEMAP_INVALID', reasons.length > 0, [
        {
          url: declared[0] ?? siteUrl(input, '/sitemap.xml'),
          evidence: { reasons, errors: (analysis.errors ?? []).slice(0, 5) },
        },
      ]);
    },
    fix: (ctx) => {
      const reasons = ctx.evidence.strings('reasons', 4);
      const errors = ctx.evidence.strings('errors', 3);
      const steps = reasons.map((reason) =>
        /URLs \(limit/.test(reason)
          ? `The sitemap has ${reason}: split it into several sitemaps of at most 50,000 URLs and list them ` +
            `in a sitemap index.`
          : /bytes/.test(reason)
            ? `The sitemap is ${reason}: split it (or gzip it; the limit applies to the uncompressed size).`
            : /other hosts/.test(reason)
              ? `The sitemap lists ${reason}: a sitemap may only list URLs of its own host; move them to that ` +
                `host's sitemap.`
              : `The sitemap ${reason}${
                  errors.length > 0 ? `: ${errors.map((error) => shorten(error, 100)).join(' | ')}` : ''
                }.`,
      );
      return {
        summary: `Fix the sitemap at ${shorten(ctx.url, 100)}`,
        steps: [
          ...(steps.length > 0 ? steps : ['The sitemap does not parse or breaks a sitemaps.org limit.']),
          'Validate it against the sitemaps.org schema: UTF-8, the urlset namespace, absolute <loc> URLs with ' +
            '&amp; escaped, one <url> per page.',
        ],
        code:
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
          `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    ` +
          `<loc>${escapeHtml(site(ctx))}/</loc>\n  </url>\n</urlset>`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_SITEMAP_NON_INDEXABLE',
    title: 'Non-indexable URL in sitemap',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The sitemap lists a URL that is noindex, canonicalized elsewhere, redirected or 4xx/5xx.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As TECH_SITEMAP_INVALID.',
    },
    why:
      'A sitemap should list only URLs you want indexed; listing noindex, canonicalized, redirected or failing ' +
      'URLs sends mixed signals and spends crawling on pages that will not be indexed.',
    howToFix:
      'Remove the URL from the sitemap or list its indexable equivalent instead (the redirect target or the ' +
      'canonical URL); generate the sitemap from indexable pages so that this cannot recur.',
    evidence: {
      kind: 'VALUES',
      keys: ['reason', 'status', 'finalUrl'],
      present: (e, view) => {
        const reason = stringAt(e, 'reason');
        if (reason) view.fact('Why', { text: NON_INDEXABLE_REASONS[reason] ?? capitalize(reason) });
        const status = numberAt(e, 'status');
        // Status 0: no response, which the reason already says.
        if (status !== null && status > 0) view.fact('HTTP status', statusCell(status, null, false));
        const finalUrl = stringAt(e, 'finalUrl');
        if (finalUrl && !view.isPage(finalUrl)) view.fact('Final URL', urlCell(finalUrl, view.pageUrl));
      },
    },
    requestedUrl: true,
    sitePass: 'sitemapListing',
    evaluate: ({ facts, page, indexable }) => {
      if (!page.inSitemap) return null;
      const listed = { redirected: wasRedirected(page), status: page.status, finalUrl: page.finalUrl, indexable };
      return sitemapListingOutcome({ ...listed, isHtml: facts !== null, noindex: facts?.robots.noindex ?? false });
    },
    fix: (ctx) => {
      const reason = ctx.evidence.string('reason') ?? 'non-indexable';
      const finalUrl = ctx.evidence.string('finalUrl');
      const status = ctx.evidence.number('status');
      const canonical = ctx.page?.canonical && ctx.page.canonical !== ctx.url ? ctx.page.canonical : null;
      const replacement =
        reason === 'redirect' && finalUrl && finalUrl !== ctx.url
          ? finalUrl
          : reason === 'canonicalized'
            ? canonical
            : null;
      const explanation: Record<string, string> = {
        redirect: `redirects${finalUrl && finalUrl !== ctx.url ? ` to ${shorten(finalUrl, 120)}` : ''}`,
        noindex: 'is noindex',
        canonicalized: `names another URL as canonical${canonical ? ` (${shorten(canonical, 120)})` : ''}`,
        'error-status': `answers ${status ?? 'an error status'}`,
        'no-response': 'did not answer',
      };
      return {
        summary: replacement
          ? `List ${shorten(replacement, 100)} in the sitemap instead of ${shorten(ctx.url, 80)}`
          : `Remove ${shorten(ctx.url, 100)} from the sitemap`,
        steps: [
          `The sitemap lists ${shorten(ctx.url, 140)}, which ${explanation[reason] ?? 'is not indexable'}; ` +
            `sitemaps should hold only canonical, indexable URLs answering 200.`,
          replacement
            ? `Replace the entry with ${shorten(replacement, 140)}.`
            : reason === 'noindex'
              ? 'Remove the entry, or remove the noindex if the page should rank.'
              : 'Remove the entry (or fix the page so it answers 200).',
          'If a plugin generates the sitemap, fix the page settings there (canonical, noindex, redirect) so ' +
            'the sitemap follows automatically.',
        ],
        code: replacement ? `<url>\n  <loc>${escapeHtml(replacement)}</loc>\n</url>` : undefined,
      };
    },
  }),
  defineCheck({
    code: 'TECH_SITEMAP_BLOCKED_BY_ROBOTS',
    title: 'Sitemap URL blocked by robots.txt',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The sitemap lists URLs that robots.txt disallows, so crawlers may not fetch them.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'warning',
    },
    why:
      'Listing URLs in the sitemap asks search engines to crawl them while robots.txt forbids it; the ' +
      'contradiction means those pages cannot be read and may not be indexed properly.',
    howToFix:
      'Decide for each URL: if it should be indexed, remove or narrow the Disallow rule that matches it; if not, ' +
      'remove it from the sitemap. Test the new rules against the listed URLs before deploying.',
    evidence: {
      kind: 'VALUES',
      // `rule` is always "disallowed by robots.txt": the check's own definition.
      keys: ['rule', 'robotsTxt'],
      present: (e, view) => {
        const robots = stringAt(e, 'robotsTxt');
        if (robots) view.fact('Disallowed by', urlCell(robots, view.pageUrl));
      },
    },
    evaluate: ({ input }) => sitemapBlockedCheck('TECH_SITEMAP_BLOCKED_BY_ROBOTS', input),
    fix: (ctx) => {
      const path = pathOnly(ctx.url);
      return {
        summary: `Resolve the conflict: the sitemap lists ${shorten(ctx.url, 100)} but robots.txt disallows it`,
        steps: [
          `${shorten(ctx.url, 140)} is submitted in the sitemap, yet robots.txt forbids crawlers to fetch ` +
            `it, so search engines can neither read nor properly index it.`,
          'If the page should appear in search, allow it in robots.txt (rule below).',
          'If it is private on purpose, remove it from the sitemap instead.',
        ],
        code: ['User-agent: *', `Allow: ${path}`].join('\n'),
      };
    },
  }),
] as const;
