import { CHECK_THRESHOLDS as T, type CheckCode } from '../checks/index.js';
import { fieldOf, numberOf } from './fix-evidence.js';
import { HYGIENE_LINK_FIX_RULES } from './hygiene-fix-rules.js';
import { pageName, plural, type FixRule, type FixRuleContext } from './fix-rule-context.js';
import { escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import type { StructuredFixCode } from './structured-international-fix-rules.js';
import { parentPath, pathOnly, redirectRules, shellQuote } from './server-config-snippets.js';

type LinkCode = Exclude<Extract<CheckCode, `LINKS_${string}`>, StructuredFixCode>;

/** The anchor text the page uses for a target URL, for telling the user which link to edit. */
function anchorOf(ctx: FixRuleContext, url: string): string | null {
  const link = ctx.page?.links?.find((entry) => entry.url === url || entry.href === url);
  return link && link.text !== '' ? link.text : null;
}

function linkLabel(ctx: FixRuleContext, url: string): string {
  const anchor = anchorOf(ctx, url);
  return anchor ? `the link "${shorten(anchor, 50)}" (${shorten(url, 120)})` : shorten(url, 140);
}

function sameSite(ctx: FixRuleContext, url: string): boolean {
  try {
    return new URL(url).hostname.replace(/^www\./, '') === ctx.host.replace(/^www\./, '');
  } catch {
    return false;
  }
}

/** "301 https://a" -> { status: 301, url }, a bare URL (the final one) -> { status: null, url }. */
function parseChain(chain: string[]): { status: number | null; url: string }[] {
  return chain.map((entry) => {
    const match = /^(\d{3})\s+(\S.*)$/.exec(entry);
    return match ? { status: Number(match[1]), url: match[2] } : { status: null, url: entry };
  });
}

/** Breadcrumb navigation for the page from its URL path. */
function breadcrumbNav(ctx: FixRuleContext): string {
  const segments = pathOnly(ctx.url).split('/').filter(Boolean).slice(0, 5);
  const items = [`  <li><a href="/">Home</a></li>`];
  let path = '';
  segments.forEach((segment, index) => {
    path += `/${segment}`;
    const last = index === segments.length - 1;
    const name = last && ctx.page?.h1[0] ? ctx.page.h1[0] : phraseFromPath(segment) || segment;
    items.push(
      last
        ? `  <li aria-current="page">${escapeHtml(name)}</li>`
        : `  <li><a href="${escapeHtml(`${path}/`)}">${escapeHtml(name)}</a></li>`,
    );
  });
  return `<nav aria-label="Breadcrumb">\n<ol>\n${items.join('\n')}\n</ol>\n</nav>`;
}

function linkToThisPage(ctx: FixRuleContext): string {
  const text = ctx.page?.h1[0] ?? ctx.page?.title ?? (phraseFromPath(pathOnly(ctx.url)) || ctx.url);
  return `<a href="${escapeHtml(ctx.url)}">${escapeHtml(shorten(text, 80))}</a>`;
}

export const LINK_FIX_RULES: Record<LinkCode, FixRule> = {
  LINKS_INTERNAL_BROKEN: (ctx) => {
    const links = ctx.evidence
      .records('links', 5)
      .map((entry) => ({ url: fieldOf(entry, 'url') ?? '', status: numberOf(entry, 'status') }))
      .filter((l) => l.url);
    const count = ctx.evidence.number('count') ?? links.length;
    return {
      summary: `Fix ${plural(count || links.length, 'broken internal link')} on ${pageName(ctx)}`,
      steps: [
        ...links.map(
          (link) =>
            `${linkLabel(ctx, link.url)} answers ${link.status ?? 'no response (unreachable)'}: point it ` +
            `to the page that replaced it, or remove the link.`,
        ),
        'If the target moved or was removed and has backlinks, add a 301 redirect from the dead path to the ' +
          'closest live page (the parent section is proposed below; pick a better match if one exists).',
        'Re-run the audit to confirm no page links to the dead URLs any more; update menus and templates, ' +
          'not just this page.',
      ],
      code:
        links.length > 0
          ? redirectRules(links.map((link) => ({ from: pathOnly(link.url), to: parentPath(link.url) })))
          : undefined,
    };
  },
  LINKS_EXTERNAL_BROKEN: (ctx) => {
    const links = ctx.evidence
      .records('links', 5)
      .map((entry) => ({
        url: fieldOf(entry, 'url') ?? '',
        status: numberOf(entry, 'status'),
        error: fieldOf(entry, 'error'),
      }))
      .filter((l) => l.url);
    const count = ctx.evidence.number('count') ?? links.length;
    return {
      summary: `Update or remove ${plural(count || links.length, 'broken external link')}`,
      steps: [
        ...links.map(
          (link) =>
            `${linkLabel(ctx, link.url)} ${
              link.status !== null ? `answers ${link.status}` : `cannot be reached (${link.error ?? 'no response'})`
            }: find its new address on that site, or check an archived copy at ` +
            `https://web.archive.org/web/*/${link.url}.`,
        ),
        'Replace each link with the working address, link to an equivalent source, or remove the link (and ' +
          'any claim relying on it).',
      ],
    };
  },
  LINKS_TO_REDIRECT: (ctx) => {
    const links = ctx.evidence.urls('links', 'url', 5);
    const count = ctx.evidence.number('count') ?? links.length;
    return {
      summary: `Point ${plural(count || links.length, 'internal link')} at the final URL instead of a redirect`,
      steps: [
        `These links redirect before reaching their ` +
          `page: ${links.map((url) => linkLabel(ctx, url)).join('; ') || 'see the audit evidence'}.`,
        'Look up where each one ends (the command below prints the final URL) and replace the href with it; ' +
          'redirects cost crawl budget and a round trip for every visitor.',
        'If the links come from a menu or template, fix them there so every page is corrected.',
      ],
      code:
        links.map((url) => `curl -sIL -o /dev/null -w '%{url_effective}\\n' ${shellQuote(url)}`).join('\n') ||
        undefined,
    };
  },
  LINKS_REDIRECT_CHAIN: (ctx) => {
    const chain = parseChain(ctx.evidence.strings('chain', 12));
    const hops = ctx.evidence.number('hops') ?? chain.filter((hop) => hop.status !== null).length;
    const final = chain.at(-1)?.url ?? ctx.url;
    const seen = new Set<string>();
    // http://a/x and https://a/x share one path rule: the server block decides per host and scheme.
    const sources = chain.filter((hop) => {
      const path = pathOnly(hop.url);
      if (hop.status === null || hop.url === final || !sameSite(ctx, hop.url) || seen.has(path)) return false;
      seen.add(path);
      return true;
    });
    return {
      summary: `Collapse the ${hops}-hop redirect chain into one redirect to ${shorten(final, 100)}`,
      steps: [
        `Reaching the page takes ${hops} redirects: ${chain
          .map((hop) => `${shorten(hop.url, 80)}${hop.status ? ` (${hop.status})` : ''}`)
          .join(' → ')}.`,
        `Make every old URL redirect straight to ${shorten(final, 140)} with a single 301, as in the ` +
          `rules below (they replace the step-by-step rules).`,
        'Update internal links, canonicals and the sitemap to use the final URL so visitors and crawlers ' +
          'skip the redirects entirely.',
      ],
      code:
        sources.length > 0 ? redirectRules(sources.map((hop) => ({ from: pathOnly(hop.url), to: final }))) : undefined,
    };
  },
  LINKS_REDIRECT_LOOP: (ctx) => {
    const chain = parseChain(ctx.evidence.strings('chain', 12));
    return {
      summary: `Break the redirect loop at ${shorten(ctx.url, 100)}`,
      steps: [
        chain.length > 0
          ? `The redirects go round in a circle: ${chain.map((hop) => shorten(hop.url, 80)).join(' → ')}; ` +
            `browsers give up with "too many redirects".`
          : 'The URL redirects back to a URL already visited, so browsers give up with "too many redirects".',
        'Find the two rules that send the URLs to each other: typical causes are http↔https or www↔non-www ' +
          'rules that disagree, a trailing-slash rule fighting the CMS, or a CDN forcing https while the ' +
          'origin redirects to http.',
        'Decide the one final URL (https, one host, one slash style) and make every rule point to it; then ' +
          'trace again with the command below.',
      ],
      code: `curl -sIL --max-redirs 10 ${shellQuote(ctx.url)} | grep -iE '^(HTTP|location)'`,
    };
  },
  LINKS_ORPHAN: (ctx) => ({
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
  LINKS_DEAD_END: (ctx) => ({
    summary: `Add onward links to ${pageName(ctx)}`,
    steps: [
      'The page links to no other page: visitors hit a dead end and crawlers find nothing to follow from it.',
      'Add a breadcrumb back to its section (proposed below from the URL path) and links to related pages.',
      'If the page is rendered by JavaScript, make sure its links are real <a href> elements in the HTML, ' +
        'not click handlers.',
    ],
    code: breadcrumbNav(ctx),
  }),
  LINKS_TOO_MANY: (ctx) => {
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
  LINKS_INTERNAL_NOFOLLOW: (ctx) => {
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
  LINKS_HTTPS_TO_HTTP: (ctx) => {
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
  LINKS_UNCRAWLABLE: (ctx) => {
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
  LINKS_DEPTH_HIGH: (ctx) => {
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
  LINKS_LOCALHOST: (ctx) => {
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
  // Images, security headers, redirects, soft 404s, URLs and link texts (hygiene-fix-rules.ts)
  ...HYGIENE_LINK_FIX_RULES,
};
