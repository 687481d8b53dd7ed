/**
 * Fixes for the image, security-header, redirect, soft-404, URL and link-text checks (hygiene-checks.ts), spread
 * into the category rule records (content, link, technical and performance fix rules).
 */
import { CHECK_THRESHOLDS as T, type CheckCode } from '../checks/index.js';
import { fieldOf, numberOf } from './fix-evidence.js';
import { formatBytes, inlineList, pageName, plural, type FixRule, type FixRuleContext } from './fix-rule-context.js';
import { altFromFileName } from './image-alt-proposal.js';
import { escapeHtml, shorten } from './markup-text.js';
import { pathOnly, redirectRules } from './server-config-snippets.js';

type ContentCode = Extract<
  CheckCode,
  'CONTENT_IMAGE_ALT_FILENAME' | 'CONTENT_IMAGE_EMPTY_SRC' | 'CONTENT_H1_DUPLICATE' | 'CONTENT_PLACEHOLDER_TEXT'
>;
type LinkCode = Extract<
  CheckCode,
  'LINKS_TEMPORARY_REDIRECT' | 'LINKS_NO_ANCHOR_TEXT' | 'LINKS_TO_NON_CANONICAL' | 'LINKS_TO_NOINDEX'
>;
type TechnicalCode = Extract<
  CheckCode,
  | 'TECH_CSP_MISSING'
  | 'TECH_CONTENT_TYPE_OPTIONS_MISSING'
  | 'TECH_CLICKJACKING_UNPROTECTED'
  | 'TECH_HSTS_SHORT'
  | 'TECH_COOKIE_INSECURE'
  | 'TECH_META_REFRESH'
  | 'TECH_SOFT_404'
  | 'TECH_URL_DOUBLE_SLASH'
  | 'TECH_URL_NON_ASCII'
  | 'TECH_URL_SESSION_ID'
>;
type PerformanceCode = Extract<CheckCode, 'PERF_IMAGE_LEGACY_FORMAT' | 'PERF_LCP_IMAGE_LAZY' | 'PERF_IMAGES_NOT_LAZY'>;

/** Both servers' way of adding one response header, and where to put it. */
function headerSnippet(name: string, value: string): string {
  return (
    `# nginx (server block)\nadd_header ${name} "${value.replace(/"/g, '\\"')}" always;\n\n` +
    `# Apache (vhost or .htaccess, mod_headers)\nHeader always set ${name} "${value.replace(/"/g, '\\"')}"`
  );
}

/**
 * Redirects any URL whose path holds `//` to the merged path. nginx (merge_slashes on) and Apache 2.4.39+
 * (MergeSlashes On) merge slashes before `location` / `Redirect` matching, so a rule on the doubled path would never
 * match: these test the request line as sent and redirect to the merged path the server already computed.
 */
const DOUBLE_SLASH_REDIRECT =
  '# nginx (server block)\nif ($request_uri ~ "^[^?]*//") {\n  return 301 $scheme://$host$uri$is_args$args;\n}\n\n' +
  '# Apache (vhost or .htaccess, mod_rewrite)\nRewriteEngine On\nRewriteCond %{THE_REQUEST} "^\\S+\\s[^?\\s]*//"\n' +
  'RewriteRule ^ %{REQUEST_URI} [R=301,L,NE]';

function withPath(ctx: FixRuleContext, path: string, search = ''): string {
  try {
    const parsed = new URL(ctx.url);
    parsed.pathname = path;
    parsed.search = search;
    return parsed.href;
  } catch {
    return path;
  }
}

