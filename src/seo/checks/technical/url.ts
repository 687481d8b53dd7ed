import { phraseFromPath, shorten } from '../../fixes/markup-text.js';
import { parentPath, pathOnly, redirectRules } from '../../fixes/server-config-snippets.js';
import { slugOf, withPath } from '../../fixes/technical-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import { charactersText, numberAt, optional, stringAt, textCell } from '../evidence-presenters.js';

export const URL_CHECKS = [
  defineCheck({
    code: 'TECH_URL_UPPERCASE',
    title: 'Uppercase URL',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL path has uppercase letters.',
    scoreReason: {},
    why:
      'URL paths are case-sensitive, so mixed-case paths can create duplicate URLs for the same page, and links ' +
      'or addresses typed in lowercase may fail.',
    howToFix:
      'Use lowercase paths for new URLs; for existing ones, either 301-redirect them to lowercase versions and ' +
      'update internal links, or keep them and redirect their other case variants to them.',
    evidence: {
      kind: 'VALUES',
      keys: ['path'],
      present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
    },
    evaluate: ({ ok, finalUrl }) => {
      if (!ok || !finalUrl) return null;
      return /[A-Z]/.test(finalUrl.pathname.replace(/%[0-9a-f]{2}/gi, '')) ? fail({ path: finalUrl.pathname }) : pass();
    },
    fix: (ctx) => {
      const path = ctx.evidence.string('path') ?? pathOnly(ctx.url);
      const lower = path.toLowerCase();
      return {
        summary: `Use the lowercase URL ${shorten(lower, 100)}`,
        steps: [
          `The path "${shorten(path, 100)}" has uppercase letters; URLs are case-sensitive, so /Page and ` +
            `/page can become duplicates and are easy to mistype.`,
          `Rename it to "${shorten(lower, 100)}" and 301-redirect the old path (below); update internal ` +
            `links and the sitemap.`,
        ],
        code: redirectRules([{ from: path, to: withPath(ctx, lower) }]),
      };
    },
  }),
  defineCheck({
    code: 'TECH_URL_UNDERSCORE',
    title: 'Underscore in URL',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL path has underscores.',
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
    },
    why:
      'Google recommends hyphens rather than underscores between words in URLs, as hyphens make the words easier ' +
      'for people and search engines to pick out; the effect on ranking is small.',
    howToFix:
      'Use hyphens in new URLs, for example oak-dining-table rather than oak_dining_table; renaming existing ' +
      'URLs needs 301 redirects and updated links, so do it only as part of a planned restructure.',
    evidence: {
      kind: 'VALUES',
      keys: ['path'],
      present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
    },
    evaluate: ({ ok, finalUrl }) =>
      ok && finalUrl ? (finalUrl.pathname.includes('_') ? fail({ path: finalUrl.pathname }) : pass()) : null,
    fix: (ctx) => {
      const path = ctx.evidence.string('path') ?? pathOnly(ctx.url);
      const hyphenated = path.replace(/_/g, '-');
      return {
        summary: `Use hyphens in the URL: ${shorten(hyphenated, 100)}`,
        steps: [
          `The path "${shorten(path, 100)}" uses underscores; Google treats hyphens as word separators, ` +
            `underscores less reliably.`,
          'Use hyphens for new pages. Rename this existing page only together with a 301 redirect (below) and ' +
            'updated internal links, and leave it alone if it already ranks well.',
        ],
        code: redirectRules([{ from: path, to: withPath(ctx, hyphenated) }]),
      };
    },
  }),
  defineCheck({
    code: 'TECH_URL_TOO_LONG',
    title: 'URL too long',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL is over 115 characters.',
    scoreReason: {
      semrush: 'notice',
      ahrefs: 'notice',
    },
    why:
      'URLs over 115 characters are harder to read, share and link to, and may be cut short where they are ' +
      'shown; long parameter strings can also signal duplicate URL variants that waste crawling.',
    howToFix:
      'Keep URLs to 115 characters or fewer with short, descriptive paths: drop filler words, dates and folders ' +
      'that add nothing, and keep tracking or session parameters out of links; redirect old URLs when you change ' +
      'them.',
    evidence: {
      kind: 'VALUES',
      keys: ['length'],
      present: (e, view) => view.fact('URL length', optional(charactersText, numberAt(e, 'length'))),
    },
    evaluate: ({ ok, finalUrl }) =>
      ok && finalUrl ? (finalUrl.href.length > T.maxUrlChars ? fail({ length: finalUrl.href.length }) : pass()) : null,
    fix: (ctx) => {
      const length = ctx.evidence.number('length') ?? ctx.url.length;
      const topic = ctx.page?.h1[0] ?? ctx.page?.title ?? phraseFromPath(pathOnly(ctx.url));
      const slug = slugOf(topic) || slugOf(phraseFromPath(pathOnly(ctx.url)));
      const parent = parentPath(ctx.url);
      const proposed = slug ? `${parent}${slug}` : parent;
      return {
        summary: `Shorten the ${length}-character URL, e.g. to ${shorten(withPath(ctx, proposed), 100)}`,
        steps: [
          `The URL has ${length} characters (over ${T.maxUrlChars}); long URLs are truncated in results, ` +
            `hard to share and often carry tracking or session parameters.`,
          `Use a short slug from the page's topic: "${proposed}" ` +
            `(from ${ctx.page?.h1[0] ? 'the h1' : 'the current path'}), and drop parameters that do not ` +
            `change the content.`,
          'Redirect the old URL with a 301 (below) and update internal links and the sitemap.',
        ],
        code: redirectRules([{ from: pathOnly(ctx.url), to: withPath(ctx, proposed) }]),
      };
    },
  }),
] as const;
