import { pageName } from '../../fixes/fix-rule-context.js';
import { DOUBLE_SLASH_REDIRECT, withPath } from '../../fixes/hygiene-fix-rules.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pathOnly, redirectRules } from '../../fixes/server-config-snippets.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  formatNumber,
  listCell,
  numberAt,
  stringAt,
  stringsAt,
  textCell,
  urlCell,
  wordsCell,
} from '../evidence-presenters.js';
import { safeDecode, saysNotFound, sessionParameter } from '../hygiene-checks.js';
import { parseRefresh } from '../meta-refresh.js';
import { clientRenderedSuspected } from '../rendering-checks.js';

export const TECHNICAL_HYGIENE_CHECKS = [
  defineCheck({
    code: 'TECH_META_REFRESH',
    title: 'Meta refresh',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The page reloads or redirects with <meta http-equiv="refresh"> instead of an HTTP redirect.',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'error',
      ours: 'Ahrefs says error; the target still gets indexed: WARNING.',
    },
    why:
      'A meta refresh redirects only after the page has loaded, is not a clear permanent signal to search ' +
      'engines, and a timed reload disorients visitors and breaks the back button.',
    howToFix:
      'Replace a meta refresh redirect with a server-side 301 (permanent) or 302 (temporary) redirect; remove ' +
      'timed reloads, or let visitors refresh content themselves.',
    evidence: {
      kind: 'REDIRECTS',
      keys: ['content', 'delay', 'target'],
      present: (e, view) => {
        view.fact('<meta http-equiv="refresh"> content', textCell(stringAt(e, 'content')));
        const delay = numberAt(e, 'delay');
        if (delay !== null) view.fact('Delay', { text: delay === 0 ? 'none (at once)' : `${formatNumber(delay)} s` });
        const target = stringAt(e, 'target');
        if (target !== null) view.fact('Goes to', urlCell(target, view.pageUrl));
      },
    },
    // The facts, not `html`: an instant refresh to another URL makes the page a redirect stub, whose on-page checks
    // do not apply (page-indexability.ts); this check is the one that still does.
    evaluate: ({ facts, ok }) => {
      if (!ok || !facts) return null;
      const refresh = facts.metaRefresh === null ? null : parseRefresh(facts.metaRefresh, facts.baseUrl);
      return refresh ? fail({ content: facts.metaRefresh, ...refresh }) : pass();
    },
    fix: (ctx) => {
      const target = ctx.evidence.string('target');
      const delay = ctx.evidence.number('delay') ?? 0;
      return {
        summary: target
          ? `Replace the meta refresh of ${shorten(ctx.path, 80)} with a 301 redirect`
          : `Remove the timed reload from ${shorten(ctx.path, 80)}`,
        steps: target
          ? [
              `The page sends visitors to ${shorten(target, 140)} after ${delay} s with a meta refresh.`,
              'Redirect on the server instead (rules below) and remove the meta tag.',
            ]
          : [
              `The page reloads itself every ${delay} s.`,
              'Remove the meta refresh; update live content with a script, or let visitors reload.',
            ],
        code: target ? redirectRules([{ from: pathOnly(ctx.url), to: target }]) : undefined,
      };
    },
  }),
  defineCheck({
    code: 'TECH_SOFT_404',
    title: 'Soft 404',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'An indexable page answers 200, but its title or h1 says "not found" and it has under 300 words.',
    scoreReason: {
      ours:
        'Google drops a soft 404 from search, but this check is a heuristic (title or h1 says "not found"): ' +
        'WARNING.',
    },
    why:
      'A page that says "not found" but answers 200 tells search engines it is a real page: they may index ' +
      'error pages, and waste crawling on URLs that should be gone (a soft 404).',
    howToFix:
      'Make the server answer 404 (or 410 when gone for good) for missing pages while keeping the friendly error ' +
      'page, or redirect the URL with a 301 to the page that replaced it.',
    evidence: {
      kind: 'VALUES',
      keys: ['heading', 'words'],
      present: (e, view) => {
        view.fact('Says', textCell(stringAt(e, 'heading')));
        view.fact('Words on the page', wordsCell(numberAt(e, 'words')));
      },
    },
    evaluate: ({ html, page, indexable }) => {
      if (!html || !indexable || page.status !== 200) return null;
      if (html.wordCount >= T.soft404MaxWords) return pass();
      const title = html.titles[0]?.trim() ?? '';
      const h1 = html.headings.find((heading) => heading.level === 1)?.text ?? '';
      const says = [title, h1].find((text) => text !== '' && saysNotFound(text));
      return says !== undefined ? fail({ heading: says, words: html.wordCount }) : pass();
    },
    fix: (ctx) => ({
      summary: `Answer 404 (or redirect) at ${shorten(ctx.path, 80)} instead of 200`,
      steps: [
        `The page says "${shorten(ctx.evidence.string('heading') ?? 'not found', 100)}" with ` +
          `${ctx.evidence.number('words') ?? 'few'} words, but answers 200.`,
        'If the content is gone, make the server answer 404 or 410 with this error page as the body.',
        'If it moved, 301-redirect this URL to the page that replaced it; remove internal links to it either way.',
      ],
      code:
        '# nginx: serve the error page with a real 404\nerror_page 404 /404.html;\n\n# ' +
        'PHP\nhttp_response_code(404);',
    }),
  }),
  defineCheck({
    code: 'TECH_URL_DOUBLE_SLASH',
    title: 'Double slash in URL',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL path contains "//".',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'A double slash in the path usually comes from a template joining paths badly; the same page may then ' +
      'answer under several URLs, which creates duplicates.',
    howToFix:
      'Fix the template or rewrite rule that builds the URL so that each path segment has one slash, and ' +
      '301-redirect the double-slash URL to the single-slash one.',
    evidence: {
      kind: 'VALUES',
      keys: ['path'],
      present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
    },
    evaluate: ({ ok, finalUrl }) =>
      ok && finalUrl ? (finalUrl.pathname.includes('//') ? fail({ path: finalUrl.pathname }) : pass()) : null,
    fix: (ctx) => {
      const path = ctx.evidence.string('path') ?? pathOnly(ctx.url);
      const clean = path.replace(/\/{2,}/g, '/');
      return {
        summary: `Use ${shorten(clean, 80)} instead of ${shorten(path, 80)}`,
        steps: [
          'Fix the template or link that joins path segments with an extra slash.',
          `301-redirect double-slash URLs to their single-slash form, so ${shorten(clean, 80)} keeps the signals ` +
            '(rules below: both servers merge slashes before matching locations, so the rules test the URL as sent).',
        ],
        code: DOUBLE_SLASH_REDIRECT,
      };
    },
  }),
  defineCheck({
    code: 'TECH_URL_NON_ASCII',
    title: 'Spaces or non-ASCII characters in URL',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL path contains spaces or non-ASCII characters, encoded or not.',
    scoreReason: {
      ahrefs: 'notice',
    },
    why:
      'Spaces and non-ASCII characters must be percent-encoded in URLs; such URLs are long and unreadable when ' +
      'shared, and are easy to break when copied or linked (Google recommends readable ASCII words).',
    howToFix:
      'Use lower-case ASCII words separated by hyphens in paths (for example /cafe-menu instead of /café menu), ' +
      'and 301-redirect the old URLs to the new ones.',
    evidence: {
      kind: 'VALUES',
      keys: ['path', 'decoded'],
      present: (e, view) => {
        view.fact('Path', textCell(stringAt(e, 'path')));
        view.fact('Decoded', textCell(stringAt(e, 'decoded')));
      },
    },
    evaluate: ({ ok, finalUrl }) => {
      if (!ok || !finalUrl) return null;
      return /%(?:20|[89a-f][0-9a-f])/i.test(finalUrl.pathname)
        ? fail({ path: finalUrl.pathname, decoded: safeDecode(finalUrl.pathname) })
        : pass();
    },
    fix: (ctx) => {
      const decoded = ctx.evidence.string('decoded') ?? ctx.path;
      const ascii =
        decoded
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase()
          .replace(/[^a-z0-9/._-]+/g, '-')
          .replace(/-{2,}/g, '-')
          .replace(/-(\/|$)/g, '$1') || '/';
      return {
        summary: `Rename ${shorten(decoded, 80)} to an ASCII path such as ${shorten(ascii, 80)}`,
        steps: [
          `The path "${shorten(decoded, 120)}" holds spaces or non-ASCII characters.`,
          'Use lower-case ASCII words joined by hyphens, update internal links, and 301-redirect the old URL.',
        ],
        code: redirectRules([{ from: ctx.evidence.string('path') ?? pathOnly(ctx.url), to: withPath(ctx, ascii) }]),
      };
    },
  }),
  defineCheck({
    code: 'TECH_URL_SESSION_ID',
    title: 'Session ID in URL',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The URL carries a session identifier (PHPSESSID, jsessionid, sid and the like).',
    scoreReason: {
      semrush: 'notice',
      ours: 'Duplicate URLs of one page: ranks worse.',
    },
    why:
      'A session id in the URL gives every visit a different URL for the same page: crawlers see endless ' +
      "duplicates, and a shared link can hand over the sharer's session.",
    howToFix:
      'Keep sessions in cookies only (for example session.use_only_cookies=1 in PHP, tracking-mode COOKIE in ' +
      'Java EE), and 301-redirect URLs with a session parameter to the URL without it.',
    evidence: {
      kind: 'VALUES',
      keys: ['parameter'],
      present: (e, view) => view.fact('Session parameter', textCell(stringAt(e, 'parameter'))),
    },
    evaluate: ({ ok, finalUrl }) => {
      if (!ok || !finalUrl) return null;
      const parameter = sessionParameter(finalUrl);
      return parameter ? fail({ parameter }) : pass();
    },
    fix: (ctx) => {
      const parameter = ctx.evidence.string('parameter') ?? 'PHPSESSID';
      let clean = ctx.url;
      try {
        const parsed = new URL(ctx.url);
        parsed.searchParams.delete(parameter);
        parsed.pathname = parsed.pathname.replace(/;[^/]*$/, '');
        clean = parsed.href;
      } catch {
        // keep the URL as it is
      }
      return {
        summary: `Keep the session out of the URL (${parameter})`,
        steps: [
          `The URL carries the session parameter ${parameter}: link to ${shorten(clean, 140)} instead.`,
          'Keep sessions in cookies only: PHP session.use_only_cookies=1 and session.use_trans_sid=0; Java EE ' +
            '<tracking-mode>COOKIE</tracking-mode> in web.xml.',
          'Point a canonical link at the URL without the parameter, and 301-redirect URLs that carry it.',
        ],
        code: `<link rel="canonical" href="${escapeHtml(clean)}">`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_CLIENT_RENDERED_SUSPECTED',
    title: 'Page looks client-rendered',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    description:
      'In html mode, the raw HTML has an empty app root (#root, #app, #__next…) or framework markers and little ' +
      'visible text: its content likely needs JavaScript, which browser rendering mode would show.',
    scoreReason: {
      ours: 'A hint that browser rendering mode would tell more.',
    },
    why:
      'The HTML as served is an empty app shell; its text, links and tags appear only when JavaScript runs. ' +
      'Search engines render later and not always, other crawlers not at all, and this audit judged the shell.',
    howToFix:
      'Switch the project to browser rendering mode to audit the page as rendered, and consider server-side ' +
      'rendering or prerendering so that the title, content and links are in the HTML itself.',
    evidence: {
      kind: 'VALUES',
      keys: ['root', 'markers', 'words'],
      present: (e, view) => {
        const root = stringAt(e, 'root');
        if (root) view.fact('Empty app root', textCell(root));
        view.fact('Framework markers', listCell(stringsAt(e, 'markers')));
        const words = numberAt(e, 'words');
        view.fact('Visible text', words === 0 ? { text: 'None' } : wordsCell(words));
      },
    },
    evaluate: clientRenderedSuspected,
    fix: (ctx) => {
      const root = ctx.evidence.string('root');
      const markers = ctx.evidence.strings('markers', 4);
      const words = ctx.evidence.number('words');
      const signs = [
        ...(root ? [`an empty ${root} element`] : []),
        ...(markers.length > 0 ? [`framework markers (${markers.join(', ')})`] : []),
      ];
      return {
        summary: `Audit ${pageName(ctx)} in browser rendering mode: its HTML looks like an app shell`,
        steps: [
          `The HTML as served has ${signs.length > 0 ? signs.join(' and ') : 'the marks of a client-side app'}` +
            `${words !== null ? ` and ${words} visible words` : ''}: its content appears only when JavaScript runs, ` +
            'so this audit judged the empty shell.',
          'Switch the project to browser rendering mode (project settings) and run the audit again to see the ' +
            'page as search engines render it.',
          'For crawlers that do not run JavaScript, and for faster indexing, serve the content in the HTML with ' +
            'server-side rendering, static generation or prerendering.',
        ],
      };
    },
  }),
] as const;
