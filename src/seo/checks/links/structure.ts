import { fieldOf } from '../../fixes/fix-evidence.js';
import { pageName, plural } from '../../fixes/fix-rule-context.js';
import { anchorOf, breadcrumbNav, linkLabel, linkToThisPage, sameSite } from '../../fixes/link-fix-rules.js';
import { escapeHtml, phraseFromPath, shorten } from '../../fixes/markup-text.js';
import { pathOnly } from '../../fixes/server-config-snippets.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  anchorCell,
  linkTable,
  NOTHING,
  numberAt,
  numberCell,
  recordsAt,
  stringAt,
  writtenCell,
} from '../evidence-presenters.js';
import { SAMPLE } from '../page-check-helpers.js';
import { orphanCheck } from '../site-check-helpers.js';

export const LINK_STRUCTURE_CHECKS = [
  defineCheck({
    code: 'LINKS_ORPHAN',
    title: 'Orphan page',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'site',
    description:
      'A URL listed in the sitemap (other than the start URL and URLs robots.txt disallows) that no crawled page ' +
      'links to, directly or through a redirect; judged only when the crawl was not cut by a page cap.',
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
      ours: 'Listed in the sitemap but unlinked: found late, ranks worse.',
    },
    why:
      'A page listed only in the sitemap receives no internal link signals and is hard for visitors to find; ' +
      'search engines may crawl it less often and treat it as less important.',
    howToFix:
      'Link to the page from relevant content, category pages or navigation with descriptive link text; if the ' +
      'page should no longer exist, remove it from the sitemap and redirect or retire it.',
    evidence: { kind: 'VALUES', keys: ['inlinks'] },
    evaluate: ({ input, pages }) => orphanCheck('LINKS_ORPHAN', input, pages),
    fix: (ctx) => ({
      summary: `Link to the orphan page ${shorten(ctx.url, 100)} from related pages`,
      steps: [
        'The sitemap lists this URL but no crawled page links to it, so it gets no internal link equity and ' +
          'visitors cannot find it.',
        'Add a link to it from the most related category or hub page, and from related articles, with anchor ' +
          'text that says what it is about.',
        'If the page is obsolete, remove it from the sitemap and 301-redirect it to its replacement instead.',
      ],
      code: linkToThisPage(ctx),
    }),
  }),
  defineCheck({
    code: 'LINKS_DEAD_END',
    title: 'Page without outgoing links',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'The page links to no other page.',
    scoreReason: {
      ahrefs: 'warning',
    },
    why:
      'A page with no outgoing links leaves visitors nowhere to go and gives crawlers no path from it to the ' +
      'rest of the site.',
    howToFix:
      'Add links to related content, the parent category and the main navigation; if links are built by scripts ' +
      'or buttons, make them a elements with a real URL in href so crawlers can follow them.',
    evidence: NOTHING,
    evaluate: ({ html }) => (html ? (html.links.some((link) => link.kind === 'http') ? pass() : fail()) : null),
    fix: (ctx) => ({
      summary: `Add onward links to ${pageName(ctx)}`,
      steps: [
        'The page links to no other page: visitors hit a dead end and crawlers find nothing to follow from it.',
        'Add a breadcrumb back to its section (proposed below from the URL path) and links to related pages.',
        'If the page is rendered by JavaScript, make sure its links are real <a href> elements in the HTML, ' +
          'not click handlers.',
      ],
      code: breadcrumbNav(ctx),
    }),
  }),
  defineCheck({
    code: 'LINKS_TOO_MANY',
    title: 'Too many links',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'The page has over 100 links.',
    scoreReason: {
      semrush: 'warning',
    },
    why:
      'There is no fixed limit, but a page with over 100 links makes the important ones harder for visitors to ' +
      'find, and each link may receive a smaller share of the signals the page passes on.',
    howToFix:
      'Remove redundant links such as repeated navigation, tag clouds and long footer lists, split or group ' +
      'large listings, and keep the links that help visitors reach the most important pages.',
    evidence: {
      kind: 'VALUES',
      keys: ['count'],
      present: (e, view) => view.fact('Links on the page', numberCell(numberAt(e, 'count'))),
    },
    evaluate: ({ html }) =>
      html ? (html.linkCount > T.maxLinksPerPage ? fail({ count: html.linkCount }) : pass()) : null,
    fix: (ctx) => {
      const count = ctx.evidence.number('count');
      const links = ctx.page?.links ?? [];
      const seen = new Set<string>();
      let repeats = 0;
      for (const link of links) {
        const key = link.url ?? link.href;
        if (seen.has(key)) repeats++;
        else seen.add(key);
      }
      return {
        summary: `Cut the ${count !== null ? `${count} ` : ''}links on ${pageName(ctx)} to about ${T.maxLinksPerPage}`,
        steps: [
          `The page has ${count ?? 'over ' + T.maxLinksPerPage} links; each one gets a smaller share of the ` +
            `page's link value and the important ones drown.`,
          repeats > 0
            ? `${repeats} of the first ${links.length} links repeat a target already linked on the page ` +
              `(logo, menu, card image and title): keep one link per target where you can.`
            : 'Remove repeated links to the same target (logo plus menu, card image plus card title).',
          'Trim mega-menus and footers to the main sections, and paginate or filter long lists instead of ' +
            'linking every item on one page.',
        ],
      };
    },
  }),
  defineCheck({
    code: 'LINKS_INTERNAL_NOFOLLOW',
    title: 'Nofollow internal link',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'An internal link has rel=nofollow.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'notice',
    },
    why:
      'rel=nofollow on your own links asks search engines not to follow them or pass signals, which can hinder ' +
      'the discovery of pages; it does not redistribute signals to other links.',
    howToFix:
      'Remove rel=nofollow from internal links you want crawled; to keep a page out of search results use ' +
      'noindex on that page instead, and to stop crawling of a section use robots.txt.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Internal links with rel=nofollow', e),
    },
    evaluate: ({ html }) => {
      const internal = html?.links.filter((link) => link.kind === 'http' && link.internal);
      if (!internal || internal.length === 0) return null;
      const nofollow = internal.filter((link) => link.nofollow);
      return nofollow.length > 0
        ? fail({ count: nofollow.length, links: nofollow.slice(0, SAMPLE).map((link) => link.url) })
        : pass();
    },
    fix: (ctx) => {
      const links = ctx.evidence.urls('links', 'url', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Remove rel="nofollow" from ${plural(count || links.length, 'internal link')}`,
        steps: [
          `These links to your own pages carry ` +
            `rel=nofollow: ${links.map((url) => linkLabel(ctx, url)).join('; ') || 'see the audit evidence'}.`,
          'nofollow on internal links wastes link equity and can keep those pages from being crawled; remove ' +
            'it (keep it only on login or cart links you really do not want crawled, and prefer robots.txt or ' +
            'noindex for those).',
        ],
        code:
          links
            .map(
              (url) =>
                `<a href="${escapeHtml(url)}">` +
                `${escapeHtml(anchorOf(ctx, url) ?? (phraseFromPath(pathOnly(url)) || url))}</a>`,
            )
            .join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_HTTPS_TO_HTTP',
    title: 'Link from HTTPS to HTTP',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    description: 'An https page links to an http URL of its own site (links to other sites over http are theirs).',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
      ours: "The site's own links only: an http link to another site is no downgrade of this one (row 23).",
    },
    why:
      'Links to http URLs send visitors to an insecure connection, which browsers may warn about, or through an ' +
      'extra redirect, and they point search engines to URLs you do not prefer.',
    howToFix:
      'Change the links to the https version of the target; on your own site, replace hard-coded http URLs in ' +
      'content and templates, and for other sites check that the https version works before switching.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Links to http:// URLs', e),
    },
    // Only the site's own links: an http link to another site is no downgrade of this one (mixed content, which is
    // about resources, stays TECH_MIXED_CONTENT), and an https site scores no lower than the same site over http.
    evaluate: ({ html, https }) => {
      const links = https ? html?.links.filter((link) => link.kind === 'http' && link.internal) : undefined;
      if (!links || links.length === 0) return null;
      const insecure = links.filter((link) => link.url!.startsWith('http:'));
      if (insecure.length === 0) return pass();
      const targets = [...new Set(insecure.map((link) => link.url!))];
      return fail(
        { count: insecure.length, links: insecure.slice(0, SAMPLE).map((link) => link.url) },
        undefined,
        targets,
      );
    },
    fix: (ctx) => {
      const links = ctx.evidence.urls('links', 'url', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Change ${plural(count || links.length, 'http:// link')} to https://`,
        steps: [
          ...links.map((url) =>
            sameSite(ctx, url)
              ? `${linkLabel(ctx, url)}: your own site; link ` +
                `to ${shorten(url.replace(/^http:/, 'https:'), 120)} directly.`
              : `${linkLabel(ctx, url)}: check that ${shorten(url.replace(/^http:/, 'https:'), 120)} works ` +
                `and link to it.`,
          ),
          'Search templates and content for "http://" links; for your own pages, use https or root-relative URLs.',
        ],
        code: links.map((url) => `${url}\n  -> ${url.replace(/^http:/, 'https:')}`).join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_UNCRAWLABLE',
    title: 'Uncrawlable link',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'element',
    description:
      'An <a> used as a link has no crawlable href: javascript:void(0), a file: URL, one that does not parse, or ' +
      "none (Lighthouse's crawlable-anchors rules).",
    scoreReason: {
      lighthouse: 'crawlable-anchors: fail (SEO)',
    },
    why:
      'Search engines follow only a elements with a resolvable URL in href; links that rely on javascript:void(0), ' +
      'a file: URL or a click handler without href cannot be crawled, so their targets may never be discovered.',
    howToFix:
      'Give each link a real URL in its href, for example href="/products/oak-table", and attach any script ' +
      'behaviour on top of it; use a button element for actions that do not navigate.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) =>
        view.table(
          'Links without a crawlable href',
          ['Source page', 'href', 'Anchor text'],
          recordsAt(e, 'links').map((link) => {
            const href = stringAt(link, 'href') ?? '';
            return [
              view.page(),
              href.trim() === '' ? { text: '(empty)' } : writtenCell(href),
              anchorCell(stringAt(link, 'text')),
            ];
          }),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.links.length === 0) return null;
      const bad = html.links.filter((link) => link.kind === 'uncrawlable');
      if (bad.length === 0) return pass();
      // One fix per element: the same href and text on many pages is one element of a shared template.
      const elements = [...new Set(bad.map((link) => `${link.href.trim()} ${(link.text ?? '').trim()}`.slice(0, 300)))];
      return fail(
        { count: bad.length, links: bad.slice(0, SAMPLE).map((link) => ({ href: link.href, text: link.text })) },
        undefined,
        elements,
      );
    },
    fix: (ctx) => {
      const links = ctx.evidence
        .records('links', 5)
        .map((entry) => ({ href: fieldOf(entry, 'href') ?? '', text: fieldOf(entry, 'text') ?? '' }));
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary:
          `Give ${plural(count || links.length, 'link')} a real href, or ` +
          `make ${count === 1 ? 'it a button' : 'them buttons'}`,
        steps: [
          ...links.map(
            (link) =>
              `The link "${shorten(link.text || '(no text)', 50)}" has href="${shorten(link.href, 60)}", ` +
              `which crawlers cannot follow.`,
          ),
          'If it navigates, put the destination URL in href (keep the JavaScript as progressive enhancement); ' +
            'crawlers only follow <a href> with a real URL.',
          'If it triggers an action (open a menu, submit, toggle), use <button type="button"> instead, as below.',
        ],
        code:
          links.map((link) => `<button type="button">${escapeHtml(link.text || 'Open')}</button>`).join('\n') ||
          undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_DEPTH_HIGH',
    title: 'Page too deep',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'The page is more than 4 clicks from the start URL.',
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
    },
    why:
      'Pages more than 4 clicks from the start page are found later and may be crawled less often and treated as ' +
      'less important by search engines; visitors also reach them less often.',
    howToFix:
      'Shorten the path with links from category pages, hub pages, breadcrumbs or related-content blocks, and ' +
      'avoid long pagination chains; keep important pages within 3 or 4 clicks of the home page.',
    evidence: {
      kind: 'VALUES',
      keys: ['depth'],
      present: (e, view) => view.fact('Clicks from the start page', numberCell(numberAt(e, 'depth'))),
    },
    evaluate: ({ ok, page }) => (ok ? (page.depth > T.maxClickDepth ? fail({ depth: page.depth }) : pass()) : null),
    fix: (ctx) => {
      const depth = ctx.evidence.number('depth');
      return {
        summary: `Bring ${pageName(ctx)} within ${T.maxClickDepth} clicks of the home page`,
        steps: [
          `The page is ${depth !== null ? `${depth} clicks` : 'many clicks'} from the start page; deep ` +
            `pages are crawled less often and rank worse.`,
          'Link it from a higher-level page: its category or hub page, a "popular" or "related" block, or the ' +
            'home page if it matters.',
          'Add breadcrumbs and reduce pagination depth (more items per page, links to page ranges) so whole ' +
            'sections sit closer to the top.',
        ],
        code: linkToThisPage(ctx),
      };
    },
  }),
] as const;
