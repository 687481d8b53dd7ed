import { CHECK_THRESHOLDS as T, type CheckCode } from '../checks/index.js';
import { proposeDescription } from './description-proposal.js';
import { fieldOf, numberOf } from './fix-evidence.js';
import { HYGIENE_TECHNICAL_FIX_RULES } from './hygiene-fix-rules.js';
import {
  absoluteUrl,
  formatBytes,
  inlineList,
  pageName,
  plural,
  type FixRule,
  type FixRuleContext,
} from './fix-rule-context.js';
import { brandFromHost, collapseWhitespace, escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import type { StructuredFixCode } from './structured-international-fix-rules.js';
import { parentPath, pathOnly, redirectRules, shellQuote } from './server-config-snippets.js';
import { brandOf } from './title-proposal.js';

type TechnicalCode = Exclude<Extract<CheckCode, `TECH_${string}`>, StructuredFixCode> | 'PAGE_FETCH_FAILED';

const AI_SEARCH_AGENTS = ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User'];

function site(ctx: FixRuleContext): string {
  return ctx.origin || 'https://your-site';
}

function robotsTxt(ctx: FixRuleContext, extra: string[] = []): string {
  return ['User-agent: *', 'Allow: /', ...extra, '', `Sitemap: ${site(ctx)}/sitemap.xml`].join('\n');
}

function canonicalTag(url: string): string {
  return `<link rel="canonical" href="${escapeHtml(url)}">`;
}

function withPath(ctx: FixRuleContext, path: string): string {
  try {
    const parsed = new URL(ctx.url);
    parsed.pathname = path;
    return parsed.href;
  } catch {
    return path;
  }
}

/** A short hyphenated slug from the page's topic ("Oak Tables & Chairs" -> "oak-tables-chairs"). */
function slugOf(text: string, maxWords = 6): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(
      (word) => word !== '' && !['a', 'an', 'the', 'and', 'or', 'of', 'for', 'to', 'in', 'on', 'with'].includes(word),
    )
    .slice(0, maxWords)
    .join('-');
}