export const HYGIENE_CONTENT_FIX_RULES: Record<ContentCode, FixRule> = {
  CONTENT_IMAGE_ALT_FILENAME: (ctx) => {
    const images = ctx.evidence.records('images', 5);
    const count = ctx.evidence.number('count') ?? images.length;
    const tags = images.map((image) => {
      const src = fieldOf(image, 'src') ?? '';
      const alt = altFromFileName(fieldOf(image, 'alt') ?? src) || 'Describe what the picture shows';
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
    });
    return {
      summary: `Describe ${plural(count, 'image')} on ${pageName(ctx)} instead of naming the file`,
      steps: [
        ...images.map(
          (image) => `The alt of ${shorten(fieldOf(image, 'src') ?? 'an image', 120)} is "${fieldOf(image, 'alt')}".`,
        ),
        "Write what each picture shows in this page's context (drafts below start from the file name: check them " +
          'against the picture); use alt="" only for decorative images.',
        'If a CMS fills alt text from the file name on upload, turn that off or edit the media library entries.',
      ],
      code: tags.join('\n') || undefined,
    };
  },
  CONTENT_IMAGE_EMPTY_SRC: (ctx) => {
    const count = ctx.evidence.number('count') ?? 1;
    const alts = ctx.evidence
      .records('images', 5)
      .map((image) => fieldOf(image, 'alt'))
      .filter((alt): alt is string => !!alt);
    return {
      summary: `Give ${plural(count, 'image')} on ${pageName(ctx)} a source, or remove ${count === 1 ? 'it' : 'them'}`,
      steps: [
        alts.length > 0
          ? `The images without a source have the alt text ${inlineList(alts, count)}.`
          : `${plural(count, 'img element')} on the page ${count === 1 ? 'has' : 'have'} no src or srcset.`,
        'Point src at the real file; a lazy-loading script must keep the URL in data-src (or data-srcset) until it ' +
          'sets src.',
        'If the template prints an img for an optional picture, print nothing when the picture is missing.',
      ],
      code: '<img src="/images/real-picture.webp" alt="What the picture shows" width="800" height="600">',
    };
  },
  CONTENT_H1_DUPLICATE: (ctx) => {
    const h1 = ctx.evidence.string('h1') ?? '';
    const others = ctx.evidence.strings('sameAs', 3);
    return {
      summary: `Give ${ctx.path === '/' ? 'the home page' : shorten(ctx.path, 80)} an h1 of its own`,
      steps: [
        `The h1 "${shorten(h1, 100)}" is also the h1 of ` +
          `${others.map((url) => shorten(url, 100)).join(', ') || 'other pages'}.`,
        'Name what is specific to this page in its h1 (the product, the topic, the place), matching its title.',
        'If the pages really have the same content, merge them or point the copies to one canonical URL.',
      ],
      code: ctx.page?.title ? `<h1>${escapeHtml(shorten(ctx.page.title, 80))}</h1>` : undefined,
    };
  },
  CONTENT_PLACEHOLDER_TEXT: (ctx) => ({
    summary: `Replace the Latin filler text on ${pageName(ctx)} with real copy`,
    steps: [
      'The page shows Latin filler copy left from a template or mock-up (the evidence quotes it).',
      'Write the real text for this block, or remove the block if it is not needed.',
      'Search the theme, templates and CMS content for the filler (command below) to find other leftovers.',
    ],
    code: "grep -rliE 'lorem[[:space:]]+ipsum' templates/ content/",
  }),
};

