import { inlineList, plural } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { pathOnly } from '../../fixes/server-config-snippets.js';
import { robotsTxt, site } from '../../fixes/technical-fix-rules.js';
import { defineCheck } from '../define-check.js';
import { linkTable, listTable, numberAt, statusCell, stringsAt } from '../evidence-presenters.js';
import { notApplicable, result } from '../site-check-helpers.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const TECH_ROBOTS_UNREACHABLE = 'TECH_ROBOTS_UNREACHABLE';
export const TECH_ROBOTS_MISSING = 'TECH_ROBOTS_MISSING';
export const TECH_ROBOTS_BLOCKS_ALL = 'TECH_ROBOTS_BLOCKS_ALL';

export const ROBOTS_CHECKS = [
  defineCheck({
    code: TECH_ROBOTS_MISSING,
    title: 'Missing robots.txt',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: '/robots.txt answers 404.',
    scoreReason: {
      lighthouse: 'robots-txt (SEO): not applicable on 404',
      semrush: 'notice',
      ours: 'A 404 robots.txt means "crawl everything" (Google): hygiene.',
    },
    why:
      'Without robots.txt crawlers may fetch everything, which is allowed, but you lose the place to keep them ' +
      'out of low-value URLs and to point them to your sitemap.',
    howToFix:
      'Serve a plain-text file at /robots.txt that answers 200, for example "User-agent: *" with an empty ' +
      '"Disallow:" and a Sitemap line giving the absolute sitemap URL; add Disallow rules only for paths not to ' +
      'crawl.',
    evidence: {
      kind: 'VALUES',
      keys: ['status'],
      present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
    },
    evaluate: ({ robots }) => {
      if (!robots) return notApplicable('TECH_ROBOTS_MISSING');
      return result('TECH_ROBOTS_MISSING', robots.status === 404 || robots.status === 410, [
        { url: robots.url, evidence: { status: robots.status } },
      ]);
    },
    fix: (ctx) => ({
      summary: `Publish a robots.txt at ${site(ctx)}/robots.txt`,
      steps: [
        '/robots.txt answers 404. Crawlers then crawl everything, which works, but you cannot steer them or ' +
          'point them to the sitemap.',
        'Create a plain-text file at the site root with the content below (served as text/plain, answering 200).',
        'Add Disallow lines only for areas that must not be crawled (admin, cart, internal search results).',
      ],
      code: robotsTxt(ctx),
    }),
  }),
  defineCheck({
    code: TECH_ROBOTS_UNREACHABLE,
    title: 'Unreachable robots.txt',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'site',
    blocker: true,
    description: '/robots.txt answers 5xx or times out, so crawlers treat the whole site as disallowed.',
    scoreReason: {
      lighthouse: 'robots-txt: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL and a blocker: Google stops crawling a site whose robots.txt answers 5xx.',
    },
    why:
      'While robots.txt answers 5xx or times out, Google temporarily treats the whole site as disallowed and ' +
      'stops crawling it, so new and updated pages are not picked up until it is reachable again.',
    howToFix:
      'Make /robots.txt answer 200 quickly (or 404 if you have no rules): serve it as a static file, exempt it ' +
      'from authentication, rate limits and bot protection, and check the server or CDN logs for the errors.',
    evidence: {
      kind: 'VALUES',
      keys: ['status', 'timedOut'],
      present: (e, view) =>
        view.fact('Status', statusCell(numberAt(e, 'status'), e.timedOut === true ? 'Timed out' : null, true)),
    },
    evaluate: ({ robots }) => {
      if (!robots) return notApplicable('TECH_ROBOTS_UNREACHABLE');
      return result('TECH_ROBOTS_UNREACHABLE', robots.unreachable, [
        { url: robots.url, evidence: { status: robots.status, timedOut: robots.robots.timedOut ?? false } },
      ]);
    },
    fix: (ctx) => {
      const status = ctx.evidence.number('status');
      const timedOut = ctx.evidence.boolean('timedOut');
      return {
        summary: 'Make /robots.txt answer reliably (200 or 404)',
        steps: [
          `/robots.txt ${timedOut ? 'timed out' : status !== null ? `answered ${status}` : 'could not be fetched'}; ` +
            'Google then treats the whole site as disallowed and stops crawling it.',
          'Serve robots.txt as a static file from the web server rather than through the application, so it ' +
            'keeps working when the app is slow or down.',
          'Check that firewalls or bot protection do not block crawlers on this path.',
        ],
        code:
          `# nginx (server block)\nlocation = /robots.txt {\n    root /var/www/html;   # the folder that ` +
          `holds robots.txt\n    try_files $uri =404;\n    access_log off;\n}\n\n# Apache (.htaccess): serve ` +
          `the file before any rewrite to the app\nRewriteEngine On\nRewriteRule ^robots\\.txt$ - [L]`,
      };
    },
  }),
  defineCheck({
    code: TECH_ROBOTS_BLOCKS_ALL,
    title: 'Robots.txt blocks all crawlers',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'site',
    blocker: true,
    description: 'robots.txt has Disallow: / for user-agent *.',
    scoreReason: {
      lighthouse: 'is-crawlable: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL and a blocker: every page blocked by robots.txt.',
    },
    why:
      'Disallow: / for every user agent stops compliant crawlers from fetching any page, so nothing can be read; ' +
      'pages may drop out of search or appear without a description.',
    howToFix:
      'Remove the "Disallow: /" line from the "User-agent: *" group (often left over from a staging site) and ' +
      'disallow only the paths that should not be crawled; to keep pages out of results, use noindex instead.',
    evidence: { kind: 'VALUES', keys: ['rule'] },
    evaluate: ({ robots }) => {
      if (!robots?.parsed) return notApplicable('TECH_ROBOTS_BLOCKS_ALL');
      return result('TECH_ROBOTS_BLOCKS_ALL', robots.robots.blocksAll === true, [
        { url: robots.url, evidence: { rule: 'User-agent: * / Disallow: /' } },
      ]);
    },
    fix: (ctx) => ({
      summary: 'Remove "Disallow: /" for all crawlers from robots.txt',
      steps: [
        `${site(ctx)}/robots.txt tells every crawler not to crawl anything (User-agent: * / Disallow: /), ` +
          `so pages drop out of search.`,
        'This is typically a staging robots.txt deployed to production. Replace it with the content below, ' +
          'keeping only specific Disallow lines you need.',
        "Afterwards, test it in Google Search Console's robots.txt report and request re-crawling of key pages.",
      ],
      code: robotsTxt(ctx),
    }),
  }),
  defineCheck({
    code: 'TECH_ROBOTS_INVALID',
    title: 'Invalid robots.txt',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description:
      'robots.txt has an unknown directive, a rule before any user-agent, or a path not starting with / or *.',
    scoreReason: {
      lighthouse: 'robots-txt: fail (SEO)',
      semrush: 'error',
      ahrefs: 'warning',
      ours: 'Lighthouse/Semrush fail it; crawlers skip the bad line and obey the rest: WARNING.',
    },
    why:
      'Crawlers skip lines they do not understand, so a typo, a rule outside any user-agent group or a malformed ' +
      'path may silently fail to block or allow what you intended.',
    howToFix:
      'Start every group with a User-agent line, use only standard directives (User-agent, Allow, Disallow, ' +
      'Sitemap) spelled correctly, and begin every path with / or *, for example "Disallow: /cart/" not ' +
      '"Disallow: cart".',
    evidence: {
      kind: 'VALUES',
      keys: ['errors'],
      present: (e, view) => listTable(view, 'Problems in robots.txt', 'Problem', stringsAt(e, 'errors'), null),
    },
    evaluate: ({ robots }) => {
      if (!robots?.parsed) return notApplicable('TECH_ROBOTS_INVALID');
      return result('TECH_ROBOTS_INVALID', robots.robots.invalid === true, [
        { url: robots.url, evidence: { errors: (robots.robots.errors ?? []).slice(0, 5) } },
      ]);
    },
    fix: (ctx) => {
      const errors = ctx.evidence.strings('errors', 5);
      return {
        summary: `Fix ${plural(errors.length || 1, 'error')} in robots.txt`,
        steps: [
          ...(errors.length > 0
            ? errors.map((error) => `robots.txt: ${shorten(error, 160)}.`)
            : ['robots.txt has lines crawlers do not understand.']),
          'Every group starts with User-agent lines; rules are Allow/Disallow with a path starting with / or ' +
            '*; Sitemap lines take an absolute URL. Crawlers ignore anything else, which may unblock or block ' +
            'more than intended.',
          'A clean starting point is below; re-add the specific rules you need, one per line.',
        ],
        code: robotsTxt(ctx),
      };
    },
  }),
  defineCheck({
    code: 'TECH_BLOCKED_BY_ROBOTS',
    title: 'Link blocked by robots.txt',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    fixUnit: 'target',
    description: "A linked URL is disallowed for the crawler's user agent.",
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
      ours:
        'The rule makes "blocked while linked" CRITICAL, but this check is charged on the linking page and most ' +
        'blocked targets (admin, cart, search) are blocked on purpose: NOTICE; a blocked URL the sitemap lists is ' +
        'TECH_SITEMAP_BLOCKED_BY_ROBOTS.',
    },
    why:
      'Search engines cannot crawl linked URLs that robots.txt disallows; that is fine for URLs you want left ' +
      'alone, but a blocked page may still be indexed without its content, from links alone.',
    howToFix:
      'If the linked pages should be crawled, narrow the matching Disallow rule in robots.txt; if the block is ' +
      'intended, check that nothing important sits behind it, and use noindex rather than robots.txt to keep ' +
      'pages out of results.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Links robots.txt disallows', e),
    },
    sitePass: 'blockedByRobots',
    evaluate: (ctx) => ctx.linkTargets()?.blockedByRobots ?? null,
    fix: (ctx) => {
      const links = ctx.evidence.urls('links', 'url', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      const paths = [...new Set(links.map(pathOnly))];
      return {
        summary: `Unblock or stop linking ${plural(count || links.length, 'URL')} disallowed by robots.txt`,
        steps: [
          `The page links to URLs robots.txt disallows: ${inlineList(links, count)}. Crawlers see the links ` +
            `but cannot read the targets.`,
          'If those pages should be found in search, add Allow rules for them (below) or remove the Disallow ' +
            'that covers them.',
          'If they are private on purpose (cart, account, filters), that is fine; consider rel="nofollow" on ' +
            'the links or removing them from crawlable navigation.',
        ],
        code: paths.length > 0 ? ['User-agent: *', ...paths.map((path) => `Allow: ${path}`)].join('\n') : undefined,
      };
    },
  }),
] as const;
