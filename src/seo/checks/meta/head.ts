import { metaDescriptionTag } from '../../fixes/description-proposal.js';
import { inlineList } from '../../fixes/fix-rule-context.js';
import { correctLanguageTag, guessLanguage } from '../../fixes/language-guess.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { pageOf } from '../../fixes/meta-fix-rules.js';
import { proposeTitle, titleTag } from '../../fixes/title-proposal.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listCell, NOTHING, numberAt, statusCell, stringAt, stringsAt, textCell } from '../evidence-presenters.js';
import { isValidLangTag } from '../language-tag.js';
import { ON_PAGE_BASICS, viewportZoomBlocker } from '../page-check-helpers.js';
import { notApplicable, result, siteUrl, startPage } from '../site-check-helpers.js';
import { charsetOf } from '../../page/header-values.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const META_CHARSET_MISSING = 'META_CHARSET_MISSING';

export const HEAD_CHECKS = [
  defineCheck({
    code: 'META_TAGS_IN_BODY',
    title: 'Head tags inside body',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A title, meta or canonical link appears inside <body>, where search engines ignore it.',
    scoreReason: {
      ours: 'Search engines ignore a title/canonical in <body>: shown worse.',
    },
    why:
      'Search engines read titles, meta tags and canonical links only in the head; placed in the body they are ' +
      'ignored, so the page may lose its title, robots directives or canonical.',
    howToFix:
      'Move the title, meta and canonical link elements into the head. If they are already there in the source, ' +
      'look for an element not allowed in the head (such as img, iframe or div) before them, which ends the head ' +
      'early.',
    evidence: {
      kind: 'VALUES',
      keys: ['tags'],
      present: (e, view) => view.fact('Found inside <body>', listCell(stringsAt(e, 'tags'))),
    },
    evaluate: ({ html }) =>
      html ? (html.headTagsInBody.length > 0 ? fail({ tags: html.headTagsInBody }) : pass()) : null,
    fix: (ctx) => {
      const tags = ctx.evidence.strings('tags', 10);
      const page = ctx.page;
      const lines: string[] = [];
      for (const tag of tags.length > 0 ? tags : ['title', 'meta[name=description]', 'link[rel=canonical]']) {
        if (tag === 'title' && page?.title) lines.push(titleTag(page.title));
        else if (tag.includes('description') && page?.description) lines.push(metaDescriptionTag(page.description));
        else if (tag.includes('canonical'))
          lines.push(`<link rel="canonical" href="${escapeHtml(page?.canonical ?? ctx.url)}">`);
        else if (tag === 'title') lines.push(titleTag(proposeTitle(pageOf(ctx), ctx.url).text));
      }
      return {
        summary: `Move ${tags.length > 0 ? inlineList(tags, tags.length, 5) : 'the head tags'} from <body> into <head>`,
        steps: [
          `These tags appear after <body> started, where search engines ignore ` +
            `them: ${tags.length > 0 ? tags.join(', ') : 'title, meta or canonical link'}.`,
          'Move them into <head>, before any element that is not allowed there: an <img>, <div>, <iframe> or ' +
            'stray text in <head> silently ends the head, pushing every later tag into the body.',
          'If you cannot find such an element in the template, look for scripts or plugins that inject markup ' +
            'at the top of <head> (tracking pixels in <noscript><img>, consent banners).',
        ],
        code: `<head>\n  ${lines.join('\n  ')}\n</head>`,
      };
    },
  }),
  defineCheck({
    code: 'META_VIEWPORT_MISSING',
    title: 'Missing viewport',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The page has no meta viewport, so mobile browsers render it at desktop width.',
    scoreReason: {
      lighthouse: 'viewport: fail',
      semrush: 'error',
      ours: 'Semrush says error; the page stays in search, rendered at desktop width on phones: WARNING.',
    },
    why:
      'Without a viewport, mobile browsers lay the page out at desktop width and shrink it, which makes it hard ' +
      'to use on phones; Google mainly crawls and indexes the mobile version of pages.',
    howToFix:
      'Add meta name="viewport" content="width=device-width, initial-scale=1" to the head of every page (in the ' +
      'base template), and make sure the layout adapts to narrow screens.',
    evidence: NOTHING,
    evaluate: ({ html }) => (html ? (ON_PAGE_BASICS.viewport(html) ? fail() : pass()) : null),
    fix: () => ({
      summary: 'Add a responsive viewport meta tag',
      steps: [
        'Without a viewport tag, phones render the page at desktop width (980 px) and shrink it, so text is ' +
          'tiny and Google flags the page as not mobile-friendly.',
        'Add the tag inside <head> on every page (in the shared layout template).',
        'Check the page on a phone: if content overflows horizontally, fix fixed-width elements (widths in px ' +
          'wider than 360) with max-width: 100%.',
      ],
      code: '<meta name="viewport" content="width=device-width, initial-scale=1">',
    }),
  }),
  defineCheck({
    code: 'META_VIEWPORT_NO_ZOOM',
    title: 'Viewport blocks zooming',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'The viewport sets user-scalable=no or a maximum-scale below 5.',
    requires: 'META_VIEWPORT_MISSING',
    scoreReason: {
      lighthouse: 'viewport / meta-viewport (a11y): fail',
    },
    why:
      'Blocking zoom prevents people with low vision from enlarging text and images; Lighthouse reports it as an ' +
      'accessibility failure.',
    howToFix:
      'Remove user-scalable=no (or user-scalable=0) from the viewport content and either drop maximum-scale or ' +
      'set it to 5 or more, for example content="width=device-width, initial-scale=1".',
    evidence: {
      kind: 'VALUES',
      keys: ['viewport', 'reason'],
      present: (e, view) => {
        view.fact('Viewport', textCell(stringAt(e, 'viewport')));
        view.fact('Blocks zooming with', textCell(stringAt(e, 'reason')));
      },
    },
    evaluate: ({ html }) => {
      if (!html || html.viewport === null || html.viewport.trim() === '') return null;
      const reason = viewportZoomBlocker(html.viewport);
      return reason ? fail({ viewport: html.viewport, reason }) : pass();
    },
    fix: (ctx) => {
      const viewport = ctx.evidence.string('viewport') ?? 'width=device-width, initial-scale=1';
      const reason = ctx.evidence.string('reason') ?? 'user-scalable=no';
      const kept = viewport
        .split(/[,;]/)
        .map((part) => part.trim())
        .filter((part) => part !== '' && !/^(user-scalable|maximum-scale)\s*=/i.test(part));
      if (!kept.some((part) => /^width\s*=/i.test(part))) kept.unshift('width=device-width');
      if (!kept.some((part) => /^initial-scale\s*=/i.test(part))) kept.push('initial-scale=1');
      const fixed = kept.join(', ');
      return {
        summary: `Remove ${reason} from the viewport so visitors can zoom`,
        steps: [
          `The viewport "${shorten(viewport, 120)}" blocks pinch-zoom (${reason}), an accessibility failure ` +
            `(WCAG 1.4.4) that Lighthouse reports.`,
          `Replace its content with "${fixed}".`,
          'If zoom was disabled to stop iOS zooming into form fields, give inputs a font-size of at least 16px ' +
            'instead.',
        ],
        code: `<meta name="viewport" content="${escapeHtml(fixed)}">`,
      };
    },
  }),
  defineCheck({
    code: 'META_LANG_MISSING',
    title: 'Missing language',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The <html> element has no lang attribute.',
    scoreReason: {
      lighthouse: 'html-has-lang (a11y): fail',
      ahrefs: 'warning',
      ours:
        "Search engines detect the language from the text: hygiene (NOTICE, the rule's own example). Was WARNING " +
        '(30 META points on a manual).',
    },
    why:
      'Screen readers use the lang attribute to choose pronunciation and browsers use it to offer translation; ' +
      'some search engines and tools read it too, although Google detects language from the content.',
    howToFix:
      'Add a lang attribute to the html element giving the language of the page content, for example lang="en", ' +
      'lang="en-GB" or lang="de"; set it in the base template so every page gets it.',
    evidence: NOTHING,
    evaluate: ({ html }) => (html ? (html.lang === null || html.lang === '' ? fail() : pass()) : null),
    fix: (ctx) => {
      const guess = guessLanguage(ctx.page, ctx.url);
      return {
        summary: `Declare the page language: <html lang="${guess.tag}">`,
        steps: [
          'The <html> element has no lang attribute, so screen readers, translation prompts and search engines ' +
            'must guess the language.',
          `Add lang="${guess.tag}" to the opening <html> tag (guessed from ${guess.basis}); use the tag of ` +
            `the language the content is actually written in, with a region only when it matters ` +
            `(en-GB, pt-BR).`,
          "Set it in the shared layout (or the CMS's site language setting) so every page carries it.",
        ],
        code: `<html lang="${escapeHtml(guess.tag)}">`,
      };
    },
  }),
  defineCheck({
    code: 'META_LANG_INVALID',
    title: 'Invalid language',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The <html> lang attribute is not a valid BCP 47 language tag.',
    requires: 'META_LANG_MISSING',
    scoreReason: {
      lighthouse: 'html-lang-valid (a11y): fail',
      ahrefs: 'warning',
      ours: 'As META_LANG_MISSING.',
    },
    why:
      'A lang value that is not a valid BCP 47 tag cannot be understood by browsers, screen readers or other ' +
      'tools, so it works no better than having no language at all.',
    howToFix:
      'Use a valid BCP 47 tag: a language code, optionally followed by a script or region, for example en, ' +
      'en-GB, pt-BR or zh-Hant. Separate parts with hyphens, not underscores (en_US), and do not use names such ' +
      'as english.',
    evidence: {
      kind: 'VALUES',
      keys: ['lang'],
      present: (e, view) => view.fact('lang attribute', textCell(stringAt(e, 'lang'))),
    },
    evaluate: ({ html }) => {
      if (!html || html.lang === null || html.lang === '') return null;
      return isValidLangTag(html.lang) ? pass() : fail({ lang: html.lang });
    },
    fix: (ctx) => {
      const current = ctx.evidence.string('lang') ?? ctx.page?.lang ?? '';
      const corrected = correctLanguageTag(current);
      const tag = corrected && corrected !== 'x-default' ? corrected : guessLanguage(ctx.page, ctx.url).tag;
      return {
        summary: `Replace lang="${shorten(current, 30)}" with the valid tag "${tag}"`,
        steps: [
          `"${shorten(current, 60)}" is not a BCP 47 language tag: tags are an ISO 639 language code, ` +
            `optionally a hyphen and an ISO 3166 region (en, en-US, de-AT), never an underscore or a ` +
            `language name.`,
          corrected
            ? `Change the <html> lang attribute to "${tag}", the valid form of the current value.`
            : `Change the <html> lang attribute to "${tag}" (guessed from the page; use the language the ` +
              `content is written in).`,
        ],
        code: `<html lang="${escapeHtml(tag)}">`,
      };
    },
  }),
  defineCheck({
    code: META_CHARSET_MISSING,
    title: 'Missing charset',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'No character encoding is declared in a meta tag or the Content-Type header.',
    scoreReason: {
      lighthouse: 'charset (best practices): fail',
      semrush: 'warning',
      ours: 'Browsers sniff; rarely changes outcomes.',
    },
    why:
      'Without a declared encoding, browsers and crawlers have to guess it, and a wrong guess turns accented ' +
      'letters and symbols into garbled text on the page and possibly in search snippets.',
    howToFix:
      'Declare UTF-8 in the Content-Type response header (text/html; charset=utf-8) and add meta charset="utf-8" ' +
      'as the first element of the head, within the first 1024 bytes of the document.',
    evidence: NOTHING,
    // The page facts' charset is meta, http-equiv, else charsetOf(Content-Type); the tool checks the same sources.
    headersTool: charsetOf,
    evaluate: ({ html }) => (html ? (html.charset === null ? fail() : pass()) : null),
    fix: () => ({
      summary: 'Declare UTF-8 as the character encoding',
      steps: [
        'Neither a <meta charset> nor the Content-Type header names the encoding, so browsers guess and ' +
          'accented characters may break.',
        'Add <meta charset="utf-8"> as the very first element inside <head> (it must be within the first 1024 bytes).',
        'Also send the charset in the Content-Type header: nginx "charset utf-8;" in the server block, Apache ' +
          '"AddDefaultCharset UTF-8".',
      ],
      code:
        '<meta charset="utf-8">\n\n# nginx (server block)\ncharset utf-8;\n\n# Apache (.htaccess or ' +
        'vhost)\nAddDefaultCharset UTF-8',
    }),
  }),
  defineCheck({
    code: 'META_DOCTYPE_MISSING',
    title: 'Missing doctype',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'The document does not start with <!DOCTYPE html>, so browsers use quirks mode.',
    scoreReason: {
      lighthouse: 'doctype (best practices): fail',
      semrush: 'warning',
      ours: 'Quirks mode rarely changes search outcomes.',
    },
    why:
      'Without the HTML5 doctype, browsers render the page in quirks mode, which changes layout and CSS ' +
      'behaviour and can break the design on some devices; it has no direct effect on ranking.',
    howToFix:
      'Put the HTML5 doctype declaration (!DOCTYPE html, in angle brackets) at the very start of every HTML ' +
      'document, before the html element; set it once in the base layout template.',
    evidence: {
      kind: 'VALUES',
      keys: ['doctype'],
      // null (no doctype at all) restates the failure; a doctype of another kind is worth showing.
      present: (e, view) => {
        const doctype = stringAt(e, 'doctype');
        if (doctype) view.fact('Doctype', textCell(`<${doctype}>`));
      },
    },
    evaluate: ({ html }) => (html ? (html.hasHtmlDoctype ? pass() : fail({ doctype: html.doctype })) : null),
    fix: (ctx) => {
      const current = ctx.evidence.string('doctype');
      return {
        summary: 'Start the document with <!DOCTYPE html>',
        steps: [
          current
            ? `The document declares "<${shorten(current, 100)}>", a legacy doctype that triggers quirks or ` +
              `limited-quirks rendering.`
            : 'The document has no doctype, so browsers render it in quirks mode (old box model, inconsistent CSS).',
          'Make <!DOCTYPE html> the first line of the document, before <html>, with no comment or output from ' +
            'an include in front of it.',
          'Re-test the layout afterwards: pages built in quirks mode can shift slightly in standards mode ' +
            '(table heights, inline images).',
        ],
        code: '<!DOCTYPE html>',
      };
    },
  }),
  defineCheck({
    code: 'META_FAVICON_MISSING',
    title: 'Missing favicon',
    severity: 'NOTICE',
    category: 'META',
    scope: 'site',
    description: 'The home page links no icon and /favicon.ico does not answer 200.',
    scoreReason: {
      ours:
        'Shown in mobile results, but rarely changes outcomes. A linked icon that fails is a missing favicon (row ' +
        '22), not a broken resource.',
    },
    why:
      'Google can show a site favicon next to its search results, and browsers show it in tabs and bookmarks; ' +
      'without one a generic icon appears, which makes the site less distinctive.',
    howToFix:
      'Add a link rel="icon" to the head of the home page pointing to a square icon of at least 48 by 48 pixels ' +
      '(ICO, PNG or SVG), or serve one at /favicon.ico answering 200; do not block the icon in robots.txt.',
    evidence: {
      kind: 'VALUES',
      keys: ['status'],
      // null: /favicon.ico was not fetched (the home page was judged alone), which tells nothing.
      present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
    },
    evaluate: ({ input, pages }) => {
      const home = startPage(input, pages);
      const homeIsHtml = home !== -1 && pages.store.isHtml(home);
      if (!input.favicon && !homeIsHtml) return notApplicable('META_FAVICON_MISSING');
      // A linked icon counts unless the crawl found every linked icon failing: an icon that answers 404 is no favicon
      // (and costs what no favicon costs, not a broken resource on every page).
      const iconWorks = (url: string) => {
        const info = input.linkTargets?.get(url);
        if (info) {
          if (info.blockedByRobots || info.blockedAddress) return true;
          if (info.status === null) return info.failure === undefined;
          return info.status < 400 || info.status === 429;
        }
        // Fetched as a resource of the crawl (a row of its own): its status; not fetched at all tells nothing.
        for (let row = 0; row < pages.store.size; row++) {
          if (pages.store.url(row) !== url) continue;
          const status = pages.store.status(row);
          return status !== 0 && (status < 400 || status === 429);
        }
        return true;
      };
      const linked =
        home !== -1 &&
        pages.store.hasIconLink(home) &&
        (pages.store.resources(home).every((r) => r.kind !== 'icon') ||
          pages.store.resources(home).some((r) => r.kind === 'icon' && iconWorks(r.url)));
      const present = linked || input.favicon?.status === 200;
      return result('META_FAVICON_MISSING', !present, [
        { url: siteUrl(input, '/favicon.ico'), evidence: { status: input.favicon?.status ?? null } },
      ]);
    },
    fix: (ctx) => {
      const status = ctx.evidence.number('status');
      return {
        summary: `Add a favicon at ${ctx.origin || ''}/favicon.ico and link it from the pages`,
        steps: [
          `The home page links no icon and /favicon.ico answered ${status === null ? 'nothing' : status}; ` +
            `search results and browser tabs show a generic icon.`,
          'Create a square icon (at least 48×48 px; Google shows multiples of 48) and save it as /favicon.ico ' +
            'at the site root, plus an SVG or 180×180 PNG for modern browsers and iOS.',
          'Link the icons from <head> in the shared layout.',
        ],
        code:
          '<link rel="icon" href="/favicon.ico" sizes="any">\n<link rel="icon" href="/icon.svg" ' +
          'type="image/svg+xml">\n<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
      };
    },
  }),
] as const;
