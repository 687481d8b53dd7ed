import { absoluteUrl, inlineList, pathOf, plural } from '../../fixes/fix-rule-context.js';
import { correctLanguageTag, guessLanguage } from '../../fixes/language-guess.js';
import { shorten } from '../../fixes/markup-text.js';
import { hreflangTags } from '../../fixes/meta-fix-rules.js';
import { isAbsoluteUrl, normalizeUrl } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listCell, NOTHING, stringAt, stringsAt, urlCell, writtenCell } from '../evidence-presenters.js';
import { isValidHreflang } from '../language-tag.js';
import { SAMPLE, unique } from '../page-check-helpers.js';
import { effectiveCanonical } from '../page-indexability.js';
import { hreflangReturnCheck } from '../site-check-helpers.js';

export const HREFLANG_CHECKS = [
  defineCheck({
    code: 'META_HREFLANG_INVALID',
    title: 'Invalid hreflang value',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'An hreflang value is not a language(-region) code or x-default.',
    scoreReason: {
      lighthouse: 'hreflang: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'The wrong locale is shown: WARNING; the page itself stays in search.',
    },
    why:
      'Search engines ignore hreflang annotations whose code they do not understand, so the affected language or ' +
      'regional version may not be shown to the right audience.',
    howToFix:
      'Use an ISO 639-1 language code, optionally followed by a hyphen and an ISO 3166-1 region code, for ' +
      'example en, en-GB, de-AT or zh-Hant, or x-default; en-UK (use en-GB), en_US (use en-US) and a region ' +
      'alone are invalid.',
    evidence: {
      kind: 'VALUES',
      keys: ['values'],
      present: (e, view) => view.fact('Invalid hreflang values', listCell(stringsAt(e, 'values'))),
    },
    evaluate: ({ html }) => {
      if (!html || html.hreflang.length === 0) return null;
      const invalid = unique(html.hreflang.filter((entry) => !isValidHreflang(entry.lang)).map((entry) => entry.lang));
      return invalid.length > 0 ? fail({ values: invalid.slice(0, SAMPLE) }) : pass();
    },
    fix: (ctx) => {
      const values = ctx.evidence.strings('values', 5);
      const corrections = values.map((value) => {
        const corrected = correctLanguageTag(value);
        return { value, corrected: corrected && isValidHreflang(corrected) ? corrected : null };
      });
      const entries = (ctx.page?.hreflang ?? []).map((entry) => {
        const fix = corrections.find((c) => c.value === entry.lang);
        return fix?.corrected ? { lang: fix.corrected, href: entry.href } : entry;
      });
      return {
        summary: `Correct invalid hreflang values ${inlineList(values.length > 0 ? values : ['(unknown)'])}`,
        steps: [
          ...corrections.map((c) =>
            c.corrected
              ? `Replace hreflang="${c.value}" with "${c.corrected}".`
              : `hreflang="${c.value}" is not a language code; use the ISO 639-1 code of the target language ` +
                `(plus an ISO 3166-1 region if needed), or x-default.`,
          ),
          'hreflang takes a language (en), optionally a region (en-GB, not en-UK or en_GB), or x-default; ' +
            'invalid entries are ignored by Google, so those alternates are lost.',
        ],
        code:
          entries.length > 0
            ? hreflangTags(entries)
            : hreflangTags(corrections.map((c) => ({ lang: c.corrected ?? c.value, href: ctx.url }))),
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_RELATIVE',
    title: 'Relative hreflang URL',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'An hreflang alternate URL is not absolute.',
    scoreReason: {
      lighthouse: 'hreflang: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_HREFLANG_INVALID.',
    },
    why:
      'Google requires hreflang alternate URLs to be fully qualified; a relative URL may be resolved wrongly or ' +
      'ignored, which breaks the language set.',
    howToFix:
      'Write every hreflang href as an absolute URL with the scheme and host (https, then the domain, then the ' +
      'path) rather than a path such as /de/; fix it in the template or plugin that builds the alternate links.',
    evidence: {
      kind: 'VALUES',
      keys: ['hrefs'],
      present: (e, view) =>
        view.table(
          'Relative hreflang URLs',
          ['As written', 'Resolves to'],
          stringsAt(e, 'hrefs').map((href) => [writtenCell(href), urlCell(href, view.pageUrl)]),
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.hreflang.length === 0) return null;
      const relative = html.hreflang.filter((entry) => !isAbsoluteUrl(entry.href)).map((entry) => entry.href);
      return relative.length > 0 ? fail({ hrefs: relative.slice(0, SAMPLE) }) : pass();
    },
    fix: (ctx) => {
      const hrefs = ctx.evidence.strings('hrefs', 5);
      const langOf = (href: string) =>
        ctx.page?.hreflang?.find((entry) => entry.href === href || pathOf(entry.href) === href)?.lang;
      const fixed = hrefs.map((href) => ({
        lang: langOf(href) ?? guessLanguage(ctx.page, ctx.url).tag,
        href: absoluteUrl(href, ctx.url) ?? href,
      }));
      return {
        summary: `Make ${plural(hrefs.length || 1, 'hreflang URL')} absolute`,
        steps: [
          `hreflang alternates must be absolute URLs with scheme and host; these are ` +
            `relative: ${inlineList(hrefs.length > 0 ? hrefs : ['(unknown)'])}.`,
          ...fixed
            .slice(0, 5)
            .map((entry, index) => `Change href="${shorten(hrefs[index], 100)}" to "${shorten(entry.href, 160)}".`),
        ],
        code: hreflangTags(fixed.length > 0 ? fixed : [{ lang: guessLanguage(ctx.page, ctx.url).tag, href: ctx.url }]),
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_NO_SELF',
    title: 'Hreflang without self-reference',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The hreflang set does not reference the page itself.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
    },
    why:
      'Each language version should list itself among its hreflang alternates, as Google documents; without the ' +
      'self-reference the set may be read as incomplete.',
    howToFix:
      'Add an hreflang link for the page itself, with its own language code and its own canonical URL, next to ' +
      'the entries for the other versions; every page in the set should carry the same complete list.',
    evidence: {
      kind: 'VALUES',
      keys: ['url'],
      // The page's final URL: only news when a redirect made it differ from the occurrence's URL.
      present: (e, view) => {
        const url = stringAt(e, 'url');
        if (url && !view.isPage(url)) view.fact('URL missing from the set', urlCell(url, view.pageUrl));
      },
    },
    evaluate: ({ html, page }) => {
      if (!html || html.hreflang.length === 0) return null;
      const self = new Set([normalizeUrl(page.finalUrl), normalizeUrl(effectiveCanonical(html) ?? page.finalUrl)]);
      return html.hreflang.some((entry) => entry.url !== null && self.has(normalizeUrl(entry.url)))
        ? pass()
        : fail({ url: page.finalUrl });
    },
    fix: (ctx) => {
      const url = ctx.evidence.string('url') ?? ctx.page?.canonical ?? ctx.url;
      const lang =
        ctx.page?.lang && isValidHreflang(ctx.page.lang) ? ctx.page.lang : guessLanguage(ctx.page, ctx.url).tag;
      return {
        summary: `Add a self-referencing hreflang entry for ${shorten(url, 100)}`,
        steps: [
          'Each page in an hreflang set must list itself too; without it, Google may ignore the whole set for ' +
            'this page.',
          `Add the alternate for this page (language "${lang}") next to the other hreflang links, using the ` +
            `page's canonical URL.`,
        ],
        code: hreflangTags([...(ctx.page?.hreflang ?? []).slice(0, 10), { lang, href: url }]),
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_NO_RETURN',
    title: 'Hreflang without return link',
    severity: 'WARNING',
    category: 'META',
    scope: 'site',
    description: 'An hreflang target does not link back to the page with hreflang.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_HREFLANG_INVALID.',
    },
    why:
      'Hreflang must be confirmed from both sides: if the target page does not link back, search engines may ' +
      'ignore the pair, so the alternate version may not be shown to its audience.',
    howToFix:
      'On each target page, add an hreflang link back to the page that references it, using the exact URL it is ' +
      'indexed under; building the list of alternates from one shared source keeps every page in the set ' +
      'consistent.',
    evidence: {
      kind: 'LINKS',
      keys: ['targetsWithoutReturn'],
      present: (e, view) =>
        view.table(
          'Alternates that do not link back',
          ['Source page', 'Alternate page'],
          stringsAt(e, 'targetsWithoutReturn').map((url) => [view.page(), urlCell(url, view.pageUrl)]),
        ),
    },
    evaluate: ({ pages }) => hreflangReturnCheck('META_HREFLANG_NO_RETURN', pages),
    fix: (ctx) => {
      const targets = ctx.evidence.strings('targetsWithoutReturn', 5);
      const lang =
        ctx.page?.lang && isValidHreflang(ctx.page.lang) ? ctx.page.lang : guessLanguage(ctx.page, ctx.url).tag;
      return {
        summary: `Add return hreflang links on ${plural(targets.length || 1, 'alternate page')}`,
        steps: [
          `This page names alternates that do not link ` +
            `back: ${inlineList(targets.length > 0 ? targets : ['(unknown)'], targets.length)}. Google ` +
            `ignores hreflang pairs without a return link.`,
          ...targets.map((target) => `On ${shorten(target, 140)}, add an hreflang link back to this page (${lang}).`),
          'Easiest to keep consistent: emit the same complete hreflang set (every language version plus ' +
            'x-default) on every page of the set.',
        ],
        code: hreflangTags([{ lang, href: ctx.url }]),
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_NO_X_DEFAULT',
    title: 'Hreflang without x-default',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The hreflang set has no x-default entry.',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'x-default tells search engines which version to show people whose language or region matches none of the ' +
      'listed versions; without it they choose one themselves. It is optional.',
    howToFix:
      'Add an hreflang="x-default" link to every page in the set, pointing to the version for everyone else, ' +
      'usually a language selector page or the main international version.',
    evidence: NOTHING,
    evaluate: ({ html }) => {
      if (!html || html.hreflang.length === 0) return null;
      return html.hreflang.some((entry) => entry.lang.toLowerCase() === 'x-default') ? pass() : fail();
    },
    fix: (ctx) => {
      const target = ctx.origin ? `${ctx.origin}/` : ctx.url;
      return {
        summary: 'Add an x-default hreflang entry',
        steps: [
          'The hreflang set has no x-default, so visitors whose language matches none of the versions get ' +
            'whichever Google picks.',
          `Point x-default at the language selector or the default version (here the site root ${target} is ` +
            `proposed), and add the same line on every page of the set.`,
        ],
        code: hreflangTags([...(ctx.page?.hreflang ?? []).slice(0, 10), { lang: 'x-default', href: target }]),
      };
    },
  }),
] as const;
