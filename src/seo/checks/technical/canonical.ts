import { absoluteUrl, inlineList } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { pathOnly } from '../../fixes/server-config-snippets.js';
import { canonicalTag } from '../../fixes/technical-fix-rules.js';
import { isAbsoluteUrl, normalizeUrl } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import {
  canonicalProblem,
  numberAt,
  numberCell,
  stringAt,
  stringsAt,
  textCell,
  urlCell,
  writtenCell,
  type EvidenceCell,
} from '../evidence-presenters.js';
import { canonicalOtherHost, effectiveCanonical, isWebUrl } from '../page-indexability.js';
import { canonicalMissingCheck } from '../site-check-helpers.js';

export const CANONICAL_CHECKS = [
  defineCheck({
    code: 'TECH_CANONICAL_MULTIPLE',
    title: 'Multiple canonicals',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The page declares more than one canonical URL.',
    requires: 'TECH_CANONICAL_MISSING',
    scoreReason: {
      lighthouse: 'canonical: fail (SEO)',
      semrush: 'error',
      ahrefs: 'warning',
      ours: 'Google then ignores the canonicals and picks one: WARNING.',
    },
    why:
      'When a page declares more than one canonical URL, Google is likely to ignore all of them, so duplicates ' +
      'are not consolidated the way you intended.',
    howToFix:
      'Keep a single rel="canonical" link in the head (or a single Link header) pointing to the preferred URL; ' +
      'duplicates usually come from a theme and an SEO plugin both adding one, so turn one of them off.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'canonicals'],
      present: (e, view) =>
        view.table(
          'Canonical URLs declared',
          ['Canonical URL'],
          stringsAt(e, 'canonicals').map((href) => [urlCell(href, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html }) =>
      html
        ? html.canonicalCount > 1
          ? fail({ count: html.canonicalCount, canonicals: html.canonicals.slice(0, 3).map((c) => c.href) })
          : pass()
        : null,
    fix: (ctx) => {
      const canonicals = ctx.evidence.strings('canonicals', 3);
      const count = ctx.evidence.number('count') ?? canonicals.length;
      const keep =
        (canonicals.length > 0 ? absoluteUrl(canonicals[0], ctx.url) : null) ?? ctx.page?.canonical ?? ctx.url;
      return {
        summary: `Keep one canonical link: ${shorten(keep, 100)}`,
        steps: [
          `The page declares ${count} canonical ` +
            `URLs${canonicals.length > 0 ? ` (${inlineList(canonicals, count)})` : ''}; with conflicting ` +
            `hints, search engines ignore them all.`,
          `Keep a single <link rel="canonical"> in <head> pointing to ${shorten(keep, 140)} and remove the others.`,
          "Duplicates usually come from a theme and an SEO plugin both printing one; disable the theme's.",
        ],
        code: canonicalTag(keep),
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_RELATIVE',
    title: 'Relative canonical',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The canonical URL is not absolute.',
    requires: 'TECH_CANONICAL_MISSING',
    scoreReason: {
      lighthouse: 'canonical: fail (SEO)',
    },
    why:
      'Relative canonical URLs are allowed but easy to get wrong: resolved on a staging host, another protocol ' +
      'or another path, they can point search engines at the wrong URL.',
    howToFix:
      'Use an absolute canonical URL with https and the host, matching the preferred URL exactly (same www, ' +
      'trailing slash and case), built from the configured site address rather than from the request.',
    evidence: {
      kind: 'VALUES',
      keys: ['href'],
      present: (e, view) => {
        const href = stringAt(e, 'href');
        if (href === null) return;
        view.fact('Canonical as written', writtenCell(href));
        view.fact('Resolves to', urlCell(href, view.pageUrl));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.canonicals.length === 0) return null;
      const relative = html.canonicals.filter((canonical) => !isAbsoluteUrl(canonical.href));
      return relative.length > 0 ? fail({ href: relative[0].href }) : pass();
    },
    fix: (ctx) => {
      const href = ctx.evidence.string('href') ?? '';
      const absolute = absoluteUrl(href, ctx.url) ?? ctx.url;
      return {
        summary: `Make the canonical absolute: ${shorten(absolute, 120)}`,
        steps: [
          `The canonical href "${shorten(href, 100)}" is relative; search engines resolve it, but a wrong ` +
            `base (or a copy of the page on another host) makes it point elsewhere.`,
          `Write the full URL with scheme and host: ${shorten(absolute, 160)}.`,
        ],
        code: canonicalTag(absolute),
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_MISMATCH',
    title: 'Canonical mismatch',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The HTML canonical differs from the Link header canonical.',
    requires: 'TECH_CANONICAL_MISSING',
    scoreReason: {
      ahrefs: 'warning',
    },
    why:
      'When the HTML canonical and the HTTP Link header canonical disagree, search engines get conflicting ' +
      'signals and may ignore both and choose a canonical themselves.',
    howToFix:
      'Declare the canonical in one place, or make the HTML link and the Link header name the same absolute URL; ' +
      'the header usually comes from server or CDN configuration and the HTML one from the CMS.',
    evidence: {
      kind: 'HEADERS',
      keys: ['html', 'header'],
      present: (e, view) => {
        const rows: EvidenceCell[][] = [];
        const html = stringAt(e, 'html');
        const header = stringAt(e, 'header');
        if (html) rows.push([{ text: '<link rel="canonical"> in the HTML' }, urlCell(html, view.pageUrl)]);
        if (header) rows.push([{ text: 'Link header' }, urlCell(header, view.pageUrl)]);
        view.table('Canonical URLs', ['Declared in', 'Canonical URL'], rows);
      },
    },
    evaluate: ({ html }) => {
      const htmlCanonical = html?.canonicals.find((canonical) => canonical.url !== null)?.url;
      if (!html || !htmlCanonical || html.headerCanonical === null) return null;
      return normalizeUrl(htmlCanonical) === normalizeUrl(html.headerCanonical)
        ? pass()
        : fail({ html: htmlCanonical, header: html.headerCanonical });
    },
    fix: (ctx) => {
      const html = ctx.evidence.string('html') ?? ctx.page?.canonical ?? ctx.url;
      const header = ctx.evidence.string('header') ?? '';
      // Quotes would end the quoted header value in both configs; they are valid percent-encoded in a URL.
      const linkUrl = html.replace(/'/g, '%27').replace(/"/g, '%22');
      return {
        summary: 'Make the HTML canonical and the Link header canonical agree',
        steps: [
          `The HTML says ${shorten(html, 120)} but the HTTP Link header says ${shorten(header, 120)}; with ` +
            `conflicting canonicals, search engines pick one themselves or ignore both.`,
          `Decide which URL is canonical (the HTML one, ${shorten(html, 120)}, is proposed) and use it in ` +
            `both places, or remove the header if the HTML tag suffices.`,
        ],
        code:
          `${canonicalTag(html)}\n\n# nginx\nadd_header Link '<${linkUrl}>; rel="canonical"';\n\n# ` +
          `Apache\nHeader set Link "<${linkUrl}>; rel=\\"canonical\\""`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_MISSING',
    title: 'Page served under two URLs without a canonical',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description:
      'The same page answers under two URLs (such as / and /index.html) and does not name its canonical URL.',
    scoreReason: {
      ahrefs: 'error',
    },
    why:
      'When one page answers under two URLs (/ and /index.html, /guide and /guide/), search engines see two ' +
      'pages with the same text, split links and signals between them and pick which one to show themselves.',
    howToFix:
      'Add a canonical link naming the one URL you want shown to the page, link to that URL everywhere, and ' +
      'ideally redirect the other variant to it with a 301.',
    evidence: {
      kind: 'DUPLICATES',
      keys: ['sameAs'],
      present: (e, view) =>
        view.table(
          'The same page also answers at',
          ['URL'],
          stringsAt(e, 'sameAs').map((url) => [urlCell(url, view.pageUrl)]),
        ),
    },
    evaluate: ({ pages }) => canonicalMissingCheck('TECH_CANONICAL_MISSING', pages),
    fix: (ctx) => {
      const variants = [ctx.url, ...ctx.evidence.strings('sameAs', 3)];
      // The shortest variant is the one people link to: "/" rather than "/index.html".
      const preferred = [...variants].sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
      return {
        summary: `Name ${shorten(preferred, 100)} as the canonical URL of this page`,
        steps: [
          `This page answers under ${inlineList(variants, variants.length)} with the same text, and names no ` +
            `canonical URL, so search engines choose one themselves and split its links between them.`,
          `Add the canonical link below to the page (every variant serves it), link to ${shorten(preferred, 120)} ` +
            `in menus and sitemaps, and redirect the other variant to it with a 301 where the server allows.`,
        ],
        code: canonicalTag(preferred),
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_TO_BROKEN',
    externalVerdicts: true,
    title: 'Canonical to a bad target',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    fixUnit: 'target',
    description: 'The canonical target redirects, is noindex or answers 4xx/5xx.',
    requires: 'TECH_CANONICAL_MISSING',
    scoreReason: {
      lighthouse: 'canonical: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'Google ignores a canonical to an error and indexes the page itself: WARNING.',
    },
    why:
      'A canonical pointing to a redirect, an error page or a noindex page is a contradictory signal, so search ' +
      'engines may ignore it and choose another URL as canonical.',
    howToFix:
      'Point the canonical at the final, indexable URL that answers 200: the redirect destination, a working ' +
      'page, or the page itself if it is the preferred version; remove noindex from the target if it should rank.',
    evidence: {
      kind: 'LINKS',
      keys: ['canonical', 'reason'],
      present: (e, view) => {
        const canonical = stringAt(e, 'canonical');
        if (canonical === null) return;
        view.table(
          'Canonical target',
          ['Source page', 'Canonical URL', 'Problem'],
          [[view.page(), urlCell(canonical, view.pageUrl), { text: canonicalProblem(stringAt(e, 'reason')) }]],
        );
      },
    },
    sitePass: 'canonicalToBroken',
    evaluate: (ctx) => ctx.linkTargets()?.canonicalToBroken ?? null,
    fix: (ctx) => {
      const canonical = ctx.evidence.string('canonical') ?? ctx.page?.canonical ?? '';
      const reason = ctx.evidence.string('reason') ?? 'is not indexable';
      const self = canonical === ctx.url || pathOnly(canonical) === pathOnly(ctx.url);
      if (self && reason === 'noindex') {
        return {
          summary: 'Resolve the conflict between noindex and the self-canonical',
          steps: [
            'The page is noindex but names itself as canonical: "index this URL" and "do not index" at once.',
            'If the page should rank, remove the noindex. If it should not, keep noindex and remove the canonical ' +
              'link.',
          ],
          code: '<meta name="robots" content="index, follow">',
        };
      }
      return {
        summary: `Point the canonical at an indexable URL instead of ${shorten(canonical, 100)}`,
        steps: [
          `The canonical target ${shorten(canonical, 120)} ${
            reason === 'redirects' ? 'redirects' : reason === 'noindex' ? 'is noindex' : `fails (${reason})`
          }, so search engines ignore the canonical hint.`,
          reason === 'redirects'
            ? "Replace it with the URL the redirect ends at, or with this page's own URL (proposed) if this page " +
              'is the original.'
            : `Use this page's own URL (proposed) unless another live, indexable page is the original.`,
        ],
        code: canonicalTag(ctx.url),
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_INVALID',
    title: 'Canonical is not a web URL',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description:
      'The canonical is not an http(s) URL (a file: path, another scheme, or a value that does not parse), so ' +
      'search engines ignore it.',
    scoreReason: {
      lighthouse: 'canonical: pass (a `file:` URL parses)',
      ours:
        'The page loses its canonical signal and stays indexable: WARNING. Lighthouse accepts any URL that parses; ' +
        'a `file:` URL names no page on the web.',
    },
    why:
      'Search engines follow only an http(s) canonical: a file: path or a value that does not parse is ignored, ' +
      'so variants such as / and /index.html are not consolidated.',
    howToFix:
      "Set the canonical to the page's absolute public URL, for example through the generator's base URL " +
      'setting (Sphinx: html_baseurl), or remove the tag.',
    evidence: {
      kind: 'VALUES',
      keys: ['href', 'count'],
      present: (e, view) => {
        const href = stringAt(e, 'href');
        if (href === null) return;
        view.fact('Canonical as written', writtenCell(href));
        const count = numberAt(e, 'count');
        if (count !== null && count > 1) view.fact('Canonicals that are not web URLs', numberCell(count));
      },
    },
    evaluate: ({ html }) => {
      if (!html || (html.canonicals.length === 0 && html.headerCanonical === null)) return null;
      const invalid = html.canonicals
        .filter((canonical) => !isWebUrl(canonical.url))
        .map((canonical) => canonical.href);
      if (html.headerCanonical !== null && !isWebUrl(html.headerCanonical)) invalid.push(html.headerCanonical);
      return invalid.length > 0 ? fail({ href: invalid[0], count: invalid.length }) : pass();
    },
    fix: (ctx) => {
      const href = ctx.evidence.string('href') ?? ctx.page?.canonical ?? '';
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
      return {
        summary: `Replace the ${scheme ? `${scheme}: ` : ''}canonical with the page's public URL`,
        steps: [
          `The canonical "${shorten(href, 120)}" is not an http(s) URL, so search engines ignore it${
            scheme === 'file' ? ': a file: path only exists on the machine that built the pages' : ''
          }.`,
          `Name the page's own public URL (proposed: ${shorten(ctx.url, 140)}), or remove the tag. A documentation ` +
            "generator usually takes it from a base URL setting (Sphinx: html_baseurl); set it to the site's address.",
        ],
        code: canonicalTag(ctx.url),
      };
    },
  }),
  defineCheck({
    code: 'TECH_CANONICAL_OTHER_HOST',
    title: 'Canonical to another host',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description:
      'The page names a canonical URL on another host (www. and the bare domain count as one), so search engines ' +
      "index that host's copy, not this one.",
    scoreReason: {
      lighthouse: 'canonical: pass',
      semrush: 'warning (canonical to another domain)',
      ahrefs: 'notice',
      ours:
        'Often intended (a mirror, syndicated copy): WARNING per page; when every page does it the site has 0 ' +
        'indexable pages and the NO_INDEXABLE_PAGES blocker caps the score.',
    },
    why:
      'A canonical on another host asks search engines to index that copy instead: right for a mirror, but when ' +
      'every page does it, the site as audited has no page of its own in search.',
    howToFix:
      'If this host should rank, make each canonical name the page on this host or remove it; if it is a mirror ' +
      'on purpose, audit the host the canonicals name.',
    evidence: {
      kind: 'VALUES',
      keys: ['canonical', 'host'],
      present: (e, view) => {
        const canonical = stringAt(e, 'canonical');
        if (canonical !== null) view.fact('Canonical URL', urlCell(canonical, view.pageUrl));
        const host = stringAt(e, 'host');
        if (host !== null) view.fact('Host it names', textCell(host));
      },
    },
    evaluate: ({ html, page }) => {
      if (!html) return null;
      const canonical = effectiveCanonical(html);
      const host = canonical === null ? null : canonicalOtherHost(canonical, page.finalUrl);
      return host === null ? pass() : fail({ canonical, host });
    },
    fix: (ctx) => {
      const canonical = ctx.evidence.string('canonical') ?? ctx.page?.canonical ?? '';
      const host = ctx.evidence.string('host') ?? '';
      return {
        summary: `Decide whether ${shorten(ctx.url, 80)} or ${shorten(host || canonical, 60)} should rank`,
        steps: [
          `The page names ${shorten(canonical, 140)} as its canonical URL: search engines index that copy on ` +
            `${shorten(host, 80) || 'another host'}, not this page.`,
          'If this host is a mirror on purpose, keep the canonical and audit the host it names instead.',
          `If this page should rank, make the canonical name this page (proposed) or remove it.`,
        ],
        code: canonicalTag(ctx.url),
      };
    },
  }),
] as const;