export const TECHNICAL_FIX_RULES: Record<TechnicalCode, FixRule> = {
  TECH_STATUS_4XX: (ctx) => {
    const status = ctx.evidence.number('status') ?? 404;
    const gone = status === 404 || status === 410;
    const steps = gone
      ? [
          `${shorten(ctx.url, 140)} answers ${status}: the page is gone, but something still links to it ` +
            `(the crawler found it).`,
          'If the content moved, 301-redirect this URL to its new address (the parent section is proposed ' +
            'below when no better match exists).',
          'If it is gone for good, keep the 404/410, remove the internal links that point here and drop it ' +
            'from the sitemap.',
        ]
      : status === 401 || status === 403
        ? [
            `${shorten(ctx.url, 140)} answers ${status}: crawlers are refused.`,
            'If the page is public, check server rules, firewall/WAF bot protection and IP allow-lists that ' +
              'block crawler user agents.',
            'If it is private, remove public links to it and exclude it from the sitemap.',
          ]
        : status === 429
          ? [
              `${shorten(ctx.url, 140)} answers 429: the server rate-limits crawlers.`,
              'Raise the rate limit for verified search-engine crawlers, or serve cached pages to them; ' +
                'answer 503 with Retry-After during overload instead.',
            ]
          : [
              `${shorten(ctx.url, 140)} answers ${status}.`,
              'Make the URL answer 200 with the page, or redirect it (301) to the right page, and update the ' +
                'links that point here.',
            ];
    return {
      summary: `Fix ${shorten(ctx.url, 100)} answering ${status}`,
      steps,
      code: gone ? redirectRules([{ from: pathOnly(ctx.url), to: parentPath(ctx.url) }]) : undefined,
    };
  },
  TECH_STATUS_5XX: (ctx) => {
    const status = ctx.evidence.number('status') ?? 500;
    const cause =
      status === 502 || status === 504
        ? `${status} comes from a proxy or load balancer whose upstream (the application server) failed or ` +
          `was too slow: check that the app is running and its timeouts.`
        : status === 503
          ? '503 means unavailable: if this was maintenance, send a Retry-After header and keep maintenance ' +
            'short; otherwise check capacity and rate limiting.'
          : `${status} is an application error: find the exception in the application or PHP error log for ` +
            `this URL and fix it.`;
    return {
      summary: `Fix the server error ${status} on ${shorten(ctx.url, 100)}`,
      steps: [
        `${shorten(ctx.url, 140)} answered ${status}; repeated server errors make search engines crawl ` +
          `less and drop the page.`,
        cause,
        'Reproduce it with the command below, and add monitoring that alerts on 5xx responses.',
      ],
      code: `curl -sS -o /dev/null -w '%{http_code} %{time_total}s\\n' ${shellQuote(ctx.url)}`,
    };
  },
  TECH_TIMEOUT: (ctx) => ({
    summary: `Make ${shorten(ctx.url, 100)} answer before the crawler times out`,
    steps: [
      'The crawler got no complete response in time; search engines give up on such pages too.',
      'Measure where the time goes with the command below (connect vs. first byte vs. total): a slow first ' +
        'byte points to the application or database, a slow total to a huge or slowly streamed body.',
      'Cache the rendered page (full-page cache or CDN), fix slow queries, and make sure no request waits on ' +
        'an unreachable third-party service without a timeout.',
    ],
    code:
      `curl -sS -o /dev/null -w 'connect %{time_connect}s, first byte %{time_starttransfer}s, total ` +
      `%{time_total}s\\n' ${shellQuote(ctx.url)}`,
  }),
  PAGE_FETCH_FAILED: (ctx) => ({
    summary: `Make ${shorten(ctx.url, 100)} reachable for crawlers`,
    steps: [
      `The crawler got no usable response: ${shorten(ctx.evidence.string('error') ?? 'the fetch failed', 200)}.`,
      'A page that cannot be fetched cannot be indexed: check that the host resolves, the server accepts ' +
        'connections on this port, its TLS certificate is valid, and no redirect leads to a private address or ' +
        'back to itself.',
      'Reproduce it with the command below from a machine outside your network.',
    ],
    code: `curl -sSIL --max-time 20 ${shellQuote(ctx.url)}`,
  }),
  TECH_NOINDEX: (ctx) => {
    const sources = ctx.evidence.strings('sources', 3);
    const meta = ctx.evidence.strings('meta', 3);
    const header = ctx.evidence.strings('header', 3);
    const fromHeader = sources.includes('header') || header.length > 0;
    const steps = [
      `The page is excluded from search results by ${
        [
          meta.length > 0
            ? `<meta name="robots" content="${shorten(meta[0], 60)}">`
            : sources.some((s) => s.includes('meta'))
              ? 'a robots meta tag'
              : '',
          fromHeader ? `the X-Robots-Tag header${header.length > 0 ? ` "${shorten(header[0], 60)}"` : ''}` : '',
        ]
          .filter(Boolean)
          .join(' and ') || 'a noindex directive'
      }.`,
      'If the page should appear in search: remove noindex (delete the meta tag or set it to "index, ' +
        'follow", and remove the header from the server or CMS config).',
      'If it should stay out of search, that is fine: keep it out of the sitemap and do not canonicalize ' +
        'indexable pages to it.',
    ];
    return {
      summary: `Remove noindex from ${pageName(ctx)} if it should rank`,
      steps,
      code: fromHeader
        ? '# nginx: delete lines like\nadd_header X-Robots-Tag "noindex";\n# Apache: delete lines like\nHeader ' +
          'set X-Robots-Tag "noindex"'
        : '<meta name="robots" content="index, follow">',
    };
  },
  TECH_NOINDEX_SITEWIDE: (ctx) => {
    const noindex = ctx.evidence.number('noindexPages');
    const html = ctx.evidence.number('htmlPages');
    return {
      summary: 'Remove the site-wide noindex that hides the site from search',
      steps: [
        `${noindex !== null && html !== null ? `${noindex} of ${html}` : 'Nearly all'} crawled HTML pages ` +
          `are noindex: the site is effectively invisible in search.`,
        'This usually comes from one switch: WordPress\'s "Discourage search engines from indexing this ' +
          'site" (Settings → Reading), a staging flag deployed to production, or an X-Robots-Tag header in the ' +
          'server or CDN config.',
        'Turn it off, then request re-indexing of the home page in Google Search Console and Bing Webmaster Tools.',
      ],
      code:
        '# WordPress\nwp option update blog_public 1\n\n# find a server-level header\ngrep -rn "X-Robots-Tag" ' +
        '/etc/nginx /etc/apache2 2>/dev/null',
    };
  },
  TECH_ROBOTS_MISSING: (ctx) => ({
    summary: `Publish a robots.txt at ${site(ctx)}/robots.txt`,
    steps: [
      '/robots.txt answers 404. Crawlers then crawl everything, which works, but you cannot steer them or ' +
        'point them to the sitemap.',
      'Create a plain-text file at the site root with the content below (served as text/plain, answering 200).',
      'Add Disallow lines only for areas that must not be crawled (admin, cart, internal search results).',
    ],
    code: robotsTxt(ctx),
  }),
  TECH_ROBOTS_UNREACHABLE: (ctx) => {
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
  TECH_ROBOTS_BLOCKS_ALL: (ctx) => ({
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
  TECH_ROBOTS_INVALID: (ctx) => {
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
  TECH_BLOCKED_BY_ROBOTS: (ctx) => {
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
  TECH_SITEMAP_MISSING: (ctx) => {
    const home = `${site(ctx)}/`;
    return {
      summary: `Publish an XML sitemap at ${site(ctx)}/sitemap.xml and name it in robots.txt`,
      steps: [
        'robots.txt names no sitemap and /sitemap.xml does not answer 200, so crawlers must discover pages ' +
          'through links only.',
        'Generate a sitemap listing every indexable, canonical URL (your CMS or framework likely has a ' +
          'plugin or module for it) and serve it at /sitemap.xml.',
        `Add "Sitemap: ${site(ctx)}/sitemap.xml" to robots.txt and submit it in Google Search Console.`,
      ],
      code:
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
        `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    ` +
        `<loc>${escapeHtml(home)}</loc>\n  </url>\n</urlset>\n\n# ` +
        `robots.txt\nSitemap: ${site(ctx)}/sitemap.xml`,
    };
  },
  TECH_SITEMAP_INVALID: (ctx) => {
    const reasons = ctx.evidence.strings('reasons', 4);
    const errors = ctx.evidence.strings('errors', 3);
    const steps = reasons.map((reason) =>
      /URLs \(limit/.test(reason)
        ? `The sitemap has ${reason}: split it into several sitemaps of at most 50,000 URLs and list them ` +
          `in a sitemap index.`
        : /bytes/.test(reason)
          ? `The sitemap is ${reason}: split it (or gzip it; the limit applies to the uncompressed size).`
          : /other hosts/.test(reason)
            ? `The sitemap lists ${reason}: a sitemap may only list URLs of its own host; move them to that ` +
              `host's sitemap.`
            : `The sitemap ${reason}${
                errors.length > 0 ? `: ${errors.map((error) => shorten(error, 100)).join(' | ')}` : ''
              }.`,
    );
    return {
      summary: `Fix the sitemap at ${shorten(ctx.url, 100)}`,
      steps: [
        ...(steps.length > 0 ? steps : ['The sitemap does not parse or breaks a sitemaps.org limit.']),
        'Validate it against the sitemaps.org schema: UTF-8, the urlset namespace, absolute <loc> URLs with ' +
          '&amp; escaped, one <url> per page.',
      ],
      code:
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
        `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url>\n    ` +
        `<loc>${escapeHtml(site(ctx))}/</loc>\n  </url>\n</urlset>`,
    };
  },
  TECH_SITEMAP_NON_INDEXABLE: (ctx) => {
    const reason = ctx.evidence.string('reason') ?? 'non-indexable';
    const finalUrl = ctx.evidence.string('finalUrl');
    const status = ctx.evidence.number('status');
    const canonical = ctx.page?.canonical && ctx.page.canonical !== ctx.url ? ctx.page.canonical : null;
    const replacement =
      reason === 'redirect' && finalUrl && finalUrl !== ctx.url
        ? finalUrl
        : reason === 'canonicalized'
          ? canonical
          : null;
    const explanation: Record<string, string> = {
      redirect: `redirects${finalUrl && finalUrl !== ctx.url ? ` to ${shorten(finalUrl, 120)}` : ''}`,
      noindex: 'is noindex',
      canonicalized: `names another URL as canonical${canonical ? ` (${shorten(canonical, 120)})` : ''}`,
      'error-status': `answers ${status ?? 'an error status'}`,
      'no-response': 'did not answer',
    };
    return {
      summary: replacement
        ? `List ${shorten(replacement, 100)} in the sitemap instead of ${shorten(ctx.url, 80)}`
        : `Remove ${shorten(ctx.url, 100)} from the sitemap`,
      steps: [
        `The sitemap lists ${shorten(ctx.url, 140)}, which ${explanation[reason] ?? 'is not indexable'}; ` +
          `sitemaps should hold only canonical, indexable URLs answering 200.`,
        replacement
          ? `Replace the entry with ${shorten(replacement, 140)}.`
          : reason === 'noindex'
            ? 'Remove the entry, or remove the noindex if the page should rank.'
            : 'Remove the entry (or fix the page so it answers 200).',
        'If a plugin generates the sitemap, fix the page settings there (canonical, noindex, redirect) so ' +
          'the sitemap follows automatically.',
      ],
      code: replacement ? `<url>\n  <loc>${escapeHtml(replacement)}</loc>\n</url>` : undefined,
    };
  },
  TECH_CANONICAL_MULTIPLE: (ctx) => {
    const canonicals = ctx.evidence.strings('canonicals', 3);
    const count = ctx.evidence.number('count') ?? canonicals.length;
    const keep = (canonicals.length > 0 ? absoluteUrl(canonicals[0], ctx.url) : null) ?? ctx.page?.canonical ?? ctx.url;
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
  TECH_CANONICAL_RELATIVE: (ctx) => {
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
  TECH_CANONICAL_MISMATCH: (ctx) => {
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
  TECH_CANONICAL_MISSING: (ctx) => {
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
  TECH_CANONICAL_TO_BROKEN: (ctx) => {
    const canonical = ctx.evidence.string('canonical') ?? ctx.page?.canonical ?? '';
    const reason = ctx.evidence.string('reason') ?? 'is not indexable';
    const self = canonical === ctx.url || pathOnly(canonical) === pathOnly(ctx.url);
    if (self && reason === 'noindex') {
      return {
        summary: 'Resolve the conflict between noindex and the self-canonical',
        steps: [
          'The page is noindex but names itself as canonical: "index this URL" and "do not index" at once.',
          'If the page should rank, remove the noindex. If it should not, keep noindex and remove the canonical link.',
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
  TECH_CANONICAL_INVALID: (ctx) => {
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
  TECH_CANONICAL_OTHER_HOST: (ctx) => {
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
  TECH_URL_UPPERCASE: (ctx) => {
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
  TECH_URL_UNDERSCORE: (ctx) => {
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
  TECH_URL_TOO_LONG: (ctx) => {
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
  TECH_HTTP_PAGE: (ctx) => {
    const host = ctx.host || 'your-site';
    return {
      summary: `Redirect http://${host} to https:// for every URL`,
      steps: [
        `${shorten(ctx.url, 140)} is served over plain http without redirecting to https: browsers mark ` +
          `it "Not secure" and Google prefers https pages.`,
        "Install a TLS certificate (Let's Encrypt is free) and redirect every http URL permanently to its " +
          'https version with the rules below.',
        'Then update internal links, canonicals and the sitemap to https, and add HSTS once https works everywhere.',
      ],
      code:
        `# nginx\nserver {\n    listen 80;\n    server_name ${host};\n    return 301 ` +
        `https://$host$request_uri;\n}\n\n# Apache (.htaccess)\nRewriteEngine On\nRewriteCond %{HTTPS} ` +
        `off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]`,
    };
  },
  TECH_MIXED_CONTENT: (ctx) => {
    const resources = ctx.evidence
      .records('resources', 5)
      .map((entry) => ({ tag: fieldOf(entry, 'tag') ?? 'resource', url: fieldOf(entry, 'url') ?? '' }))
      .filter((r) => r.url);
    const count = ctx.evidence.number('count') ?? resources.length;
    return {
      summary: `Load ${plural(count || resources.length, 'http:// resource')} over https`,
      steps: [
        ...resources.map(
          (resource) =>
            `<${resource.tag}> loads ${shorten(resource.url, 120)}: change it ` +
            `to ${shorten(resource.url.replace(/^http:/, 'https:'), 120)} (check it works over https).`,
        ),
        'Browsers block or warn about http resources on https pages. Fix the URLs at their source ' +
          '(templates, CMS content, theme settings).',
        'As a safety net, send the Content-Security-Policy below, which makes browsers upgrade remaining ' +
          'http requests.',
      ],
      code:
        `# nginx\nadd_header Content-Security-Policy "upgrade-insecure-requests" always;\n\n# ` +
        `Apache\nHeader always set Content-Security-Policy "upgrade-insecure-requests"`,
    };
  },
  TECH_RESOURCE_BROKEN: (ctx) => {
    const resources = ctx.evidence
      .records('resources', 5)
      .map((entry) => ({
        url: fieldOf(entry, 'url') ?? '',
        kind: fieldOf(entry, 'kind') ?? 'resource',
        status: numberOf(entry, 'status'),
        error: fieldOf(entry, 'error'),
      }))
      .filter((r) => r.url);
    const count = ctx.evidence.number('count') ?? resources.length;
    return {
      summary:
        `Repair ${plural(count || resources.length, 'broken script, stylesheet or other resource')} ` +
        `on ${pageName(ctx)}`,
      steps: [
        ...resources.map(
          (r) =>
            `The ${r.kind} ${shorten(r.url, 120)} ${
              r.status !== null ? `answers ${r.status}` : `cannot be fetched (${r.error ?? 'no response'})`
            }: restore the file, or point the tag at its current address.`,
        ),
        'A missing stylesheet or script changes how the page looks and works for visitors and for search ' +
          'engines that render it.',
        'Fix the reference where it comes from (the theme, template or build manifest) so every page is ' +
          'corrected, then re-run the audit.',
      ],
      code:
        resources.length > 0 ? resources.map((r) => `curl -sI ${shellQuote(r.url)} | head -n 1`).join('\n') : undefined,
    };
  },
  TECH_RESOURCE_PRIVATE_ADDRESS: (ctx) => {
    const urls = ctx.evidence.urls('resources', 'url', 5);
    const count = ctx.evidence.number('count') ?? urls.length;
    return {
      summary: `Serve ${plural(count || urls.length, 'resource')} from a public address instead of a private one`,
      steps: [
        `The page loads ${inlineList(urls, count)} from a loopback, private or link-local address: ` +
          `visitors' browsers cannot reach it, so it is broken for them (the audit does not fetch such ` +
          `addresses).`,
        'This usually comes from a development or staging URL left in a template or CMS field: replace it ' +
          'with the public URL of the file (or a relative path).',
      ],
    };
  },
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: (ctx) => {
    const path = pathOnly(ctx.url);
    return {
      summary: `Resolve the conflict: the sitemap lists ${shorten(ctx.url, 100)} but robots.txt disallows it`,
      steps: [
        `${shorten(ctx.url, 140)} is submitted in the sitemap, yet robots.txt forbids crawlers to fetch ` +
          `it, so search engines can neither read nor properly index it.`,
        'If the page should appear in search, allow it in robots.txt (rule below).',
        'If it is private on purpose, remove it from the sitemap instead.',
      ],
      code: ['User-agent: *', `Allow: ${path}`].join('\n'),
    };
  },
  TECH_HSTS_MISSING: (ctx) => {
    const header = ctx.evidence.string('header');
    const reason = ctx.evidence.string('reason') ?? 'max-age missing or 0';
    return {
      summary: 'Send a Strict-Transport-Security header',
      steps: [
        header
          ? `The site sends "Strict-Transport-Security: ${shorten(header, 80)}", which does not enable HSTS ` +
            `(${reason}).`
          : 'The https site sends no Strict-Transport-Security header, so a first visit over http can be ' +
            'intercepted before the redirect.',
        'Add the header below on https responses. Start with a short max-age (e.g. 300) to test, then raise ' +
          'it to one year.',
        'Add includeSubDomains only when every subdomain serves https; add preload only when you intend to ' +
          'submit the domain to hstspreload.org.',
      ],
      code:
        `# nginx (https server block)\nadd_header Strict-Transport-Security "max-age=31536000; ` +
        `includeSubDomains" always;\n\n# Apache (https vhost)\nHeader always set Strict-Transport-Security ` +
        `"max-age=31536000; includeSubDomains"`,
    };
  },
  TECH_HTML_TOO_LARGE: (ctx) => {
    const bytes = ctx.evidence.number('bytes');
    return {
      summary: `Reduce the HTML of ${pageName(ctx)}${
        bytes !== null ? ` from ${formatBytes(bytes)}` : ''
      } to under 1 MiB`,
      steps: [
        `The HTML document is ${bytes !== null ? formatBytes(bytes) : 'over 1 MiB'}; crawlers may stop ` +
          `reading (Googlebot indexes only the first 2 MB) and it slows the first render.`,
        'Look for the bulk: inlined images (data: URIs), inline SVG sprites, big inline <script> state ' +
          '(serialized JSON), repeated markup such as hidden mega-menus or every product variant.',
        'Move scripts, styles and images to cached external files, paginate long lists, and load secondary ' +
          'content on demand.',
      ],
    };
  },
  TECH_CLIENT_RENDERED_SUSPECTED: (ctx) => {
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
  TECH_AI_SEARCH_BLOCKED: (ctx) => {
    const agents = ctx.evidence.strings('agents', 4);
    const list = agents.length > 0 ? agents : AI_SEARCH_AGENTS;
    return {
      summary: `Allow ${inlineList(list, list.length, 4)} in robots.txt`,
      steps: [
        `robots.txt blocks ${inlineList(list, list.length, 4)}, the crawlers that fetch pages for answers ` +
          `and citations in ChatGPT, Perplexity and Claude; your pages cannot be cited there.`,
        'If you want to appear in AI search answers, add the groups below to robots.txt (they apply to those ' +
          'agents only). Training crawlers such as GPTBot and ClaudeBot are separate and can stay blocked.',
      ],
      code: list.map((agent) => `User-agent: ${agent}\nAllow: /`).join('\n\n'),
    };
  },
  TECH_LLMS_TXT_MISSING: (ctx) => {
    const page = ctx.page;
    const name = brandOf(page, ctx.url) || brandFromHost(ctx.host);
    const summary = page?.description
      ? collapseWhitespace(page.description)
      : page
        ? proposeDescription(page, ctx.url).text
        : `${name} website`;
    const links = (page?.links ?? [])
      .filter((link) => link.url && link.text && link.url.startsWith(site(ctx)) && link.url !== `${site(ctx)}/`)
      .filter((link, index, all) => all.findIndex((other) => other.url === link.url) === index)
      .slice(0, 6);
    const lines =
      links.length > 0
        ? links.map((link) => `- [${shorten(link.text, 60)}](${link.url})`)
        : [`- [Home](${site(ctx)}/)`];
    return {
      summary: `Publish an llms.txt at ${site(ctx)}/llms.txt`,
      steps: [
        '/llms.txt does not answer 200. The (still informal) llms.txt convention gives AI assistants a short ' +
          'Markdown map of the site.',
        'Create it at the site root with the site name, a one-paragraph summary and links to the key pages ' +
          '(a starting point from the home page is below).',
        'Keep it short and update it when the main sections change.',
      ],
      code: `# ${name}\n\n> ${summary}\n\n## Main pages\n\n${lines.join('\n')}`,
    };
  },
  // Images, security headers, redirects, soft 404s, URLs and link texts (hygiene-fix-rules.ts)
  ...HYGIENE_TECHNICAL_FIX_RULES,
};