export const HYGIENE_LINK_FIX_RULES: Record<LinkCode, FixRule> = {
  LINKS_TEMPORARY_REDIRECT: (ctx) => {
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
  LINKS_NO_ANCHOR_TEXT: (ctx) => {
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
  LINKS_TO_NON_CANONICAL: (ctx) => {
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
  LINKS_TO_NOINDEX: (ctx) => {
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
};

export const HYGIENE_TECHNICAL_FIX_RULES: Record<TechnicalCode, FixRule> = {
  TECH_CSP_MISSING: (ctx) => ({
    summary: `Send a Content-Security-Policy from ${ctx.host || 'the site'}`,
    steps: [
      ctx.evidence.boolean('reportOnly')
        ? 'The site sends only Content-Security-Policy-Report-Only: once its reports are clean, send the same ' +
          'policy as Content-Security-Policy.'
        : 'No Content-Security-Policy is sent: start with the policy below in Report-Only mode and watch reports.',
      'Add the origins of your scripts, styles, fonts and images to the policy, then enforce it.',
    ],
    code: headerSnippet('Content-Security-Policy', "default-src 'self'; object-src 'none'; base-uri 'self'"),
  }),
  TECH_CONTENT_TYPE_OPTIONS_MISSING: (ctx) => {
    const header = ctx.evidence.string('header');
    return {
      summary: `Send X-Content-Type-Options: nosniff from ${ctx.host || 'the site'}`,
      steps: [
        header
          ? `The site sends X-Content-Type-Options: ${shorten(header, 80)}, which browsers ignore: it must be nosniff.`
          : 'The site does not send X-Content-Type-Options.',
        'Add the header to every response in the web server or CDN configuration.',
      ],
      code: headerSnippet('X-Content-Type-Options', 'nosniff'),
    };
  },
  TECH_CLICKJACKING_UNPROTECTED: (ctx) => ({
    summary: `Stop other sites from framing ${ctx.host || 'the site'}`,
    steps: [
      ctx.evidence.string('header')
        ? `The site sends "${shorten(ctx.evidence.string('header') ?? '', 100)}", which does not restrict framing.`
        : 'The site sends neither X-Frame-Options nor CSP frame-ancestors.',
      "Send CSP frame-ancestors 'self' (list partner origins that must embed pages) and X-Frame-Options: " +
        'SAMEORIGIN for older browsers.',
    ],
    code:
      headerSnippet('Content-Security-Policy', "frame-ancestors 'self'") +
      '\n\n' +
      headerSnippet('X-Frame-Options', 'SAMEORIGIN'),
  }),
  TECH_HSTS_SHORT: (ctx) => {
    const maxAge = ctx.evidence.number('maxAge');
    return {
      summary: 'Raise the HSTS max-age to at least one year',
      steps: [
        maxAge !== null
          ? `Strict-Transport-Security has max-age=${maxAge} (about ${plural(Math.round(maxAge / 86_400), 'day')}).`
          : 'Strict-Transport-Security has a max-age under one year.',
        `Set max-age=${T.hstsMinMaxAge}; add includeSubDomains once every subdomain serves https.`,
      ],
      code: headerSnippet('Strict-Transport-Security', `max-age=${T.hstsMinMaxAge}; includeSubDomains`),
    };
  },
  TECH_COOKIE_INSECURE: (ctx) => {
    const cookies = ctx.evidence.strings('cookies', 10);
    const count = ctx.evidence.number('count') ?? cookies.length;
    return {
      summary: `Add Secure to ${plural(count, 'cookie')} set by ${shorten(ctx.path, 80)}`,
      steps: [
        `Set without Secure: ${inlineList(cookies, count)}.`,
        'Add Secure (and HttpOnly and SameSite=Lax for session cookies) where the application or framework sets ' +
          'them; PHP: session.cookie_secure=1, Express: cookie: { secure: true }.',
        'Or have the reverse proxy add it to every cookie (nginx below).',
      ],
      code:
        `${cookies[0] ?? 'session'}=…; Path=/; Secure; HttpOnly; SameSite=Lax\n\n` +
        '# nginx\nproxy_cookie_flags ~ secure;',
    };
  },
  TECH_META_REFRESH: (ctx) => {
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
  TECH_SOFT_404: (ctx) => ({
    summary: `Answer 404 (or redirect) at ${shorten(ctx.path, 80)} instead of 200`,
    steps: [
      `The page says "${shorten(ctx.evidence.string('heading') ?? 'not found', 100)}" with ` +
        `${ctx.evidence.number('words') ?? 'few'} words, but answers 200.`,
      'If the content is gone, make the server answer 404 or 410 with this error page as the body.',
      'If it moved, 301-redirect this URL to the page that replaced it; remove internal links to it either way.',
    ],
    code: '# nginx: serve the error page with a real 404\nerror_page 404 /404.html;\n\n# PHP\nhttp_response_code(404);',
  }),
  TECH_URL_DOUBLE_SLASH: (ctx) => {
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
  TECH_URL_NON_ASCII: (ctx) => {
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
  TECH_URL_SESSION_ID: (ctx) => {
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
};

export const HYGIENE_PERFORMANCE_FIX_RULES: Record<PerformanceCode, FixRule> = {
  PERF_IMAGE_LEGACY_FORMAT: (ctx) => {
    const images = ctx.evidence.records('images', 5);
    const count = ctx.evidence.number('count') ?? images.length;
    const first = fieldOf(images[0] ?? {}, 'url');
    const webp = first ? first.replace(/\.(jpe?g|png|gif|bmp)(\?.*)?$/i, '.webp') : '/images/picture.webp';
    return {
      summary: `Serve ${plural(count, 'large image')} on ${pageName(ctx)} as WebP or AVIF`,
      steps: [
        ...images.map((image) => {
          const bytes = numberOf(image, 'bytes');
          return (
            `${shorten(fieldOf(image, 'url') ?? '', 120)} is ${fieldOf(image, 'type') ?? 'a legacy format'}` +
            (bytes !== null ? ` (${formatBytes(bytes)})` : '') +
            '.'
          );
        }),
        "Convert them to WebP or AVIF (cwebp, avifenc, or the CDN's automatic conversion) and serve them with a " +
          '<picture> fallback if old browsers matter.',
      ],
      code:
        `<picture>\n  <source srcset="${escapeHtml(webp)}" type="image/webp">\n` +
        `  <img src="${escapeHtml(first ?? '/images/picture.jpg')}" alt="…" width="…" height="…">\n</picture>`,
    };
  },
  PERF_LCP_IMAGE_LAZY: (ctx) => {
    const src = ctx.evidence.string('src') ?? '/images/hero.jpg';
    return {
      summary: `Load the main image of ${pageName(ctx)} eagerly`,
      steps: [
        `${shorten(src, 140)} is the first large image near the top of the page and has loading="lazy".`,
        'Remove loading="lazy" from it (lazy loading delays the Largest Contentful Paint) and give it ' +
          'fetchpriority="high"; keep lazy loading for images further down.',
      ],
      code: `<img src="${escapeHtml(src)}" fetchpriority="high" alt="…" width="…" height="…">`,
    };
  },
  PERF_IMAGES_NOT_LAZY: (ctx) => {
    const images = ctx.evidence.number('images');
    return {
      summary: `Lazy-load the images below the first screen of ${pageName(ctx)}`,
      steps: [
        `The page has ${images ?? 'many'} images and loads all of them at once.`,
        `Keep the first ${T.eagerImages} images eager and add loading="lazy" to the others, with width and height ` +
          'set on each.',
      ],
      code: '<img src="/images/gallery-4.webp" loading="lazy" alt="…" width="400" height="300">',
    };
  },
};
