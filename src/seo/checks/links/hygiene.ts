import { fieldOf } from '../../fixes/fix-evidence.js';
import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { linkLabel } from '../../fixes/link-fix-rules.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pathOnly, redirectRules, shellQuote } from '../../fixes/server-config-snippets.js';
import { isLoopbackHost } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { linkTable, numberAt, recordsAt, statusCell, stringAt, stringsAt, urlCell } from '../evidence-presenters.js';
import { SAMPLE as HYGIENE_SAMPLE } from '../hygiene-checks.js';
import { SAMPLE, isLoopbackLink } from '../page-check-helpers.js';

export const LINK_HYGIENE_CHECKS = [
  defineCheck({
    code: 'LINKS_LOCALHOST',
    title: 'Link to localhost',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    description: 'A link points to localhost or 127.0.0.1.',
    scoreReason: {
      ours: 'Broken for every visitor who follows it: WARNING (the page itself works).',
    },
    why:
      'Links to localhost or 127.0.0.1 point to the computer of whoever opens them, so they fail for every ' +
      'visitor; they usually come from URLs copied out of a development environment.',
    howToFix:
      'Replace the localhost addresses with the live URLs or relative paths, then search the content database ' +
      'and templates for the development host so no other references are left.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Links to localhost', e),
    },
    evaluate: ({ html, finalUrl }) => {
      if (!html || !finalUrl || isLoopbackHost(finalUrl.hostname)) return null;
      const links = html.links.filter((link) => link.kind === 'http');
      if (links.length === 0) return null;
      const local = links.filter(isLoopbackLink);
      return local.length > 0
        ? fail({ count: local.length, links: local.slice(0, SAMPLE).map((link) => link.url) })
        : pass();
    },
    fix: (ctx) => {
      const links = ctx.evidence.urls('links', 'url', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      // Without a parsable page URL the rewrite is root-relative, which works on any host.
      const origin = ctx.origin;
      const localOrigin = (() => {
        try {
          return links.length > 0 ? new URL(links[0]).origin : null;
        } catch {
          return null;
        }
      })();
      const rewrite = (url: string) => {
        try {
          const parsed = new URL(url);
          return `${origin}${parsed.pathname}${parsed.search}`;
        } catch {
          return url;
        }
      };
      return {
        summary: `Replace ${plural(count || links.length, 'localhost link')} with ${origin || 'root-relative'} URLs`,
        steps: [
          ...links.map(
            (url) => `${linkLabel(ctx, url)} points to a development machine; use ${shorten(rewrite(url), 140)}.`,
          ),
          'These links were saved while editing on a local copy; search the content and database for the local ' +
            'address and replace it with the live one.',
          localOrigin && origin
            ? 'WordPress: run the wp-cli command below without --dry-run once its report looks right (take a ' +
              'backup first).'
            : 'Use root-relative links (/path) for your own pages so they survive environment changes.',
        ],
        code:
          localOrigin && origin
            ? `wp search-replace ${shellQuote(localOrigin)} ${shellQuote(origin)} --all-tables --dry-run`
            : links.map((url) => `${url} -> ${rewrite(url)}`).join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_TEMPORARY_REDIRECT',
    title: 'Temporary redirect',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    description: 'A crawled URL redirects with 302 or 307 (temporary), so search engines keep the old URL indexed.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
      ours: 'Search engines treat a lasting 302 as a 301: hygiene.',
    },
    why:
      'A 302 or 307 redirect says the move is temporary, so search engines may keep the old URL in their index ' +
      'instead of the target, and signals are consolidated more slowly.',
    howToFix:
      'If the move is permanent, answer 301 (or 308) instead; if it is really temporary (a sale page, a login ' +
      'step) keep it, and link to the final URL directly wherever you can.',
    evidence: {
      kind: 'REDIRECTS',
      keys: ['status', 'from', 'to'],
      present: (e, view) => {
        const from = stringAt(e, 'from');
        const to = stringAt(e, 'to');
        if (from === null || to === null) return;
        view.table(
          'Temporary redirect',
          ['From', 'Status', 'To'],
          [
            [
              urlCell(from, view.pageUrl),
              statusCell(numberAt(e, 'status'), null, false) ?? { text: '' },
              urlCell(to, view.pageUrl),
            ],
          ],
        );
      },
    },
    requestedUrl: true,
    evaluate: ({ page, responded }) => {
      if (!responded && page.redirects.length === 0) return null;
      const temporary = page.redirects.find((hop) => hop.status === 302 || hop.status === 307);
      if (!temporary) return pass();
      const index = page.redirects.indexOf(temporary);
      const target = page.redirects[index + 1]?.url ?? page.finalUrl;
      return fail({ status: temporary.status, from: temporary.url, to: target });
    },
    fix: (ctx) => {
      const status = ctx.evidence.number('status') ?? 302;
      const from = ctx.evidence.string('from') ?? ctx.url;
      const to = ctx.evidence.string('to') ?? '';
      return {
        summary: `Make the ${status} redirect of ${shorten(pathOnly(from), 80)} permanent if the move is`,
        steps: [
          `${shorten(from, 140)} answers ${status} (temporary) and sends visitors to ${shorten(to, 140)}.`,
          'If the page has moved for good, answer 301 instead (rules below); search engines then index the target.',
          'If the redirect is really temporary (a login step, a seasonal page), keep it and link to the target ' +
            'directly where you can.',
        ],
        code: to ? redirectRules([{ from: pathOnly(from), to }]) : undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_NO_ANCHOR_TEXT',
    title: 'Link without text',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    description: 'A link has no text, aria-label or image alt, and no named link on the page goes to the same URL.',
    scoreReason: {
      lighthouse: 'link-name (a11y)',
      semrush: 'notice',
    },
    why:
      'The anchor text tells search engines and screen-reader users what the linked page is about; a link with no ' +
      'text, no aria-label and no image alt gives them nothing.',
    howToFix:
      'Put descriptive text inside the link, or give an icon link an aria-label (for example aria-label="Search"), ' +
      'or give the image inside it a meaningful alt.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) =>
        view.table(
          'Links without text',
          ['Target'],
          stringsAt(e, 'links').map((url) => [urlCell(url, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) => {
      const links = html?.links.filter((link) => link.kind === 'http');
      if (!links || links.length === 0) return null;
      const unnamed = (link: (typeof links)[number]) => link.text.trim() === '' && (link.label ?? '').trim() === '';
      // A target also reached by a named link is described (a card's image link beside its title link, or DocBook's
      // nested <a><em><a>term</a></em></a>, whose outer anchor the HTML parser leaves empty).
      const named = new Set(links.filter((link) => !unnamed(link)).map((link) => link.url));
      const empty = links.filter((link) => unnamed(link) && !named.has(link.url));
      return empty.length > 0
        ? fail({ count: empty.length, links: empty.slice(0, HYGIENE_SAMPLE).map((link) => link.url ?? link.href) })
        : pass();
    },
    fix: (ctx) => {
      const links = ctx.evidence.strings('links', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Give ${plural(count, 'link')} on ${pageName(ctx)} a text or an accessible name`,
        steps: [
          ...links.map((url) => `The link to ${shorten(url, 140)} has no text, aria-label or image alt.`),
          'Put words inside the link that say where it goes; for an icon link add an aria-label, for an image link ' +
            'a meaningful alt on the image.',
        ],
        code: links[0]
          ? `<a href="${escapeHtml(links[0])}" aria-label="Describe the target page">…</a>`
          : '<a href="/target" aria-label="Describe the target page">…</a>',
      };
    },
  }),
  defineCheck({
    code: 'LINKS_TO_NON_CANONICAL',
    title: 'Link to a non-canonical URL',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    description: 'An internal link points to a page whose canonical URL is another URL.',
    scoreReason: {
      ahrefs: 'warning',
    },
    why:
      'Linking to a URL whose canonical is another URL sends crawlers to a duplicate first and mixes signals; ' +
      'search engines prefer internal links that agree with the canonical.',
    howToFix:
      'Change the internal links to point at the canonical URL itself (for example with or without the trailing ' +
      "slash, or without the tracking parameter), as the page's rel=canonical names it.",
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) =>
        view.table(
          'Links to non-canonical URLs',
          ['Source page', 'Target', 'Its canonical URL'],
          recordsAt(e, 'links').map((link) => [
            view.page(),
            urlCell(stringAt(link, 'url') ?? '', view.pageUrl),
            urlCell(stringAt(link, 'canonical') ?? '', view.pageUrl),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    sitePass: 'toNonCanonical',
    evaluate: (ctx) => ctx.linkTargets()?.toNonCanonical ?? null,
    fix: (ctx) => {
      const links = ctx.evidence.records('links', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Point ${plural(count, 'internal link')} on ${pageName(ctx)} at canonical URLs`,
        steps: [
          ...links.map(
            (link) =>
              `${shorten(fieldOf(link, 'url') ?? '', 120)} names ${shorten(fieldOf(link, 'canonical') ?? '', 120)} ` +
              'as its canonical: link to that URL instead.',
          ),
          'Fix the template or menu that builds these links so they use the canonical form (slash, case, parameters).',
        ],
        code:
          links.map((link) => `${fieldOf(link, 'url') ?? ''} -> ${fieldOf(link, 'canonical') ?? ''}`).join('\n') ||
          undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_TO_NOINDEX',
    title: 'Link to a noindex page',
    severity: 'NOTICE',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    description: 'A followed internal link points to a page that is noindex.',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'Followed internal links to noindex pages spend crawl budget and link equity on pages you have asked search ' +
      'engines not to show; a link from a prominent place may also mean the noindex is a mistake.',
    howToFix:
      'If the target should rank, remove its noindex; if it should not, link to it less prominently (or not at ' +
      'all) and make sure indexable pages get those links instead.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Links to noindex pages', e),
    },
    sitePass: 'toNoindex',
    evaluate: (ctx) => ctx.linkTargets()?.toNoindex ?? null,
    fix: (ctx) => {
      const links = ctx.evidence.strings('links', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Review ${plural(count, 'link')} from ${pageName(ctx)} to noindex pages`,
        steps: [
          `Noindex targets: ${inlineList(links, count)}.`,
          'If a target should appear in search, remove its noindex (meta robots or X-Robots-Tag).',
          'If it should stay out of search, link to it less prominently, or not at all, from indexable pages.',
        ],
      };
    },
  }),
] as const;
