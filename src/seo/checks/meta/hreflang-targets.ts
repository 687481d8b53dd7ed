import { fieldOf } from '../../fixes/fix-evidence.js';
import { inlineList, plural } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { stringList, targetFix } from '../../fixes/structured-international-fix-rules.js';
import { normalizeUrl } from '../../page/index.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listCell, recordsAt, stringAt, stringsAt, targetTable, textCell, urlCell } from '../evidence-presenters.js';
import { isValidHreflang, isValidLangTag } from '../language-tag.js';
import { effectiveCanonical } from '../page-indexability.js';
import { SAMPLE, hreflangTargets, primaryLanguage, targetCheck, unique } from '../structured-international-checks.js';

export const HREFLANG_TARGET_CHECKS = [
  defineCheck({
    code: 'META_HREFLANG_DUPLICATE',
    title: 'Hreflang code used twice',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The same hreflang value (x-default included) points to two different URLs.',
    scoreReason: {
      lighthouse: 'hreflang: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_HREFLANG_INVALID.',
    },
    why:
      'When one language code points to two different URLs, search engines cannot tell which version to ' +
      'show to that audience and may ignore the conflicting annotations.',
    howToFix:
      'Keep one URL per hreflang value (and one x-default): remove the extra entry or give it the right ' +
      'code, for example en-GB and en-US instead of en twice. Check both the HTML links and any HTTP Link ' +
      'header or sitemap.',
    evidence: {
      kind: 'LINKS',
      keys: ['duplicates'],
      present: (e, view) =>
        view.table(
          'Hreflang values pointing to several URLs',
          ['hreflang', 'URL'],
          recordsAt(e, 'duplicates').flatMap((duplicate) =>
            stringsAt(duplicate, 'urls').map((url) => [
              textCell(stringAt(duplicate, 'lang') ?? ''),
              urlCell(url, view.pageUrl),
            ]),
          ),
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.hreflang.length === 0) return null;
      const byLang = new Map<string, Set<string>>();
      for (const entry of html.hreflang) {
        const url = entry.url === null ? null : normalizeUrl(entry.url);
        if (url === null) continue;
        const lang = entry.lang.trim().toLowerCase();
        const urls = byLang.get(lang) ?? new Set<string>();
        urls.add(url);
        byLang.set(lang, urls);
      }
      if (byLang.size === 0) return null;
      const duplicates = [...byLang]
        .filter(([, urls]) => urls.size > 1)
        .map(([lang, urls]) => ({ lang, urls: [...urls].slice(0, SAMPLE) }));
      return duplicates.length > 0 ? fail({ duplicates: duplicates.slice(0, SAMPLE) }) : pass();
    },
    fix: (ctx) => {
      const duplicates = ctx.evidence.records('duplicates', 5);
      return {
        summary: `Keep one URL per hreflang value (${duplicates.map((d) => fieldOf(d, 'lang')).join(', ')})`,
        steps: [
          ...duplicates.map(
            (duplicate) =>
              `hreflang="${fieldOf(duplicate, 'lang')}" points to ${inlineList(stringList(duplicate.urls))}: keep ` +
              `the one that is the version for that audience, and give the other its own code (such as en-GB and ` +
              `en-US) or remove it.`,
          ),
          'Emit the same corrected set on every page of the set, and in the sitemap or Link header if used there.',
        ],
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_TO_BROKEN',
    externalVerdicts: true,
    title: 'Hreflang to a broken or redirecting URL',
    severity: 'WARNING',
    category: 'META',
    scope: 'site',
    description: 'An hreflang alternate the audit knows answers 4xx/5xx, cannot be fetched, or redirects.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_HREFLANG_INVALID.',
    },
    why:
      'An hreflang alternate that answers an error, cannot be fetched or redirects is not a valid ' +
      'alternate: search engines ignore that entry, so the language version it names is not offered to its ' +
      'audience.',
    howToFix:
      'Point each hreflang entry at the final, working URL of the alternate version (one that answers 200 ' +
      'without redirecting), or remove the entry when that version no longer exists; update the whole set ' +
      'on every page.',
    evidence: {
      kind: 'LINKS',
      keys: ['targets'],
      present: (e, view) => targetTable(view, 'Hreflang alternates that do not answer 200', 'hreflang', e),
    },
    evaluate: (ctx) => targetCheck(ctx, 'META_HREFLANG_TO_BROKEN', hreflangTargets, (verdict) => verdict.broken),
    fix: (ctx) => targetFix(ctx, 'hreflang alternate', 'Point the entry at the working URL'),
  }),
  defineCheck({
    code: 'META_HREFLANG_TO_NON_INDEXABLE',
    externalVerdicts: true,
    title: 'Hreflang to a non-indexable URL',
    severity: 'WARNING',
    category: 'META',
    scope: 'site',
    description: 'An hreflang alternate the audit crawled is noindex or names another URL as canonical.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_HREFLANG_INVALID.',
    },
    why:
      'Hreflang should only name pages that can be indexed; an alternate that is noindex or whose canonical ' +
      'is another URL sends conflicting signals, and search engines drop that entry from the set.',
    howToFix:
      'Point the entry at the indexable, canonical URL of the alternate version, or make that page ' +
      'indexable (remove the noindex, make its canonical point to itself); hreflang and canonical URLs ' +
      'should always agree.',
    evidence: {
      kind: 'LINKS',
      keys: ['targets'],
      present: (e, view) => targetTable(view, 'Hreflang alternates that cannot be indexed', 'hreflang', e),
    },
    evaluate: (ctx) =>
      targetCheck(ctx, 'META_HREFLANG_TO_NON_INDEXABLE', hreflangTargets, (verdict) => verdict.nonIndexable),
    fix: (ctx) => {
      const targets = ctx.evidence.records('targets', 5);
      return {
        summary: `Point ${plural(targets.length || 1, 'hreflang entry', 'hreflang entries')} at indexable URLs`,
        steps: [
          ...targets.map((target) => {
            const url = fieldOf(target, 'url') ?? '';
            const canonical = fieldOf(target, 'canonical');
            return fieldOf(target, 'reason') === 'canonicalized' && canonical
              ? `hreflang="${fieldOf(target, 'label')}" names ${shorten(url, 120)}, whose canonical is ` +
                  `${shorten(canonical, 120)}: use ${shorten(canonical, 120)} in the hreflang set instead.`
              : `hreflang="${fieldOf(target, 'label')}" names ${shorten(url, 120)}, which is noindex: remove the ` +
                  `noindex from it, or drop the entry if that version should not be found.`;
          }),
          'Every URL in an hreflang set must be indexable and its own canonical: list each version under the URL ' +
            'its canonical link names, and keep noindex pages out of the set.',
        ],
      };
    },
  }),
  defineCheck({
    code: 'META_HREFLANG_LANG_MISMATCH',
    title: 'Hreflang language differs from page language',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description:
      'The language of the hreflang entry pointing at the page itself differs from the <html lang> language.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
      ours: 'The hreflang set decides the locale shown; the lang attribute is a hint: hygiene.',
    },
    why:
      'The hreflang entry a page gives itself and its lang attribute should name the same language; when ' +
      'they differ, one of them is wrong, and search engines or screen readers may treat the page as the ' +
      'wrong language.',
    howToFix:
      'Correct whichever is wrong: the lang attribute of the html element should be the language the text is written ' +
      "in, and the page's own hreflang entry should carry that same language (regions may differ, such as " +
      'en and en-GB).',
    evidence: {
      kind: 'VALUES',
      keys: ['lang', 'hreflang'],
      present: (e, view) => {
        view.fact('<html lang>', textCell(stringAt(e, 'lang')));
        view.fact('Own hreflang entry', listCell(stringsAt(e, 'hreflang')));
      },
    },
    evaluate: ({ html, page }) => {
      if (!html || html.hreflang.length === 0 || html.lang === null || !isValidLangTag(html.lang)) return null;
      const self = new Set([normalizeUrl(page.finalUrl), normalizeUrl(effectiveCanonical(html) ?? page.finalUrl)]);
      const selfLangs = html.hreflang
        .filter((entry) => entry.url !== null && self.has(normalizeUrl(entry.url)))
        .map((entry) => entry.lang.trim())
        .filter((lang) => lang.toLowerCase() !== 'x-default' && isValidHreflang(lang));
      if (selfLangs.length === 0) return null;
      const language = primaryLanguage(html.lang);
      return selfLangs.some((lang) => primaryLanguage(lang) === language)
        ? pass()
        : fail({ lang: html.lang, hreflang: unique(selfLangs).slice(0, SAMPLE) });
    },
    fix: (ctx) => {
      const lang = ctx.evidence.string('lang') ?? ctx.page?.lang ?? '';
      const own = ctx.evidence.strings('hreflang', 3);
      const self = ctx.page?.canonical ?? ctx.url;
      return {
        summary: `Make <html lang="${shorten(lang, 20)}"> and the page's own hreflang (${own.join(', ')}) agree`,
        steps: [
          `The page declares lang="${lang}" but lists itself in its hreflang set as ${inlineList(own)}.`,
          'If the text is written in the lang language, change the self-referencing hreflang entry to it (on ' +
            'this page and on every alternate that lists this page); otherwise correct the lang attribute.',
        ],
        code: `<link rel="alternate" hreflang="${escapeHtml(lang)}" href="${escapeHtml(self)}">`,
      };
    },
  }),
] as const;
